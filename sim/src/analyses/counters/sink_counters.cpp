// The counters sink (sink_counters.hpp): one row per site, summed over the worker's warp
// instructions, then over the workers, then into the Report's per-site and launch counters.
#include "analyses/counters/sink_counters.hpp"

#include <algorithm>
#include <bit>
#include <tuple>

namespace tgsim::detail {

CounterSink::CounterSink(LaunchState& st, const SinkEnv&)
    : geo_{st.profile.shared_banks, st.profile.bank_bytes, st.profile.sector_bytes},
      global_by_cache_(st.cfg.cache_model),
      sites_(&st.sites) {}

// A global atomic: the sectors by model::global_atomic_sectors, or, where nvcc aggregates the
// warp to one lane (a site the pass marked), one lane's access of one sector.
void CounterSink::count_global_atomic(const WarpInstruction& in, AccessCounters& c) {
  if (in.site >= aggregated_.size()) aggregated_.resize(in.site + 1, -1);
  std::int8_t& agg = aggregated_[in.site];
  if (agg < 0) agg = sites_->warp_aggregated(in.site) ? 1 : 0;
  const std::uint32_t lanes = agg ? 1 : static_cast<std::uint32_t>(std::popcount(in.mask));
  c.thread_accesses += lanes;
  c.instructions += 1;
  c.bytes += std::uint64_t(lanes) * in.width;
  c.sectors += agg ? 1 : model::global_atomic_sectors(model::WarpAccess{in.mask, in.width, in.addr, in.spread}, geo_);
}

void CounterSink::Total::add(const CounterSink& w, MergeContext& m) {
  for (std::size_t i = 0; i < w.acc_.size(); ++i) {
    m.acc[i].c += w.acc_[i].c;
    m.acc[i].barriers += w.acc_[i].barriers;
    m.acc[i].warp_ops += w.acc_[i].warp_ops;
  }
}

// Every site with a count becomes a row of the Report, and its share of the launch's counters
// (by its kind) is added to them.
void CounterSink::Total::finish(MergeContext& m) {
  Report& r = m.report;
  for (std::size_t i = 0; i < m.infos.size(); ++i) {
    const SiteInfo& s = m.infos[i];
    const SiteAcc& a = m.acc[i];
    if (a.c.instructions == 0 && a.barriers == 0 && a.warp_ops == 0) continue;
    r.sites.push_back(SiteCounters{s.file, s.line, s.column, s.kind, a.c, a.barriers, a.warp_ops});
    Counters c;
    switch (s.kind) {
      case SiteKind::kGlobalLoad: c.global_load = a.c; break;
      case SiteKind::kGlobalStore: c.global_store = a.c; break;
      case SiteKind::kSharedLoad: c.shared_load = a.c; break;
      case SiteKind::kSharedStore: c.shared_store = a.c; break;
      case SiteKind::kGlobalAtomic: c.global_atomic = a.c; break;
      case SiteKind::kSharedAtomic: c.shared_atomic = a.c; break;
      case SiteKind::kConstantLoad: c.constant_load = a.c; break;
      case SiteKind::kBarrier: c.barriers = a.barriers; break;
      case SiteKind::kShuffle: c.shfl = a.warp_ops; break;
      case SiteKind::kVote: c.vote = a.warp_ops; break;
      case SiteKind::kWarpSync: c.warpsync = a.warp_ops; break;
      case SiteKind::kWarpReduce: c.warp_reduce = a.warp_ops; break;
      case SiteKind::kLoad:
      case SiteKind::kStore: break;  // placed as global or shared when counted
    }
    r.counters += c;
  }
  std::sort(r.sites.begin(), r.sites.end(), [](const SiteCounters& a, const SiteCounters& b) {
    return std::tie(a.file, a.line, a.column, a.kind) < std::tie(b.file, b.line, b.column, b.kind);
  });
  // One row per source position: a helper's access inlined at two call sites is two sites (two
  // instructions, as nvcc inlines it) at one line.
  std::vector<SiteCounters> rows;
  for (SiteCounters& s : r.sites) {
    if (!rows.empty() && std::tie(rows.back().file, rows.back().line, rows.back().column, rows.back().kind) ==
                             std::tie(s.file, s.line, s.column, s.kind)) {
      rows.back().counters += s.counters;
      rows.back().barriers += s.barriers;
      rows.back().warp_ops += s.warp_ops;
    } else {
      rows.push_back(std::move(s));
    }
  }
  r.sites.swap(rows);
}

}  // namespace tgsim::detail
