// WarpRendezvous: the open warp collective of each warp of a group (__syncwarp, shuffles, votes,
// reductions): the lanes that arrived, the masks they named, their operands, and whether their
// calls fit together. A lane joins; the rendezvous completes when every named lane that has not
// exited arrived (PTX waits for "all non-exited threads in membermask"); then each arrived
// lane's result is computed from the operands (CollectiveOp::compute) and the rendezvous closes.
// Where the lanes wait and who reports the findings is the scheduler's (GroupRun,
// warp_collective.cpp).
#pragma once
#include <bit>
#include <cstdint>
#include <source_location>
#include <vector>

#include <tgsim/warp.hpp>

namespace tgsim::detail {

class WarpRendezvous {
 public:
  struct Meeting {                     // the open rendezvous of one warp
    std::uint32_t arrived = 0;         // lanes waiting in it
    std::uint32_t mask = 0;            // union of the masks they named
    std::source_location loc;          // the first arrival's call site
    const CollectiveOp* op = nullptr;  // the first arrival's operation
    bool mismatch = false;             // a mismatch was reported for this rendezvous
    bool split = false;                // lanes named disjoint masks (partitions of the warp)
    std::uint32_t lane_mask[32];       // the mask each arrived lane named (read where split)
    std::uint64_t value[32];
    std::int64_t arg[32];
  };
  void resize(std::uint32_t nwarps) { warps_.resize(nwarps); }
  void reset() {  // a group starts
    for (Meeting& m : warps_) m.arrived = m.mask = 0, m.mismatch = false;
  }
  const Meeting& operator[](std::uint32_t w) const { return warps_[w]; }
  std::uint32_t warps() const { return static_cast<std::uint32_t>(warps_.size()); }

  // Lane `lane` of warp w joins with `op` naming `mask` (which includes the lane). True when its
  // call does not fit the open rendezvous and no mismatch was reported for it yet (the caller
  // reports it, against the rendezvous as it was: meeting(w) before this call's mask joined).
  // __syncwarp calls of different sites and masks meet each other (sm_70+); any other
  // collective must be the same intrinsic with, on every lane, the same mask or one disjoint
  // from the others' (the partitions of cg::labeled_partition and binary_partition, each lane's
  // result drawn from its own mask's lanes, as one instruction on the GPU).
  bool join(std::uint32_t w, std::uint32_t lane, const CollectiveOp& op, std::uint32_t mask,
            std::uint64_t value, std::int64_t arg, const std::source_location& loc,
            std::uint32_t* mask_before) {
    Meeting& m = warps_[w];
    bool report = false;
    *mask_before = m.mask;
    if (!m.arrived) {
      m.mask = mask;
      m.loc = loc;
      m.op = &op;
    } else {
      const bool both_sync = op.kind == SiteKind::kWarpSync && m.op->kind == SiteKind::kWarpSync;
      if (!both_sync && (m.op != &op || !partition_fits(m, mask)) && !m.mismatch) report = m.mismatch = true;
      m.mask |= mask;
    }
    m.value[lane] = value;
    m.arg[lane] = arg;
    m.lane_mask[lane] = mask;
    m.arrived |= 1u << lane;
    return report;
  }
  // Whether warp w's rendezvous can complete: every named lane of `live` (the lanes that have
  // not exited) arrived.
  bool complete(std::uint32_t w, std::uint32_t live) const {
    const Meeting& m = warps_[w];
    return (m.arrived & m.mask & live) == (m.mask & live);
  }
  // Each arrived lane's result: result(lane, value, absent) in lane order, `absent` when the
  // lane read a lane that does not take part. Then the rendezvous closes; returns the lanes
  // that took part.
  template <class Result>
  std::uint32_t finish(std::uint32_t w, Result&& result) {
    Meeting& m = warps_[w];
    CollectiveIn in{m.arrived, m.value, m.arg};
    for (std::uint32_t a = m.arrived; a; a &= a - 1) {
      const std::uint32_t l = static_cast<std::uint32_t>(std::countr_zero(a));
      bool absent = false;
      if (m.split) in.arrived = m.arrived & m.lane_mask[l];  // this lane's partition
      const std::uint64_t r = m.op->compute(in, l, &absent);  // (before `absent` is read)
      result(l, r, absent);
    }
    const std::uint32_t took_part = m.arrived;
    m.arrived = 0;
    m.mask = 0;
    m.mismatch = false;
    m.split = false;
    return took_part;
  }

 private:
  // Whether a lane naming `mask` may join the open rendezvous: every lane there named the same
  // mask or one disjoint from it. Marks the rendezvous split when the masks differ.
  static bool partition_fits(Meeting& m, std::uint32_t mask) {
    if (!m.split) {
      if (m.mask == mask || (m.mask & mask)) return m.mask == mask;
      m.split = true;
      return true;
    }
    for (std::uint32_t a = m.arrived; a; a &= a - 1) {
      const std::uint32_t other = m.lane_mask[std::countr_zero(a)];
      if (other != mask && (other & mask)) return false;
    }
    return true;
  }
  std::vector<Meeting> warps_;
};

}  // namespace tgsim::detail
