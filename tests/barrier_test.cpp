// The threadgroup barrier: it orders shared memory in every schedule, counts one BAR per warp,
// and turns divergence into a finding (never a hang); kernel exceptions are rethrown.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <vector>
#include "dialect/cuda.hpp"
#include <tgsim/tgsim.hpp>

namespace {

using ::testing::HasSubstr;
using tgsim::Dim3;
using tgsim::FindingKind;
using tgsim::Schedule;

TG_KERNEL void rotate_with_barrier(TG_GLOBAL(const int) in, TG_GLOBAL(int) out) {
  TG_SHARED(int, s, [256]);
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[(t + 1) % 256];
}

TG_KERNEL void rotate_without_barrier(TG_GLOBAL(const int) in, TG_GLOBAL(int) out) {
  TG_SHARED(int, s, [256]);
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  out[blockIdx.x * 256 + t] = s[(t + 1) % 256];
}

// Tree reduction: log2(256) barrier intervals, each depending on the previous one.
TG_KERNEL void reduce_sum(TG_GLOBAL(const int) in, TG_GLOBAL(int) out) {
  TG_SHARED(int, s, [256]);
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (t < stride) s[t] = s[t] + s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

TG_KERNEL void divergent_barrier(TG_GLOBAL(int) out) {
  if (threadIdx.x < 16) __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
constexpr int kDivergentLine = __LINE__ - 3;

TG_KERNEL void two_barrier_sites(TG_GLOBAL(int) out) {
  if (threadIdx.x < 100) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}
constexpr int kFirstSiteLine = __LINE__ - 6;  // the then-branch barrier
constexpr int kSecondSiteLine = __LINE__ - 5;  // the else-branch barrier

TG_KERNEL void barrier_in_varying_loop(TG_GLOBAL(int) out) {
  for (unsigned i = 0; i < threadIdx.x % 3; ++i) __syncthreads();
  out[threadIdx.x] = 1;
}

TG_KERNEL void one_barrier() { __syncthreads(); }

TG_KERNEL void throws_in_blocks_3_and_5() {
  __syncthreads();
  if ((blockIdx.x == 3 || blockIdx.x == 5) && threadIdx.x == 7)
    throw std::runtime_error("boom in block " + std::to_string(blockIdx.x));
  __syncthreads();
}

// Every thread notes itself as it runs, through three barrier intervals: a __syncwarp
// rendezvous in the first, early exits (lane 31 of the odd warps) in the second.
std::vector<int> g_ran;
TG_KERNEL void note_run_order() {
  const int t = static_cast<int>(threadIdx.x);
  g_ran.push_back(t);
  __syncwarp();
  g_ran.push_back(2048 + t);
  __syncthreads();
  if (t % 64 == 63) return;
  g_ran.push_back(1024 + t);
  __syncthreads();
  g_ran.push_back(3072 + t);
}

// The order the scheduler promises for note_run_order in 8 warps: each pass over the group runs
// the ready threads in the schedule's order; the last lane of a warp to reach the rendezvous
// releases the others and goes on, the released ones run in the next pass; a barrier is
// released when every thread waits at it or exited. `next` and `last_interval`: the orders of the
// second and third intervals (a shuffle draws each interval's anew; else they are `order`).
std::vector<int> expected_run_order(const std::vector<int>& order, const std::vector<int>& next,
                                    const std::vector<int>& last_interval) {
  std::vector<int> want, last(8, -1);
  for (int t : order) last[t / 32] = t;
  for (int t : order) {
    want.push_back(t);
    if (last[t / 32] == t) want.push_back(2048 + t);
  }
  for (int t : order)
    if (last[t / 32] != t) want.push_back(2048 + t);
  for (int t : next)
    if (t % 64 != 63) want.push_back(1024 + t);
  for (int t : last_interval)
    if (t % 64 != 63) want.push_back(3072 + t);
  return want;
}

tgsim::LaunchConfig cfg(Dim3 grid, Dim3 block, Schedule s = Schedule::kInOrder, unsigned threads = 0) {
  tgsim::LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.schedule = s;
  c.threads = threads;
  return c;
}

class BarrierSchedules : public ::testing::TestWithParam<Schedule> {};

TEST_P(BarrierSchedules, BarrierOrdersSharedMemory) {
  tgsim::Device dev;
  auto in = dev.alloc<int>(1024, "in"), out = dev.alloc<int>(1024, "out");
  for (int i = 0; i < 1024; ++i) in[i] = i * 3;
  auto r = dev.launch(cfg(Dim3(4), Dim3(256), GetParam()), rotate_with_barrier, in, out);
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(out[i], in[(i / 256) * 256 + (i % 256 + 1) % 256]) << i;
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(r.counters.barriers, 4u * 8u);
}

TEST_P(BarrierSchedules, TreeReductionIsRightInEverySchedule) {
  tgsim::Device dev;
  auto in = dev.alloc<int>(256 * 6, "in"), out = dev.alloc<int>(6, "out");
  for (int i = 0; i < 256 * 6; ++i) in[i] = i % 17;
  auto r = dev.launch(cfg(Dim3(6), Dim3(256), GetParam()), reduce_sum, in, out);
  for (int b = 0; b < 6; ++b) {
    int want = 0;
    for (int i = 0; i < 256; ++i) want += in[b * 256 + i];
    EXPECT_EQ(out[b], want) << "block " << b;
  }
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(r.counters.barriers, 6u * 8u * 9u);  // 9 barrier calls per thread, 8 warps, 6 groups
}

// Threads hand the CPU to each other at barriers and rendezvous (GroupRun::switch_out): the
// order they run in is still the schedule's, in every interval.
TEST_P(BarrierSchedules, ThreadsRunInTheScheduleOrderInEveryInterval) {
  tgsim::Device dev;
  g_ran.clear();
  auto r = dev.launch(cfg(Dim3(1), Dim3(256), GetParam(), 1), note_run_order);
  EXPECT_TRUE(r.findings.empty());
  std::vector<int> order;
  for (int x : g_ran)
    if (x < 1024) order.push_back(x);
  ASSERT_EQ(order.size(), 256u);
  std::vector<int> in_order(256);
  for (int i = 0; i < 256; ++i) in_order[i] = i;
  if (GetParam() == Schedule::kInOrder) {
    EXPECT_EQ(order, in_order);
  }
  if (GetParam() == Schedule::kReverse) {
    EXPECT_EQ(order, std::vector<int>(in_order.rbegin(), in_order.rend()));
  }
  // The orders of the second and third intervals, as the threads that run in them ran.
  std::vector<int> second, third;
  for (int x : g_ran) {
    if (x >= 1024 && x < 2048) second.push_back(x - 1024);
    if (x >= 3072) third.push_back(x - 3072);
  }
  if (GetParam() == Schedule::kShuffle) {
    EXPECT_NE(order, in_order);
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, in_order);
    // Each interval's order is drawn anew: the second interval's threads ran in another order
    // than the first's (the 252 that did not exit).
    std::vector<int> first_live;
    for (int t : order)
      if (t % 64 != 63) first_live.push_back(t);
    EXPECT_NE(second, first_live);
    EXPECT_NE(third, second);
  }
  const bool shuffle = GetParam() == Schedule::kShuffle;
  EXPECT_EQ(g_ran, expected_run_order(order, shuffle ? second : order, shuffle ? third : order));
  EXPECT_EQ(r.counters.barriers, 8u + 8u);
}

INSTANTIATE_TEST_SUITE_P(All, BarrierSchedules,
                         ::testing::Values(Schedule::kInOrder, Schedule::kReverse, Schedule::kShuffle));

// Without the barrier the result depends on the fiber order: in order, thread t reads s[t+1]
// before thread t+1 wrote it (only thread 255, reading s[0], is right); reversed, every
// neighbour has already written (only thread 255, reading s[0], is wrong).
TEST(Barrier, MissingBarrierShowsAsWrongResultInSomeSchedule) {
  tgsim::Device dev;
  auto in = dev.alloc<int>(256, "in"), out = dev.alloc<int>(256, "out");
  for (int i = 0; i < 256; ++i) in[i] = i + 1000;
  auto wrong = [&] {
    int n = 0;
    for (int i = 0; i < 256; ++i) n += out[i] != in[(i + 1) % 256];
    return n;
  };
  dev.launch(cfg(Dim3(1), Dim3(256), Schedule::kInOrder), rotate_without_barrier, in, out);
  EXPECT_EQ(wrong(), 255);
  dev.launch(cfg(Dim3(1), Dim3(256), Schedule::kReverse), rotate_without_barrier, in, out);
  EXPECT_EQ(wrong(), 1);
}

TEST(Barrier, OneBarPerWarpPerCall) {
  tgsim::Device dev;
  EXPECT_EQ(dev.launch(cfg(Dim3(3), Dim3(1024)), one_barrier).counters.barriers, 3u * 32u);
  EXPECT_EQ(dev.launch(cfg(Dim3(1), Dim3(48)), one_barrier).counters.barriers, 2u);  // partial warp
  EXPECT_EQ(dev.launch(cfg(Dim3(1), Dim3(8, 4, 2)), one_barrier).counters.barriers, 2u);
}

TEST(Barrier, DivergentBarrierIsAFindingNotAHang) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(256 * 5, "out");
  auto r = dev.launch(cfg(Dim3(5), Dim3(256)), divergent_barrier, out);
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.kind, FindingKind::kBarrierDivergence);
  EXPECT_EQ(f.line, static_cast<unsigned>(kDivergentLine));
  EXPECT_EQ(f.count, 5u);  // once per group: warp 0 diverged; warps 1-7 exited (arrived)
  EXPECT_THAT(f.message, HasSubstr("divergent threads in warp 0: lanes 0x0000ffff wait at the "
                                   "barrier at barrier_test.cpp:" +
                                   std::to_string(kDivergentLine) + " while lanes 0xffff0000"));
  EXPECT_EQ(f.block, Dim3(0, 0, 0));
  EXPECT_EQ(f.thread, Dim3(16, 0, 0));  // the first thread that ran past the barrier
  EXPECT_EQ(f.warp, 0u);
  EXPECT_EQ(f.lane, 16u);
  // Exited threads count as arrived: the 16 waiters were released and stored too.
  EXPECT_EQ(out[16], 1);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(r.counters.barriers, 5u);  // warp 0 of each group executed the BAR
}

TEST(Barrier, DifferentBarrierSitesAreDivergence) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(256, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(256)), two_barrier_sites, out);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].line, static_cast<unsigned>(kSecondSiteLine));  // 156 threads wait there
  EXPECT_THAT(r.findings[0].message,
              HasSubstr("156 of 256 threads reached the barrier at barrier_test.cpp:" +
                        std::to_string(kSecondSiteLine) + "; the others (100) wait at barrier_test.cpp:" +
                        std::to_string(kFirstSiteLine)));
}

TEST(Barrier, PerThreadTripCountsEndCleanly) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(96, "out");
  for (Schedule s : {Schedule::kInOrder, Schedule::kReverse, Schedule::kShuffle}) {
    auto r = dev.launch(cfg(Dim3(1), Dim3(96), s), barrier_in_varying_loop, out);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].kind, FindingKind::kBarrierDivergence);
    // Lanes that left the loop stored and exited while others of their warp waited in it:
    // each of the 3 warps at each of the 2 releases.
    EXPECT_EQ(r.findings[0].count, 6u);
    EXPECT_THAT(r.findings[0].message, HasSubstr("divergent threads in warp 0"));
    EXPECT_EQ(out[95], 1);  // every thread finished
  }
}

TEST(Barrier, KernelExceptionIsRethrownFromTheLowestBlock) {
  tgsim::Device dev;
  for (unsigned threads : {1u, 2u, 8u}) {
    try {
      dev.launch(cfg(Dim3(64), Dim3(64), Schedule::kInOrder, threads), throws_in_blocks_3_and_5);
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "boom in block 3") << threads << " threads";
    }
  }
  // The device is usable again afterwards.
  EXPECT_EQ(dev.launch(cfg(Dim3(2), Dim3(64)), one_barrier).counters.barriers, 4u);
}

}  // namespace
