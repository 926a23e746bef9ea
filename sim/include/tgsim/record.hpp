// The per-access hot path, inlined into every load and store proxy (memory.hpp).
// One thread access becomes one 8-byte record appended to its lane's log: a 16-bit tag
// (a per-worker dense id of (site, kind, width)) in the top bits, the address in the low 48.
// The tag comes from a small per-worker cache keyed by the source_location's pointer, which
// libstdc++ makes unique per call site. A cache miss, a full lane log, or the checker
// (ThreadCtx::tags_ is null then) take the out-of-line path in sim/src/engine/group.cpp, which does
// the same work in full. Measured: see docs/performance.md.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <tgsim/hash.hpp>

namespace tgsim::detail {

// Same values as SiteKind's kinds of the same names (report.hpp): sim/src/engine/hooks.cpp casts one
// to the other, and its static_asserts check every value.
enum class AccessKind : std::uint8_t {
  kGlobalLoad, kGlobalStore, kSharedLoad, kSharedStore, kBarrier, kGlobalAtomic, kSharedAtomic, kConstantLoad,
  kLoad = 12, kStore = 13  // front-end code (tgsim/kernel/abi.h): placed by the address later
};

inline constexpr int kTagShift = 48;  // record = tag << 48 | address
inline constexpr std::uint64_t kAddrMask = (std::uint64_t(1) << kTagShift) - 1;
inline constexpr std::size_t kTagSlots = 256;

// The append cursor of one lane's log (owned by the group's WarpLog, sim/src/engine/group.hpp).
struct LaneBuf {
  std::uint64_t* cur = nullptr;
  std::uint64_t* end = nullptr;  // cur == end: full, the out-of-line path grows it
};

// One slot of the tag cache: the key of (call site, kind, width) and its tag, pre-shifted.
struct TagSlot {
  std::uint64_t key = ~std::uint64_t(0);  // never a valid key (bit 63 is always 0)
  std::uint64_t tag = 0;
};

// 1, 2, 4, 8, 16 bytes -> 0..4; 0 (a site without a width: barrier, warp collective) -> 5.
constexpr std::uint64_t width_code(std::uint32_t w) {
  return w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : w == 8 ? 3 : w == 16 ? 4 : 5;
}

// The source_location's pointer (8-byte aligned, below 2^47) | kind (3 bits) | width code << 56.
inline std::uint64_t tag_key(const std::source_location& loc, AccessKind kind, std::uint32_t width) {
  static_assert(sizeof(std::source_location) == sizeof(std::uintptr_t));
  std::uintptr_t p;
  std::memcpy(&p, &loc, sizeof p);
  return static_cast<std::uint64_t>(p) | static_cast<std::uint64_t>(kind) | (width_code(width) << 56);
}
inline std::size_t tag_slot(std::uint64_t key) {
  return static_cast<std::size_t>(fib_hash(key, 56));  // 256 slots
}

}  // namespace tgsim::detail
