// The checker sink (LaunchConfig::check; the analysis is checker.hpp): it keeps each lane's
// stored bytes as the stores happen (note_store) and, when a barrier interval ends, reads the
// interval's accesses from the warps' logs in lockstep order and hands them to the Checker.
// Its totals are the launch's hazards, the grid-wide ones and the uninitialised global loads.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "checker.hpp"
#include "warp_instruction.hpp"

namespace tgsim::detail {

struct IntervalLogs;  // group.hpp
struct SharedDecl;

class CheckerSink {
 public:
  CheckerSink(LaunchState& st, const SinkEnv& env);
  bool on() const { return checker_ != nullptr; }
  // A store of `thread` (in its lane's log order): its bytes, and its shared words marked as
  // stored in this interval (the interval's reading then skips loads of words nobody stored).
  void note_store(std::uint32_t thread, SiteKind kind, std::uint64_t addr, std::uint32_t width,
                  const void* value) {
    values_[thread].push_back(fold_store_value(value, width));
    if (kind == SiteKind::kStore && addr - arena_ < shared_valid_) {
      kind = SiteKind::kSharedStore;  // front-end code: shared memory by its address
      addr -= arena_;
    }
    if (kind == SiteKind::kSharedStore || kind == SiteKind::kSharedAtomic)
      checker_->mark_shared_store(addr, width);
  }
  void on_group_start(std::uint64_t group, const std::deque<SharedDecl>* decls) {
    if (checker_) checker_->start_group(group, decls);
  }
  void on_instruction(const WarpInstruction&) {}
  void on_interval_end(const IntervalLogs& logs) {
    if (!checker_) return;
    read_interval(logs);
    checker_->end_interval();
  }
  void on_group_end(const IntervalLogs& logs) {
    if (!checker_) return;
    read_interval(logs);
    checker_->end_group();
  }

  struct Total {
    explicit Total(const LaunchState& st) : st(st) {}
    void add(const CheckerSink& worker, MergeContext& m);
    void finish(MergeContext& m);  // hazards between groups, global initcheck, the findings
    const LaunchState& st;
    HazardMap hazards;
    std::vector<UninitLoad> uninit;
  };

 private:
  void read_interval(const IntervalLogs& logs);
  std::unique_ptr<Checker> checker_;  // null unless cfg.check
  std::uint64_t arena_;
  std::size_t shared_valid_;
  std::vector<std::vector<std::uint64_t>> values_;  // per thread: stored bytes, in log order
};

}  // namespace tgsim::detail
