// Sector and bank models, written to follow docs/hardware-model.md's formulas (1.2, 2.1-2.4) line by line.
// Small fixed arrays, no allocation: these run once per warp instruction.
#include <tgsim/models.hpp>

#include <bit>

namespace tgsim::model {

namespace {

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

// Max over banks of the distinct 4-byte words of `lanes` (one phase). Each bank remembers its
// first word inline; only a bank that gets a second word (a conflict) searches a list.
std::uint32_t phase_wavefronts(std::uint32_t lanes, std::uint32_t width, const std::uint64_t* addr) {
  const std::uint32_t words_per_lane = width >= 4 ? width / 4 : 1;
  // Fast path, the common case: every bank sees at most one distinct word (conflict-free,
  // broadcasts included) -> one wavefront. A bitmask of used banks decides it in one pass.
  if (words_per_lane == 1) {
    std::uint32_t used = 0;
    std::uint64_t word_of[32];
    bool one_each = true;
    for (std::uint32_t m = lanes; m && one_each; m &= m - 1) {
      std::uint64_t w = addr[std::countr_zero(m)] >> 2;
      std::uint32_t b = static_cast<std::uint32_t>(w & 31), bit = 1u << b;
      if (!(used & bit)) {
        used |= bit;
        word_of[b] = w;
      } else {
        one_each = word_of[b] == w;
      }
    }
    if (one_each) return 1;
  }
  std::uint64_t first[32];
  std::uint32_t per_bank[32] = {};
  std::uint64_t extra[128];  // words beyond the first of their bank (at most 128 words a phase)
  int nextra = 0;
  std::uint32_t worst = 0;
  while (lanes) {
    int lane = std::countr_zero(lanes);
    lanes &= lanes - 1;
    std::uint64_t w0 = addr[lane] >> 2;
    for (std::uint32_t k = 0; k < words_per_lane; ++k) {
      std::uint64_t w = w0 + k;
      std::uint32_t b = static_cast<std::uint32_t>(w & 31);
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

// True when every active lane's address lies in one 128-byte-aligned span: 32 consecutive
// words, one per bank, so a <= 4-byte access takes one wavefront (the common case, checked
// by an OR over the lanes that the compiler vectorises when all lanes are active).
bool one_line(std::uint32_t active, const std::uint64_t* addr) {
  const std::uint64_t a0 = addr[std::countr_zero(active)];
  std::uint64_t x = 0;
  if (active == 0xFFFFFFFFu) {
    for (int l = 0; l < 32; ++l) x |= addr[l] ^ a0;
  } else {
    for (std::uint32_t m = active; m; m &= m - 1) x |= addr[std::countr_zero(m)] ^ a0;
  }
  return (x >> 7) == 0;
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

}  // namespace

std::uint32_t global_sectors(const WarpAccess& a) {
  DistinctSet<64> sectors;
  for (std::uint32_t m = a.active; m; m &= m - 1) {
    int lane = std::countr_zero(m);
    std::uint64_t first = a.addr[lane] >> 5;
    std::uint64_t last = (a.addr[lane] + (a.width ? a.width : 1) - 1) >> 5;
    for (std::uint64_t s = first; s <= last; ++s) sectors.insert(s);
  }
  return static_cast<std::uint32_t>(sectors.n);
}

std::uint32_t distinct_addresses(const WarpAccess& a) {
  DistinctSet<32> seen;
  for (std::uint32_t m = a.active; m; m &= m - 1) seen.insert(a.addr[std::countr_zero(m)]);
  return static_cast<std::uint32_t>(seen.n);
}

Wavefronts shared_wavefronts(const WarpAccess& a, bool is_load) {
  Wavefronts r;
  if (!a.active) return r;
  // Phase masks: one for widths <= 4, half-warps for 8, quarter-warps for 16.
  std::uint32_t phases[4];
  int nphases = 0;
  if (a.width <= 4) {
    if (one_line(a.active, a.addr)) return Wavefronts{1, 1};
    phases[nphases++] = 0xFFFFFFFFu;
  } else if (a.width == 8) {
    if (is_load && (pairs_agree(a.active, a.addr, 1) || pairs_agree(a.active, a.addr, 2))) {
      phases[nphases++] = 0xFFFFFFFFu;
    } else {
      phases[nphases++] = 0x0000FFFFu;
      phases[nphases++] = 0xFFFF0000u;
    }
  } else {
    if (is_load && (pairs_agree(a.active, a.addr, 1) || pairs_agree(a.active, a.addr, 2))) {
      phases[nphases++] = 0x0000FFFFu;  // quarters merge within a half-warp only
      phases[nphases++] = 0xFFFF0000u;
    } else {
      phases[nphases++] = 0x000000FFu;
      phases[nphases++] = 0x0000FF00u;
      phases[nphases++] = 0x00FF0000u;
      phases[nphases++] = 0xFF000000u;
    }
  }
  for (int p = 0; p < nphases; ++p) {
    std::uint32_t lanes = a.active & phases[p];
    if (!lanes) continue;
    r.ideal += 1;
    r.wavefronts += phase_wavefronts(lanes, a.width, a.addr);
  }
  return r;
}

Wavefronts shared_atomic_wavefronts(const WarpAccess& a) {
  if (!a.active) return Wavefronts{};
  return Wavefronts{phase_wavefronts(a.active, a.width, a.addr), 1};
}

}  // namespace tgsim::model
