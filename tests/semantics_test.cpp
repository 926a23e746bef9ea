// The hardware's semantics on real code (issue 13): early exits before a barrier, divergence
// in a warp, allocation limits, counter sums, and the checker against compute-sanitizer's
// rules (byte granularity, same-value stores, collectives that are not fences, atomics,
// uninitialised global memory).
#include <tgsim/cuda.hpp>
#include <tgsim/launch.hpp>
#include <tgsim/testing.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

LaunchConfig cfg(Dim3 grid, Dim3 block, bool check = false, Schedule s = Schedule::kInOrder,
                 unsigned threads = 1) {
  LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.check = check;
  c.schedule = s;
  c.threads = threads;
  return c;
}

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

// ---------------------------------------------------------------- item 4: bytes

// histogram64's per-thread byte counters (CUDA samples): thread t owns byte `pos` of each bin's
// row; the bytes of one word belong to threads t, t+16 (one warp), t+32 and t+48 (the next).
TG_KERNEL void byte_counters(TG_GLOBAL(const unsigned char) data, TG_GLOBAL(unsigned) out) {
  TG_SHARED(unsigned char, h, [64 * 128]);
  const unsigned t = threadIdx.x;
  const unsigned pos = (t & ~63u) | ((t & 15u) << 2) | ((t & 48u) >> 4);
  for (unsigned b = 0; b < 64; ++b) h[b * 128 + pos] = 0;
  for (unsigned k = 0; k < 16; ++k) {
    unsigned v = data[blockIdx.x * 2048 + k * 128 + t] & 63u;
    h[v * 128 + pos] += 1;
  }
  __syncthreads();
  if (t < 64) {
    unsigned sum = 0;
    for (unsigned p = 0; p < 128; ++p) sum += h[t * 128 + p];
    out[blockIdx.x * 64 + t] = sum;
  }
}

std::uint64_t hazard_count(const Report& r) {
  std::uint64_t n = 0;
  for (const tgsim::Finding& f : r.findings) n += tgsim::is_hazard(f.kind) ? f.count : 0;
  return n;
}

TEST(Bytes, ThreadsStoringDifferentBytesOfOneWordDoNotRace) {
  tgsim::Device dev;
  auto data = dev.alloc<unsigned char>(4 * 2048, "data");
  auto out = dev.alloc<unsigned>(4 * 64, "out");
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 2654435761u >> 13);
  Report r = dev.launch(cfg(Dim3(4), Dim3(128), true), byte_counters, data, out);
  EXPECT_EQ(hazard_count(r), 0u) << ::testing::PrintToString(r);
  unsigned total = 0;
  for (unsigned v : out) total += v;
  EXPECT_EQ(total, 4u * 2048u);
}

// 16-bit halves of one word stored by two warps, then each warp reads its own half.
TG_KERNEL void halves(TG_GLOBAL(unsigned short) out) {
  TG_SHARED(unsigned short, s, [64]);
  const unsigned t = threadIdx.x;  // 64 threads: t and t + 32 share word t / 2 ... of index
  const unsigned i = (t % 32) * 2 + t / 32;  // warp 0 the low halves, warp 1 the high halves
  s[i] = static_cast<unsigned short>(t);
  out[t] = s[i];
}

TEST(Bytes, TwoWarpsOnTheHalvesOfOneWord) {
  tgsim::Device dev;
  auto out = dev.alloc<unsigned short>(64, "out");
  Report r = dev.launch(cfg(Dim3(1), Dim3(64), true), halves, out);
  EXPECT_THAT(r, HasNoFindings());
  // The same bytes stored by the other warp are still a hazard.
  Report racy = dev.launch(cfg(Dim3(1), Dim3(64), true), [](TG_GLOBAL(unsigned short) o) {
    TG_SHARED(unsigned short, s, [64]);
    s[threadIdx.x % 32] = static_cast<unsigned short>(threadIdx.x);
    o[threadIdx.x] = s[threadIdx.x % 32];
  }, out);
  EXPECT_THAT(racy, HasFinding(FindingKind::kWaw));
}

// ---------------------------------------------------------------- items 5 and 9: global

TG_KERNEL void set_flag(TG_GLOBAL(int) flag, int value_per_block) {
  if (threadIdx.x == 0) flag[0] = value_per_block ? int(blockIdx.x) + 1 : 1;
}

TEST(GlobalStores, SameValueStoresOfEveryBlockAreNoHazard) {
  tgsim::Device dev;
  auto flag = dev.alloc<int>(1, "flag");
  for (unsigned threads : {1u, 2u}) {
    EXPECT_THAT(dev.launch(cfg(Dim3(8), Dim3(32), true, Schedule::kInOrder, threads), set_flag, flag, 0),
                HasNoFindings());
    Report r = dev.launch(cfg(Dim3(8), Dim3(32), true, Schedule::kInOrder, threads), set_flag, flag, 1);
    EXPECT_THAT(r, HasFinding(FindingKind::kWaw, OnObject("flag")));
  }
  LaunchConfig strict = cfg(Dim3(8), Dim3(32), true);
  strict.report_same_value_waw = true;
  EXPECT_THAT(dev.launch(strict, set_flag, flag, 0), HasFinding(FindingKind::kWaw));
}

// Blocks count with atomics; block 3 also resets the counter with a plain store.
TG_KERNEL void atomics_and_a_plain_store(TG_GLOBAL(int) counter, int plain_load) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 3) {
    if (plain_load) {
      int v = counter[0];
      counter[1] = v;
    } else {
      counter[0] = 0;
    }
  } else {
    atomicAdd(&counter[0], 1);
  }
}

TEST(GlobalAtomics, APlainAccessRacesOtherBlocksAtomics) {
  tgsim::Device dev;
  auto counter = dev.alloc<int>(2, "counter");
  for (unsigned threads : {1u, 2u}) {
    Report st = dev.launch(cfg(Dim3(6), Dim3(32), true, Schedule::kInOrder, threads),
                           atomics_and_a_plain_store, counter, 0);
    ASSERT_EQ(st.findings.size(), 1u) << ::testing::PrintToString(st);
    EXPECT_EQ(st.findings[0].kind, FindingKind::kWaw);
    EXPECT_EQ(st.findings[0].block, Dim3(0, 0, 0));  // the lowest atomic block ...
    EXPECT_EQ(st.findings[0].block2, Dim3(3, 0, 0));  // ... against the plain store
    Report ld = dev.launch(cfg(Dim3(6), Dim3(32), true, Schedule::kInOrder, threads),
                           atomics_and_a_plain_store, counter, 1);
    EXPECT_THAT(ld, HasFinding(FindingKind::kRaw, OnObject("counter")));
  }
  // Atomics alone never race.
  Report only = dev.launch(cfg(Dim3(6), Dim3(32), true), [](TG_GLOBAL(int) c) {
    if (threadIdx.x == 0) atomicAdd(&c[0], 1);
  }, counter);
  EXPECT_THAT(only, HasNoFindings());
}

// ---------------------------------------------------------------- items 6 and 7: __syncwarp

// A ballot between a store and another lane's load orders nothing (racecheck: warp-level RAW).
TG_KERNEL void ballot_is_no_fence(TG_GLOBAL(int) out) {
  TG_SHARED(int, s, [32]);
  const unsigned l = threadIdx.x;
  s[l] = int(l);
  unsigned b = __ballot_sync(0xFFFFFFFFu, 1);
  out[l] = s[(l + 1) % 32] + int(b & 1u);
}

TG_KERNEL void syncwarp_is_a_fence(TG_GLOBAL(int) out) {
  TG_SHARED(int, s, [32]);
  const unsigned l = threadIdx.x;
  s[l] = int(l);
  __syncwarp();
  out[l] = s[(l + 1) % 32];
}

TEST(Syncwarp, CollectivesAreNotFences) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(32, "out");
  for (Schedule s : {Schedule::kInOrder, Schedule::kReverse}) {
    EXPECT_THAT(dev.launch(cfg(Dim3(1), Dim3(32), true, s), ballot_is_no_fence, out),
                HasFinding(FindingKind::kWarpRaw));
    EXPECT_THAT(dev.launch(cfg(Dim3(1), Dim3(32), true, s), syncwarp_is_a_fence, out),
                HasNoFindings());
  }
  // A shuffle is no fence either.
  Report r = dev.launch(cfg(Dim3(1), Dim3(32), true), [](TG_GLOBAL(int) o) {
    TG_SHARED(int, s, [32]);
    const unsigned l = threadIdx.x;
    s[l] = int(l);
    int v = __shfl_xor_sync(0xFFFFFFFFu, int(l), 1);
    o[l] = s[(l + 1) % 32] + v;
  }, out);
  EXPECT_THAT(r, HasFinding(FindingKind::kWarpRaw));
}

// Lanes 0-15 store and meet at __syncwarp(0x0000FFFF); lanes 16-31 read the stored words
// without taking part in it: a race whatever the schedule.
TG_KERNEL void partial_syncwarp(TG_GLOBAL(int) out) {
  TG_SHARED(int, s, [16]);
  const unsigned l = threadIdx.x;
  if (l < 16) {
    s[l] = int(l);
    __syncwarp(0x0000FFFFu);
    out[l] = s[(l + 1) % 16];
  } else {
    out[l] = s[l - 16];
  }
}

TEST(Syncwarp, APartialSyncwarpOrdersOnlyItsLanesInEverySchedule) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(32, "out");
  Report in_order = dev.launch(cfg(Dim3(1), Dim3(32), true, Schedule::kInOrder), partial_syncwarp, out);
  Report reverse = dev.launch(cfg(Dim3(1), Dim3(32), true, Schedule::kReverse), partial_syncwarp, out);
  LaunchConfig sh = cfg(Dim3(1), Dim3(32), true, Schedule::kShuffle);
  sh.shuffle_seed = 7;
  Report shuffled = dev.launch(sh, partial_syncwarp, out);
  EXPECT_THAT(in_order, HasFinding(FindingKind::kWarpRaw));
  EXPECT_EQ(in_order.findings, reverse.findings);
  EXPECT_EQ(in_order.findings, shuffled.findings);
  // The lanes inside the sync are ordered: the load at the sync's far side is not a hazard.
  for (const tgsim::Finding& f : in_order.findings) EXPECT_EQ(f.thread2.x >= 16, true) << f.message;
}

// ---------------------------------------------------------------- item 10: initcheck

TG_KERNEL void accumulate(TG_GLOBAL(const float) x, TG_GLOBAL(float) out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += x[i];
}

TG_KERNEL void store_only(TG_GLOBAL(float) out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

TEST(Initcheck, LoadsOfGlobalBytesNobodyWroteAreFindings) {
  tgsim::Device dev;
  const int n = 240;
  auto x = dev.alloc<float>(n, "x");
  for (int i = 0; i < n; ++i) x[i] = 1.0f;  // the host writes x
  for (unsigned threads : {1u, 2u}) {
    auto out = dev.alloc<float>(n, "out");  // never written
    Report r = dev.launch(cfg(Dim3(4), Dim3(64), true, Schedule::kInOrder, threads), accumulate, x, out, n);
    ASSERT_EQ(r.findings.size(), 1u) << ::testing::PrintToString(r);
    const tgsim::Finding& f = r.findings[0];
    EXPECT_EQ(f.kind, FindingKind::kUninitialized);
    EXPECT_EQ(f.count, 240u);  // initcheck on the H100: 240 uninitialised reads
    EXPECT_EQ(f.object, "out");
    EXPECT_EQ(f.index, 0);
    EXPECT_THAT(f.message, HasSubstr("neither the host nor a kernel wrote"));
    // A kernel's stores initialise the bytes for the next launches.
    auto y = dev.alloc<float>(n, "y");
    EXPECT_THAT(dev.launch(cfg(Dim3(4), Dim3(64), true, Schedule::kInOrder, threads), store_only, y, n),
                HasNoFindings());
    EXPECT_THAT(dev.launch(cfg(Dim3(4), Dim3(64), true, Schedule::kInOrder, threads), accumulate, x, y, n),
                HasNoFindings());
    // Half written by a kernel: the other half is reported.
    auto z = dev.alloc<float>(n, "z");
    (void)dev.launch(cfg(Dim3(2), Dim3(60), true), store_only, z, n);
    Report half = dev.launch(cfg(Dim3(4), Dim3(64), true, Schedule::kInOrder, threads), accumulate, x, z, n);
    ASSERT_EQ(half.findings.size(), 1u);
    EXPECT_EQ(half.findings[0].count, 120u);
    EXPECT_EQ(half.findings[0].index, 120);
  }
  // Written by the host: no finding.
  auto w = dev.alloc<float>(n, "w");
  w[0] = 0.0f;
  EXPECT_THAT(dev.launch(cfg(Dim3(4), Dim3(64), true), accumulate, x, w, n), HasNoFindings());
}

// A store of the group in an earlier barrier interval, or of the thread itself, initialises.
TG_KERNEL void store_then_load(TG_GLOBAL(int) buf) {
  const unsigned t = threadIdx.x;
  buf[t] = int(t);
  __syncthreads();
  int v = buf[(t + 1) % 64];
  buf[64 + t] = v + buf[t];
}

TEST(Initcheck, StoresOfTheGroupBeforeTheLoadInitialise) {
  tgsim::Device dev;
  auto buf = dev.alloc<int>(128, "buf");
  EXPECT_THAT(dev.launch(cfg(Dim3(1), Dim3(64), true), store_then_load, buf), HasNoFindings());
}

// ---------------------------------------------------------------- item 8: aliases

struct OutArg {
  tgsim::global_ptr<float> p;
};

void shift_direct(tgsim::global_ptr<const float> in, tgsim::global_ptr<float> out) {
  const unsigned i = threadIdx.x;
  float v = in[i];
  out[(i + 1) % 64] = v + 1.0f;
}

void shift_via_struct(tgsim::global_ptr<const float> in, OutArg o) {
  const unsigned i = threadIdx.x;
  float v = in[i];
  o.p[(i + 1) % 64] = v + 1.0f;
}

TEST(Aliases, AConstParameterAliasedThroughAStructIsChecked) {
  tgsim::Device dev;
  auto buf = dev.alloc<float>(64, "buf");
  buf[0] = 0.0f;
  Report direct = dev.launch(cfg(Dim3(1), Dim3(64), true), shift_direct, buf, buf);
  Report via = dev.launch(cfg(Dim3(1), Dim3(64), true), shift_via_struct, buf, OutArg{buf.ptr()});
  ASSERT_FALSE(direct.findings.empty());
  ASSERT_EQ(via.findings.size(), direct.findings.size()) << ::testing::PrintToString(via);
  for (std::size_t k = 0; k < direct.findings.size(); ++k) {
    EXPECT_EQ(via.findings[k].kind, direct.findings[k].kind);
    EXPECT_EQ(via.findings[k].count, direct.findings[k].count);
  }
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
  // A task_arena per launch grew the process by about 7 KiB a launch (700 MB here).
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
