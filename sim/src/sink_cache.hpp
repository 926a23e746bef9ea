// The cache-model sink (LaunchConfig::cache_model; the model is cache.hpp): global loads and
// stores go through the worker's current SM's L1 at the simulated device addresses; it counts
// their sectors and L1 hits per site, and its totals give L2 sectors and, from the launch-wide
// footprint (LaunchState::footprint), DRAM bytes.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "cache.hpp"
#include "device_memory.hpp"
#include "warp_instruction.hpp"

namespace tgsim::detail {

struct IntervalLogs;
struct SharedDecl;

class CacheSink {
 public:
  CacheSink(LaunchState& st, const SinkEnv& env);
  bool on() const { return sim_ != nullptr; }
  // The worker moves on to the next SM's groups (cold L1), adding to the launch's footprint.
  void begin_sm(LaunchFootprint& f) { sim_->begin_sm(f); }
  void on_group_start(std::uint64_t, const std::deque<SharedDecl>*) {}
  void on_instruction(const WarpInstruction& in) {
    if (sim_ && (in.kind == SiteKind::kGlobalLoad || in.kind == SiteKind::kGlobalStore)) count(in);
  }
  void on_interval_end(const IntervalLogs&) {}
  void on_group_end(const IntervalLogs&) {}

  struct Total {
    explicit Total(const LaunchState&) {}
    void add(const CacheSink& worker, MergeContext& m);
    void finish(MergeContext& m);  // L2 sectors, and DRAM from the launch's footprint
    std::uint64_t l2_read = 0, l2_write = 0;
  };

 private:
  void count(const WarpInstruction& in);
  // The lanes' simulated device addresses (DeviceRange::device_begin), in `out`; host
  // addresses no allocation holds stay as they are. *out_spread: their spread where the
  // lanes' `spread` carries over (sink_cache.cpp), else model::kUnknownSpread.
  const std::uint64_t* device_addresses(std::uint32_t mask, const std::uint64_t* addr, std::uint32_t width,
                                        std::uint64_t spread, std::uint64_t* out, std::uint64_t* out_spread);
  std::unique_ptr<CacheSim> sim_;  // null unless cfg.cache_model
  RangeCache ranges_;
  struct Row {
    std::uint64_t sectors = 0, l1_hits = 0;
  };
  std::vector<Row> rows_;  // per site id
};

}  // namespace tgsim::detail
