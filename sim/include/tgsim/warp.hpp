// Warp-level operations (docs/hardware-model.md section 5): shuffles, votes, __syncwarp and Metal's
// SIMD-group reductions. Each is a rendezvous of the lanes named in its mask, scoped to the
// warp (not a group barrier): a lane waits until every named lane that has not exited arrived,
// then every lane gets its result. Counted per warp: one SHFL per 32-bit word moved (a double
// shuffle is two), one VOTE per ballot/any/all, one WARPSYNC per __syncwarp.
// Reading a lane that does not take part yields a poison value (0x7FBADBAD..., a NaN as a
// float) and, with LaunchConfig::check, a warp-collective finding.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include <tgsim/memory.hpp>  // current_thread()
#include <tgsim/report.hpp>
#include <tgsim/thread.hpp>

namespace tgsim {

namespace detail {

struct CollectiveIn {
  std::uint32_t arrived;        // lanes that take part
  const std::uint64_t* value;   // value[lane]: each lane's operand bits
  const std::int64_t* arg;      // arg[lane]: lane/delta in the low 32 bits, width above
};

struct CollectiveOp {
  SiteKind kind;        // kShuffle, kVote, kWarpSync or kWarpReduce: the counter it adds to
  std::uint32_t count;  // added per completed rendezvous (SHFL: 32-bit words moved)
  const char* name;     // for findings: "__shfl_down_sync"
  // The result for `lane`; sets *absent when it had to read a lane that does not take part.
  std::uint64_t (*compute)(const CollectiveIn& in, std::uint32_t lane, bool* absent);
  int shfl = -1;  // shuffles: their Shfl (below), for the lane each lane reads (shfl_source)
};

// The rendezvous (sim/src/engine/group.cpp); returns this lane's result.
std::uint64_t warp_collective(ThreadCtx* t, const CollectiveOp& op, std::uint32_t mask,
                              std::uint64_t value, std::int64_t arg, const std::source_location& loc);
std::uint32_t active_lanes(ThreadCtx* t, const std::source_location& loc);

inline constexpr std::uint64_t kPoison = 0x7FBADBAD7FBADBADull;

enum class Shfl { kIdx, kUp, kDown, kXor };

// The lane whose value `lane` gets from a shuffle of kind k with argument `a` (lane, delta or
// lane mask in the low 32 bits, the segment width above): `lane` itself where it keeps its own
// value (beyond its segment); outside 0..31 where it reads no lane of the warp.
inline std::int32_t shfl_source(Shfl k, std::uint32_t lane, std::int64_t a) {
  const std::int32_t d = static_cast<std::int32_t>(a);
  const std::int32_t w = static_cast<std::int32_t>(a >> 32);
  const std::int32_t l = static_cast<std::int32_t>(lane);
  const std::int32_t seg = l & ~(w - 1), end = seg + w - 1;
  switch (k) {
    case Shfl::kIdx: return seg + (d & (w - 1));
    case Shfl::kUp: return l - d < seg ? l : l - d;
    case Shfl::kDown: return l + d > end ? l : l + d;
    case Shfl::kXor: return (l ^ d) > end ? l : l ^ d;
  }
  return l;
}

template <Shfl K>
std::uint64_t shfl_compute(const CollectiveIn& in, std::uint32_t lane, bool* absent) {
  const std::int32_t j = shfl_source(K, lane, in.arg[lane]);
  if (j == static_cast<std::int32_t>(lane)) return in.value[lane];
  if (j < 0 || j > 31 || !(in.arrived >> j & 1u)) {
    *absent = true;
    return kPoison;
  }
  return in.value[j];
}

inline std::uint64_t ballot_compute(const CollectiveIn& in, std::uint32_t, bool*) {
  std::uint64_t b = 0;
  for (std::uint32_t m = in.arrived; m; m &= m - 1) {
    int l = std::countr_zero(m);
    if (in.value[l]) b |= 1ull << l;
  }
  return b;
}
inline std::uint64_t all_compute(const CollectiveIn& in, std::uint32_t l, bool* a) {
  return ballot_compute(in, l, a) == in.arrived;
}
inline std::uint64_t any_compute(const CollectiveIn& in, std::uint32_t l, bool* a) {
  return ballot_compute(in, l, a) != 0;
}
inline std::uint64_t sync_compute(const CollectiveIn&, std::uint32_t, bool*) { return 0; }

template <class T>
std::uint64_t to_bits(T v) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "tgsim: shuffles move 4- or 8-byte values");
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T>
T from_bits(std::uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

// Metal's simd_sum / simd_max: lanes combined in lane order, so the result is deterministic.
template <class T, bool MAX>
std::uint64_t reduce_compute(const CollectiveIn& in, std::uint32_t, bool*) {
  bool first = true;
  T acc{};
  for (std::uint32_t m = in.arrived; m; m &= m - 1) {
    T v = from_bits<T>(in.value[std::countr_zero(m)]);
    acc = first ? v : (MAX ? (v > acc ? v : acc) : acc + v);
    first = false;
  }
  return to_bits(acc);
}

template <Shfl K, unsigned WORDS>
inline constexpr CollectiveOp kShflOp{SiteKind::kShuffle, WORDS,
                                      K == Shfl::kIdx    ? "__shfl_sync"
                                      : K == Shfl::kUp   ? "__shfl_up_sync"
                                      : K == Shfl::kDown ? "__shfl_down_sync"
                                                         : "__shfl_xor_sync",
                                      &shfl_compute<K>, static_cast<int>(K)};
inline constexpr CollectiveOp kBallotOp{SiteKind::kVote, 1, "__ballot_sync", &ballot_compute};
inline constexpr CollectiveOp kAnyOp{SiteKind::kVote, 1, "__any_sync", &any_compute};
inline constexpr CollectiveOp kAllOp{SiteKind::kVote, 1, "__all_sync", &all_compute};
inline constexpr CollectiveOp kSyncwarpOp{SiteKind::kWarpSync, 1, "__syncwarp", &sync_compute};
template <class T, bool MAX>
inline constexpr CollectiveOp kReduceOp{SiteKind::kWarpReduce, 1, MAX ? "simd_max" : "simd_sum",
                                        &reduce_compute<T, MAX>};

template <Shfl K, class T>
T shuffle(std::uint32_t mask, T v, int lane_or_delta, int width, const std::source_location& loc) {
  if (width < 1 || width > 32 || (width & (width - 1))) width = 32;  // PTX: a power of 2 <= 32
  const std::int64_t arg = (std::int64_t(width) << 32) | std::uint32_t(lane_or_delta);
  constexpr unsigned words = sizeof(T) > 4 ? 2 : 1;
  return from_bits<T>(warp_collective(current_thread(), kShflOp<K, words>, mask, to_bits(v), arg, loc));
}

}  // namespace detail

#define TGSIM_LOC std::source_location loc = std::source_location::current()

template <class T> T shfl_sync(std::uint32_t mask, T v, int src_lane, int width = 32, TGSIM_LOC) {
  return detail::shuffle<detail::Shfl::kIdx>(mask, v, src_lane, width, loc);
}
template <class T> T shfl_up_sync(std::uint32_t mask, T v, unsigned delta, int width = 32, TGSIM_LOC) {
  return detail::shuffle<detail::Shfl::kUp>(mask, v, int(delta), width, loc);
}
template <class T> T shfl_down_sync(std::uint32_t mask, T v, unsigned delta, int width = 32, TGSIM_LOC) {
  return detail::shuffle<detail::Shfl::kDown>(mask, v, int(delta), width, loc);
}
template <class T> T shfl_xor_sync(std::uint32_t mask, T v, int lane_mask, int width = 32, TGSIM_LOC) {
  return detail::shuffle<detail::Shfl::kXor>(mask, v, lane_mask, width, loc);
}
inline std::uint32_t ballot_sync(std::uint32_t mask, int pred, TGSIM_LOC) {
  return static_cast<std::uint32_t>(
      detail::warp_collective(detail::current_thread(), detail::kBallotOp, mask, pred != 0, 0, loc));
}
inline int any_sync(std::uint32_t mask, int pred, TGSIM_LOC) {
  return static_cast<int>(
      detail::warp_collective(detail::current_thread(), detail::kAnyOp, mask, pred != 0, 0, loc));
}
inline int all_sync(std::uint32_t mask, int pred, TGSIM_LOC) {
  return static_cast<int>(
      detail::warp_collective(detail::current_thread(), detail::kAllOp, mask, pred != 0, 0, loc));
}
// The lanes of this warp that are converged here: every lane of the warp that reaches this
// __activemask() call while the others exit or wait elsewhere (the calling lanes wait until
// no thread of the group can run, so the answer does not depend on the fiber order).
inline std::uint32_t activemask(std::source_location loc = std::source_location::current()) {
  return detail::active_lanes(detail::current_thread(), loc);
}

// Metal SIMD-group reductions over the lanes of the SIMD group that have not exited.
template <class T> T simd_sum(T v, TGSIM_LOC) {
  return detail::from_bits<T>(detail::warp_collective(detail::current_thread(), detail::kReduceOp<T, false>,
                                                      activemask(loc), detail::to_bits(v), 0, loc));
}
template <class T> T simd_max(T v, TGSIM_LOC) {
  return detail::from_bits<T>(detail::warp_collective(detail::current_thread(), detail::kReduceOp<T, true>,
                                                      activemask(loc), detail::to_bits(v), 0, loc));
}

#undef TGSIM_LOC

}  // namespace tgsim
