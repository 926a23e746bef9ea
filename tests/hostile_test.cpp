// Hostile kernels and bad input: each case states the finding or error it must
// produce, and the process survives it (except the stack overflow, a death test: the process
// ends with tgsim::kStackOverflowExitStatus and a message naming the thread and block).
// The CLI side (exit status and message) is in tests/CMakeLists.txt: hostile_cli_*; the faults of
// kernel files (division by zero, assert, traps, register-only loops, large local arrays:
// tests/hostile/faults.cu) are hostile_cli_file_fault_*, a CUDA program's cudaErrorAssert
// hostile_assert_main.
//
//  case                                         expected
//  global index n (one past)                    out-of-bounds "index 64 is outside buffer 'in' (64 elements of 4 bytes)"
//  global index -1, 2^40, INT64_MIN, wrapped    out-of-bounds, one per site, load yields 0, store dropped
//  shared index 64 of [64], -1, 2^40            out-of-bounds "shared index 64 in dimension 1 of 's[64]' is outside [0, 64)"
//  another launch's freed buffer                use-after-free "buffer 'old' was freed"
//  kernel throws std::runtime_error             launch rethrows it (lowest block), next launch fine
//  deep recursion (fiber stack overflow)        exit status 3, "overflowed its 65536-byte stack"
//  a 512 KiB local array on a 64 KiB stack      exit status 3 (the guard, not a neighbouring stack)
//  one thread loops, others at a barrier        watchdog finding after LaunchConfig::watchdog_accesses
//  barrier in a loop, per-thread trip counts    barrier-divergence "the others (..) exited"
//  shuffle whose mask leaves out the caller     warp-collective "leaves itself out"
//  atomic and plain accesses to one word        raw-hazard (checker)
//  0, 1, 1025 threads per group                 LaunchError / runs / LaunchError
//  grid of 2^31-1 blocks                        accepted, index math exact, cancellable; 2^31 refused
//  shared memory 4 bytes over 48 KiB            LaunchError "over the nvidia-h100 limit of 49152 bytes"
//  stack_bytes SIZE_MAX, 1 TiB, 1 GiB + 1        LaunchError "is too large"; 1 GiB runs
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <stdexcept>

#include "dialect/cuda.hpp"
#include <tgsim/testing.hpp>
#include <tgsim/tgsim.hpp>

namespace {

using ::testing::HasSubstr;
using tgsim::Dim3;
using tgsim::FindingKind;
using tgsim::LaunchConfig;

LaunchConfig cfg(Dim3 grid, Dim3 block, bool check = false, unsigned threads = 0) {
  LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.check = check;
  c.threads = threads;
  return c;
}

const tgsim::Finding* find(const tgsim::Report& r, FindingKind k) {
  for (const auto& f : r.findings)
    if (f.kind == k) return &f;
  return nullptr;
}

int cases_run = 0;  // printed at the end: how many hostile cases ran

// ---------------------------------------------------------------- out of bounds

TG_KERNEL void global_one_past(TG_GLOBAL(const float) in, TG_GLOBAL(float) out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + 1];
}

TEST(Hostile, GlobalOutOfBoundsByOne) {
  ++cases_run;
  tgsim::Device dev;
  auto in = dev.alloc<float>(64, "in"), out = dev.alloc<float>(64, "out");
  auto r = dev.launch(cfg(Dim3(2), Dim3(32)), global_one_past, in, out, 64);
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.kind, FindingKind::kOutOfBounds);
  EXPECT_EQ(f.count, 1u);
  EXPECT_EQ(f.block, Dim3(1, 0, 0));
  EXPECT_EQ(f.thread, Dim3(31, 0, 0));
  EXPECT_THAT(f.message, HasSubstr("index 64 is outside buffer 'in' (64 elements of 4 bytes)"));
  EXPECT_EQ(out[63], 0.0f) << "an out-of-bounds load yields 0";
}

TG_KERNEL void global_wild(TG_GLOBAL(float) out) {
  switch (threadIdx.x) {
    case 0: out[-1] = 1.0f; break;
    case 1: out[1LL << 40] = 1.0f; break;
    case 2: out[LLONG_MIN] = 1.0f; break;
    case 3: out[LLONG_MAX] = 1.0f; break;
    case 4: (out + LLONG_MAX)[LLONG_MAX] = 1.0f; break;  // offset arithmetic wraps, never UB
    case 5: { float x = out[-(1LL << 40)]; out[5] = x + 5.0f; } break;
    default: break;
  }
}

TEST(Hostile, GlobalOutOfBoundsHugeAndNegative) {
  ++cases_run;
  tgsim::Device dev;
  auto out = dev.alloc<float>(16, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(8)), global_wild, out);
  int oob = 0;
  for (const auto& f : r.findings) oob += f.kind == FindingKind::kOutOfBounds;
  EXPECT_EQ(oob, 6) << ::testing::PrintToString(r);
  EXPECT_EQ(r.findings.size(), 6u);
  for (float v : out) EXPECT_TRUE(v == 0.0f || v == 5.0f) << "a dropped store wrote memory";
  EXPECT_EQ(out[5], 5.0f) << "an out-of-bounds load yields 0";
  const auto* f = find(r, FindingKind::kOutOfBounds);
  ASSERT_NE(f, nullptr);
  EXPECT_THAT(f->message, HasSubstr("is outside buffer 'out' (16 elements of 4 bytes)"));
}

TG_KERNEL void shared_wild(TG_GLOBAL(float) out) {
  TG_SHARED(float, s, [64]);
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  float x = 0.0f;
  if (threadIdx.x == 63) x = s[threadIdx.x + 1];  // one past
  if (threadIdx.x == 0) x = s[-1];
  if (threadIdx.x == 1) s[1LL << 40] = 2.0f;
  if (threadIdx.x == 2) s[LLONG_MIN] = 2.0f;
  out[threadIdx.x] = x;
}

TEST(Hostile, SharedOutOfBoundsByOneHugeAndNegative) {
  ++cases_run;
  tgsim::Device dev;
  auto out = dev.alloc<float>(64, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(64), true), shared_wild, out);
  ASSERT_EQ(r.findings.size(), 4u) << ::testing::PrintToString(r);
  for (const auto& f : r.findings) EXPECT_EQ(f.kind, FindingKind::kOutOfBounds);
  EXPECT_THAT(r.findings[0].message, HasSubstr("shared index 64 in dimension 1 of 's[64]' is outside [0, 64)"));
  for (float v : out) EXPECT_EQ(v, 0.0f);
}

// ---------------------------------------------------------------- use after free

TG_KERNEL void copy_from(TG_GLOBAL(const float) in, TG_GLOBAL(float) out) {
  out[threadIdx.x] = in[threadIdx.x];
}
TG_KERNEL void store_to(TG_GLOBAL(float) p) { p[threadIdx.x] = 7.0f; }

TEST(Hostile, AnotherLaunchsFreedBufferIsAFinding) {
  ++cases_run;
  tgsim::Device dev;
  tgsim::global_ptr<float> stale;
  {
    auto old = dev.alloc<float>(32, "old");
    stale = old;
    auto r = dev.launch(cfg(Dim3(1), Dim3(32)), store_to, old);
    EXPECT_THAT(r, tgsim::testing::HasNoFindings());
  }  // `old` is freed here; `stale` still points at it
  // New buffers (the allocator may hand out the freed one's memory again) change nothing.
  auto fresh = dev.alloc<float>(32, "fresh"), out = dev.alloc<float>(32, "out");
  for (auto& v : fresh) v = 3.0f;
  auto r = dev.launch(cfg(Dim3(1), Dim3(32), true), copy_from, stale, out);
  ASSERT_EQ(r.findings.size(), 1u) << ::testing::PrintToString(r);
  EXPECT_EQ(r.findings[0].kind, FindingKind::kUseAfterFree);
  EXPECT_EQ(r.findings[0].count, 32u);
  EXPECT_THAT(r.findings[0].message, HasSubstr("through a pointer to freed buffer 'old'"));
  for (float v : out) EXPECT_EQ(v, 0.0f) << "a freed buffer's load yields 0";
  // Stores through it are dropped, never written into whatever reuses the memory.
  auto w = dev.launch(cfg(Dim3(1), Dim3(32)), store_to, stale);
  ASSERT_EQ(w.findings.size(), 1u);
  EXPECT_EQ(w.findings[0].kind, FindingKind::kUseAfterFree);
  for (float v : fresh) EXPECT_EQ(v, 3.0f);
  EXPECT_STREQ(tgsim::to_string(FindingKind::kUseAfterFree), "use-after-free");
}

TEST(Hostile, MovedBufferStaysValidAndMovedFromIsNull) {
  ++cases_run;
  tgsim::Device dev;
  auto a = dev.alloc<float>(32, "a");
  tgsim::global_ptr<float> p = a;
  auto b = std::move(a);  // the memory and its bookkeeping move; `p` still names live memory
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), store_to, p);
  EXPECT_THAT(r, tgsim::testing::HasNoFindings());
  EXPECT_EQ(b[31], 7.0f);
}

// ---------------------------------------------------------------- exceptions

TG_KERNEL void throws_in_block_3(TG_GLOBAL(float) out) {
  if (blockIdx.x == 3 && threadIdx.x == 5) throw std::runtime_error("kernel gave up in block 3");
  if (blockIdx.x == 6 && threadIdx.x == 0) throw std::runtime_error("kernel gave up in block 6");
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

TEST(Hostile, KernelThatThrowsIsRethrownAndTheProcessGoesOn) {
  ++cases_run;
  tgsim::Device dev;
  auto out = dev.alloc<float>(8 * 64, "out");
  for (unsigned threads : {1u, 2u, 0u}) {
    try {
      dev.launch(cfg(Dim3(8), Dim3(64), false, threads), throws_in_block_3, out);
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "kernel gave up in block 3") << threads << " threads";
    }
  }
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), store_to, out);
  EXPECT_THAT(r, tgsim::testing::HasNoFindings());
}

// ---------------------------------------------------------------- stack overflow

int recurse(int depth) {
  volatile char pad[512];
  pad[0] = static_cast<char>(depth);
  if (depth == 0) return pad[0];
  return recurse(depth - 1) + pad[0];
}

TEST(HostileDeathTest, FiberStackOverflowEndsTheProcessWithAClearMessage) {
  ++cases_run;
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto overflow = [] {
    tgsim::Device dev;
    auto c = cfg(Dim3(2), Dim3(64), false, 1);
    c.stack_bytes = 64 * 1024;
    dev.launch(c, [](tgsim::ThreadCtx& t) {
      if (t.block_idx.x == 1 && t.thread_idx.x == 37) recurse(1 << 20);
    });
  };
  EXPECT_EXIT(overflow(), ::testing::ExitedWithCode(tgsim::kStackOverflowExitStatus),
              "simulated thread \\(37,0,0\\) of block \\(1,0,0\\) overflowed its 65536-byte stack "
              "\\(LaunchConfig::stack_bytes, or --stack BYTES of tgsim run\\|check FILE\\)");
}

// A field of a null struct pointer (address 64, in the null page; volatile, so the compiler
// keeps the store as written, and not 0 itself, which UBSan reports first in the sanitizer
// build): no page can stand in for the null page, so the process ends with a message naming
// the thread and its block, and, where the binary has line tables (the sanitizer build), the
// line of the store.
int* volatile null_target = reinterpret_cast<int*>(std::uintptr_t(64));

TEST(HostileDeathTest, NullPointerEndsTheProcessWithAClearMessage) {
  ++cases_run;
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto wild = [] {
    tgsim::Device dev;
    dev.launch(cfg(Dim3(3), Dim3(64), false, 2), [](tgsim::ThreadCtx& t) {
      if (t.block_idx.x == 2 && t.thread_idx.x == 40) *null_target = 1;
    });
  };
  EXPECT_EXIT(wild(), ::testing::ExitedWithCode(tgsim::kWildAccessExitStatus),
              "simulated thread \\(40,0,0\\) of block \\(2,0,0\\) accessed address "
              "0x0000000000000040( at hostile_test\\.cpp:243)?, which is no device buffer");
}

// A frame far larger than stack and guard together: -fstack-clash-protection (added by tgsim's
// CMake) probes it page by page from the top, so the first probe past the stack hits the guard
// instead of writing into whatever mapping lies below it.
[[gnu::noinline]] void big_frame() {
  volatile char big[512 * 1024];
  big[0] = 1;
  big[sizeof big - 1] = 2;
}

TEST(HostileDeathTest, LocalArrayLargerThanTheStackHitsTheGuardNotANeighbour) {
  ++cases_run;
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto overflow = [] {
    tgsim::Device dev;
    auto c = cfg(Dim3(1), Dim3(32), false, 1);
    c.stack_bytes = 64 * 1024;
    dev.launch(c, [](tgsim::ThreadCtx& t) {
      if (t.thread_idx.x == 3) big_frame();
    });
  };
  EXPECT_EXIT(overflow(), ::testing::ExitedWithCode(tgsim::kStackOverflowExitStatus),
              "simulated thread \\(3,0,0\\) of block \\(0,0,0\\) overflowed its 65536-byte stack");
}

TEST(Hostile, ModerateRecursionWithinTheStackIsFine) {
  ++cases_run;
  tgsim::Device dev;
  auto c = cfg(Dim3(2), Dim3(32));
  std::atomic<int> sum{0};
  dev.launch(c, [&](tgsim::ThreadCtx&) { sum += recurse(100) > -1; });  // ~60 KiB of 256 KiB
  EXPECT_EQ(sum.load(), 64);
}

// ---------------------------------------------------------------- watchdog

TG_KERNEL void one_thread_spins(TG_GLOBAL(int) flag) {
  if (threadIdx.x == 7) {
    while (flag[0] == 0) {  // nobody ever sets it: a hang on the GPU
    }
  }
  __syncthreads();
  flag[1 + threadIdx.x] = 1;
}

TEST(Hostile, InfiniteLoopWhileOthersWaitAtABarrierIsAWatchdogFinding) {
  ++cases_run;
  tgsim::Device dev;
  auto flag = dev.alloc<int>(65, "flag");
  auto c = cfg(Dim3(2), Dim3(64));
  c.watchdog_accesses = 100000;
  auto t0 = std::chrono::steady_clock::now();
  auto r = dev.launch(c, one_thread_spins, flag);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
  ASSERT_EQ(r.findings.size(), 1u) << ::testing::PrintToString(r);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.kind, FindingKind::kWatchdog);
  EXPECT_EQ(f.count, 2u) << "one per group";
  EXPECT_EQ(f.block, Dim3(0, 0, 0));
  EXPECT_EQ(f.thread, Dim3(7, 0, 0));
  EXPECT_THAT(f.message, HasSubstr("made 100000 memory accesses without reaching a barrier"));
  EXPECT_THAT(f.message, HasSubstr("LaunchConfig::watchdog_accesses"));
  EXPECT_STREQ(tgsim::to_string(FindingKind::kWatchdog), "watchdog");
  // The default is generous: an ordinary kernel never trips it.
  EXPECT_GE(LaunchConfig{}.watchdog_accesses, std::uint64_t(1) << 26);
}

TEST(Hostile, WatchdogAlsoEndsABarrierFreeRunaway) {
  ++cases_run;
  tgsim::Device dev;
  auto flag = dev.alloc<int>(4, "flag");
  auto c = cfg(Dim3(1), Dim3(32));
  c.watchdog_accesses = 5000;
  auto r = dev.launch(c, [](TG_GLOBAL(int) f) {
    if (threadIdx.x == 31)
      for (;;) f[1] = f[0];  // load and store: 2 accesses per iteration
  }, flag);
  ASSERT_EQ(r.findings.size(), 1u) << ::testing::PrintToString(r);
  EXPECT_EQ(r.findings[0].kind, FindingKind::kWatchdog);
  EXPECT_EQ(r.findings[0].thread, Dim3(31, 0, 0));
}

// Lane logs pass big buffers between warps (sim/src/engine/log_pool.hpp): warp 0's lanes log
// `before` loads each and give their buffers back at their flush; warp 1's lane 63 then runs
// away with one of them. The watchdog still ends it at its limit, not at the pooled buffer's
// larger capacity: its loads are the same as when warp 0 logs a few.
TEST(Hostile, WatchdogHoldsWithBuffersPassedBetweenWarps) {
  ++cases_run;
  auto runaway_loads = [](int before) {
    tgsim::Device dev;
    auto f = dev.alloc<int>(4, "f");
    auto c = cfg(Dim3(1), Dim3(64));
    c.watchdog_accesses = 3000;
    auto r = dev.launch(c, [](TG_GLOBAL(int) f, int before) {
      if (threadIdx.x < 32)
        for (int i = 0; i < before; ++i) f[2] += f[0];  // 2 loads and a store each
      if (threadIdx.x == 63)
        for (;;) f[1] = f[0];
    }, f, before);
    EXPECT_EQ(r.findings.size(), 1u) << ::testing::PrintToString(r);
    return r.counters.global_load.thread_accesses - std::uint64_t(32) * (2 * before);
  };
  const std::uint64_t few = runaway_loads(8), many = runaway_loads(900);  // 2,700 records a lane
  EXPECT_GT(few, 0u);
  EXPECT_EQ(many, few);
}

// ---------------------------------------------------------------- barriers and warps

TG_KERNEL void barrier_trip_counts(TG_GLOBAL(float) out) {
  TG_SHARED(float, s, [64]);
  for (unsigned k = 0; k < threadIdx.x % 4; ++k) {  // 0..3 trips per thread
    s[threadIdx.x] = float(k);
    __syncthreads();
  }
  out[threadIdx.x] = 1.0f;
}

TEST(Hostile, BarrierInALoopWithPerThreadTripCountsIsDivergence) {
  ++cases_run;
  tgsim::Device dev;
  auto out = dev.alloc<float>(64, "out");
  auto r = dev.launch(cfg(Dim3(3), Dim3(64)), barrier_trip_counts, out);
  ASSERT_EQ(r.findings.size(), 1u) << ::testing::PrintToString(r);
  EXPECT_EQ(r.findings[0].kind, FindingKind::kBarrierDivergence);
  // Lanes that finished the loop stored and exited while others of their warp still waited
  // in it: 3 groups x 2 warps x 3 barrier releases; the groups finish (exited = arrived).
  EXPECT_EQ(r.findings[0].count, 18u);
  EXPECT_THAT(r.findings[0].message, HasSubstr("divergent threads in warp 0: lanes 0xeeeeeeee"));
  EXPECT_EQ(out[63], 1.0f);
}

TEST(Hostile, ShuffleWithAMaskExcludingTheCaller) {
  ++cases_run;
  tgsim::Device dev;
  auto out = dev.alloc<int>(32, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), [](TG_GLOBAL(int) o) {
    int v = __shfl_sync(0x0000FFFFu, int(threadIdx.x), 0);  // lanes 16..31 are not in the mask
    o[threadIdx.x] = v;
  }, out);
  const auto* f = find(r, FindingKind::kWarpCollective);
  ASSERT_NE(f, nullptr) << ::testing::PrintToString(r);
  EXPECT_THAT(f->message, HasSubstr("leaves itself out"));
  EXPECT_EQ(f->lane, 16u);
}

TEST(Hostile, MixedAtomicAndPlainAccessesToOneWordAreAHazard) {
  ++cases_run;
  tgsim::Device dev;
  auto word = dev.alloc<unsigned>(1, "word");
  auto r = dev.launch(cfg(Dim3(1), Dim3(64), true), [](TG_GLOBAL(unsigned) w) {
    atomicAdd(&w[0], 1u);
    if (threadIdx.x == 40) w[0] = 0u;  // a plain store racing with the atomics
  }, word);
  bool hazard = false;
  for (const auto& f : r.findings) hazard |= tgsim::is_hazard(f.kind);
  EXPECT_TRUE(hazard) << ::testing::PrintToString(r);
  // Atomics alone: no finding.
  auto clean = dev.launch(cfg(Dim3(4), Dim3(64), true), [](TG_GLOBAL(unsigned) w) { atomicAdd(&w[0], 1u); }, word);
  EXPECT_THAT(clean, tgsim::testing::HasNoFindings());
}

// ---------------------------------------------------------------- launch shapes

std::atomic<int> ran{0};
TG_KERNEL void count_threads() { ran.fetch_add(1, std::memory_order_relaxed); }

TEST(Hostile, ZeroOneAnd1025ThreadsPerGroup) {
  ++cases_run;
  tgsim::Device dev;
  ran = 0;
  EXPECT_THROW(
      try { dev.launch(cfg(Dim3(1), Dim3(0)), count_threads); } catch (const tgsim::LaunchError& e) {
        EXPECT_THAT(e.what(), HasSubstr("every dimension must be at least 1"));
        throw;
      },
      tgsim::LaunchError);
  EXPECT_EQ(ran.load(), 0);
  auto r = dev.launch(cfg(Dim3(5), Dim3(1)), count_threads);
  EXPECT_EQ(ran.load(), 5);
  EXPECT_THAT(r, tgsim::testing::HasNoFindings());
  ran = 0;
  EXPECT_THROW(
      try { dev.launch(cfg(Dim3(1), Dim3(1025)), count_threads); } catch (const tgsim::LaunchError& e) {
        EXPECT_THAT(e.what(), HasSubstr("has 1025 threads; nvidia-h100 allows at most 1024"));
        throw;
      },
      tgsim::LaunchError);
  EXPECT_THROW(dev.launch(cfg(Dim3(1), Dim3(32, 32, 2)), count_threads), tgsim::LaunchError);
  EXPECT_EQ(ran.load(), 0);
}

struct Cancel {};

TEST(Hostile, GridOf2To31Minus1BlocksIsAcceptedWithoutOverflow) {
  ++cases_run;
  const std::uint32_t maxx = 2147483647u;
  tgsim::Device dev;
  // Accepted by validation (the launch itself would take hours: ~2^31 fiber groups).
  EXPECT_NO_THROW(tgsim::detail::validate_launch(dev.profile(), cfg(Dim3(maxx), Dim3(1024))));
  EXPECT_NO_THROW(tgsim::detail::validate_launch(dev.profile(), cfg(Dim3(maxx, 65535, 65535), Dim3(1024))));
  // The group index math at the very end of the largest grid (uint64 group ids).
  const Dim3 g(maxx, 65535, 65535);
  EXPECT_EQ(g.volume(), std::uint64_t(maxx) * 65535 * 65535);
  EXPECT_EQ(tgsim::unlinearise(g.volume() - 1, g), Dim3(maxx - 1, 65534, 65534));
  EXPECT_EQ(tgsim::linearise(Dim3(maxx - 1, 65534, 65534), g), g.volume() - 1);
  EXPECT_EQ(tgsim::unlinearise(maxx - 1, Dim3(maxx)), Dim3(maxx - 1, 0, 0));
  // A real launch of 2^31-1 blocks, cancelled by block 0: groups after the one that threw
  // are skipped, so it returns at once for any worker count, with the exception.
  for (unsigned threads : {1u, 0u}) {
    auto t0 = std::chrono::steady_clock::now();
    std::atomic<std::uint64_t> groups{0};
    std::atomic<std::uint32_t> highest{0};
    EXPECT_THROW(dev.launch(cfg(Dim3(maxx), Dim3(1), false, threads), [&](tgsim::ThreadCtx& t) {
      groups.fetch_add(1);
      std::uint32_t b = t.block_idx.x, h = highest.load();
      while (b > h && !highest.compare_exchange_weak(h, b)) {
      }
      EXPECT_EQ(t.grid_dim.x, maxx);
      if (t.block_idx.x == 0) throw Cancel{};
    }), Cancel);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30)) << threads;
    EXPECT_LT(groups.load(), 100000u) << "groups after the cancelling one were skipped";
    EXPECT_LT(highest.load(), maxx);
  }
  // One past the limit in each dimension: refused before any thread runs.
  ran = 0;
  EXPECT_THROW(dev.launch(cfg(Dim3(maxx + 1u), Dim3(1)), count_threads), tgsim::LaunchError);
  EXPECT_THROW(dev.launch(cfg(Dim3(1, 65536), Dim3(1)), count_threads), tgsim::LaunchError);
  EXPECT_THROW(dev.launch(cfg(Dim3(1, 1, 65536), Dim3(1)), count_threads), tgsim::LaunchError);
  EXPECT_EQ(ran.load(), 0);
}

TG_KERNEL void just_over_shared(TG_GLOBAL(float) out) {
  TG_SHARED(float, big, [12289]);  // 49156 bytes: 4 over 48 KiB
  big[0] = 1.0f;
  out[0] = big[0];
}
TG_KERNEL void exactly_at_shared(TG_GLOBAL(float) out) {
  TG_SHARED(float, big, [12288]);  // 49152 bytes
  big[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = big[threadIdx.x];
}

TEST(Hostile, SharedMemoryJustOverTheProfileLimit) {
  ++cases_run;
  tgsim::Device dev;
  auto out = dev.alloc<float>(32, "out");
  try {
    dev.launch(cfg(Dim3(4), Dim3(32)), just_over_shared, out);
    ADD_FAILURE() << "no LaunchError";
  } catch (const tgsim::LaunchError& e) {
    EXPECT_THAT(e.what(), HasSubstr("49156 bytes, over the nvidia-h100 limit of 49152 bytes"));
  }
  auto r = dev.launch(cfg(Dim3(4), Dim3(32)), exactly_at_shared, out);
  EXPECT_THAT(r, tgsim::testing::HasNoFindings());
  EXPECT_EQ(out[31], 1.0f);
}

// stack_bytes past 1 GiB (SIZE_MAX, which wrapped in the stack's mapping size, and 1 TiB, which
// threw std::bad_alloc) is refused before any thread runs; 1 GiB itself is virtual and runs.
TEST(Hostile, StackBytesOverOneGiBIsALaunchError) {
  ++cases_run;
  tgsim::Device dev;
  for (std::size_t bytes : {SIZE_MAX, std::size_t(1) << 40, tgsim::kMaxStackBytes + 1}) {
    LaunchConfig c = cfg(Dim3(1), Dim3(32));
    c.stack_bytes = bytes;
    try {
      dev.launch(c, [](tgsim::ThreadCtx&) {});
      ADD_FAILURE() << "no LaunchError for stack_bytes " << bytes;
    } catch (const tgsim::LaunchError& e) {
      EXPECT_THAT(e.what(), HasSubstr("is too large: at most 1073741824 bytes"));
    }
  }
  LaunchConfig c = cfg(Dim3(1), Dim3(32));
  c.stack_bytes = tgsim::kMaxStackBytes;
  std::atomic<int> ran{0};
  dev.launch(c, [&](tgsim::ThreadCtx&) { ran.fetch_add(1); });
  EXPECT_EQ(ran.load(), 32);
}

TEST(Hostile, ZzSummary) {
  std::printf("hostile cases run in this process: %d\n", cases_run);
}

}  // namespace
