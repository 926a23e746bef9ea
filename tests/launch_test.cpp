// Launch validation (LaunchError before any thread runs), out-of-bounds findings, API misuse,
// and determinism of the whole report across worker counts and schedules.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include "dialect/cuda.hpp"
#include <tgsim/tgsim.hpp>

#include "catalog.hpp"

namespace {

using ::testing::HasSubstr;
using tgsim::Dim3;
using tgsim::FindingKind;

std::atomic<int> ran{0};
TG_KERNEL void count_threads() { ran.fetch_add(1, std::memory_order_relaxed); }

TG_KERNEL void too_much_shared(TG_GLOBAL(float) out) {
  TG_SHARED(float, small, [1024]);
  TG_SHARED(float, big, [11265]);  // 4096 + 45060 bytes: 4 bytes over 48 KiB
  small[0] = 1.0f;
  big[0] = 2.0f;
  out[0] = small[0] + big[0];
}

TG_KERNEL void read_one_past(TG_GLOBAL(const float) in, TG_GLOBAL(float) out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + 1];
}
constexpr int kReadOnePastLine = __LINE__ - 2;

TG_KERNEL void shared_one_past(TG_GLOBAL(float) out) {
  TG_SHARED(float, s, [64]);
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
}
constexpr int kSharedOnePastLine = __LINE__ - 2;

TG_KERNEL void shared_2d_oob(TG_GLOBAL(float) out) {
  TG_SHARED(float, tile, [32][33]);
  tile[threadIdx.y][threadIdx.x + 2] = 1.0f;  // x = 31 writes column 33, outside [0, 33)
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

TG_KERNEL void wild_indices(TG_GLOBAL(float) out) {
  if (threadIdx.x == 0) out[-1] = 1.0f;
  if (threadIdx.x == 1) out[1LL << 40] = 1.0f;
  if (threadIdx.x == 2) out[threadIdx.x] = 2.0f;
}

TG_KERNEL void through_null(TG_GLOBAL(float) p) { p[threadIdx.x] = 1.0f; }

tgsim::LaunchConfig cfg(Dim3 grid, Dim3 block, unsigned threads = 0) {
  tgsim::LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.threads = threads;
  return c;
}

void expect_launch_error(Dim3 grid, Dim3 block, const std::string& text) {
  tgsim::Device dev;
  ran = 0;
  try {
    dev.launch(cfg(grid, block), count_threads);
    ADD_FAILURE() << "no LaunchError for grid " << grid.str() << " block " << block.str();
  } catch (const tgsim::LaunchError& e) {
    EXPECT_THAT(e.what(), HasSubstr(text));
  }
  EXPECT_EQ(ran.load(), 0) << "a thread ran before the LaunchError";
}

TEST(Launch, BadDimensionsThrowBeforeAnyThreadRuns) {
  expect_launch_error(Dim3(1), Dim3(0), "every dimension must be at least 1");
  expect_launch_error(Dim3(0), Dim3(32), "every dimension must be at least 1");
  expect_launch_error(Dim3(1), Dim3(1025), "1025 threads; nvidia-h100 allows at most 1024 threads per threadgroup");
  expect_launch_error(Dim3(1), Dim3(33, 32), "1056 threads");
  expect_launch_error(Dim3(1), Dim3(1, 1, 65), "exceeds the limit (1024,1024,64)");
  expect_launch_error(Dim3(1, 65536), Dim3(32), "exceeds the limit (2147483647,65535,65535)");
}

TEST(Launch, LimitsThemselvesAreAccepted) {
  tgsim::Device dev;
  ran = 0;
  dev.launch(cfg(Dim3(2), Dim3(1024)), count_threads);
  EXPECT_EQ(ran.load(), 2048);
  ran = 0;
  dev.launch(cfg(Dim3(1), Dim3(1, 1, 64)), count_threads);
  EXPECT_EQ(ran.load(), 64);
}

// More worker threads than oneTBB allows: a LaunchError naming the value, before any thread runs
// (100,000 drew oneTBB's raw warning; stack_bytes limits: hostile_test).
TEST(Launch, TooManyWorkersIsALaunchError) {
  tgsim::Device dev;
  ran = 0;
  try {
    dev.launch(cfg(Dim3(1), Dim3(32), 100000), count_threads);
    ADD_FAILURE() << "no LaunchError for 100000 workers";
  } catch (const tgsim::LaunchError& e) {
    EXPECT_THAT(e.what(), HasSubstr("threads 100000 is too many: at most 256"));
  }
  EXPECT_EQ(ran.load(), 0);
  dev.launch(cfg(Dim3(1), Dim3(32), 2), count_threads);
  EXPECT_EQ(ran.load(), 32);
}

TEST(Launch, SharedMemoryOverTheProfileLimitIsALaunchError) {
  tgsim::Device dev;
  auto out = dev.alloc<float>(1, "out");
  try {
    dev.launch(cfg(Dim3(4), Dim3(32)), too_much_shared, out);
    ADD_FAILURE() << "no LaunchError";
  } catch (const tgsim::LaunchError& e) {
    EXPECT_THAT(e.what(), HasSubstr("'big'"));
    EXPECT_THAT(e.what(), HasSubstr("49156 bytes"));
    EXPECT_THAT(e.what(), HasSubstr("limit of 49152 bytes"));
  }
  EXPECT_EQ(out[0], 0.0f) << "the kernel body must not have run";
}

TEST(Launch, GlobalOutOfBoundsIsAFindingWithThreadBlockAndLine) {
  tgsim::Device dev;
  const int n = 300;
  auto in = dev.alloc<float>(n, "in"), out = dev.alloc<float>(n, "out");
  for (int i = 0; i < n; ++i) in[i] = float(i);
  auto r = dev.launch(cfg(Dim3(3), Dim3(128)), read_one_past, in, out, n);
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.kind, FindingKind::kOutOfBounds);
  EXPECT_EQ(f.line, static_cast<unsigned>(kReadOnePastLine));
  EXPECT_EQ(f.count, 1u);
  EXPECT_EQ(f.block, Dim3(2, 0, 0));
  EXPECT_EQ(f.thread, Dim3(43, 0, 0));  // i = 299
  EXPECT_EQ(f.warp, 1u);
  EXPECT_EQ(f.lane, 11u);
  EXPECT_THAT(f.message, HasSubstr("index 300 is outside buffer 'in' (300 elements of 4 bytes)"));
  EXPECT_EQ(out[298], 299.0f);  // the rest of the launch ran
  EXPECT_EQ(out[299], 0.0f);    // the dropped load yields 0
}

TEST(Launch, SharedOutOfBoundsIsAFinding) {
  tgsim::Device dev;
  auto out = dev.alloc<float>(64, "out");
  auto r = dev.launch(cfg(Dim3(2), Dim3(64)), shared_one_past, out);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].line, static_cast<unsigned>(kSharedOnePastLine));
  EXPECT_EQ(r.findings[0].count, 2u);
  EXPECT_EQ(r.findings[0].thread, Dim3(63, 0, 0));
  EXPECT_THAT(r.findings[0].message, HasSubstr("shared index 64 in dimension 1 of 's[64]' is outside [0, 64)"));
}

TEST(Launch, SharedOutOfBoundsPerDimension) {
  tgsim::Device dev;
  auto out = dev.alloc<float>(1024, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(32, 32)), shared_2d_oob, out);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].count, 32u);  // x = 31 in each of the 32 rows
  EXPECT_EQ(r.findings[0].thread, Dim3(31, 0, 0));
  EXPECT_THAT(r.findings[0].message, HasSubstr("shared index 33 in dimension 2 of 'tile[32][33]'"));
}

TEST(Launch, NegativeHugeAndNullIndicesAreFindings) {
  tgsim::Device dev;
  auto out = dev.alloc<float>(4, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), wild_indices, out);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_THAT(r.findings[0].message, HasSubstr("global index -1"));
  EXPECT_THAT(r.findings[1].message, HasSubstr("global index 1099511627776"));
  EXPECT_EQ(out[2], 2.0f);
  auto r2 = dev.launch(cfg(Dim3(1), Dim3(4)), through_null, tgsim::global_ptr<float>());
  ASSERT_EQ(r2.findings.size(), 1u);
  EXPECT_THAT(r2.findings[0].message, HasSubstr("null global pointer"));
  EXPECT_EQ(r2.findings[0].count, 4u);
}

TEST(Launch, KernelApiOutsideAKernelIsALogicError) {
  EXPECT_THROW(tgsim::this_thread(), std::logic_error);
  tgsim::Buffer<float> b(4, "b");
  tgsim::global_ptr<float> p = b;
  EXPECT_THROW((void)p[0], std::logic_error) << "subscripts need a running thread (findings name it)";
  EXPECT_THROW(tgsim::barrier(), std::logic_error);
}

// The same JSON, byte for byte, for 1, 2 and 8 worker threads and for every schedule.
TEST(Launch, ReportsAreIdenticalForAnyWorkerCountAndSchedule) {
  tgsim::Device dev;
  for (const char* k : {"matmul_tiled16", "transpose_shared", "matmul_naive"}) {
    std::string first;
    for (unsigned threads : {1u, 2u, 8u}) {
      for (auto s : {tgsim::Schedule::kInOrder, tgsim::Schedule::kReverse, tgsim::Schedule::kShuffle}) {
        tgsim::catalog::RunOptions o;
        o.n = 96;
        o.threads = threads;
        o.schedule = s;
        auto r = tgsim::catalog::run(dev, k, o);
        EXPECT_TRUE(r.correct);
        std::string j = tgsim::to_json(r.report);
        if (first.empty()) first = j;
        EXPECT_EQ(j, first) << k << " threads " << threads;
      }
    }
  }
  // Findings too: examples and counts do not depend on which worker ran which group.
  const int n = 5000;
  auto in = dev.alloc<float>(n, "in"), out = dev.alloc<float>(n, "out");
  std::string first;
  for (unsigned threads : {1u, 2u, 8u}) {
    auto c = cfg(Dim3(40), Dim3(128), threads);
    auto r = dev.launch(c, read_one_past, in, out, n);
    std::string j = tgsim::to_json(r);
    if (first.empty()) first = j;
    EXPECT_EQ(j, first) << threads << " threads";
  }
}

// LaunchTiming (tgsim bench's busy column): the worker slots, the launch's wall time and the
// workers' busy time, with and without the cache model (groups are taken in group order from
// one counter in both). Busy time is spent inside the launch's wall time by at most `workers` workers.
TEST(Launch, TimingGivesTheWorkersAndTheirBusyTime) {
  tgsim::Device dev;
  for (unsigned threads : {1u, 3u})
    for (bool cache : {false, true}) {
      auto c = cfg(Dim3(64), Dim3(256), threads);
      c.cache_model = cache;
      tgsim::LaunchTiming t;
      c.timing = &t;
      ran = 0;
      dev.launch(c, count_threads);
      EXPECT_EQ(ran.load(), 64 * 256);
      EXPECT_EQ(t.workers, threads) << "cache " << cache;
      EXPECT_GT(t.wall_s, 0.0);
      EXPECT_GT(t.busy_s, 0.0);
      EXPECT_LE(t.busy_s, t.wall_s * threads * (1.0 + 1e-9)) << threads << " workers, cache " << cache;
      EXPECT_GT(t.busy_share(), 0.0);
      EXPECT_LE(t.busy_share(), 1.0 + 1e-9);
    }
  EXPECT_EQ(tgsim::LaunchTiming{}.busy_share(), 0.0);  // not filled: no share
}

TEST(Launch, JsonCarriesCountersSitesAndFindings) {
  tgsim::Device dev;
  auto out = dev.alloc<float>(64, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(64)), shared_one_past, out);
  std::string j = tgsim::to_json(r);
  for (const char* key : {"\"counters\"", "\"global\"", "\"shared\"", "\"bank_conflicts\"", "\"sectors\"",
                          "\"sites\"", "\"findings\"", "\"out-of-bounds\"", "\"barriers\""})
    EXPECT_THAT(j, HasSubstr(key));
}

}  // namespace

namespace {

// LaunchConfig::slice: slice i of n runs the groups floor(G i / n) .. floor(G (i + 1) / n) - 1,
// and the slices' counters add up to the whole launch's. With the checker on two workers
// (atomics in group order from the slice's first group) and the cache model (each SM starting
// at its first group in the slice): a grid of at most sm_count groups keeps every SM's groups
// in one slice, so all but the DRAM figures (unique chunks per launch) add up exactly.
// (matmul_naive at n = 96: 36 groups; histogram256 at 2^16: 32 groups with global atomics.)
TEST(Launch, SlicesRunTheirGroupsAndAddUpToTheWholeLaunch) {
  tgsim::Device dev;
  for (std::uint32_t i = 0; i < 4; ++i) {
    auto c = cfg(Dim3(10), Dim3(32), 2);
    c.slice = i;
    c.slices = 4;
    ran = 0;
    dev.launch(c, count_threads);
    const auto [first, last] = tgsim::group_slice(10, i, 4);
    EXPECT_EQ(ran.load(), int(last - first) * 32) << "slice " << i;
  }
  EXPECT_EQ(tgsim::group_slice(10, 0, 4), std::make_pair(std::uint64_t(0), std::uint64_t(2)));
  EXPECT_EQ(tgsim::group_slice(10, 3, 4), std::make_pair(std::uint64_t(7), std::uint64_t(10)));
  EXPECT_EQ(tgsim::group_slice(3, 1, 8), std::make_pair(std::uint64_t(0), std::uint64_t(0)));  // empty
  for (const char* k : {"matmul_naive", "histogram256"}) {
    tgsim::catalog::RunOptions o;
    o.n = k == std::string("histogram256") ? 1 << 16 : 96;
    o.threads = 2;
    o.check = true;
    const tgsim::Counters whole = tgsim::catalog::run(dev, k, o).report.counters;
    tgsim::Counters sum;
    for (std::uint32_t i = 0; i < 3; ++i) {
      o.slice = i;
      o.slices = 3;
      sum += tgsim::catalog::run(dev, k, o).report.counters;
    }
    EXPECT_GT(sum.l2_read_sectors, 0u) << k;
    EXPECT_GT(k == std::string("histogram256") ? sum.global_atomic.instructions : sum.global_load.l1_hit_sectors, 0u);
    sum.dram_read_bytes = whole.dram_read_bytes;
    sum.dram_write_bytes = whole.dram_write_bytes;
    EXPECT_EQ(sum, whole) << k;
  }
  // More groups than SMs (256 on 132): every SM's L1 still sees each of its groups of the slice,
  // the first one included, so each load sector of the slice either hits or goes to L2.
  for (std::uint32_t i = 0; i < 2; ++i) {
    tgsim::catalog::RunOptions o;
    o.n = 256;
    o.slice = i;
    o.slices = 2;
    const tgsim::Counters c = tgsim::catalog::run(dev, "matmul_naive", o).report.counters;
    EXPECT_GT(c.global_load.l1_hit_sectors, 0u);
    EXPECT_EQ(c.global_load.l1_hit_sectors + c.l2_read_sectors, c.global_load.sectors) << "slice " << i;
  }
  auto bad = cfg(Dim3(4), Dim3(32));
  bad.slices = 0;
  EXPECT_THROW(dev.launch(bad, count_threads), tgsim::LaunchError);
  bad.slices = 2;
  bad.slice = 2;
  EXPECT_THROW(dev.launch(bad, count_threads), tgsim::LaunchError);
}

}  // namespace
