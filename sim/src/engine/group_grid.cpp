// grid.sync() in a group: the group's side of a cooperative launch (cooperative.cpp runs the
// phases). A grid sync is a barrier of the group that, once every live thread waits at it,
// parks the group instead of releasing it: the threads' frames are copied off the launch's
// shared stacks and the next group runs. When every group has parked, each is resumed in turn
// and its grid sync released. On the GPU, cooperative_groups' grid sync is a __syncthreads(),
// thread 0's arrival on a grid-wide counter (an atomic, then a spin until every block arrived)
// and a second __syncthreads() (nvcc 13's PTX for sm_90: barrier.sync 0, atom.add.release.gpu
// by thread 0, a loop of ld.acquire.gpu, barrier.sync 0): tgsim counts the two BARs per warp and
// the atomic, one 4-byte global atomic per group at the grid sync's line; the spin's loads,
// whose number depends on timing, are not counted.
#include "engine/group.hpp"
#include "engine/group_internal.hpp"

namespace tgsim::detail {

namespace {
alignas(32) std::uint32_t grid_arrival_word;  // stands for the grid's counter (its sector)
}  // namespace

void GroupRun::use_stacks(const std::vector<void*>& tops) {
  for (std::uint32_t i = 0; i < nthreads_; ++i) threads_[i].fiber.use_stack(tops[i]);
  parked_.resize(nthreads_);
}

GroupRun::PhaseEnd GroupRun::run_phase(std::uint64_t g, bool first) {
  if (first) {
    start(g);
  } else {
    for (std::uint32_t i = 0; i < nthreads_; ++i) threads_[i].fiber.unpark(parked_[i]);
    if (counting_) {  // the first BAR, thread 0's atomic; release_barrier counts the second BAR
      count_barriers_at_waits();
      const std::uint32_t site = tags_[tags_.tag(threads_[0].wait_loc, SiteKind::kGlobalAtomic, 4) >> kTagShift].site;
      std::uint64_t addr[32] = {reinterpret_cast<std::uint64_t>(&grid_arrival_word)};
      count_instruction(site, SiteKind::kGlobalAtomic, 4, 1u, addr, 0);
    }
    grid_arrived_ = 0;
    release_barrier();
  }
  run_schedule();
  if (stuck_ && !aborting_) {  // a spin on another group's flag: groups here take turns only at grid.sync()
    end_stuck("spins on one address that no thread of its group sets; in a cooperative launch tgsim "
              "runs the other groups only while this one waits at grid.sync(), so the group was ended");
    return PhaseEnd::kEnded;
  }
  if (at_grid_sync_ && !aborting_) {
    at_grid_sync_ = false;
    // Thread 0 makes the block's arrival on the GPU: if it exited, the block never arrives.
    if (threads_[0].state == State::kExited) {
      const Thread* waiter = nullptr;
      for (const Thread& th : threads_)
        if (th.state == State::kWaiting) {
          waiter = &th;
          break;
        }
      add_finding(threads_[0].ctx, FindingKind::kBarrierDivergence, waiter->wait_loc,
                  "thread (0,0,0) of block " + threads_[0].ctx.block_idx.str() +
                      " exited while the block's other threads wait at grid.sync() at " +
                      where(waiter->wait_loc) +
                      ": on the GPU thread 0 makes the block's arrival at the grid sync, so "
                      "the launch would hang; the group was ended");
      aborting_ = true;
      finish();
      return PhaseEnd::kEnded;
    }
    for (std::uint32_t i = 0; i < nthreads_; ++i) threads_[i].fiber.park(parked_[i]);
    return PhaseEnd::kAtGridSync;
  }
  finish();
  return PhaseEnd::kEnded;
}

void GroupRun::end_at_grid_sync(const std::string& why) {
  for (std::uint32_t i = 0; i < nthreads_; ++i) threads_[i].fiber.unpark(parked_[i]);
  if (!why.empty())
    for (const Thread& th : threads_)
      if (th.state == State::kWaiting) {
        add_finding(th.ctx, FindingKind::kBarrierDivergence, th.wait_loc, why);
        break;
      }
  aborting_ = true;
  finish();
}

void GroupRun::grid_barrier(ThreadCtx& t, const std::source_location& loc) {
  if (aborting_) throw AbortGroup{};
  if (!state_.cfg.cooperative) {
    add_finding(t, FindingKind::kBarrierDivergence, loc,
                "grid.sync() in a launch that is not cooperative: the grid's blocks need not be "
                "resident together, so on the GPU it is undefined (launch with "
                "cudaLaunchCooperativeKernel, or `tgsim run --cooperative`); the group was ended");
    aborting_ = true;
    throw AbortGroup{};
  }
  ++grid_arrived_;
  Thread& th = thread_of(t);
  th.at_grid = true;
  barrier(t, loc);
  th.at_grid = false;
}

// Some threads wait at grid.sync(), others at another barrier (or another grid sync): the
// block can take neither, so the group ends.
void GroupRun::report_grid_divergence() {
  const Thread *grid = nullptr, *other = nullptr;
  std::uint32_t at_grid = 0, elsewhere = 0;
  for (const Thread& th : threads_) {
    if (th.state != State::kWaiting) continue;
    if (th.at_grid && (!grid || same_site(th.wait_loc, grid->wait_loc))) {
      ++at_grid;
      if (!grid) grid = &th;
    } else {
      ++elsewhere;
      if (!other) other = &th;
    }
  }
  if (!grid || !other) return report_divergence(false);
  add_finding(other->ctx, FindingKind::kBarrierDivergence, grid->wait_loc,
              std::to_string(at_grid) + " of " + std::to_string(nthreads_) + " threads wait at grid.sync() at " +
                  where(grid->wait_loc) + " while " + std::to_string(elsewhere) + " wait at " +
                  (other->at_grid ? "grid.sync() at " : "the barrier at ") + where(other->wait_loc) +
                  " (first: thread " + other->ctx.thread_idx.str() + ", warp " + std::to_string(other->ctx.warp) +
                  "); a grid sync needs every live thread of the block, so the group was ended");
}

}  // namespace tgsim::detail
