// A cooperative launch (LaunchConfig::cooperative): groups that meet at grid.sync().
// On the GPU every block of such a launch is resident at once, so a grid sync can wait for
// all of them; the runtime refuses a grid larger than the device holds at once
// (cudaErrorCooperativeLaunchTooLarge), and so does tgsim, from the same occupancy rule.
// The groups run on the launching thread in phases: in each, every group that has not ended
// runs, in group order, until it ends or parks at a grid sync (GroupRun::run_phase). A group
// parks by copying its threads' frames off one set of stacks that all groups share (thread i
// of every group runs on stack i: Fiber::use_stack), so a grid of 132 x 2048 threads needs
// the stacks of one group, not of every thread. When every group has parked, the next phase
// releases each one's grid sync. A group that ends while others wait at a grid sync leaves
// them waiting forever on the GPU: a finding at the sync, and the waiting groups are ended.
// Order: group, then phase: the same counts, findings and printf output for any run.
#include "engine/cooperative.hpp"

#include "engine/fiber.hpp"
#include "engine/group.hpp"
#include "engine/occupancy.hpp"

namespace tgsim::detail {

namespace {

// One stack per thread of a group, shared by every group of the launch.
class SharedStacks {
 public:
  SharedStacks(std::size_t n, std::size_t bytes) : bytes_(bytes) {
    tops_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) tops_.push_back(take_stack(bytes));
  }
  ~SharedStacks() {
    for (void* t : tops_) give_stack(t, bytes_);
  }
  SharedStacks(const SharedStacks&) = delete;
  SharedStacks& operator=(const SharedStacks&) = delete;
  const std::vector<void*>& tops() const { return tops_; }

 private:
  std::size_t bytes_;
  std::vector<void*> tops_;
};

}  // namespace

void check_cooperative(const LaunchState& st) {
  const LaunchConfig& cfg = st.cfg;
  const DeviceProfile& p = st.profile;
  const int per_sm = blocks_per_sm(p, static_cast<int>(cfg.block.volume()), st.shared_bytes);
  const std::uint64_t most = static_cast<std::uint64_t>(per_sm) * p.sm_count;
  if (cfg.grid.volume() > most)
    throw LaunchError("cooperative launch of " + std::to_string(cfg.grid.volume()) + " blocks: " +
                      p.name + " holds at most " + std::to_string(most) + " blocks of " +
                      std::to_string(cfg.block.volume()) + " threads and " +
                      std::to_string(st.shared_bytes) + " bytes of shared memory at once (" +
                      std::to_string(per_sm) + " per SM x " + std::to_string(p.sm_count) +
                      " SMs), and every block of a grid sync must be resident "
                      "(cudaErrorCooperativeLaunchTooLarge)");
  if (cfg.check)
    throw LaunchError("the checker does not model grid.sync() yet: a cooperative launch runs "
                      "without it (tgsim run, not check; TGSIM_CHECK unset)");
}

std::vector<std::unique_ptr<GroupRun>> run_cooperative(LaunchState& st, const std::function<void()>& group_done) {
  const std::uint64_t n = st.cfg.grid.volume();
  std::vector<std::unique_ptr<GroupRun>> runs(n);
  SharedStacks stacks(st.cfg.block.volume(), st.cfg.stack_bytes);
  std::vector<std::uint64_t> live(n), waiting, ended;
  for (std::uint64_t g = 0; g < n; ++g) live[g] = g;
  // Ends every parked group (a grid sync nobody releases, or a kernel error elsewhere).
  auto end_waiting = [&](const std::string& why) {
    for (std::uint64_t g : waiting) runs[g]->end_at_grid_sync(g == waiting.front() ? why : std::string());
    waiting.clear();
  };
  try {
    for (bool first = true; !live.empty(); first = false) {
      waiting.clear();
      ended.clear();
      for (std::uint64_t g : live) {
        if (!runs[g]) {
          runs[g] = std::make_unique<GroupRun>(st);
          runs[g]->use_stacks(stacks.tops());
        }
        if (runs[g]->run_phase(g, first) == GroupRun::PhaseEnd::kAtGridSync) {
          waiting.push_back(g);
        } else {
          ended.push_back(g);
          group_done();
        }
      }
      if (st.error) {
        end_waiting("");
        break;
      }
      if (!waiting.empty() && !ended.empty()) {
        const Dim3 b = unlinearise(ended.front(), st.cfg.grid);
        end_waiting("grid.sync(): " + std::to_string(waiting.size()) + " of " + std::to_string(n) +
                    " blocks wait here while block " + b.str() +
                    (ended.size() > 1 ? " and " + std::to_string(ended.size() - 1) + " more" : std::string()) +
                    " ended without reaching it; on the GPU the launch would hang; the waiting "
                    "groups were ended");
        break;
      }
      live.swap(waiting);
    }
  } catch (...) {
    end_waiting("");
    throw;
  }
  return runs;
}

}  // namespace tgsim::detail
