// A sampled launch (LaunchConfig::sample, `tgsim run --sample P`): the counters of a whole
// launch estimated from a stratified sample of its threadgroups, with 95% intervals.
// The design (survey sampling's "random groups" method over stratified systematic samples):
// - strata by position in the grid: in each dimension the first index, the inner ones and the
//   last (where bounds checks and halos make edge groups take other branches), up to 27 strata
//   (corners, edges, faces, interior); the first and last groups are one-group strata;
// - a stratum of N_h groups gets k_h = ceil(P N_h / R) groups in each of R = 10 independent
//   replicates, a systematic sample in its linear order: floor((j + u) N_h / k_h), j = 0 ..
//   k_h-1, u uniform in [0, 1) (seeded), every group with probability k_h / N_h, so (N_h / k_h)
//   x the replicate's sum is an unbiased estimate of the stratum's total; a stratum with R k_h
//   >= N_h (the first and last groups, small edges) runs whole, counted exactly;
// - the estimate is the whole strata's counts plus the mean of the R replicate estimates; its
//   standard error is the replicates' standard deviation / sqrt(R), and the interval
//   estimate +- t(0.975, R - 1) x error (Student's t, 9 degrees of freedom: 2.262).
// Strata by the branches groups take are not formed (only by position). Each (replicate,
// stratum) runs as one launch (run_groups over its ids), the whole strata as one more, without
// the cache model and the checker. A sample that would run a quarter of the groups or more runs
// the whole launch instead (as fast, exact, and in parallel), its intervals of width 0.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <type_traits>

#include <tgsim/hash.hpp>

#include "engine/group.hpp"

namespace tgsim::detail {

namespace {

constexpr std::uint32_t kReplicates = 10;
constexpr double kT975 = 2.2621571628;  // Student's t, 0.975 quantile, 9 degrees of freedom

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

// A stratum: the groups lo + [0, extent) of the grid, in linear order.
struct Stratum {
  Dim3 lo, extent;
  std::uint64_t size() const { return extent.volume(); }
  std::uint64_t group(std::uint64_t j, const Dim3& grid) const {
    const Dim3 i = unlinearise(j, extent);
    return linearise(Dim3(lo.x + i.x, lo.y + i.y, lo.z + i.z), grid);
  }
};

// First, inner and last indices of each dimension, crossed.
std::vector<Stratum> strata(const Dim3& grid) {
  auto ranges = [](std::uint32_t e) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> v{{0, 1}};
    if (e >= 3) v.push_back({1, e - 2});
    if (e >= 2) v.push_back({e - 1, 1});
    return v;
  };
  std::vector<Stratum> out;
  for (auto [z0, zn] : ranges(grid.z))
    for (auto [y0, yn] : ranges(grid.y))
      for (auto [x0, xn] : ranges(grid.x)) out.push_back({Dim3(x0, y0, z0), Dim3(xn, yn, zn)});
  return out;
}

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
    if (e.value != 0) intervals.push_back({path, e.value, std::max(whole.counters[i], e.value - kT975 * e.error),
                                           e.value + kT975 * e.error});
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

}  // namespace

Report run_sampled(const DeviceProfile& profile, const LaunchConfig& cfg_in, KernelFn fn,
                   const std::vector<BufferSpan>& buffers) {
  LaunchConfig cfg = cfg_in;
  cfg.cache_model = false;  // an SM's L1 would see only the sampled groups
  const std::uint64_t g = cfg.grid.volume();
  std::vector<std::uint64_t> whole_ids;  // the strata that run whole
  std::vector<std::pair<Stratum, std::uint64_t>> sampled;  // the others, with k_h
  for (const Stratum& s : strata(cfg.grid)) {
    const auto k = static_cast<std::uint64_t>(std::ceil(cfg.sample * double(s.size()) / kReplicates));
    if (kReplicates * std::max<std::uint64_t>(k, 1) >= s.size())
      for (std::uint64_t j = 0; j < s.size(); ++j) whole_ids.push_back(s.group(j, cfg.grid));
    else
      sampled.push_back({s, std::max<std::uint64_t>(k, 1)});
  }
  std::sort(whole_ids.begin(), whole_ids.end());
  // The sample: plan[r][h], replicate r's groups of sampled stratum h (ascending).
  std::vector<std::vector<std::vector<std::uint64_t>>> plan(sampled.empty() ? 0 : kReplicates);
  std::vector<std::uint64_t> all = whole_ids;
  std::uint64_t seed = 0x73616D706C65ull;  // "sample": the same sample every run
  for (auto& rep : plan)
    for (const auto& [s, k] : sampled) {
      const double u = double(splitmix64(seed) >> 11) * 0x1.0p-53;
      std::vector<std::uint64_t>& ids = rep.emplace_back();
      for (std::uint64_t j = 0; j < k; ++j)
        ids.push_back(s.group(std::min<std::uint64_t>(s.size() - 1, static_cast<std::uint64_t>(
                                                                        (double(j) + u) * double(s.size()) / double(k))),
                              cfg.grid));
      std::sort(ids.begin(), ids.end());
      all.insert(all.end(), ids.begin(), ids.end());
    }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  // Group runs (replicates may share groups) of a quarter of the launch or more: the whole
  // launch costs about as much, as its groups run in parallel where a replicate's stratum may be
  // one group on one worker, and it is exact.
  std::uint64_t runs = whole_ids.size();
  for (const auto& rep : plan)
    for (const auto& ids : rep) runs += ids.size();
  const bool whole_launch = 4 * runs >= g;
  if (whole_launch) plan.clear(), sampled.clear();
  std::vector<Report> parts{whole_launch ? run_groups(profile, cfg, fn, buffers, GroupList{0, g})
                                         : run_groups(profile, cfg, fn, buffers, GroupList{0, 0, &whole_ids})};
  Accum whole;
  whole.add(parts[0], 1.0);
  std::vector<Accum> reps(plan.size());
  for (std::size_t r = 0; r < plan.size(); ++r)
    for (std::size_t h = 0; h < sampled.size(); ++h) {
      parts.push_back(run_groups(profile, cfg, fn, buffers, GroupList{0, 0, &plan[r][h]}));
      reps[r].add(parts.back(), double(sampled[h].first.size()) / double(sampled[h].second));
    }
  Report r = parts[0];
  std::vector<Sampling::Interval> intervals = estimate_counters(r, whole, reps);
  estimate_sites(r, whole, reps);
  gather_findings(r, parts);
  r.sampling = Sampling{true, whole_launch ? g : all.size(), g, sampled.empty() ? 0 : kReplicates, std::move(intervals)};
  return r;
}

}  // namespace tgsim::detail
