// Warp collectives of a group (GroupRun): __syncwarp, shuffles, votes and reductions as a
// rendezvous of the named lanes (the meeting itself: WarpRendezvous, warp_rendezvous.hpp), and
// __activemask(). A lane deposits its operand and waits until every named lane that has not
// exited arrived; then each arrived lane gets its result (CollectiveOp::compute) and the
// collective goes to the sinks as one warp instruction.
#include <array>
#include <bit>
#include <string>

#include "engine/group.hpp"
#include "engine/group_internal.hpp"

namespace tgsim::detail {

// A lane arrives at a warp collective: it deposits its operand, and either completes the
// rendezvous (it is the last named live lane) or waits for the others.
std::uint64_t GroupRun::collective(ThreadCtx& t, const CollectiveOp& op, std::uint32_t mask,
                                   std::uint64_t value, std::int64_t arg,
                                   const std::source_location& loc) {
  Thread& th = thread_of(t);
  if (aborting_) throw AbortGroup{};
  const std::uint32_t bit = 1u << t.lane;
  if (!(mask & bit)) {
    add_finding(t, FindingKind::kWarpCollective, loc,
                "lane " + std::to_string(t.lane) + " calls " + op.name + " with mask " + hex(mask) +
                    ", which leaves itself out: an illegal instruction on the GPU (synccheck: "
                    "\"Invalid arguments\"); tgsim lets it take part");
    mask |= bit;
  }
  std::uint32_t before = 0;
  if (rendezvous_.join(t.warp, t.lane, op, mask, value, arg, loc, &before)) {
    const WarpRendezvous::Meeting& m = rendezvous_[t.warp];
    add_finding(t, FindingKind::kWarpCollective, loc,
                "lane " + std::to_string(t.lane) + " of warp " + std::to_string(t.warp) +
                    " calls " + op.name + "(" + hex(mask) + ") at " + where(loc) +
                    " while other lanes wait in " + m.op->name + "(" + hex(before) + ") at " +
                    where(m.loc) + " (undefined on the GPU; tgsim joins them)");
  }
  if (try_complete_warp(t.warp, t.lane)) return th.result;
  th.state = State::kWarpWait;
  th.wait_loc = loc;
  switch_out(th);
  if (aborting_) throw AbortGroup{};
  return th.result;
}

// Completes warp w's rendezvous if every named lane that has not exited has arrived: computes
// each arrived lane's result and releases them. Named lanes that exited are no finding: PTX waits
// for "all non-exited threads in membermask", and on the H100 a full-mask __syncwarp and shuffle
// of a half warp whose other half returned give the right result with synccheck silent
// (tests/hardware/checker_probe/). A lane that reads an exited lane's value is a finding below.
bool GroupRun::try_complete_warp(std::uint32_t w, std::uint32_t caller) {
  const std::uint32_t base = w * 32, n = std::min<std::uint32_t>(32, nthreads_ - base);
  std::uint32_t live = 0;
  for (std::uint32_t l = 0; l < n; ++l)
    if (threads_[base + l].state != State::kExited) live |= 1u << l;
  if (!rendezvous_.complete(w, live)) return false;
  const WarpRendezvous::Meeting& m = rendezvous_[w];
  const CollectiveOp& op = *m.op;
  const std::source_location loc = m.loc;
  bool absent_reported = false;
  const std::uint32_t took_part = rendezvous_.finish(w, [&](std::uint32_t l, std::uint64_t result, bool absent) {
    Thread& th = threads_[base + l];
    th.result = result;
    if (absent && state_.cfg.check && !absent_reported) {
      absent_reported = true;
      add_finding(th.ctx, FindingKind::kWarpCollective, loc,
                  "lane " + std::to_string(l) + " of warp " + std::to_string(w) + " reads, through " +
                      op.name + ", a lane that does not take part (lanes " + hex(m.arrived) +
                      "): it gets a poison value");
    }
    if (l != caller && th.state == State::kWarpWait) th.state = State::kReady;
  });
  const std::uint32_t site = tags_.site_id(loc, op.kind);
  emit(WarpInstruction{site, op.kind, 0, took_part, nullptr, group_, w, op.count});
  if (op.kind == SiteKind::kShuffle) emit_shuffle(site, op, m.arg, took_part, w);
  // Where each lane's log stood: its later accesses are ordered after the sync. Only
  // __syncwarp orders memory (vote and shuffle intrinsics imply no memory barrier).
  if (checking_ && op.kind == SiteKind::kWarpSync) {
    WarpLog& wl = warps_[w];
    std::array<std::uint32_t, 32>& pos = wl.syncs.emplace_back();
    for (std::uint32_t l = 0; l < 32; ++l) pos[l] = static_cast<std::uint32_t>(wl.lanes[l].size());
    wl.sync_masks.push_back(took_part);
  }
  return true;
}

std::uint32_t GroupRun::active_lanes(ThreadCtx& t, const std::source_location& loc) {
  Thread& th = thread_of(t);
  if (aborting_) throw AbortGroup{};
  th.state = State::kMaskWait;
  th.wait_loc = loc;
  switch_out(th);
  if (aborting_) throw AbortGroup{};
  return static_cast<std::uint32_t>(th.result);
}

// Nothing can run: the lanes waiting in __activemask() learn which lanes of their warp wait at
// the same call. Returns false when nobody waited there.
bool GroupRun::resolve_activemasks() {
  bool any = false;
  for (std::uint32_t w = 0; w < warps_.size(); ++w) {
    const std::uint32_t base = w * 32, n = std::min<std::uint32_t>(32, nthreads_ - base);
    for (std::uint32_t l = 0; l < n; ++l) {
      Thread& a = threads_[base + l];
      if (a.state != State::kMaskWait) continue;
      std::uint32_t mask = 0;
      for (std::uint32_t k = l; k < n; ++k) {
        const Thread& b = threads_[base + k];
        if (b.state == State::kMaskWait && same_site(a.wait_loc, b.wait_loc)) mask |= 1u << k;
      }
      for (std::uint32_t k = l; k < n; ++k)
        if (mask >> k & 1u) {
          threads_[base + k].result = mask;
          threads_[base + k].state = State::kReady;
        }
      any = true;
    }
  }
  return any;
}

// Every live thread waits, some at a __syncwarp whose named lanes wait at a barrier.
void GroupRun::report_stuck_warps() {
  for (std::uint32_t w = 0; w < rendezvous_.warps(); ++w) {
    const WarpRendezvous::Meeting& ws = rendezvous_[w];
    if (!ws.arrived) continue;
    const std::uint32_t base = w * 32, n = std::min<std::uint32_t>(32, nthreads_ - base);
    const Thread* missing = nullptr;
    for (std::uint32_t l = 0; l < n && !missing; ++l)
      if ((ws.mask >> l & 1u) && !(ws.arrived >> l & 1u) &&
          threads_[base + l].state == State::kWaiting)
        missing = &threads_[base + l];
    if (!missing) continue;
    add_finding(missing->ctx, FindingKind::kBarrierDivergence, ws.loc,
                std::to_string(std::popcount(ws.arrived)) + " of " +
                    std::to_string(std::popcount(ws.mask)) +
                    " lanes named by " + ws.op->name + " reached it at " + where(ws.loc) +
                    "; the others wait at " + where(missing->wait_loc) + " (first: lane " +
                    std::to_string(missing->ctx.lane) + " of warp " + std::to_string(w) +
                    "); the group was ended");
  }
}

}  // namespace tgsim::detail
