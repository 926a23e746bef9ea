// The pure hardware models behind every counter (docs/hardware-model.md sections 1.2, 2.1-2.4):
// sectors per global warp request, and shared-memory wavefronts over banks with broadcast,
// split into phases for accesses wider than a bank (merged for loads under the pair
// condition). One call models one warp instruction. The geometry (banks, bank width, sector
// size) comes from the device profile; the H100's (32 banks of 4 bytes, 32-byte sectors) is
// the default and has its own compiled instance of each model.
// A caller that knows the lanes' spread (the warp grouper computes it while it gathers the
// lanes) passes it: the models then decide the common shapes (one wavefront line, sectors in
// one small window) without a second pass over the lanes. Without it every model takes its
// lane-by-lane path; both give the same counts (tests/models_spread_test.cpp).
#pragma once
#include <bit>
#include <cstdint>

namespace tgsim::model {

// WarpAccess::spread when the caller does not know it.
inline constexpr std::uint64_t kUnknownSpread = ~std::uint64_t(0);

struct WarpAccess {
  std::uint32_t active = 0;          // bit i: lane i takes part
  std::uint32_t width = 4;           // bytes per lane: 1, 2, 4, 8 or 16
  const std::uint64_t* addr = nullptr;  // addr[lane], read for active lanes only
  // OR over the active lanes of addr[lane] ^ addr[lowest active lane] (0: one address), or
  // kUnknownSpread. Every lane's address agrees with the lowest lane's above its highest bit.
  std::uint64_t spread = kUnknownSpread;
};

// The spread of `active` lanes of `addr` (WarpAccess::spread), computed in one pass.
std::uint64_t lane_spread(std::uint32_t active, const std::uint64_t* addr);

// Banks and sectors of one device (DeviceProfile::shared_banks, bank_bytes, sector_bytes).
// All powers of two; banks <= 64, bank_bytes >= 4, sector_bytes >= 16 (validate_launch checks).
struct Geometry {
  std::uint32_t banks = 32;
  std::uint32_t bank_bytes = 4;
  std::uint32_t sector_bytes = 32;
  bool is_default() const { return banks == 32 && bank_bytes == 4 && sector_bytes == 32; }
  // The reason this geometry cannot be modelled, or null.
  const char* unsupported() const;
};

// Distinct sectors touched by the active lanes' byte ranges [a, a+width).
std::uint32_t global_sectors(const WarpAccess& a, const Geometry& g = {});

// Global atomics (ATOMG/REDG): each sector the lanes touch counts once per lane of the busiest
// address in it (lanes on one word are served one after another; words of one sector together):
// 32 lanes on one word are 32 sectors, 32 consecutive words 4. Recorded on the H100
// (tests/hardware/atomic_probe/). An atomic nvcc aggregates to one lane is counted by its caller.
std::uint32_t global_atomic_sectors(const WarpAccess& a, const Geometry& g = {});

struct Wavefronts {
  std::uint32_t wavefronts = 0;  // sum over phases of the max distinct words in one bank
  std::uint32_t ideal = 0;       // phases with at least one active lane
  std::uint32_t conflicts() const { return wavefronts - ideal; }
};

// Distinct addresses of the active lanes (constant cache: one serialised access each).
std::uint32_t distinct_addresses(const WarpAccess& a);

// Shared memory: `addr` are byte offsets in the threadgroup's shared memory. A phase holds as
// many lanes as one wavefront (banks x bank_bytes) serves at the access width: the whole warp
// up to the bank width, half-warps for 8 bytes and quarter-warps for 16 on the default.
Wavefronts shared_wavefronts(const WarpAccess& a, bool is_load, const Geometry& g = {});

// shared_wavefronts' first short cut, inline for callers on a hot path: an access no wider
// than a bank whose known spread keeps every lane in one aligned wavefront line (banks x
// bank_bytes) takes one wavefront in one phase ({1, 1}). False says nothing.
inline bool one_shared_wavefront(const WarpAccess& a, const Geometry& g) {
  return a.active != 0 && a.width <= g.bank_bytes && (a.spread >> std::countr_zero(g.banks * g.bank_bytes)) == 0;
}

// The sectors of an access in global_sectors' common shape (a known spread keeping every lane
// in one aligned window of 32 sectors, a power-of-two width up to a sector): false when the
// access is not in that shape; else bit i of *bits is sector *window + i (i <= 32, the last
// bit for a lane crossing into the next window). The cache model lists them from it, sorted.
bool sector_window(const WarpAccess& a, std::uint32_t sector_bytes, std::uint64_t* window, std::uint64_t* bits);

// The sectors of a full warp beyond that shape whose lanes are aligned to a power-of-two width
// up to a sector and whose sectors never fall from one lane to the next (rows of consecutive
// lanes at rising addresses, as a warp spanning rows of a matrix): their number and, with `out`
// (>= 32 entries), the sectors, ascending. 0 when the access is not in that shape (or the CPU
// lacks AVX2): the caller counts it lane by lane.
std::uint32_t ascending_sectors(const WarpAccess& a, std::uint32_t sector_bytes, std::uint64_t* out);

// Shared atomics (ATOMS): one phase over the whole warp at any width, the maximum over banks of
// the distinct bank words the active lanes touch (lanes on one word count once). Matches
// smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom on the H100 (histogram256).
Wavefronts shared_atomic_wavefronts(const WarpAccess& a, const Geometry& g = {});

}  // namespace tgsim::model
