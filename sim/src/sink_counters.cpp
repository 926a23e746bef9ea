// The counters sink (sink_counters.hpp): one row per site, summed over the worker's warp
// instructions, then over the workers, then into the Report's per-site and launch counters.
#include "sink_counters.hpp"

#include <algorithm>
#include <bit>
#include <tuple>

namespace tgsim::detail {

CounterSink::CounterSink(LaunchState& st, const SinkEnv&)
    : geo_{st.profile.shared_banks, st.profile.bank_bytes, st.profile.sector_bytes},
      global_by_cache_(st.cfg.cache_model) {}

void CounterSink::on_instruction(const WarpInstruction& in) {
  if (in.site >= acc_.size()) acc_.resize(in.site + 1);
  SiteAcc& s = acc_[in.site];
  if (!in.addr) {  // a barrier or a warp collective
    (in.kind == SiteKind::kBarrier ? s.barriers : s.warp_ops) += in.ops;
    return;
  }
  count_memory(in, s.c);
}

void CounterSink::count_memory(const WarpInstruction& in, AccessCounters& c) {
  const std::uint32_t lanes = static_cast<std::uint32_t>(std::popcount(in.mask));
  c.thread_accesses += lanes;
  c.instructions += 1;
  c.bytes += std::uint64_t(lanes) * in.width;
  const model::WarpAccess a{in.mask, in.width, in.addr};
  switch (in.kind) {
    case SiteKind::kGlobalLoad:
    case SiteKind::kGlobalStore:
      if (!global_by_cache_) c.sectors += model::global_sectors(a, geo_);
      break;
    case SiteKind::kGlobalAtomic: c.sectors += model::global_sectors(a, geo_); break;
    case SiteKind::kSharedLoad:
    case SiteKind::kSharedStore: {
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
}

}  // namespace tgsim::detail
