// The counters sink: per-site sums of every warp instruction (lanes, bytes, instructions) and
// the bank/sector models' counts (models.hpp) in the profile's geometry, and the barriers and
// warp collectives. With the cache model on, the cache sink (sink_cache.hpp) counts global
// load and store sectors as it looks them up, and this sink leaves them out. Inline, with the
// models' one-wavefront short cut inline too (model::one_shared_wavefront); the grouper's
// fast shared rows (one wavefront each) are counted per site in one step (on_shared_rows).
#pragma once
#include <bit>
#include <cstdint>
#include <deque>
#include <vector>

#include <tgsim/models.hpp>

#include "stream/warp_instruction.hpp"

namespace tgsim::detail {

struct IntervalLogs;
struct SharedDecl;

class CounterSink {
 public:
  CounterSink(LaunchState& st, const SinkEnv& env);
  void on_group_start(std::uint64_t, const std::deque<SharedDecl>*) {}
  void on_instruction(const WarpInstruction& in);
  // Counted as on_instruction would count the rows one by one.
  void on_shared_rows(const SharedRows& r);
  void on_store(std::uint32_t, SiteKind, std::uint64_t, std::uint32_t, const void*) {}
  void on_shuffle(std::uint32_t, const CollectiveOp&, const std::int64_t*, std::uint32_t, std::uint64_t, std::uint32_t) {}
  void on_interval_end(const IntervalLogs&) {}
  void on_group_end(const IntervalLogs&) {}
  bool wants_lanes() const { return false; }

  struct Total {
    explicit Total(const LaunchState&) {}
    void add(const CounterSink& worker, MergeContext& m);
    void finish(MergeContext& m);  // the Report's sites and counters
  };

 private:
  void count_memory(const WarpInstruction& in, AccessCounters& c);
  void count_global_atomic(const WarpInstruction& in, AccessCounters& c);
  std::vector<SiteAcc> acc_;
  const SiteTable* sites_;
  std::vector<std::int8_t> aggregated_;  // per site: -1 not yet asked, else SiteInfo::warp_aggregated
  model::Geometry geo_;
  bool global_by_cache_;  // the cache sink counts global load/store sectors
};

// Inline: the warp grouper's count_instruction inlines every sink's on_instruction.
inline void CounterSink::on_instruction(const WarpInstruction& in) {
  if (in.site >= acc_.size()) acc_.resize(in.site + 1);
  SiteAcc& s = acc_[in.site];
  if (!in.addr) {  // a barrier or a warp collective
    (in.kind == SiteKind::kBarrier ? s.barriers : s.warp_ops) += in.ops;
    return;
  }
  count_memory(in, s.c);
}

inline void CounterSink::on_shared_rows(const SharedRows& r) {
  const std::uint32_t site = r.site, width = r.width, rows = r.rows;
  if (site >= acc_.size()) acc_.resize(site + 1);
  AccessCounters& c = acc_[site].c;
  c.thread_accesses += std::uint64_t(32) * rows;
  c.instructions += rows;
  c.bytes += std::uint64_t(32) * width * rows;
  c.wavefronts += rows;
  c.ideal_wavefronts += rows;
}

inline void CounterSink::count_memory(const WarpInstruction& in, AccessCounters& c) {
  if (in.kind == SiteKind::kGlobalAtomic) return count_global_atomic(in, c);
  const std::uint32_t lanes = static_cast<std::uint32_t>(std::popcount(in.mask));
  c.thread_accesses += lanes;
  c.instructions += 1;
  c.bytes += std::uint64_t(lanes) * in.width;
  const model::WarpAccess a{in.mask, in.width, in.addr, in.spread};
  switch (in.kind) {
    case SiteKind::kGlobalLoad:
    case SiteKind::kGlobalStore:
      if (!global_by_cache_) c.sectors += model::global_sectors(a, geo_);
      break;
    case SiteKind::kSharedLoad:
    case SiteKind::kSharedStore: {
      if (model::one_shared_wavefront(a, geo_)) {
        c.wavefronts += 1;
        c.ideal_wavefronts += 1;
        break;
      }
      model::Wavefronts wf = model::shared_wavefronts(a, in.kind == SiteKind::kSharedLoad, geo_);
      c.wavefronts += wf.wavefronts;
      c.ideal_wavefronts += wf.ideal;
      break;
    }
    case SiteKind::kSharedAtomic: {
      model::Wavefronts wf = model::shared_atomic_wavefronts(a, geo_);
      c.wavefronts += wf.wavefronts;
      c.ideal_wavefronts += wf.ideal;
      break;
    }
    case SiteKind::kConstantLoad: c.distinct_addresses += model::distinct_addresses(a); break;
    default: break;
  }
}

}  // namespace tgsim::detail
