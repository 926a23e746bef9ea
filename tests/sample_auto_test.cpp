// `--sample auto` (LaunchConfig::sample_auto) and the strata by path (sim/src/engine/sample.cpp):
// small launches stay exact (their pilot's writes put back), `check` never samples, seed 004's
// int matmul at n=1000 is sampled and its counters right, and a rare run of groups that takes
// another branch gets a stratum of its own.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "dialect/cuda.hpp"
#include <tgsim/tgsim.hpp>

#include "catalog.hpp"

namespace {

// Groups [lo, hi) take a branch with 64 more loads per thread.
TG_KERNEL void rare_path(TG_GLOBAL(const float) in, TG_GLOBAL(float) out, int lo, int hi, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = in[i];
  if (int(blockIdx.x) >= lo && int(blockIdx.x) < hi)
    for (int k = 1; k <= 64; ++k) acc += in[(i + 32 * k) % n];
  out[i] = acc;
}

tgsim::LaunchConfig config(std::uint32_t groups) {
  tgsim::LaunchConfig c;
  c.grid = tgsim::Dim3(groups);
  c.block = tgsim::Dim3(32);
  c.cache_model = false;
  return c;
}

TEST(SampleAuto, SmallCatalogLaunchesStayExact) {
  tgsim::Device dev;
  const std::set<std::string> big = {"int_matmul_global", "int_matmul_shared"};  // seed 004, n=1000
  for (const tgsim::catalog::Entry& e : tgsim::catalog::entries()) {
    if (big.count(e.name)) continue;
    tgsim::catalog::RunOptions o;
    const tgsim::catalog::Result exact = tgsim::catalog::run(dev, e.name, o);
    o.sample_auto = true;
    const tgsim::catalog::Result r = tgsim::catalog::run(dev, e.name, o);
    EXPECT_FALSE(r.report.sampling.on) << e.name;
    EXPECT_EQ(r.correct, exact.correct) << e.name;  // the pilot's writes were put back
    EXPECT_EQ(tgsim::to_json(r.report), tgsim::to_json(exact.report)) << e.name;
  }
}

// A pilot always runs (16 groups or more); in-place and atomic kernels show that its writes are
// put back before the whole launch runs.
TEST(SampleAuto, ThePilotsWritesArePutBack) {
  tgsim::Device dev;
  for (const char* name : {"add_bias", "histogram256", "relu"}) {
    tgsim::catalog::RunOptions o;
    o.n = 1024;
    o.sample_auto = true;
    const tgsim::catalog::Result r = tgsim::catalog::run(dev, name, o);
    EXPECT_FALSE(r.report.sampling.on) << name;
    EXPECT_TRUE(r.correct) << name;
  }
}

TEST(SampleAuto, SeedFourIntMatmulIsSampledAndRight) {
  tgsim::Device dev;
  tgsim::catalog::RunOptions o;  // n = 1000, the seed's size: 2 n^3 loads, 91.8 s in full before
  o.sample_auto = true;
  const tgsim::Report r = tgsim::catalog::run(dev, "int_matmul_global", o).report;
  ASSERT_TRUE(r.sampling.on);
  EXPECT_TRUE(r.sampling.automatic);
  EXPECT_EQ(r.sampling.groups_total, 32u);
  EXPECT_LE(r.sampling.groups_simulated, 6u);
  EXPECT_GT(r.sampling.full_events, 1.9e9);
  EXPECT_NEAR(double(r.counters.global_load.thread_accesses), 2e9, 2e7);
  EXPECT_NEAR(double(r.counters.global_store.thread_accesses), 1e6, 1e4);
  bool covered = false;
  for (const tgsim::Sampling::Interval& i : r.sampling.intervals)
    if (i.counter == "global.load.thread_accesses") covered = i.low <= 2e9 && 2e9 <= i.high;
  EXPECT_TRUE(covered);
  EXPECT_NE(tgsim::to_json(r).find("\"auto\": true"), std::string::npos);
}

// Lower thresholds make a small launch sample; the checker never does (`tgsim check` is exact).
TEST(SampleAuto, ThresholdsDecideAndCheckStaysExact) {
  tgsim::Device dev;
  const int groups = 2000, n = groups * 32;
  auto in = dev.alloc<float>(n, "in"), out = dev.alloc<float>(n, "out");
  tgsim::LaunchConfig c = config(groups);
  const tgsim::Report full = dev.launch(c, rare_path, in, out, 0, 0, n);
  c.sample_auto = true;
  c.auto_full_events = 1000;
  c.auto_target_events = 32 * 2 * 100;  // about 100 groups
  const tgsim::Report s = dev.launch(c, rare_path, in, out, 0, 0, n);
  ASSERT_TRUE(s.sampling.on);
  EXPECT_TRUE(s.sampling.automatic);
  EXPECT_LE(s.sampling.groups_simulated, 130u);
  EXPECT_GE(s.sampling.groups_simulated, 50u);
  EXPECT_EQ(s.counters.global_load.thread_accesses, full.counters.global_load.thread_accesses);
  c.check = true;
  const tgsim::Report checked = dev.launch(c, rare_path, in, out, 0, 0, n);
  EXPECT_FALSE(checked.sampling.on);
  EXPECT_EQ(checked.counters.global_load.thread_accesses, full.counters.global_load.thread_accesses);
  c.check = false;
  c.auto_full_events = 1e18;
  EXPECT_FALSE(dev.launch(c, rare_path, in, out, 0, 0, n).sampling.on);
}

// 300 of 5000 groups take a branch: the pilot (25 groups, one in 208) finds it, bisection finds its ends, and the run
// gets strata of its own, so 2% of the groups estimate its loads within 1% for every seed.
// (Position strata alone hit the run with 0 to 2 groups per replicate: errors of 30% and more.)
TEST(SampleAuto, ARareRunOfGroupsOnAnotherPathGetsItsOwnStratum) {
  tgsim::Device dev;
  const int groups = 5000, n = groups * 32, lo = 3000, hi = 3300;
  auto in = dev.alloc<float>(n, "in"), out = dev.alloc<float>(n, "out");
  const double truth = double(n) + double(hi - lo) * 32 * 64;
  tgsim::LaunchConfig c = config(groups);
  EXPECT_EQ(double(dev.launch(c, rare_path, in, out, lo, hi, n).counters.global_load.thread_accesses), truth);
  c.sample = 0.02;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    c.sample_seed = seed;
    const tgsim::Report r = dev.launch(c, rare_path, in, out, lo, hi, n);
    ASSERT_TRUE(r.sampling.on);
    EXPECT_GE(r.sampling.path_splits, 2u) << seed;
    EXPECT_LE(r.sampling.groups_simulated, std::uint64_t(0.04 * groups)) << seed;
    EXPECT_NEAR(double(r.counters.global_load.thread_accesses), truth, truth * 0.01) << seed;
  }
}

}  // namespace
