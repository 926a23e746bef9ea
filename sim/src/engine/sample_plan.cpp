// The strata, the replicates' groups and `--sample auto`'s share of a sampled launch
// (sample_plan.hpp; the method is in sample.cpp's header).
#include "engine/sample_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <tgsim/hash.hpp>

namespace tgsim::detail {

std::vector<Stratum> position_strata(const Dim3& grid) {
  auto ranges = [](std::uint32_t e) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> v{{0, 1}};
    if (e >= 3) v.push_back({1, e - 2});
    if (e >= 2) v.push_back({e - 1, 1});
    return v;
  };
  std::vector<Stratum> out;
  for (auto [z0, zn] : ranges(grid.z))
    for (auto [y0, yn] : ranges(grid.y))
      for (auto [x0, xn] : ranges(grid.x)) {
        const Dim3 extent(xn, yn, zn);
        out.push_back({Dim3(x0, y0, z0), extent, 0, extent.volume()});
      }
  return out;
}

PathSignature path_of(const Report& one_group) {
  PathSignature p;
  for (const SiteCounters& s : one_group.sites)
    if (s.counters.instructions || s.barriers || s.warp_ops) p.insert({s.file, s.line, s.column, int(s.kind)});
  return p;
}

namespace {

// The pilot of one stratum: its evenly spaced groups' paths, and a split wherever two
// neighbours differ (bisection while `budget` lasts). Returns the positions where new strata start.
std::vector<std::uint64_t> change_points(const Stratum& s, const Dim3& grid, std::uint64_t m,
                                         const std::function<PathSignature(std::uint64_t)>& path,
                                         std::set<std::uint64_t>& piloted, std::uint64_t& budget) {
  std::map<std::uint64_t, PathSignature> known;  // position in the stratum -> path
  auto at = [&](std::uint64_t j) -> const PathSignature& {
    auto it = known.find(j);
    if (it != known.end()) return it->second;
    const std::uint64_t g = s.group(j, grid);
    piloted.insert(g);
    return known.emplace(j, path(g)).first->second;
  };
  std::vector<std::uint64_t> pos;
  for (std::uint64_t i = 0; i < m; ++i) pos.push_back(i * (s.size() - 1) / (m - 1));
  std::vector<std::uint64_t> cuts;
  for (std::size_t i = 0; i + 1 < pos.size(); ++i) {
    std::uint64_t lo = pos[i], hi = pos[i + 1];
    const PathSignature first = at(lo);
    if (at(hi) == first) continue;
    while (hi - lo > 1 && budget > 0) {  // at(lo) is `first`, at(hi) is not
      const std::uint64_t mid = lo + (hi - lo) / 2;
      --budget;
      (at(mid) == first ? lo : hi) = mid;
    }
    cuts.push_back(hi);
  }
  return cuts;
}

}  // namespace

std::uint64_t pilot_size(std::uint64_t n, double p) {
  return static_cast<std::uint64_t>(std::clamp(std::ceil(p * double(n) / 4), 4.0, 64.0));
}

std::vector<Stratum> split_by_path(const std::vector<Stratum>& strata, const Dim3& grid, double p,
                                   const std::function<PathSignature(std::uint64_t)>& path,
                                   std::set<std::uint64_t>& piloted, std::uint32_t& splits) {
  std::vector<Stratum> out;
  std::uint64_t budget = kBisectLimit;
  for (const Stratum& s : strata) {
    if (s.size() < kPilotMinGroups) {
      out.push_back(s);
      continue;
    }
    std::uint64_t from = 0;
    for (std::uint64_t cut : change_points(s, grid, pilot_size(s.size(), p), path, piloted, budget)) {
      out.push_back({s.lo, s.extent, s.j0 + from, s.j0 + cut});
      from = cut;
      ++splits;
    }
    out.push_back({s.lo, s.extent, s.j0 + from, s.j1});
  }
  return out;
}

std::uint64_t Plan::runs() const {
  std::uint64_t n = whole_ids.size();
  for (const auto& rep : ids)
    for (const auto& v : rep) n += v.size();
  return n;
}

namespace {

// R for share p, and each stratum's k_h for it (0: the stratum runs whole).
std::pair<std::uint32_t, std::vector<std::uint64_t>> layout(const std::vector<Stratum>& strata, double p) {
  std::uint64_t largest = 0;
  for (const Stratum& s : strata) largest = std::max(largest, s.size());
  const auto r = static_cast<std::uint32_t>(std::clamp<double>(std::ceil(p * double(largest)), 2.0, double(kMaxReplicates)));
  std::vector<std::uint64_t> k;
  for (const Stratum& s : strata) {
    const auto kh = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(p * double(s.size()) / r)));
    k.push_back(r * kh >= s.size() ? 0 : kh);
  }
  return {r, k};
}

std::uint64_t planned_runs(const std::vector<Stratum>& strata, double p) {
  const auto [r, k] = layout(strata, p);
  std::uint64_t n = 0;
  for (std::size_t h = 0; h < strata.size(); ++h) n += k[h] ? r * k[h] : strata[h].size();
  return n;
}

}  // namespace

Plan draw_plan(const std::vector<Stratum>& strata, const Dim3& grid, double p, std::uint64_t seed) {
  Plan plan;
  const auto [r, k] = layout(strata, p);
  for (std::size_t h = 0; h < strata.size(); ++h) {
    if (k[h]) plan.sampled.push_back({strata[h], k[h]});
    else
      for (std::uint64_t j = 0; j < strata[h].size(); ++j) plan.whole_ids.push_back(strata[h].group(j, grid));
  }
  std::sort(plan.whole_ids.begin(), plan.whole_ids.end());
  plan.replicates = plan.sampled.empty() ? 0 : r;
  plan.ids.resize(plan.replicates);
  for (auto& rep : plan.ids)
    for (const auto& [s, kh] : plan.sampled) {
      const double u = double(splitmix64(seed) >> 11) * 0x1.0p-53;
      std::vector<std::uint64_t>& ids = rep.emplace_back();
      for (std::uint64_t j = 0; j < kh; ++j)
        ids.push_back(s.group(std::min<std::uint64_t>(s.size() - 1, static_cast<std::uint64_t>(
                                                                         (double(j) + u) * double(s.size()) / double(kh))),
                              grid));
      std::sort(ids.begin(), ids.end());
    }
  return plan;
}

double auto_share(const std::vector<Stratum>& strata, double target_groups) {
  double lo = 0, hi = 1;  // planned_runs grows with p: the largest p within the target
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    (double(planned_runs(strata, mid)) <= target_groups ? lo = mid : hi = mid);
  }
  return std::max(lo, 1e-9);  // (below the target's reach: the smallest sample, R = 2, k_h = 1)
}

double thread_events(const Counters& c) {
  double n = double(c.barriers + c.warpsync + c.shfl + c.vote + c.warp_reduce);
  for (const AccessCounters* a : {&c.global_load, &c.global_store, &c.shared_load, &c.shared_store,
                                  &c.global_atomic, &c.shared_atomic, &c.constant_load})
    n += double(a->thread_accesses);
  return n;
}

}  // namespace tgsim::detail
