// The counters sink: per-site sums of every warp instruction (lanes, bytes, instructions) and
// the bank/sector models' counts (models.hpp) in the profile's geometry, and the barriers and
// warp collectives. With the cache model on, the cache sink (sink_cache.hpp) counts global
// load and store sectors as it looks them up, and this sink leaves them out.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include <tgsim/models.hpp>

#include "warp_instruction.hpp"

namespace tgsim::detail {

struct IntervalLogs;
struct SharedDecl;

class CounterSink {
 public:
  CounterSink(LaunchState& st, const SinkEnv& env);
  void on_group_start(std::uint64_t, const std::deque<SharedDecl>*) {}
  void on_instruction(const WarpInstruction& in);
  void on_interval_end(const IntervalLogs&) {}
  void on_group_end(const IntervalLogs&) {}

  struct Total {
    explicit Total(const LaunchState&) {}
    void add(const CounterSink& worker, MergeContext& m);
    void finish(MergeContext& m);  // the Report's sites and counters
  };

 private:
  void count_memory(const WarpInstruction& in, AccessCounters& c);
  std::vector<SiteAcc> acc_;
  model::Geometry geo_;
  bool global_by_cache_;  // the cache sink counts global load/store sectors
};

}  // namespace tgsim::detail
