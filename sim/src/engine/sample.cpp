// A sampled launch (LaunchConfig::sample, `tgsim run --sample P`, and `--sample auto`): the
// counters of a whole launch estimated from a stratified sample of its threadgroups, with 95%
// intervals. The design (survey sampling's "random groups" method over stratified systematic
// samples; sample_plan.cpp draws it):
// - strata by position in the grid: in each dimension the first index, the inner ones and the
//   last (where bounds checks and halos make edge groups take other branches), up to 27 strata
//   (corners, edges, faces, interior); the first and last groups are one-group strata;
// - strata by path (two-phase sampling for stratification): in each position stratum of 64
//   groups or more, a pilot of m evenly spaced groups (m = P N / 4, 4 to 64) runs one group at
//   a time and records its path, the set of source sites (accesses, barriers, warp operations)
//   it ran; between neighbouring pilot groups whose paths differ, bisection finds a group where
//   the path changes, and the stratum is cut there. The cuts depend only on the groups' own
//   behaviour and are made before the sample is drawn, so the estimate below stays unbiased
//   for any cuts; they only cut its variance. A run of groups on another path longer than
//   N / (m - 1) is always found; a shorter one may fall between pilot groups (then it is
//   sampled as part of its stratum, unbiased but with a wider interval);
// - R = ceil(P x the largest stratum) replicates, from 2 to 10; a stratum of N_h groups gets
//   k_h = ceil(P N_h / R) groups in each replicate, a systematic sample in its linear order:
//   floor((j + u) N_h / k_h), j = 0 .. k_h-1, u uniform in [0, 1) (from sample_seed), every
//   group with probability k_h / N_h, so (N_h / k_h) x the replicate's sum is an unbiased
//   estimate of the stratum's total; a stratum with R k_h >= N_h runs whole, counted exactly;
// - the estimate is the whole strata's counts plus the mean of the R replicate estimates; its
//   standard error is the replicates' standard deviation / sqrt(R), and the interval
//   estimate +- t(0.975, R - 1) x error (Student's t).
// Each (replicate, stratum) runs as one launch (run_groups over its ids), the whole strata as
// one more, without the cache model and the checker. A sample that would run a quarter of the
// groups or more runs the whole launch instead (as fast, exact, and in parallel), its
// intervals of width 0.
// `--sample auto` (run_auto): group 0 runs alone first, the writable buffers copied before it;
// a launch it predicts at LaunchConfig::auto_full_events thread events or fewer (or whose group
// 0 has a finding) gets its buffers back and runs whole, exact; a bigger one is sampled with the
// largest share whose plan (pilot included) runs about auto_target_events, group 0's run kept
// as the first group's stratum.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <type_traits>

#include <tgsim/hash.hpp>

#include "engine/group.hpp"
#include "engine/sample_plan.hpp"

namespace tgsim::detail {

namespace {

// Student's t, 0.975 quantile, 1 to 9 degrees of freedom.
constexpr double kT975[] = {0, 12.7062047362, 4.3026527297, 3.1824463053, 2.7764451052, 2.5705818366,
                            2.4469118511, 2.3646242516, 2.3060041352, 2.2621571628};

// Every counter of `c` in Counters::fields order (AccessCounters expanded), with its JSON path.
template <class F>
void each_counter(Counters& c, F&& f) {
  Counters::fields([&](const char* path, auto m) {
    using T = std::remove_cvref_t<decltype(c.*m)>;
    if constexpr (std::is_same_v<T, AccessCounters>)
      AccessCounters::fields([&](const char* name, auto a) { f(std::string(path) + "." + name, (c.*m).*a); });
    else if constexpr (std::is_same_v<T, std::uint64_t>)
      f(std::string(path), c.*m);
  });
}

std::vector<double> flatten(Counters c) {
  std::vector<double> v;
  each_counter(c, [&](const std::string&, std::uint64_t& x) { v.push_back(double(x)); });
  return v;
}
std::vector<double> flatten(SiteCounters s) {
  std::vector<double> v{double(s.barriers), double(s.warp_ops)};
  AccessCounters::fields([&](const char*, auto a) { v.push_back(double(s.counters.*a)); });
  return v;
}
void set_rounded(std::uint64_t& x, double v) { x = v <= 0 ? 0 : static_cast<std::uint64_t>(std::llround(v)); }
void unflatten(Counters& c, const std::vector<double>& v) {
  std::size_t i = 0;
  each_counter(c, [&](const std::string&, std::uint64_t& x) { set_rounded(x, v[i++]); });
}
void unflatten(SiteCounters& s, const std::vector<double>& v) {
  set_rounded(s.barriers, v[0]);
  set_rounded(s.warp_ops, v[1]);
  std::size_t i = 2;
  AccessCounters::fields([&](const char*, auto a) { set_rounded(s.counters.*a, v[i++]); });
}

// One value's estimate from the certainty stratum's count and the replicates' sums.
struct Estimate {
  double value, error;
};
// `reps`: the replicates' estimates of the sampled strata's total (none: every stratum whole).
Estimate estimate(double whole, const std::vector<double>& reps) {
  if (reps.size() < 2) return {whole + (reps.empty() ? 0.0 : reps[0]), 0.0};
  double mean = 0;
  for (double s : reps) mean += s;
  mean /= double(reps.size());
  double var = 0;
  for (double s : reps) var += (s - mean) * (s - mean);
  var /= double(reps.size() - 1);
  return {whole + mean, std::sqrt(var / double(reps.size()))};
}

using SiteKey = std::tuple<std::string, std::uint32_t, std::uint32_t, SiteKind>;

// Counters and sites summed with weights (a replicate's strata, each by N_h / k_h).
struct Accum {
  std::vector<double> counters;
  std::map<SiteKey, std::pair<SiteCounters, std::vector<double>>> sites;
  void add(const Report& r, double w) {
    const std::vector<double> c = flatten(r.counters);
    counters.resize(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) counters[i] += w * c[i];
    for (const SiteCounters& s : r.sites) {
      auto& [row, v] = sites.try_emplace(SiteKey{s.file, s.line, s.column, s.kind}, s, std::vector<double>()).first->second;
      const std::vector<double> f = flatten(s);
      v.resize(f.size());
      for (std::size_t i = 0; i < f.size(); ++i) v[i] += w * f[i];
    }
  }
};

// The launch's counters: the whole strata's plus the replicates' mean; the intervals of those
// not 0.
std::vector<Sampling::Interval> estimate_counters(Report& r, const Accum& whole, const std::vector<Accum>& reps) {
  std::vector<double> est(whole.counters.size());
  std::vector<Sampling::Interval> intervals;
  std::size_t i = 0;
  each_counter(r.counters, [&](const std::string& path, std::uint64_t&) {
    std::vector<double> v;
    for (const Accum& a : reps) v.push_back(a.counters.empty() ? 0 : a.counters[i]);
    const Estimate e = estimate(whole.counters[i], v);
    est[i] = e.value;
    // (the whole launch holds at least what the whole strata counted)
    const double t = kT975[std::min<std::size_t>(reps.size() < 2 ? 0 : reps.size() - 1, 9)];
    if (e.value != 0) intervals.push_back({path, e.value, std::max(whole.counters[i], e.value - t * e.error),
                                           e.value + t * e.error});
    ++i;
  });
  unflatten(r.counters, est);
  return intervals;
}

// Every site's counters estimated as the launch's (a site a replicate did not reach: 0 there).
void estimate_sites(Report& r, const Accum& whole, const std::vector<Accum>& reps) {
  std::map<SiteKey, SiteCounters> rows;
  auto collect = [&](const Accum& a) {
    for (const auto& [key, entry] : a.sites) rows.try_emplace(key, entry.first);
  };
  collect(whole);
  for (const Accum& a : reps) collect(a);
  r.sites.clear();
  for (auto& [key, row] : rows) {
    auto at = [&](const Accum& a, std::size_t f) {
      auto it = a.sites.find(key);
      return it == a.sites.end() ? 0.0 : it->second.second[f];
    };
    std::vector<double> v(flatten(row).size());
    for (std::size_t f = 0; f < v.size(); ++f) {
      std::vector<double> per;
      for (const Accum& a : reps) per.push_back(at(a, f));
      v[f] = estimate(at(whole, f), per).value;
    }
    unflatten(row, v);
    r.sites.push_back(row);  // map order: file, line, column, kind, as a launch sorts them
  }
}

// Findings and printed lines of the groups that ran (counts not scaled): the whole strata's
// first, then the replicates' in turn.
void gather_findings(Report& r, const std::vector<Report>& parts) {
  FindingMap findings;
  std::string printed;
  for (const Report& x : parts) {
    printed += x.printed;
    for (const Finding& f : x.findings) {
      const FindingKey key{int(f.kind), f.file, f.line, f.column, f.file2, f.line2, f.column2, !(f.block == f.block2)};
      auto [it, fresh] = findings.try_emplace(key, FindingAgg{f, {}});
      if (!fresh) it->second.finding.count += f.count;
    }
  }
  r.findings.clear();
  for (auto& [key, agg] : findings) r.findings.push_back(agg.finding);
  r.printed = printed;
}

// One group alone, no progress lines, its printf output kept in its report: a pilot's run.
Report run_one(const DeviceProfile& profile, LaunchConfig cfg, KernelFn fn, const std::vector<BufferSpan>& buffers,
               std::uint64_t g) {
  cfg.progress = false;
  cfg.print_out = nullptr;  // its printf output stays in its report (a pilot's is dropped)
  const std::vector<std::uint64_t> ids{g};
  return run_groups(profile, cfg, fn, buffers, GroupList{0, 0, &ids});
}

// The bytes of the buffers a launch may write, to put back (`--sample auto`'s pilot).
struct Snapshot {
  std::vector<std::pair<BufferSpan, std::vector<unsigned char>>> spans;
  explicit Snapshot(const std::vector<BufferSpan>& buffers) {
    for (const BufferSpan& b : buffers)
      if (!b.read_only && b.end > b.begin) {
        const auto* p = reinterpret_cast<const unsigned char*>(b.begin);
        spans.push_back({b, std::vector<unsigned char>(p, p + (b.end - b.begin))});
      }
  }
  void restore() const {
    for (const auto& [b, bytes] : spans) std::copy(bytes.begin(), bytes.end(), reinterpret_cast<unsigned char*>(b.begin));
  }
};

}  // namespace

Report run_sampled(const DeviceProfile& profile, const LaunchConfig& cfg_in, KernelFn fn,
                   const std::vector<BufferSpan>& buffers, const Report* group0) {
  LaunchConfig cfg = cfg_in;
  cfg.cache_model = false;  // an SM's L1 would see only the sampled groups
  const std::uint64_t g = cfg.grid.volume();
  std::set<std::uint64_t> piloted;
  if (group0) piloted.insert(0);
  Sampling info;
  // The pilot's size follows the share: asked, or for auto, first from the position strata.
  const std::vector<Stratum> by_position = position_strata(cfg.grid);
  const double per_group = group0 ? std::max(1.0, thread_events(group0->counters)) : 0.0;
  double p = group0 ? auto_share(by_position, cfg.auto_target_events / per_group) : cfg.sample;
  const std::vector<Stratum> strata = split_by_path(
      by_position, cfg.grid, p, [&](std::uint64_t id) { return path_of(run_one(profile, cfg, fn, buffers, id)); },
      piloted, info.path_splits);
  if (group0) {  // auto: a sample (pilot included) of about auto_target_events, at group 0's events per group
    info.full_events = per_group * double(g);
    p = auto_share(strata, std::max(0.0, cfg.auto_target_events / per_group - double(piloted.size())));
  }
  Plan plan = draw_plan(strata, cfg.grid, p, cfg.sample_seed);
  if (group0) plan.whole_ids.erase(std::remove(plan.whole_ids.begin(), plan.whole_ids.end(), 0), plan.whole_ids.end());
  std::set<std::uint64_t> all(piloted.begin(), piloted.end());
  all.insert(plan.whole_ids.begin(), plan.whole_ids.end());
  for (const auto& rep : plan.ids)
    for (const auto& ids : rep) all.insert(ids.begin(), ids.end());
  // Group runs (replicates may share groups) of a quarter of the launch or more: the whole
  // launch costs about as much, as its groups run in parallel where a replicate's stratum may be
  // one group on one worker, and it is exact.
  const bool whole_launch = 4 * (plan.runs() + piloted.size()) >= g;
  if (whole_launch) plan = Plan{}, plan.whole_ids = {};
  std::vector<Report> parts;
  if (group0) parts.push_back(*group0);
  if (whole_launch && !group0) parts.push_back(run_groups(profile, cfg, fn, buffers, GroupList{0, g}));
  else if (whole_launch) parts.push_back(run_groups(profile, cfg, fn, buffers, GroupList{1, g}));
  else parts.push_back(run_groups(profile, cfg, fn, buffers, GroupList{0, 0, &plan.whole_ids}));
  Accum whole;
  for (const Report& part : parts) whole.add(part, 1.0);
  std::vector<Accum> reps(plan.replicates);
  for (std::size_t r = 0; r < plan.ids.size(); ++r)
    for (std::size_t h = 0; h < plan.sampled.size(); ++h) {
      parts.push_back(run_groups(profile, cfg, fn, buffers, GroupList{0, 0, &plan.ids[r][h]}));
      reps[r].add(parts.back(), double(plan.sampled[h].first.size()) / double(plan.sampled[h].second));
    }
  Report r = parts[0];
  std::vector<Sampling::Interval> intervals = estimate_counters(r, whole, reps);
  estimate_sites(r, whole, reps);
  gather_findings(r, parts);
  info.on = true;
  info.groups_simulated = whole_launch ? g : all.size();
  info.groups_total = g;
  info.replicates = plan.replicates;
  info.automatic = group0 != nullptr;
  info.share_asked = p;
  info.strata = static_cast<std::uint32_t>(strata.size());
  info.pilot_groups = piloted.size();
  info.intervals = std::move(intervals);
  r.sampling = std::move(info);
  return r;
}

Report run_auto(const DeviceProfile& profile, const LaunchConfig& cfg, KernelFn fn,
                const std::vector<BufferSpan>& buffers, const std::function<Report()>& run_whole) {
  LaunchConfig pilot = cfg;
  pilot.cache_model = false;
  auto before = std::make_unique<Snapshot>(buffers);
  Report group0;
  try {
    group0 = run_one(profile, pilot, fn, buffers, 0);
  } catch (...) {  // the whole launch says what went wrong, as without a pilot
    before->restore();
    return run_whole();
  }
  if (thread_events(group0.counters) * double(cfg.grid.volume()) <= cfg.auto_full_events || !group0.findings.empty()) {
    before->restore();
    return run_whole();
  }
  before.reset();  // a sample keeps group 0's writes
  return run_sampled(profile, cfg, fn, buffers, &group0);
}

}  // namespace tgsim::detail
