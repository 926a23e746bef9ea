// Sector and bank models, written to follow docs/hardware-model.md's formulas (1.2, 2.1-2.4)
// line by line. Small fixed arrays, no allocation: these run once per warp instruction.
// With the lanes' spread known (WarpAccess::spread) the common shapes take a short cut: one
// wavefront line for shared memory, a bitmap of one window of sectors for global memory.
// Each model is a template over its geometry: Fixed is the default (32 banks of 4 bytes,
// 32-byte sectors: shifts and masks are constants), Dynamic any other profile's.
#include <tgsim/models.hpp>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TGSIM_WINDOW_AVX2 1
#endif

#include <algorithm>
#include <bit>

#include "stream/cpu.hpp"

namespace tgsim::model {

namespace {

struct Fixed {
  static constexpr int kMaxBanks = 32;
  static constexpr int sector_shift = 5;
  static constexpr int word_shift = 2;
  static constexpr std::uint64_t bank_mask = 31;
  static constexpr int line_shift = 7;  // one wavefront: banks x bank_bytes
};
struct Dynamic {
  static constexpr int kMaxBanks = 64;
  int sector_shift, word_shift;
  std::uint64_t bank_mask;
  int line_shift;
  explicit Dynamic(const Geometry& g)
      : sector_shift(std::countr_zero(g.sector_bytes)), word_shift(std::countr_zero(g.bank_bytes)),
        bank_mask(g.banks - 1), line_shift(std::countr_zero(g.banks * g.bank_bytes)) {}
};

// Distinct values among up to `cap` inserts, with a fast check against the last one
// (neighbouring lanes usually touch the same sector or word).
template <int Cap>
struct DistinctSet {
  std::uint64_t v[Cap];
  int n = 0;
  bool insert(std::uint64_t x) {
    if (n > 0 && v[n - 1] == x) return false;
    for (int i = 0; i < n; ++i)
      if (v[i] == x) return false;
    v[n++] = x;
    return true;
  }
};

// Max over banks of the distinct bank words of `lanes` (one phase). Each bank remembers its
// first word inline; only a bank that gets a second word (a conflict) searches a list.
template <class G>
std::uint32_t phase_wavefronts(std::uint32_t lanes, std::uint32_t width, const std::uint64_t* addr,
                               const G& g) {
  const std::uint32_t bank_bytes = 1u << g.word_shift;
  const std::uint32_t words_per_lane = width >= bank_bytes ? width / bank_bytes : 1;
  // Fast path, the common case: every bank sees at most one distinct word (conflict-free,
  // broadcasts included) -> one wavefront. A bitmask of used banks decides it in one pass.
  if (words_per_lane == 1) {
    std::uint64_t used = 0;
    std::uint64_t word_of[G::kMaxBanks];
    bool one_each = true;
    for (std::uint32_t m = lanes; m && one_each; m &= m - 1) {
      std::uint64_t w = addr[std::countr_zero(m)] >> g.word_shift;
      std::uint32_t b = static_cast<std::uint32_t>(w & g.bank_mask);
      std::uint64_t bit = std::uint64_t(1) << b;
      if (!(used & bit)) {
        used |= bit;
        word_of[b] = w;
      } else {
        one_each = word_of[b] == w;
      }
    }
    if (one_each) return 1;
  }
  std::uint64_t first[G::kMaxBanks];
  std::uint32_t per_bank[G::kMaxBanks] = {};
  std::uint64_t extra[128];  // words beyond the first of their bank (at most 128 words a phase)
  int nextra = 0;
  std::uint32_t worst = 0;
  while (lanes) {
    int lane = std::countr_zero(lanes);
    lanes &= lanes - 1;
    std::uint64_t w0 = addr[lane] >> g.word_shift;
    for (std::uint32_t k = 0; k < words_per_lane; ++k) {
      std::uint64_t w = w0 + k;
      std::uint32_t b = static_cast<std::uint32_t>(w & g.bank_mask);
      if (per_bank[b] == 0) {
        first[b] = w;
      } else {
        if (first[b] == w) continue;
        bool seen = false;
        for (int i = 0; i < nextra && !seen; ++i) seen = extra[i] == w;
        if (seen) continue;
        extra[nextra++] = w;
      }
      if (++per_bank[b] > worst) worst = per_bank[b];
    }
  }
  return worst;
}

// True when every active lane's address lies in one aligned wavefront span (128 bytes on the
// default: 32 consecutive words, one per bank), so an access no wider than a bank takes one
// wavefront (the common case). The caller's spread decides it at once; else one pass.
bool one_line(const WarpAccess& a, int line_shift) {
  const std::uint64_t spread = a.spread != kUnknownSpread ? a.spread : lane_spread(a.active, a.addr);
  return (spread >> line_shift) == 0;
}

// Pair condition (section 1.2): every active lane i has lane i^d inactive or at the same
// address, for d = 1 or for d = 2.
bool pairs_agree(std::uint32_t active, const std::uint64_t* addr, int d) {
  for (std::uint32_t m = active; m; m &= m - 1) {
    int i = std::countr_zero(m);
    int j = i ^ d;
    if ((active >> j & 1u) && addr[j] != addr[i]) return false;
  }
  return true;
}

// The lane-by-lane count: a set of the distinct sectors.
template <class G>
std::uint32_t sectors_by_set(const WarpAccess& a, const G& g) {
  DistinctSet<64> sectors;
  for (std::uint32_t m = a.active; m; m &= m - 1) {
    int lane = std::countr_zero(m);
    std::uint64_t first = a.addr[lane] >> g.sector_shift;
    std::uint64_t last = (a.addr[lane] + (a.width ? a.width : 1) - 1) >> g.sector_shift;
    for (std::uint64_t s = first; s <= last; ++s) sectors.insert(s);
  }
  return static_cast<std::uint32_t>(sectors.n);
}

#if defined(TGSIM_WINDOW_AVX2)
// window_bits' first pass for a full warp, four lanes per step (AVX2): the OR of each
// lane's bit 1 << (its first sector's low 5 bits), and the OR of its misaligned low bits.
// About 60 instructions for what the scalar loop does in 12 per lane.
[[gnu::target("avx2")]] std::uint64_t window_bits_avx2(const std::uint64_t* addr, int sector_shift,
                                                      std::uint64_t last, std::uint64_t* misaligned) {
  const __m256i one = _mm256_set1_epi64x(1), low5 = _mm256_set1_epi64x(31), lastv = _mm256_set1_epi64x(
                                                                                 static_cast<long long>(last));
  const __m128i shift = _mm_cvtsi32_si128(sector_shift);
  __m256i bits = _mm256_setzero_si256(), mis = _mm256_setzero_si256();
  for (int l = 0; l < 32; l += 4) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + l));
    bits = _mm256_or_si256(bits, _mm256_sllv_epi64(one, _mm256_and_si256(_mm256_srl_epi64(x, shift), low5)));
    mis = _mm256_or_si256(mis, _mm256_and_si256(x, lastv));
  }
  alignas(32) std::uint64_t b[4], m[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(b), bits);
  _mm256_store_si256(reinterpret_cast<__m256i*>(m), mis);
  *misaligned = m[0] | m[1] | m[2] | m[3];
  return b[0] | b[1] | b[2] | b[3];
}
#endif

// The common shape, with the spread known: every lane starts in one aligned window of 32
// sectors and an access (a power of two up to a sector) ends in its first sector or the next,
// so a 64-bit map of the window's sectors holds them. Lanes aligned to their width (all of
// them, usually) never cross a sector: one bit each; otherwise each lane's two ends are set.
bool in_window_shape(const WarpAccess& a, int sector_shift) {
  return a.active && a.spread != kUnknownSpread && (a.spread >> (sector_shift + 5)) == 0 &&
         std::has_single_bit(a.width) && a.width <= (1u << sector_shift);
}

std::uint64_t window_bits(const WarpAccess& a, int sector_shift, std::uint64_t window) {
  const std::uint64_t last = a.width - 1;
  std::uint64_t bits = 0, misaligned = 0;
  auto lane = [&](std::uint64_t x) {  // its first sector: its index in the window is its low 5 bits
    bits |= std::uint64_t(1) << ((x >> sector_shift) & 31);
    misaligned |= x & last;
  };
#if defined(TGSIM_WINDOW_AVX2)
  if (a.active == 0xFFFFFFFFu && detail::cpu_has_avx2()) {
    bits = window_bits_avx2(a.addr, sector_shift, last, &misaligned);
  } else
#endif
  if (a.active == 0xFFFFFFFFu) {
    for (int l = 0; l < 32; ++l) lane(a.addr[l]);
  } else {
    for (std::uint32_t m = a.active; m; m &= m - 1) lane(a.addr[std::countr_zero(m)]);
  }
  if (misaligned)  // the last sectors, up to the window's next one (bit 32)
    for (std::uint32_t m = a.active; m; m &= m - 1)
      bits |= std::uint64_t(1) << (((a.addr[std::countr_zero(m)] + last) >> sector_shift) - window);
  return bits;
}

#if defined(TGSIM_WINDOW_AVX2)
// A full warp whose lanes are aligned to their width (a power of two up to a sector: one sector
// each) and whose sectors never fall from one lane to the next (rows of consecutive lanes at
// rising addresses, the usual shape of a warp spanning several rows of a matrix): a sector seen
// once is never seen again after a change, so the distinct sectors are one plus the lanes whose
// sector differs from the lane before. 0 when the lanes are not in that shape (the caller counts
// them with a set). Pairs (l, l + 1) four at a time: 0-27, then 27-30 (pair 27 twice: an OR).
// With `out`, the sectors too: the first lane's, then each lane's that differs from the one
// before.
[[gnu::target("avx2")]] std::uint32_t ascending_sectors_avx2(const std::uint64_t* addr, int sector_shift,
                                                            std::uint64_t last, std::uint64_t* out) {
  const __m128i shift = _mm_cvtsi32_si128(sector_shift);
  const __m256i lastv = _mm256_set1_epi64x(static_cast<long long>(last));
  __m256i mis = _mm256_setzero_si256();
  std::uint32_t same = 0, fell = 0;
  std::uint64_t sector[32];  // each lane's
  for (const int l : {0, 4, 8, 12, 16, 20, 24, 27}) {  // a loop, not a lambda: the target attribute
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + l));
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + l + 1));
    const __m256i sx = _mm256_srl_epi64(x, shift), sy = _mm256_srl_epi64(y, shift);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sector + l), sx);
    if (l == 27) _mm256_storeu_si256(reinterpret_cast<__m256i*>(sector + 28), sy);
    const __m256d eq = _mm256_castsi256_pd(_mm256_cmpeq_epi64(sx, sy));
    const __m256d gt = _mm256_castsi256_pd(_mm256_cmpgt_epi64(sx, sy));  // lane l + 1 falls
    same |= static_cast<std::uint32_t>(_mm256_movemask_pd(eq)) << l;
    fell |= static_cast<std::uint32_t>(_mm256_movemask_pd(gt)) << l;
    mis = _mm256_or_si256(mis, _mm256_and_si256(x, lastv));  // lanes 0-30
  }
  const __m256i x28 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 28));
  mis = _mm256_or_si256(mis, _mm256_and_si256(x28, lastv));  // and 31
  if (fell || !_mm256_testz_si256(mis, mis)) return 0;
  const std::uint32_t differ = ~same & 0x7FFFFFFFu;  // pairs 0-30
  if (!out) return 1 + static_cast<std::uint32_t>(std::popcount(differ));
  std::uint32_t n = 0;
  out[n++] = sector[0];
  for (std::uint32_t m = differ; m; m &= m - 1) out[n++] = sector[std::countr_zero(m) + 1];
  return n;
}
#endif

std::uint64_t window_of(const WarpAccess& a, int sector_shift) {
  return (a.addr[std::countr_zero(a.active)] >> sector_shift) & ~std::uint64_t(31);
}

template <class G>
std::uint32_t global_sectors_t(const WarpAccess& a, const G& g) {
  if (in_window_shape(a, g.sector_shift))
    return static_cast<std::uint32_t>(std::popcount(window_bits(a, g.sector_shift, window_of(a, g.sector_shift))));
#if defined(TGSIM_WINDOW_AVX2)
  if (a.active == 0xFFFFFFFFu && std::has_single_bit(a.width) && a.width <= (1u << g.sector_shift) &&
      detail::cpu_has_avx2())
    if (const std::uint32_t n = ascending_sectors_avx2(a.addr, g.sector_shift, a.width - 1, nullptr)) return n;
#endif
  return sectors_by_set(a, g);
}

template <class G>
Wavefronts shared_wavefronts_t(const WarpAccess& a, bool is_load, const G& g) {
  Wavefronts r;
  if (!a.active) return r;
  const std::uint32_t bank_bytes = 1u << g.word_shift;
  // one_shared_wavefront's short cut (with the spread computed here when unknown)
  if (a.width <= bank_bytes && one_line(a, g.line_shift)) return Wavefronts{1, 1};
  // Lanes per phase: those one wavefront serves at this width (a power of two, at most 32);
  // loads whose lane pairs agree (the pair condition) take twice as many.
  const std::uint32_t line_bytes = 1u << g.line_shift;
  std::uint32_t per_phase = a.width <= bank_bytes ? 32 : std::max<std::uint32_t>(line_bytes / a.width, 1);
  if (per_phase < 32 && is_load && (pairs_agree(a.active, a.addr, 1) || pairs_agree(a.active, a.addr, 2)))
    per_phase *= 2;
  if (per_phase >= 32) return Wavefronts{phase_wavefronts(a.active, a.width, a.addr, g), 1};
  const std::uint32_t phase_mask = (1u << per_phase) - 1;
  for (std::uint32_t base = 0; base < 32; base += per_phase) {
    std::uint32_t lanes = a.active & (phase_mask << base);
    if (!lanes) continue;
    r.ideal += 1;
    r.wavefronts += phase_wavefronts(lanes, a.width, a.addr, g);
  }
  return r;
}

}  // namespace

const char* Geometry::unsupported() const {
  if (!std::has_single_bit(banks) || banks > 64) return "shared_banks must be a power of two up to 64";
  if (!std::has_single_bit(bank_bytes) || bank_bytes < 4) return "bank_bytes must be a power of two, at least 4";
  if (!std::has_single_bit(sector_bytes) || sector_bytes < 16)
    return "sector_bytes must be a power of two, at least 16";
  return nullptr;
}

std::uint64_t lane_spread(std::uint32_t active, const std::uint64_t* addr) {
  if (!active) return 0;
  const std::uint64_t a0 = addr[std::countr_zero(active)];
  std::uint64_t x = 0;
  if (active == 0xFFFFFFFFu) {
    for (int l = 0; l < 32; ++l) x |= addr[l] ^ a0;  // vectorised
  } else {
    for (std::uint32_t m = active; m; m &= m - 1) x |= addr[std::countr_zero(m)] ^ a0;
  }
  return x;
}

std::uint32_t global_sectors(const WarpAccess& a, const Geometry& g) {
  return g.is_default() ? global_sectors_t(a, Fixed{}) : global_sectors_t(a, Dynamic(g));
}

bool sector_window(const WarpAccess& a, std::uint32_t sector_bytes, std::uint64_t* window, std::uint64_t* bits) {
  const int shift = std::countr_zero(sector_bytes);
  if (!in_window_shape(a, shift)) return false;
  *window = window_of(a, shift);
  *bits = window_bits(a, shift, *window);
  return true;
}

std::uint32_t ascending_sectors(const WarpAccess& a, std::uint32_t sector_bytes, std::uint64_t* out) {
#if defined(TGSIM_WINDOW_AVX2)
  if (a.active == 0xFFFFFFFFu && std::has_single_bit(a.width) && a.width <= sector_bytes && detail::cpu_has_avx2())
    return ascending_sectors_avx2(a.addr, std::countr_zero(sector_bytes), a.width - 1, out);
#endif
  (void)a, (void)sector_bytes, (void)out;
  return 0;
}

std::uint32_t distinct_addresses(const WarpAccess& a) {
  DistinctSet<32> seen;
  for (std::uint32_t m = a.active; m; m &= m - 1) seen.insert(a.addr[std::countr_zero(m)]);
  return static_cast<std::uint32_t>(seen.n);
}

Wavefronts shared_wavefronts(const WarpAccess& a, bool is_load, const Geometry& g) {
  return g.is_default() ? shared_wavefronts_t(a, is_load, Fixed{})
                        : shared_wavefronts_t(a, is_load, Dynamic(g));
}

std::uint32_t global_atomic_sectors(const WarpAccess& a, const Geometry& g) {
  const int shift = std::countr_zero(g.sector_bytes);
  std::uint32_t total = 0;
  for (std::uint32_t rest = a.active; rest;) {
    const int i = std::countr_zero(rest);
    const std::uint64_t sector = a.addr[i] >> shift;
    std::uint32_t in_sector = 0;  // the lanes of lane i's sector, not yet counted
    for (std::uint32_t m = rest; m; m &= m - 1)
      if (a.addr[std::countr_zero(m)] >> shift == sector) in_sector |= 1u << std::countr_zero(m);
    std::uint32_t busiest = 0;
    for (std::uint32_t m = in_sector; m;) {
      const std::uint64_t word = a.addr[std::countr_zero(m)];
      std::uint32_t same = 0;
      for (std::uint32_t k = m; k; k &= k - 1)
        if (a.addr[std::countr_zero(k)] == word) same |= 1u << std::countr_zero(k);
      busiest = std::max<std::uint32_t>(busiest, static_cast<std::uint32_t>(std::popcount(same)));
      m &= ~same;
    }
    total += busiest;
    rest &= ~in_sector;
  }
  return total;
}

Wavefronts shared_atomic_wavefronts(const WarpAccess& a, const Geometry& g) {
  if (!a.active) return Wavefronts{};
  if (g.is_default()) return Wavefronts{phase_wavefronts(a.active, a.width, a.addr, Fixed{}), 1};
  return Wavefronts{phase_wavefronts(a.active, a.width, a.addr, Dynamic(g)), 1};
}

}  // namespace tgsim::model
