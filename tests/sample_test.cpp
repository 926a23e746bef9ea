// Sampling (LaunchConfig::sample, `tgsim run --sample P`): a stratified sample of the groups,
// the first and last always in, counters estimated for the whole launch with 95% intervals.
// Validated against full runs of regular catalog kernels: every counter within 1% at 2% of the
// groups, the interval covering the whole launch's value.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "dialect/cuda.hpp"
#include <tgsim/tgsim.hpp>

#include "catalog.hpp"

namespace {

std::vector<std::atomic<int>> seen(5000);
TG_KERNEL void mark_group() {
  if (threadIdx.x == 0) seen[blockIdx.x].fetch_add(1, std::memory_order_relaxed);
}

// Every counter of `c` by its JSON path (as Sampling::Interval names them).
std::vector<std::pair<std::string, std::uint64_t>> counters(const tgsim::Counters& c) {
  std::vector<std::pair<std::string, std::uint64_t>> v;
  tgsim::Counters::fields([&](const char* path, auto m) {
    using T = std::remove_cvref_t<decltype(c.*m)>;
    if constexpr (std::is_same_v<T, tgsim::AccessCounters>)
      tgsim::AccessCounters::fields(
          [&](const char* name, auto a) { v.emplace_back(std::string(path) + "." + name, (c.*m).*a); });
    else if constexpr (std::is_same_v<T, std::uint64_t>)
      v.emplace_back(path, c.*m);
  });
  return v;
}

TEST(Sample, RunsTheFirstAndLastGroupsAndAboutTheShareAsked) {
  tgsim::Device dev;
  tgsim::LaunchConfig cfg;
  cfg.grid = tgsim::Dim3(5000);
  cfg.block = tgsim::Dim3(32);
  cfg.sample = 0.02;
  for (auto& s : seen) s = 0;
  const tgsim::Report r = dev.launch(cfg, mark_group);
  ASSERT_TRUE(r.sampling.on);
  int ran = 0;
  for (auto& s : seen) ran += s.load() > 0;
  EXPECT_EQ(seen[0].load(), 1);
  EXPECT_EQ(seen[4999].load(), 1);
  EXPECT_EQ(std::uint64_t(ran), r.sampling.groups_simulated);
  EXPECT_EQ(r.sampling.groups_total, 5000u);
  EXPECT_GE(ran, 100);  // 2% of 5000
  EXPECT_LE(ran, 127);  // the first and last, 10 replicates of 10 of the others, a pilot of 25
  EXPECT_EQ(r.counters.global_load.instructions, 0u);
  EXPECT_NE(tgsim::to_json(r).find("\"sampled\""), std::string::npos);
  cfg.check = true;
  EXPECT_THROW(dev.launch(cfg, mark_group), tgsim::LaunchError);
  cfg.check = false;
  cfg.sample = 1.5;
  EXPECT_THROW(dev.launch(cfg, mark_group), tgsim::LaunchError);
}

// Regular kernels with edge groups (sizes that are no multiple of the tile): 2% of the groups
// give every counter within 1% of the full run, inside its interval; the same report twice.
TEST(Sample, TwoPercentOfRegularKernelsIsWithinOnePercent) {
  tgsim::Device dev;
  struct Case {
    const char* kernel;
    int n;
  };
  for (Case k : {Case{"matmul_tiled8", 500}, Case{"transpose_naive", 4000}, Case{"blur3x3", 2000},
                 Case{"reduce_shuffle", 1 << 23}}) {
    tgsim::catalog::RunOptions o;
    o.n = k.n;
    o.cache_model = false;
    const tgsim::Report full = tgsim::catalog::run(dev, k.kernel, o).report;
    o.sample = 0.02;
    const tgsim::Report s = tgsim::catalog::run(dev, k.kernel, o).report;
    ASSERT_TRUE(s.sampling.on) << k.kernel;
    const double share = double(s.sampling.groups_simulated) / double(s.sampling.groups_total);
    EXPECT_LE(share, 0.04) << k.kernel;  // 2%, at least 10 groups per edge stratum, the pilot
    std::printf("%s n=%d: %.2f%% of %llu groups\n", k.kernel, k.n, 100 * share,
                static_cast<unsigned long long>(s.sampling.groups_total));
    const auto want = counters(full.counters), got = counters(s.counters);
    double worst = 0;
    std::size_t covered_n = 0, nonzero = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      const double truth = double(want[i].second), est = double(got[i].second);
      if (truth) worst = std::max(worst, std::abs(est - truth) / truth);
      EXPECT_NEAR(est, truth, truth * 0.01) << k.kernel << " " << want[i].first;
      if (truth == 0) continue;
      bool covered = false;
      for (const tgsim::Sampling::Interval& iv : s.sampling.intervals)
        if (iv.counter == want[i].first) covered = iv.low <= truth && truth <= iv.high;
      EXPECT_TRUE(covered) << k.kernel << " " << want[i].first << " " << truth;
      covered_n += covered, ++nonzero;
    }
    std::printf("  largest error %.4f%%, %zu of %zu intervals cover the full run's value\n", 100 * worst, covered_n,
                nonzero);
    ASSERT_EQ(s.sites.size(), full.sites.size()) << k.kernel;
    for (std::size_t i = 0; i < s.sites.size(); ++i)
      EXPECT_NEAR(double(s.sites[i].counters.instructions), double(full.sites[i].counters.instructions),
                  double(full.sites[i].counters.instructions) * 0.01) << k.kernel << " " << s.sites[i].where();
    EXPECT_EQ(tgsim::to_json(tgsim::catalog::run(dev, k.kernel, o).report), tgsim::to_json(s)) << k.kernel;
  }
}

}  // namespace
