// The checker against compute-sanitizer's rules: byte granularity, same-value
// stores, atomics against plain accesses, collectives that are not fences, partial
// __syncwarp, aliases the read-only skip cannot see, uninitialised global memory.
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

// An interval whose only checked accesses are one-word shared stores (a tiled kernel's loading
// phase) is read without logging them when each word is stored once (CheckerSink's lone
// stores); a word stored twice must still go through the full check.
TG_KERNEL void store_phase(TG_GLOBAL(int) out, int words, int twice_by_one_thread) {
  TG_SHARED(int, s, [64]);
  const int t = static_cast<int>(threadIdx.x);
  s[t % words] = t;
  if (twice_by_one_thread) s[t % words] = t + 1;
  __syncthreads();
  out[t] = s[t % words];
}


TEST(LoneStores, AWordStoredByTwoWarpsInAStoreOnlyIntervalIsAHazard) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(64, "out");
  for (unsigned threads : {1u, 2u}) {
    // every word stored once, then read after the barrier: clean and initialised
    EXPECT_THAT(dev.launch(cfg(Dim3(2), Dim3(64), true, Schedule::kInOrder, threads), store_phase, out, 64, 0),
                HasNoFindings());
    EXPECT_THAT(dev.launch(cfg(Dim3(2), Dim3(64), true, Schedule::kInOrder, threads), store_phase, out, 64, 1),
                HasNoFindings());
    // words 0..31 stored by lanes of warp 0 and of warp 1, with different values
    Report r = dev.launch(cfg(Dim3(2), Dim3(64), true, Schedule::kReverse, threads), store_phase, out, 32, 0);
    ASSERT_EQ(r.findings.size(), 1u) << ::testing::PrintToString(r);
    EXPECT_EQ(r.findings[0].kind, FindingKind::kWaw);
    EXPECT_THAT(r, HasFinding(FindingKind::kWaw, OnObject("s")));
  }
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

// Block b stores byte b of each word: no race between blocks; two blocks on one byte race.
TG_KERNEL void block_bytes(TG_GLOBAL(unsigned char) out, int same_byte) {
  const unsigned b = same_byte ? 0u : blockIdx.x;
  out[threadIdx.x * 4 + b] = static_cast<unsigned char>(blockIdx.x + 1);
}

TEST(Bytes, BlocksStoringDifferentBytesOfOneWordDoNotRace) {
  tgsim::Device dev;
  auto out = dev.alloc<unsigned char>(4 * 32, "out");
  for (unsigned threads : {1u, 2u}) {
    EXPECT_THAT(dev.launch(cfg(Dim3(4), Dim3(32), true, Schedule::kInOrder, threads), block_bytes, out, 0),
                HasNoFindings());
    EXPECT_THAT(dev.launch(cfg(Dim3(4), Dim3(32), true, Schedule::kInOrder, threads), block_bytes, out, 1),
                HasFinding(FindingKind::kWaw));
  }
}

}  // namespace
