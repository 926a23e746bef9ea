// The cache-model sink (LaunchConfig::cache_model; the model is cache.hpp): global loads and
// stores at the simulated device addresses. It counts their sectors per site as they come.
// A load goes through its SM's L1 (LaunchState::sm_replay) at once when the group owns that
// L1, else its sectors are recorded and replayed through it in group order later, counting
// the L1 hits per site then, by whichever worker replays. Its totals give L2 sectors and,
// from the launch-wide footprint (LaunchState::footprint), DRAM bytes.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "analyses/cache/cache.hpp"
#include "memory/device_memory.hpp"
#include "analyses/cache/sm_replay.hpp"
#include "stream/warp_instruction.hpp"

namespace tgsim::detail {

struct IntervalLogs;
struct SharedDecl;

class CacheSink {
 public:
  CacheSink(LaunchState& st, const SinkEnv& env);
  bool on() const { return sim_ != nullptr; }
  void on_group_start(std::uint64_t g, const std::deque<SharedDecl>*) {
    if (!sim_) return;
    group_ = g;
    record_.clear();
    reclaim_at_ = kReclaimWords;
    l1_ = sms_->claim(g);
  }
  void on_instruction(const WarpInstruction& in) {
    if (sim_ && (in.kind == SiteKind::kGlobalLoad || in.kind == SiteKind::kGlobalStore)) count(in);
  }
  void on_shared_rows(const SharedRows&) {}  // shared memory: not cached
  void on_store(std::uint32_t, SiteKind, std::uint64_t, std::uint32_t, const void*) {}
  void on_shuffle(std::uint32_t, const CollectiveOp&, const std::int64_t*, std::uint32_t, std::uint64_t, std::uint32_t) {}
  void on_interval_end(const IntervalLogs&) {}
  void on_group_end(const IntervalLogs&);
  bool wants_lanes() const { return false; }

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
  void replay(L1Cache& l1, const std::vector<std::uint64_t>& record);  // counts its hits
  void reclaim();  // the record is long: replay it now if the group's SM has become free
  std::unique_ptr<CacheSim> sim_;  // null unless cfg.cache_model
  SmReplay* sms_ = nullptr;        // the launch's SMs (with sim_)
  RangeCache ranges_;
  std::uint64_t group_ = 0;
  L1Cache* l1_ = nullptr;  // the group's SM's L1 while the group owns it (SmReplay::claim)
  // The group's loads not looked up yet, in flush order: per load (site << 8 | n), then its n
  // sectors. At reclaim_at_ words the group tries to claim its SM again.
  std::vector<std::uint64_t> record_;
  static constexpr std::size_t kReclaimWords = 1 << 16;  // 512 KiB
  std::size_t reclaim_at_ = kReclaimWords;
  struct Row {
    std::uint64_t sectors = 0, l1_hits = 0;
  };
  std::vector<Row> rows_;  // per site id
};

}  // namespace tgsim::detail
