// The hardware's semantics on real code: early exits before a barrier, divergence
// in a warp, spinning threads, allocation limits, counter sums and shared-atomic wavefronts,
// memory over many launches, error messages. The checker's rules: checker_rules_test.cpp.
#include "dialect/cuda.hpp"
#include <tgsim/launch.hpp>
#include <tgsim/testing.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_config.hpp"

#include <fstream>
#include <stdexcept>
#include <unistd.h>
#include "catalog.hpp"
#include <string>

namespace {

using ::testing::HasSubstr;
using tgsim::Dim3;
using tgsim::FindingKind;
using tgsim::LaunchConfig;
using tgsim::Report;
using tgsim::Schedule;
using namespace tgsim::testing;

using tgsim::test::cfg;

// ---------------------------------------------------------------- item 1: early exit

// The guard of a partial last block: 100 elements, blocks of 64.
TG_KERNEL void shift_left(TG_GLOBAL(const int) in, TG_GLOBAL(int) out, int n) {
  TG_SHARED(int, s, [64]);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  int next = threadIdx.x + 1 < blockDim.x && i + 1 < n ? s[threadIdx.x + 1] : 0;
  out[i] = next;
}

TEST(EarlyExit, ExitedThreadsCountAsArrived) {
  tgsim::Device dev;
  auto in = dev.alloc<int>(100, "in");
  auto out = dev.alloc<int>(100, "out");
  for (int i = 0; i < 100; ++i) in[i] = i + 1;
  for (Schedule s : {Schedule::kInOrder, Schedule::kReverse, Schedule::kShuffle})
    for (bool check : {false, true}) {
      Report r = dev.launch(cfg(Dim3(2), Dim3(64), check, s), shift_left, in, out, 100);
      EXPECT_THAT(r, HasNoFindings()) << "check " << check;
      for (int i = 0; i < 100; ++i)
        ASSERT_EQ(out[i], i == 63 || i == 99 ? 0 : i + 2) << i << " check " << check;
      // Block 1 has 36 live threads: warp 1 (lanes 0-3 live) and warp 0 each execute a BAR.
      EXPECT_EQ(r.counters.barriers, 2u + 2u);
    }
}

// Whole warps and part of a warp leave before the barrier; the rest still meets twice.
TG_KERNEL void early_exit_two_barriers(TG_GLOBAL(int) out, int live) {
  TG_SHARED(int, s, [128]);
  int t = threadIdx.x;
  if (t >= live) return;
  s[t] = t;
  __syncthreads();
  int v = s[(t + 1) % live];
  __syncthreads();
  s[t] = v * 2;
  __syncthreads();
  out[t] = s[t];
}

TEST(EarlyExit, PartWarpsAndWholeWarpsExitBeforeSeveralBarriers) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(128, "out");
  Report r = dev.launch(cfg(Dim3(1), Dim3(128), true), early_exit_two_barriers, out, 40);
  EXPECT_THAT(r, HasNoFindings());
  for (int t = 0; t < 40; ++t) EXPECT_EQ(out[t], 2 * ((t + 1) % 40)) << t;
  EXPECT_EQ(out[40], 0);
  EXPECT_EQ(r.counters.barriers, 3u * 2u);  // warps 0 and 1, three barriers
}

// The exit path stores a marker the other lanes never store: still an early exit.
TG_KERNEL void exit_path_with_a_store(TG_GLOBAL(int) out, int live) {
  TG_SHARED(int, s, [64]);
  int t = threadIdx.x;
  if (t >= live) {
    out[t] = -1;
    return;
  }
  s[t] = t;
  __syncthreads();
  out[t] = s[(t + 1) % live];
}

TEST(EarlyExit, AStoreOnTheExitPathIsNoDivergence) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(64, "out");
  for (Schedule s : {Schedule::kInOrder, Schedule::kReverse}) {
    Report r = dev.launch(cfg(Dim3(1), Dim3(64), true, s), exit_path_with_a_store, out, 20);
    EXPECT_THAT(r, HasNoFindings());
    EXPECT_EQ(out[19], 0);
    EXPECT_EQ(out[20], -1);
  }
}

// A barrier inside a branch that lanes of one warp take differently, the others running on
// to code after it: synccheck's "Divergent thread(s) in warp". The group still finishes.
TG_KERNEL void skip_barrier_in_warp(TG_GLOBAL(int) out) {
  if (threadIdx.x < 16) __syncthreads();
  out[threadIdx.x] = 1;
}
constexpr unsigned kSkipLine = __LINE__ - 3;

TEST(EarlyExit, LanesThatRunPastTheBarrierAreDivergenceInTheWarp) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(64, "out");
  for (Schedule s : {Schedule::kInOrder, Schedule::kReverse, Schedule::kShuffle}) {
    Report r = dev.launch(cfg(Dim3(1), Dim3(64), false, s), skip_barrier_in_warp, out);
    ASSERT_EQ(r.findings.size(), 1u) << ::testing::PrintToString(r);
    const tgsim::Finding& f = r.findings[0];
    EXPECT_EQ(f.kind, FindingKind::kBarrierDivergence);
    EXPECT_EQ(f.line, kSkipLine);
    EXPECT_EQ(f.lane, 16u);
    EXPECT_THAT(f.message, HasSubstr("divergent threads in warp 0: lanes 0x0000ffff wait"));
    EXPECT_EQ(out[0], 1);  // the waiters went on
    EXPECT_EQ(out[63], 1);
  }
}

// Live threads at two different barriers: divergence in the block, the group ends.
TG_KERNEL void two_sites(TG_GLOBAL(int) out, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  if (t < 32) __syncthreads();
  else __syncthreads();
  out[t] = 1;
}

TEST(EarlyExit, DifferentBarriersAreStillDivergence) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(128, "out");
  Report r = dev.launch(cfg(Dim3(1), Dim3(128)), two_sites, out, 100);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, FindingKind::kBarrierDivergence);
  EXPECT_THAT(r.findings[0].message, HasSubstr("68 of 128 threads reached the barrier"));
}

// ---------------------------------------------------------------- item 3: alloc sizes

TEST(Alloc, SizeOverflowIsALaunchErrorNamingTheSize) {
  tgsim::Device dev;
  try {
    (void)dev.alloc<float>((1ull << 62) + 64, "huge");
    ADD_FAILURE() << "no exception";
  } catch (const tgsim::LaunchError& e) {
    EXPECT_THAT(e.what(), HasSubstr("'huge': 4611686018427387968 elements of 4 bytes"));
  }
  EXPECT_THROW((void)dev.alloc<double>(~std::size_t(0) / 8 + 1), tgsim::LaunchError);
  EXPECT_THROW((void)dev.alloc<char>(~std::size_t(0) - 100), tgsim::LaunchError);  // the rounding
  auto ok = dev.alloc<float>(3, "ok");
  EXPECT_EQ(ok.size(), 3u);
}

TEST(Alloc, DefaultConstructedBufferHasAnEmptyName) {
  tgsim::Buffer<float> b;
  EXPECT_EQ(b.name(), "");
  EXPECT_EQ(b.size(), 0u);
}

// ---------------------------------------------------------------- item 11: counter sums

TEST(Counters, PlusAddsEveryField) {
  tgsim::Counters a, b;
  b.global_load.sectors = 1;
  b.shared_atomic.wavefronts = 2;
  b.constant_load.distinct_addresses = 3;
  b.barriers = 4;
  b.warpsync = 5;
  b.shfl = 6;
  b.vote = 7;
  b.warp_reduce = 8;
  b.l2_read_sectors = 9;
  b.dram_write_bytes = 10;
  b.cache_modelled = true;
  a += b;
  EXPECT_EQ(a, b);
  a += b;
  EXPECT_EQ(a.shfl, 12u);
  EXPECT_EQ(a.shared_atomic.wavefronts, 4u);
  EXPECT_EQ(a.constant_load.distinct_addresses, 6u);
  EXPECT_EQ(a.vote, 14u);
}

// peak_centroid is two launches: the report's SHFL must be the sum over all of its sites.
TEST(Counters, MultiLaunchKernelKeepsShufflesOfEveryLaunch) {
  tgsim::catalog::RunOptions o;
  o.n = 1 << 16;
  auto r = tgsim::catalog::run(tgsim::Device{}, "peak_centroid", o);
  ASSERT_TRUE(r.correct);
  std::uint64_t shfl = 0;
  for (const tgsim::SiteCounters& s : r.report.sites)
    if (s.kind == tgsim::SiteKind::kShuffle) shfl += s.warp_ops;
  EXPECT_EQ(r.report.counters.shfl, shfl);
  // 2048 warps x 10 in the first launch (+ 10 more in warp 0 of each of 256 groups), and 330
  // in the second (block_peak's README figures scaled to n = 2^16).
  EXPECT_EQ(shfl, 2048u * 10u + 256u * 10u + 330u);
}

// ---------------------------------------------------------------- item 13: shared atomics

// Per warp instruction, the maximum over banks of the distinct 4-byte words (lanes on one word
// count once). Each expected count below is worked out by hand from the lanes' words.
TG_KERNEL void atomic_words(TG_GLOBAL(const int) word, TG_GLOBAL(unsigned) out) {
  TG_SHARED(unsigned, bins, [1024]);
  bins[threadIdx.x] = 0;
  __syncthreads();
  int w = word[threadIdx.x];
  atomicAdd(&bins[w], 1u);
  __syncthreads();
  out[threadIdx.x] = bins[threadIdx.x];
}

std::uint64_t atomic_wavefronts(int (*word_of)(int)) {
  tgsim::Device dev;
  auto word = dev.alloc<int>(1024, "word");
  auto out = dev.alloc<unsigned>(1024, "out");
  for (int i = 0; i < 1024; ++i) word[i] = word_of(i);
  Report r = dev.launch(cfg(Dim3(1), Dim3(1024)), atomic_words, word, out);
  EXPECT_EQ(r.counters.shared_atomic.instructions, 32u);
  return r.counters.shared_atomic.wavefronts;
}

TEST(SharedAtomics, WavefrontsAreTheMostDistinctWordsInOneBank) {
  // Lane l -> word l: 32 banks, one word each: 1 per warp, 32 warps.
  EXPECT_EQ(atomic_wavefronts([](int i) { return i % 32; }), 32u);
  // Every lane on word 7: one word, 1 per warp (same-address atomics count once here).
  EXPECT_EQ(atomic_wavefronts([](int) { return 7; }), 32u);
  // Lane l -> word 32 * l: all in bank 0, 32 distinct words: 32 per warp.
  EXPECT_EQ(atomic_wavefronts([](int i) { return 32 * (i % 32); }), 32u * 32u);
  // Lane l -> word 32 * (l % 4) + l / 4: banks 0-7 hold 4 distinct words each: 4 per warp.
  EXPECT_EQ(atomic_wavefronts([](int i) { return 32 * (i % 32 % 4) + i % 32 / 4; }), 32u * 4u);
  // Warp w: lanes 0-2 -> words 0, 32, 64 (bank 0, 3 words), the rest word l: 3 per warp.
  EXPECT_EQ(atomic_wavefronts([](int i) { return i % 32 < 3 ? 32 * (i % 32) : i % 32; }), 32u * 3u);
}

TEST(SharedAtomics, CatalogHistogramGivesTheH100Count) {
  // The H100 recorded 262,144 ATOMS wavefronts for histogram256 at n = 4,194,304 (2 per ATOMS,
  // tests/hardware/h100.json); the same data at n = 2^18 gives 2 per ATOMS too.
  tgsim::catalog::RunOptions o;
  o.n = 1 << 18;
  auto r = tgsim::catalog::run(tgsim::Device{}, "histogram256", o);
  ASSERT_TRUE(r.correct);
  EXPECT_EQ(r.report.counters.shared_atomic.instructions, (1u << 18) / 32u);
  EXPECT_EQ(r.report.counters.shared_atomic.wavefronts, 2u * (1u << 18) / 32u);
}

// ---------------------------------------------------------------- item 14: memory per launch

long rss_kib() {
  std::ifstream f("/proc/self/statm");
  long pages = 0, resident = 0;
  f >> pages >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

TG_KERNEL void touch(TG_GLOBAL(float) o) { o[blockIdx.x * 32 + threadIdx.x] = 1.0f; }

TEST(Resources, MemoryStaysFlatOver100000Launches) {
  tgsim::Device dev;
  auto o = dev.alloc<float>(4 * 32, "o");
  LaunchConfig c = cfg(Dim3(4), Dim3(32), false, Schedule::kInOrder, 2);
  c.cache_model = true;
  for (int i = 0; i < 1000; ++i) (void)dev.launch(c, touch, o);
  const long before = rss_kib();
  for (int i = 0; i < 100000; ++i) (void)dev.launch(c, touch, o);
  const long grown = rss_kib() - before;
  // A task_arena made per launch costs about 7 KiB a launch: 700 MB here.
  EXPECT_LT(grown, 8 * 1024) << "KiB grown over 100,000 launches";
}

// ---------------------------------------------------------------- item 16: errors

TEST(Errors, ANonUtf8BufferNameStillGivesJson) {
  tgsim::Device dev;
  auto b = dev.alloc<int>(4, std::string("bad\xff\xfename"));
  Report r = dev.launch(cfg(Dim3(1), Dim3(32)), [](TG_GLOBAL(int) o) { o[threadIdx.x] = 1; }, b);
  ASSERT_FALSE(r.findings.empty());  // out of bounds on 'bad..name'
  std::string json;
  EXPECT_NO_THROW(json = tgsim::to_json(r));
  EXPECT_THAT(json, HasSubstr("out-of-bounds"));
}

TEST(Errors, ALaunchFromInsideAKernelIsALaunchErrorSayingSo) {
  tgsim::Device dev;
  auto o = dev.alloc<int>(32, "o");
  LaunchConfig outer = cfg(Dim3(1), Dim3(32));
  try {
    (void)dev.launch(outer, [&](TG_GLOBAL(int) p) {
      LaunchConfig inner = cfg(Dim3(1), Dim3(32));
      inner.name = "child";
      (void)dev.launch(inner, [](TG_GLOBAL(int) q) { q[threadIdx.x] = 1; }, p);
    }, o);
    ADD_FAILURE() << "no exception";
  } catch (const tgsim::LaunchError& e) {
    EXPECT_THAT(e.what(), HasSubstr("launch of 'child' from inside a kernel (thread (0,0,0) of block (0,0,0))"));
  }
}

TEST(Errors, UseAfterFreeSaysTheBufferMayHaveDiedDuringTheLaunch) {
  tgsim::Device dev;
  tgsim::global_ptr<int> stale;
  {
    auto b = dev.alloc<int>(32, "gone");
    stale = b.ptr();
  }
  Report r = dev.launch(cfg(Dim3(1), Dim3(32)), [](TG_GLOBAL(int) p) { p[threadIdx.x] = 1; }, stale);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, FindingKind::kUseAfterFree);
  EXPECT_THAT(r.findings[0].message, HasSubstr("destroyed before this launch or while it ran"));
}

// ---------------------------------------------------------------- item 2: spinning

// Warp 0 waits on a flag that warp 1 sets (legal on sm_70+).
TG_KERNEL void producer_consumer(TG_GLOBAL(int) flag, TG_GLOBAL(int) data, TG_GLOBAL(int) out,
                                 int atomic_wait) {
  const unsigned t = threadIdx.x;
  if (t == 0) {
    if (atomic_wait)
      while (atomicAdd(&flag[0], 0) == 0) {
      }
    else
      while (flag[0] == 0) {
      }
    out[0] = data[0];
  } else if (t == 32) {
    data[0] = 42;
    atomicAdd(&flag[0], 1);
  }
}

TEST(Spinning, AWaitOnAFlagOfTheSameGroupProgresses) {
  tgsim::Device dev;
  for (int atomic_wait : {0, 1})
    for (Schedule s : {Schedule::kInOrder, Schedule::kReverse}) {
      auto flag = dev.alloc<int>(1, "flag");
      auto data = dev.alloc<int>(1, "data");
      auto out = dev.alloc<int>(1, "out");
      LaunchConfig c = cfg(Dim3(1), Dim3(64), false, s);
      c.watchdog_accesses = 1u << 16;
      Report r = dev.launch(c, producer_consumer, flag, data, out, atomic_wait);
      EXPECT_THAT(r, HasNoFindings()) << "atomic " << atomic_wait;
      EXPECT_EQ(out[0], 42) << "atomic " << atomic_wait;
    }
}

TEST(Spinning, AWaitForAnotherGroupIsAWatchdogFindingNamingCooperativeLaunch) {
  tgsim::Device dev;
  auto flag = dev.alloc<int>(1, "flag");
  LaunchConfig c = cfg(Dim3(2), Dim3(32));
  c.watchdog_accesses = 1u << 14;
  Report r = dev.launch(c, [](TG_GLOBAL(int) f) {
    if (blockIdx.x == 0 && threadIdx.x == 0)
      while (f[0] == 0) {
      }
    if (blockIdx.x == 1 && threadIdx.x == 0) f[0] = 1;
  }, flag);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, FindingKind::kWatchdog);
  EXPECT_THAT(r.findings[0].message, HasSubstr("only guaranteed with a cooperative launch"));
}

}  // namespace
