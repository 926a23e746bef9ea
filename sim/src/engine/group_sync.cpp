// Divergence in a warp at a barrier (the barrier rule; group.hpp states it in full).
// Exited threads count as arrived, so a lane that returns before a barrier holds nobody up.
// A lane that skips a barrier some lanes of its warp wait at and runs on to exit is another
// matter: on the GPU it is still running code after the barrier while its warp's other lanes
// wait (synccheck: "Divergent thread(s) in warp"). tgsim tells the two apart by what the exited
// lane did: it ran past the barrier when it made an access at a site that the waiting lanes of
// its warp had not reached before the barrier and reach after it (the code after the barrier;
// an access on the exit path only, which they never reach, is no divergence). A lane that
// skipped the barrier and only computed in registers before exiting cannot be told from an
// early return and counts as arrived.
#include "engine/group.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace tgsim::detail {

namespace {

std::string where_of(const SiteInfo& s) {
  auto p = s.file.rfind('/');
  return (p == std::string::npos ? s.file : s.file.substr(p + 1)) + ":" + std::to_string(s.line);
}

std::string hex_mask(std::uint32_t mask) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", mask);
  return buf;
}

}  // namespace

// Called when warp w is flushed (none of its lanes can run). First, pending divergences of the
// warp whose sites a lane that waited has now reached become findings. Then, when the warp holds
// both lanes waiting at a barrier and lanes that exited after accesses at sites none of the
// waiting lanes reached in this interval, a pending divergence is noted. Costs a compare of the
// warp's lane masks (group.hpp) unless the warp holds both, or a divergence is pending.
void GroupRun::note_warp_divergence(std::uint32_t w) {
  std::vector<WarpDivergence>& pending = warp_div_[w];
  const std::uint32_t waiting = bar_.waiting(w);
  std::uint32_t exited = bar_.exited(w);
  if (pending.empty() && (!waiting || !exited)) [[likely]]
    return;
  const std::uint32_t base = w * 32;
  const WarpLog::LaneLog* lanes = warps_[w].lanes;
  for (std::size_t i = 0; i < pending.size();) {
    const WarpDivergence& d = pending[i];
    std::uint32_t reached = ~0u;
    for (std::uint32_t m = d.waiting; m && reached == ~0u; m &= m - 1)
      for (std::uint64_t r : lanes[std::countr_zero(m)]) {
        const std::uint32_t site = tags_[r >> kTagShift].site;
        if (std::find(d.sites.begin(), d.sites.end(), site) != d.sites.end()) {
          reached = site;
          break;
        }
      }
    if (reached == ~0u) {
      ++i;
      continue;
    }
    const Thread& skipper = threads_[base + d.lane];
    const std::string at =
        where_of(SiteInfo{d.at.file_name(), d.at.line(), 0, SiteKind::kBarrier});
    add_finding(skipper.ctx, FindingKind::kBarrierDivergence, d.at,
                "divergent threads in warp " + std::to_string(w) + ": lanes " +
                    hex_mask(d.waiting) + " wait at the barrier at " + at + " while lanes " +
                    hex_mask(d.ran) + " skipped it and ran on (first: lane " +
                    std::to_string(d.lane) + ", thread " + skipper.ctx.thread_idx.str() +
                    ", to " + where_of(state_.sites.info(reached)) +
                    ", which the waiting lanes reach after the barrier) before they exited; "
                    "exited threads count as arrived, the group went on");
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
  }
  for (std::uint32_t m = exited; m; m &= m - 1)  // lanes that exited without an access: arrived
    if (lanes[std::countr_zero(m)].empty()) exited &= ~(1u << std::countr_zero(m));
  if (!waiting || !exited) return;
  if (tag_stamp_.size() < tags_.size()) tag_stamp_.resize(tags_.size(), 0);
  if (++stamp_ == 0) std::fill(tag_stamp_.begin(), tag_stamp_.end(), 0u), stamp_ = 1;
  for (std::uint32_t m = waiting; m; m &= m - 1)
    for (std::uint64_t r : lanes[std::countr_zero(m)]) tag_stamp_[r >> kTagShift] = stamp_;
  WarpDivergence d;
  for (std::uint32_t m = exited; m; m &= m - 1) {
    const std::uint32_t l = static_cast<std::uint32_t>(std::countr_zero(m));
    for (std::uint64_t r : lanes[l]) {
      if (tag_stamp_[r >> kTagShift] == stamp_) continue;
      const std::uint32_t site = tags_[r >> kTagShift].site;
      if (!d.ran) d.lane = l;
      d.ran |= 1u << l;
      if (std::find(d.sites.begin(), d.sites.end(), site) == d.sites.end()) d.sites.push_back(site);
    }
  }
  if (!d.ran) return;
  d.waiting = waiting;
  d.at = threads_[base + static_cast<std::uint32_t>(std::countr_zero(waiting))].wait_loc;
  pending.push_back(std::move(d));
}

// Spinning: a thread whose last 64 accesses are loads or atomics of at most two addresses (a
// wait on a flag). It yields when its log grows (at 64, 128, 256, ... records of an interval,
// the out-of-line path the inline append takes anyway), so a producer of its group runs and the
// wait ends (GroupRun::maybe_yield, group.cpp); the barrier-free fast path of other kernels is untouched. A wait nobody in the
// group can end still reaches the watchdog (LaunchConfig::watchdog_accesses).
bool GroupRun::spinning(const WarpLog::LaneLog& log) const {
  const std::size_t n = log.size();
  if (n < 64) return false;
  std::uint64_t a[2] = {~0ull, ~0ull};
  for (std::size_t k = n - 64; k < n; ++k) {
    const SiteKind kind = tags_[log[k] >> kTagShift].kind;
    if (kind != SiteKind::kGlobalLoad && kind != SiteKind::kSharedLoad && kind != SiteKind::kLoad &&
        kind != SiteKind::kGlobalAtomic && kind != SiteKind::kSharedAtomic)
      return false;
    const std::uint64_t x = log[k] & kAddrMask;
    if (x == a[0] || x == a[1]) continue;
    if (a[0] == ~0ull) a[0] = x;
    else if (a[1] == ~0ull) a[1] = x;
    else return false;
  }
  return true;
}

}  // namespace tgsim::detail

namespace tgsim::detail {

// Metal's threadgroup_barrier(flags). A barrier orders only the memory its flags name: one whose
// flags lack mem_device leaves device memory unordered for the checker (end_interval). Every
// thread of a threadgroup must reach each threadgroup_barrier: one that returned before it is
// undefined behaviour in Metal (the Metal Shading Language Specification, section 6.9.1), not
// the "exited threads count as arrived" of CUDA.
void GroupRun::metal_barrier(ThreadCtx& t, const std::source_location& loc, unsigned flags) {
  metal_barrier_ = true;
  if (!(flags & TGSIM_METAL_MEM_DEVICE)) device_unordered_ = true;
  barrier(t, loc);
}

// A release of a barrier Metal's threadgroup_barrier reached: the threads that returned before
// it (those outside a dispatchThreads grid never ran the kernel: not counted), once per group.
void GroupRun::note_metal_barrier() {
  metal_barrier_ = false;
  if (metal_exit_reported_) return;
  std::uint32_t returned = 0, waiting = 0;
  const Thread* first = nullptr;
  const Thread* waiter = nullptr;
  for (const Thread& th : threads_) {
    if (th.state != State::kExited) {
      ++waiting;
      if (!waiter) waiter = &th;
      continue;
    }
    const Dim3 pos = th.ctx.thread_id(), size = th.ctx.grid_threads_;
    if ((size.x && pos.x >= size.x) || (size.y && pos.y >= size.y) || (size.z && pos.z >= size.z)) continue;
    if (!returned++) first = &th;
  }
  if (!returned || !waiter) return;
  metal_exit_reported_ = true;
  const std::source_location& at = waiter->wait_loc;
  add_finding(first->ctx, FindingKind::kBarrierDivergence, at,
              std::to_string(waiting) + " of " + std::to_string(waiting + returned) +
                  " threads reached the threadgroup_barrier at " +
                  where_of(SiteInfo{at.file_name(), at.line(), 0, SiteKind::kBarrier}) + "; the others (" +
                  std::to_string(returned) + ") returned before it (first: thread " +
                  first->ctx.thread_idx.str() + "); in Metal every thread of a threadgroup must reach "
                  "each threadgroup_barrier, so this is undefined behaviour (on the GPU the "
                  "threadgroup may hang or go on); tgsim let the threads that reached it go on");
}

}  // namespace tgsim::detail
