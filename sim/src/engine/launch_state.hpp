// State shared by all workers during one launch: the source-site table, the first kernel
// exception, and the launch's parameters. Internal to the library.
#pragma once
#include <functional>
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <source_location>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <tgsim/kernel/abi.h>
#include <tgsim/launch.hpp>

#include "report/print_stream.hpp"

namespace tgsim::detail {

struct SiteInfo {
  std::string file;
  std::uint32_t line = 0, column = 0;
  SiteKind kind = SiteKind::kGlobalLoad;
  // A global atomic that nvcc turns into one lane's atomic (abi.h TGSIM_ATOMIC_WARP_AGGREGATED).
  bool warp_aggregated = false;
  // A store site of a compiled kernel file: whether its pass sites store constants of the
  // program (TGSIM_SITE_CONSTANT_VALUE) and/or other values. 0: not known (a C++ kernel).
  static constexpr std::uint8_t kConstantValue = 1, kDataValue = 2;
  std::uint8_t store_value = 0;
};

// Dense ids for (file, line, column, kind), shared by all workers of a launch.
class SiteTable {
 public:
  std::uint32_t id(const std::source_location& loc, SiteKind kind);
  std::vector<SiteInfo> snapshot() const;
  SiteInfo info(std::uint32_t id) const;
  void mark_warp_aggregated(std::uint32_t id);
  bool warp_aggregated(std::uint32_t id) const;
  void mark_store_value(std::uint32_t id, std::uint8_t bits);

 private:
  mutable std::mutex mu_;
  std::map<std::tuple<std::string, std::uint32_t, std::uint32_t, int>, std::uint32_t> ids_;
  std::vector<SiteInfo> sites_;
};

// Findings of one worker, grouped by (kind, site[s]); merged across workers after the launch.
struct FindingKey {
  int kind;
  std::string file;
  std::uint32_t line, column;
  std::string file2;  // a hazard's second site
  std::uint32_t line2 = 0, column2 = 0;
  bool grid = false;  // a hazard between two threadgroups
  auto operator<=>(const FindingKey&) const = default;
};
struct FindingAgg {
  Finding finding;  // the example and the running count
  // The example's (group, other group, thread, other thread, word): the smallest wins.
  std::tuple<std::uint64_t, std::uint64_t, std::uint32_t, std::uint32_t, std::uint64_t> order{};
};
using FindingMap = std::map<FindingKey, FindingAgg>;

// Merges one worker's aggregates into the launch's, for findings and the checker's hazards
// alike: the counts add up and the example with the smallest `order` wins, so the result does
// not depend on which worker ran which group. count(agg) names the aggregate's count.
template <class Map, class Count>
void merge_examples(Map& into, const Map& from, Count count) {
  for (const auto& [key, agg] : from) {
    auto [it, inserted] = into.try_emplace(key, agg);
    if (inserted) continue;
    const std::uint64_t total = count(it->second) + count(agg);
    if (agg.order < it->second.order) it->second = agg;
    count(it->second) = total;
  }
}
inline void merge_findings(FindingMap& into, const FindingMap& from) {
  merge_examples(into, from, [](auto& a) -> auto& { return a.finding.count; });
}

// Global atomics in group order (LaunchConfig::check with more than one worker): a group's
// global atomic waits until every lower group has ended or is parked (stuck waiting for a
// higher one: coresident.cpp, where group_done is called too), so atomics between groups take effect
// in group order, as on one worker (and as on a GPU that runs its blocks one after another, a
// legal order). What depends on their order (the ticket of a last-block reduction, the slot a
// counter hands out) and every finding that follows from it are then the same for any worker
// count and run. Groups are dispatched in group order meanwhile (launch.cpp), so the lowest
// group that has not ended is running and never waits: no deadlock.
class AtomicOrder {
 public:
  // `first`: the lowest group of the launch's slice (LaunchConfig::slice); those below never run.
  AtomicOrder(std::uint64_t groups, std::uint64_t first) : done_(groups, 0), frontier_(first) {
    std::fill(done_.begin(), done_.begin() + static_cast<std::ptrdiff_t>(first), std::uint8_t(1));
  }
  // Returns at once once the groups below `group` have ended (one load), or when a lower
  // group threw (stop_after below `group`: the launch's report is dropped).
  void wait_turn(std::uint64_t group, const std::atomic<std::uint64_t>& stop_after) {
    if (frontier_.load(std::memory_order_acquire) >= group) return;
    wait_slow(group, stop_after);
  }
  void group_done(std::uint64_t group);

 private:
  void wait_slow(std::uint64_t group, const std::atomic<std::uint64_t>& stop_after);
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::uint8_t> done_;
  std::atomic<std::uint64_t> frontier_{0};  // every group below it has ended
};

class GridShadow;
struct LaunchFootprint;
class SmReplay;

struct LaunchState {
  LaunchState(const DeviceProfile& p, const LaunchConfig& c, KernelFn f,
              const std::vector<BufferSpan>& b);
  ~LaunchState();
  const DeviceProfile& profile;
  const LaunchConfig& cfg;
  KernelFn fn;
  const std::vector<BufferSpan>& buffers;  // the launch's device buffers (for the checker)
  // The analyses' launch-wide state, made by start_analyses (engine/analyses.hpp); shared_ptr:
  // released here, where their types are not known.
  std::shared_ptr<GridShadow> grid;        // global words across groups (cfg.check only)
  std::shared_ptr<LaunchFootprint> footprint;  // unique DRAM chunks and sectors (cfg.cache_model)
  std::shared_ptr<SmReplay> sm_replay;         // the SMs' L1s, fed in group order (cfg.cache_model)
  std::unique_ptr<AtomicOrder> atomic_order;   // cfg.check on several workers
  SiteTable sites;
  std::unique_ptr<PrintStream> print;  // the kernel's printf output (cfg.print_out or collected)
  // A kernel compiled by tgsim's front end: its accesses are placed by address, and
  // shared_bytes (static + dynamic) of the group's arena are valid.
  bool frontend = false;
  std::size_t shared_bytes = 0;
  std::size_t dynamic_offset = 0;  // where the kernel's extern __shared__ arrays start
  const tgsim_kernel_desc* kernel = nullptr;  // the front-end kernel (its shared arrays)
  // Groups after the lowest group that threw are skipped; lower ones still run, so the
  // exception rethrown is the same for any worker count.
  std::atomic<std::uint64_t> stop_after{std::numeric_limits<std::uint64_t>::max()};
  std::mutex error_mu;
  std::exception_ptr error;
  std::uint64_t error_group = std::numeric_limits<std::uint64_t>::max();

  void kernel_threw(std::uint64_t group, std::exception_ptr e);
};

// The groups a launch runs: [first, last) (the grid, or a slice of it), or, when `ids` is set,
// those ids (ascending: a sample, sample.cpp; neither the cache model nor the checker runs).
struct GroupList {
  std::uint64_t first = 0, last = 0;
  const std::vector<std::uint64_t>* ids = nullptr;
  std::uint64_t size() const { return ids ? ids->size() : last - first; }
  std::uint64_t operator[](std::uint64_t i) const { return ids ? (*ids)[i] : first + i; }
};
// The launch after validation (launch.cpp), over `groups`.
Report run_groups(const DeviceProfile& profile, const LaunchConfig& cfg, KernelFn fn,
                  const std::vector<BufferSpan>& buffers, const GroupList& groups);
// LaunchConfig::sample: the sampled launch and its estimates (sample.cpp).
// `group0`: `--sample auto`'s pilot, group 0's run (its buffers' writes kept), reused.
Report run_sampled(const DeviceProfile& profile, const LaunchConfig& cfg, KernelFn fn,
                   const std::vector<BufferSpan>& buffers, const Report* group0 = nullptr);
// LaunchConfig::sample_auto: group 0 alone, then `run_whole()` (the buffers put back) or a sample.
Report run_auto(const DeviceProfile& profile, const LaunchConfig& cfg, KernelFn fn,
                const std::vector<BufferSpan>& buffers, const std::function<Report()>& run_whole);

}  // namespace tgsim::detail
