// The transposes of warp_transpose.hpp: scalar, SSE2 and AVX2 (a function compiled for AVX2
// by its target attribute and called only when the CPU reports AVX2), all filling the same
// rows and spreads.
#include "warp_transpose.hpp"

#include "cpu.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include <tgsim/record.hpp>

namespace tgsim::detail {

namespace {

// The transposes below gather rows k.. of `data` (record k of lanes 0..31) into rows[k * 32 + l]
// as addresses, and spread[k] = OR over the lanes of record ^ lane 0's record (tags included),
// each from row `k` to the returned row (a multiple of its step); the scalar one finishes.
std::size_t transpose_rows(const std::uint64_t* const* data, std::size_t k, std::size_t len,
                           std::uint64_t* rows, std::uint64_t* spread) {
  for (; k < len; ++k) {
    const std::uint64_t r = data[0][k];
    std::uint64_t d = 0;
    for (std::uint32_t l = 0; l < 32; ++l) {
      const std::uint64_t x = data[l][k];
      d |= x ^ r;
      rows[k * 32 + l] = x & kAddrMask;
    }
    spread[k] = d;
  }
  return k;
}

#if defined(__SSE2__)
// Two lanes x two records per step.
std::size_t transpose_rows_sse2(const std::uint64_t* const* data, std::size_t k, std::size_t len,
                                std::uint64_t* rows, std::uint64_t* spread) {
  const __m128i amask = _mm_set1_epi64x(static_cast<long long>(kAddrMask));
  for (; k + 2 <= len; k += 2) {
    const __m128i r = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data[0] + k));
    __m128i d = _mm_setzero_si128();
    std::uint64_t* row0 = rows + k * 32;
    std::uint64_t* row1 = row0 + 32;
    for (std::uint32_t l = 0; l < 32; l += 2) {
      __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data[l] + k));  // lane l: k, k+1
      __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data[l + 1] + k));
      d = _mm_or_si128(d, _mm_or_si128(_mm_xor_si128(a, r), _mm_xor_si128(b, r)));
      a = _mm_and_si128(a, amask);
      b = _mm_and_si128(b, amask);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(row0 + l), _mm_unpacklo_epi64(a, b));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(row1 + l), _mm_unpackhi_epi64(a, b));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(spread + k), d);
  }
  return k;
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#define TGSIM_TRANSPOSE_AVX2 1
// Four lanes x four records per step: a 4x4 transpose in two rounds of shuffles.
[[gnu::target("avx2")]] std::size_t transpose_rows_avx2(const std::uint64_t* const* data, std::size_t k,
                                                      std::size_t len, std::uint64_t* rows,
                                                      std::uint64_t* spread) {
  const __m256i amask = _mm256_set1_epi64x(static_cast<long long>(kAddrMask));
  for (; k + 4 <= len; k += 4) {
    const __m256i r = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[0] + k));
    __m256i d = _mm256_setzero_si256();
    std::uint64_t* row = rows + k * 32;
    for (std::uint32_t l = 0; l < 32; l += 4) {
      __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[l] + k));  // lane l: k..k+3
      __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[l + 1] + k));
      __m256i a2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[l + 2] + k));
      __m256i a3 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data[l + 3] + k));
      d = _mm256_or_si256(d, _mm256_or_si256(_mm256_or_si256(_mm256_xor_si256(a0, r), _mm256_xor_si256(a1, r)),
                                             _mm256_or_si256(_mm256_xor_si256(a2, r), _mm256_xor_si256(a3, r))));
      a0 = _mm256_and_si256(a0, amask);
      a1 = _mm256_and_si256(a1, amask);
      a2 = _mm256_and_si256(a2, amask);
      a3 = _mm256_and_si256(a3, amask);
      const __m256i t0 = _mm256_unpacklo_epi64(a0, a1);  // a0[0] a1[0] a0[2] a1[2]
      const __m256i t1 = _mm256_unpackhi_epi64(a0, a1);  // a0[1] a1[1] a0[3] a1[3]
      const __m256i t2 = _mm256_unpacklo_epi64(a2, a3);
      const __m256i t3 = _mm256_unpackhi_epi64(a2, a3);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + l), _mm256_permute2x128_si256(t0, t2, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + 32 + l), _mm256_permute2x128_si256(t1, t3, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + 64 + l), _mm256_permute2x128_si256(t0, t2, 0x31));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + 96 + l), _mm256_permute2x128_si256(t1, t3, 0x31));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(spread + k), d);
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

bool transpose_lanes(const std::uint64_t* const* data, std::size_t len, std::uint64_t* rows,
                     std::uint64_t* spread, TransposeLevel level) {
  std::size_t k = 0;
#if defined(TGSIM_TRANSPOSE_AVX2)
  if (level >= TransposeLevel::kAvx2 && detail::cpu_has_avx2()) k = transpose_rows_avx2(data, k, len, rows, spread);
#endif
#if defined(__SSE2__)
  if (level >= TransposeLevel::kSse2) k = transpose_rows_sse2(data, k, len, rows, spread);
#endif
  transpose_rows(data, k, len, rows, spread);
  std::uint64_t diff = 0;
  for (k = 0; k < len; ++k) diff |= spread[k];
  return (diff >> kTagShift) == 0;
}

}  // namespace tgsim::detail
