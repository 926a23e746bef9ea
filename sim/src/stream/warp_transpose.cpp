// The spreads and transposes of warp_transpose.hpp: scalar, SSE2 and AVX2 (functions compiled
// for AVX2 by their target attribute and called only when the CPU reports AVX2), all filling
// the same spreads and rows.
#include "stream/warp_transpose.hpp"

#include "stream/cpu.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include <tgsim/record.hpp>

namespace tgsim::detail {

namespace {

// Each function below fills rows (or spreads) from `k` to the row it returns (a multiple of
// its step past k); the scalar ones finish.
std::size_t spreads_scalar(const std::uint64_t* const* data, std::size_t k, std::size_t len,
                           std::uint64_t* spread) {
  for (; k < len; ++k) {
    const std::uint64_t r = data[0][k];
    std::uint64_t d = 0;
    for (std::uint32_t l = 1; l < 32; ++l) d |= data[l][k] ^ r;
    spread[k] = d;
  }
  return k;
}

std::size_t rows_scalar(const std::uint64_t* const* data, std::size_t k, std::size_t to, std::uint64_t* rows) {
  for (; k < to; ++k)
    for (std::uint32_t l = 0; l < 32; ++l) rows[k * 32 + l] = data[l][k] & kAddrMask;
  return k;
}

#if defined(__SSE2__)
// Two records per step.
std::size_t spreads_sse2(const std::uint64_t* const* data, std::size_t k, std::size_t len,
                         std::uint64_t* spread) {
  for (; k + 2 <= len; k += 2) {
    const __m128i r = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data[0] + k));
    __m128i d = _mm_setzero_si128();
    for (std::uint32_t l = 1; l < 32; ++l)
      d = _mm_or_si128(d, _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data[l] + k)), r));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(spread + k), d);
  }
  return k;
}

// Two lanes x two records per step.
std::size_t rows_sse2(const std::uint64_t* const* data, std::size_t k, std::size_t to, std::uint64_t* rows) {
  const __m128i amask = _mm_set1_epi64x(static_cast<long long>(kAddrMask));
  for (; k + 2 <= to; k += 2) {
    std::uint64_t* row0 = rows + k * 32;
    std::uint64_t* row1 = row0 + 32;
    for (std::uint32_t l = 0; l < 32; l += 2) {
      const __m128i a = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data[l] + k)), amask);
      const __m128i b = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data[l + 1] + k)), amask);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(row0 + l), _mm_unpacklo_epi64(a, b));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(row1 + l), _mm_unpackhi_epi64(a, b));
    }
  }
  return k;
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#define TGSIM_TRANSPOSE_AVX2 1
// Four records per step, two accumulators.
[[gnu::target("avx2")]] std::size_t spreads_avx2(const std::uint64_t* const* data, std::size_t k,
                                                 std::size_t len, std::uint64_t* spread) {
  for (; k + 4 <= len; k += 4) {
    const __m256i r = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[0] + k));
    __m256i d0 = _mm256_setzero_si256(), d1 = _mm256_setzero_si256();
    for (std::uint32_t l = 0; l < 32; l += 2) {
      d0 = _mm256_or_si256(d0, _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[l] + k)), r));
      d1 = _mm256_or_si256(d1, _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[l + 1] + k)), r));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(spread + k), _mm256_or_si256(d0, d1));
  }
  return k;
}

// Four lanes x four records per step: a 4x4 transpose in two rounds of shuffles.
[[gnu::target("avx2")]] std::size_t rows_avx2(const std::uint64_t* const* data, std::size_t k, std::size_t to,
                                              std::uint64_t* rows) {
  const __m256i amask = _mm256_set1_epi64x(static_cast<long long>(kAddrMask));
  for (; k + 4 <= to; k += 4) {
    std::uint64_t* row = rows + k * 32;
    for (std::uint32_t l = 0; l < 32; l += 4) {
      // lane l + i: records k..k+3 (no lambda: it would not inherit the target)
      const __m256i a0 = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[l] + k)), amask);
      const __m256i a1 = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[l + 1] + k)), amask);
      const __m256i a2 = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[l + 2] + k)), amask);
      const __m256i a3 = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[l + 3] + k)), amask);
      const __m256i t0 = _mm256_unpacklo_epi64(a0, a1);  // a0[0] a1[0] a0[2] a1[2]
      const __m256i t1 = _mm256_unpackhi_epi64(a0, a1);  // a0[1] a1[1] a0[3] a1[3]
      const __m256i t2 = _mm256_unpacklo_epi64(a2, a3);
      const __m256i t3 = _mm256_unpackhi_epi64(a2, a3);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + l), _mm256_permute2x128_si256(t0, t2, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + 32 + l), _mm256_permute2x128_si256(t1, t3, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + 64 + l), _mm256_permute2x128_si256(t0, t2, 0x31));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + 96 + l), _mm256_permute2x128_si256(t1, t3, 0x31));
    }
  }
  return k;
}
#endif

}  // namespace

TransposeLevel best_transpose_level() {
#if defined(TGSIM_TRANSPOSE_AVX2)
  if (detail::cpu_has_avx2()) return TransposeLevel::kAvx2;
#endif
#if defined(__SSE2__)
  return TransposeLevel::kSse2;
#else
  return TransposeLevel::kScalar;
#endif
}

namespace {

// One kind of step (spreads or rows) at its three widths; each width fills rows from k to the
// row it returns, the narrower ones finish. Null where this build has no such width.
using Step = std::size_t (*)(const std::uint64_t* const*, std::size_t, std::size_t, std::uint64_t*);
#if !defined(TGSIM_TRANSPOSE_AVX2)
constexpr Step spreads_avx2 = nullptr, rows_avx2 = nullptr;
#endif
#if !defined(__SSE2__)
constexpr Step spreads_sse2 = nullptr, rows_sse2 = nullptr;
#endif

void by_level(TransposeLevel level, Step avx2, Step sse2, Step scalar, const std::uint64_t* const* data,
              std::size_t k, std::size_t end, std::uint64_t* out) {
  if (avx2 && level >= TransposeLevel::kAvx2 && detail::cpu_has_avx2()) k = avx2(data, k, end, out);
  if (sse2 && level >= TransposeLevel::kSse2) k = sse2(data, k, end, out);
  scalar(data, k, end, out);
}

}  // namespace

bool lane_spreads(const std::uint64_t* const* data, std::size_t len, std::uint64_t* spread,
                  TransposeLevel level) {
  by_level(level, spreads_avx2, spreads_sse2, spreads_scalar, data, 0, len, spread);
  std::uint64_t diff = 0;
  for (std::size_t k = 0; k < len; ++k) diff |= spread[k];
  return (diff >> kTagShift) == 0;
}

void transpose_rows(const std::uint64_t* const* data, std::size_t from, std::size_t to, std::uint64_t* rows,
                    TransposeLevel level) {
  by_level(level, rows_avx2, rows_sse2, rows_scalar, data, from, to, rows);
}

}  // namespace tgsim::detail
