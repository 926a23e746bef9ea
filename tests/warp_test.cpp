// Warp operations (shuffles with widths, votes, __syncwarp), atomics and constant memory:
// semantics against docs/hardware-model.md section 5, counts, and misuse as findings.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dialect/cuda.hpp"
#include "dialect/metal.hpp"
#include <tgsim/tgsim.hpp>

#include "catalog.hpp"
#include "kernels.hpp"

namespace {

using ::testing::HasSubstr;
using tgsim::Dim3;
using tgsim::FindingKind;

tgsim::LaunchConfig cfg(Dim3 grid, Dim3 block, bool check = false, unsigned threads = 0) {
  tgsim::LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.check = check;
  c.threads = threads;
  return c;
}

// out[lane] = the shuffle's result with the given width, for one warp.
template <class F>
std::vector<int> warp_results(F shuffle) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(32, "out");
  dev.launch(cfg(Dim3(1), Dim3(32)), [&](TG_GLOBAL(int) o) { o[threadIdx.x] = shuffle(int(threadIdx.x) * 10); }, out);
  return std::vector<int>(out.begin(), out.end());
}

TEST(Warp, ShuffleSourceLanesFollowThePtxRules) {
  // __shfl_sync: seg + (src & (w-1)); width 8, src 3 -> lane 3 of each group of 8.
  auto idx = warp_results([](int v) { return __shfl_sync(0xffffffff, v, 3, 8); });
  for (int l = 0; l < 32; ++l) EXPECT_EQ(idx[l], ((l & ~7) + 3) * 10) << l;
  // __shfl_up_sync by 2, width 16: lanes below seg+2 keep their own value.
  auto up = warp_results([](int v) { return __shfl_up_sync(0xffffffff, v, 2, 16); });
  for (int l = 0; l < 32; ++l) EXPECT_EQ(up[l], ((l & 15) < 2 ? l : l - 2) * 10) << l;
  // __shfl_down_sync by 4, full width: lanes past 27 keep their own value.
  auto down = warp_results([](int v) { return __shfl_down_sync(0xffffffff, v, 4); });
  for (int l = 0; l < 32; ++l) EXPECT_EQ(down[l], (l + 4 > 31 ? l : l + 4) * 10) << l;
  // __shfl_xor_sync with 5, width 4: j = l ^ 5 leaves the group of 4 upwards for some lanes
  // (j > end keeps the own value) and downwards for others (earlier groups are readable).
  auto x = warp_results([](int v) { return __shfl_xor_sync(0xffffffff, v, 5, 4); });
  for (int l = 0; l < 32; ++l) {
    int end = (l & ~3) + 3, j = l ^ 5;
    EXPECT_EQ(x[l], (j > end ? l : j) * 10) << l;
  }
}

// With a capture site, the report keeps the shuffles of the lowest warp that shuffles, in the
// order they ran, each with the lane every lane read (explain's shuffle picture): the same for
// any worker count.
TEST(Warp, CaptureKeepsTheShufflesOfTheLowestWarpAsTheyRan) {
  for (unsigned threads : {1u, 4u}) {
    tgsim::Device dev;
    auto out = dev.alloc<int>(128, "out");
    tgsim::LaunchConfig c = cfg(Dim3(2), Dim3(64), false, threads);
    c.capture_site = "warp_test.cpp:1";
    auto r = dev.launch(c, [](TG_GLOBAL(int) o) {
      int v = int(threadIdx.x);
      v += __shfl_xor_sync(0xffffffff, v, 1);
      v += __shfl_down_sync(0xffffffff, v, 8, 16);
      o[blockIdx.x * 64 + threadIdx.x] = __shfl_sync(0xffffffff, v, 0, 16);
    }, out);
    ASSERT_EQ(r.shuffles.size(), 3u) << threads;
    EXPECT_EQ(r.shuffles_total, 3u);
    const tgsim::CapturedShuffle &x = r.shuffles[0], &d = r.shuffles[1], &i = r.shuffles[2];
    EXPECT_EQ(x.group, 0u);
    EXPECT_EQ(x.warp, 0u);
    EXPECT_EQ(x.op, "__shfl_xor_sync");
    EXPECT_EQ(d.op, "__shfl_down_sync");
    EXPECT_EQ(i.op, "__shfl_sync");
    EXPECT_EQ(d.mask, 0xffffffffu);
    EXPECT_LT(x.line, d.line);
    for (int l = 0; l < 32; ++l) {
      EXPECT_EQ(x.source[l], l ^ 1) << l;
      EXPECT_EQ(x.arg[l], 1) << l;
      EXPECT_EQ(i.source[l], l & ~15) << l;
      EXPECT_EQ(i.width[l], 16) << l;
      EXPECT_EQ(d.source[l], (l & 15) < 8 ? l + 8 : l) << l;  // past its segment: its own value
    }
  }
}

TEST(Warp, ShufflesCountOneShflPerWordPerWarp) {
  tgsim::Device dev;
  auto out = dev.alloc<double>(128, "out");
  auto r = dev.launch(cfg(Dim3(2), Dim3(64)), [](TG_GLOBAL(double) o) {
    double d = threadIdx.x * 0.5;
    float f = threadIdx.x * 1.5f;
    d = __shfl_down_sync(0xffffffff, d, 1);  // 64-bit: two SHFL
    f = __shfl_xor_sync(0xffffffff, f, 1);   // one SHFL
    o[blockIdx.x * 64 + threadIdx.x] = d + f;
  }, out);
  EXPECT_EQ(r.counters.shfl, 4u * 3u);  // 4 warps x (2 + 1)
  EXPECT_EQ(out[0], 0.5 + 1.5);         // lane 0: d from lane 1 (0.5), f from lane 1 (1.5)
  EXPECT_EQ(out[31], 15.5 + 30 * 1.5);  // lane 31 keeps its own d, f from lane 30
}

TEST(Warp, VotesAndActivemask) {
  tgsim::Device dev;
  auto out = dev.alloc<unsigned>(4 * 64, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(64)), [](TG_GLOBAL(unsigned) o) {
    unsigned t = threadIdx.x;
    if (t % 32 >= 28) return;  // four lanes of each warp exit first
    unsigned b = __ballot_sync(0x0fffffff, t % 3 == 0);
    int any = __any_sync(0x0fffffff, t == 5);
    int all = __all_sync(0x0fffffff, t < 1000);
    o[t * 4] = b;
    o[t * 4 + 1] = unsigned(any);
    o[t * 4 + 2] = unsigned(all);
    o[t * 4 + 3] = __activemask();
  }, out);
  unsigned want = 0;
  for (int l = 0; l < 28; ++l)
    if (l % 3 == 0) want |= 1u << l;
  unsigned want1 = 0;
  for (int l = 0; l < 28; ++l)
    if ((32 + l) % 3 == 0) want1 |= 1u << l;
  EXPECT_EQ(out[0], want);
  EXPECT_EQ(out[32 * 4], want1);
  EXPECT_EQ(out[1], 1u);        // lane 5 of warp 0 voted yes
  EXPECT_EQ(out[32 * 4 + 1], 0u);  // nobody in warp 1
  EXPECT_EQ(out[2], 1u);
  EXPECT_EQ(out[3], 0x0fffffffu);
  EXPECT_EQ(r.counters.vote, 2u * 3u);
  EXPECT_TRUE(r.findings.empty());
}

TEST(Warp, MaskWithoutTheCallerIsAFinding) {
  tgsim::Device dev;
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), [](tgsim::ThreadCtx& t) {
    (void)tgsim::shfl_down_sync(0xfffffffeu, int(t.lane), 1);  // lane 0 leaves itself out
  });
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, FindingKind::kWarpCollective);
  EXPECT_THAT(r.findings[0].message, HasSubstr("lane 0 calls __shfl_down_sync with mask 0xfffffffe"));
}

TEST(Warp, DifferentMasksAcrossLanesAreAFindingNotAHang) {
  tgsim::Device dev;
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), [](tgsim::ThreadCtx& t) {
    unsigned mask = t.lane < 16 ? 0xffffffffu : 0xffff0000u;
    (void)tgsim::shfl_xor_sync(mask, int(t.lane), 1);
  });
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, FindingKind::kWarpCollective);
  EXPECT_THAT(r.findings[0].message, HasSubstr("while other lanes wait in __shfl_xor_sync(0xffffffff)"));
}

// PTX waits for the non-exited lanes of the mask; on the H100 a full-mask shuffle of a half warp
// whose other half returned is right and synccheck is silent (tests/hardware/checker_probe/).
TEST(Warp, NamedLanesThatExitedAreNoFinding) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(32, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), [](TG_GLOBAL(int) o) {
    if (threadIdx.x >= 8) return;
    o[threadIdx.x] = __shfl_xor_sync(0xffffffff, int(threadIdx.x), 1);
  }, out);
  EXPECT_TRUE(r.findings.empty()) << (r.findings.empty() ? "" : r.findings[0].message);
  EXPECT_EQ(out[3], 2);
  EXPECT_EQ(out[6], 7);
}

// Reading an exited lane's value is undefined on the GPU: a finding under the checker, and the
// group goes on.
TEST(Warp, ReadingAnExitedLaneIsAFindingNotAHang) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(32, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(32), true), [](TG_GLOBAL(int) o) {
    if (threadIdx.x >= 8) return;
    o[threadIdx.x] = __shfl_down_sync(0xffffffff, int(threadIdx.x), 1);
  }, out);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, FindingKind::kWarpCollective);
  EXPECT_THAT(r.findings[0].message, HasSubstr("lane 7 of warp 0 reads, through __shfl_down_sync, a lane that does not take part"));
  EXPECT_EQ(out[3], 4);
}

TEST(Warp, NamedLanesWaitingAtABarrierAreReportedNotHung) {
  tgsim::Device dev;
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), [](tgsim::ThreadCtx& t) {
    if (t.lane < 16)
      (void)tgsim::shfl_down_sync(0xffffffffu, 1, 1);
    else
      t.barrier();
  });
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].kind, FindingKind::kBarrierDivergence);
  EXPECT_THAT(r.findings[0].message, HasSubstr("the others wait at"));
}

TEST(Warp, ReadingANonParticipatingLaneIsPoisonAndAStrictFinding) {
  tgsim::Device dev;
  auto out = dev.alloc<unsigned>(32, "out");
  auto kernel = [](TG_GLOBAL(unsigned) o) {
    unsigned v = __shfl_down_sync(0x0000ffff, threadIdx.x + 100u, 1);  // lane 15 reads lane 16
    o[threadIdx.x] = v;
  };
  auto launch_half = [&](bool check) {
    return dev.launch(cfg(Dim3(1), Dim3(32), check), [&](TG_GLOBAL(unsigned) o) {
      if (threadIdx.x < 16) kernel(o);
    }, out);
  };
  auto plain = launch_half(false);
  EXPECT_TRUE(plain.findings.empty());
  EXPECT_EQ(out[15], 0x7FBADBADu);  // poison
  EXPECT_EQ(out[14], 115u);
  auto strict = launch_half(true);
  ASSERT_EQ(strict.findings.size(), 1u);
  EXPECT_EQ(strict.findings[0].kind, FindingKind::kWarpCollective);
  EXPECT_THAT(strict.findings[0].message, HasSubstr("a lane that does not take part"));
}

TEST(Warp, MetalSimdFunctions) {
  tgsim::Device dev;
  auto out = dev.alloc<float>(64 * 4, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(64)), [](device_ptr<float> o) {
    uint id = thread_position_in_threadgroup;
    float v = float(id % 32);
    o[id * 4] = simd_sum(v);
    o[id * 4 + 1] = simd_max(v);
    o[id * 4 + 2] = simd_shuffle_down(v, ushort(1));
    o[id * 4 + 3] = float(simd_ballot(id % 2 == 0) & 0xF);
    simdgroup_barrier(mem_flags::mem_threadgroup);
  }, out);
  EXPECT_EQ(out[0], 496.0f);
  EXPECT_EQ(out[1], 31.0f);
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_EQ(out[3], 5.0f);  // lanes 0 and 2
  EXPECT_EQ(r.counters.warp_reduce, 4u);
  EXPECT_EQ(r.counters.warpsync, 2u);
  EXPECT_EQ(r.counters.vote, 2u);
}

// ---------------------------------------------------------------- atomics

TEST(Atomics, GlobalAtomicsAreRightUnderParallelGroups) {
  tgsim::Device dev;
  auto counter = dev.alloc<unsigned long long>(1, "counter");
  auto fsum = dev.alloc<float>(1, "fsum");
  auto mx = dev.alloc<int>(1, "max");
  auto mn = dev.alloc<int>(1, "min");
  mn[0] = 1 << 30;
  for (unsigned threads : {1u, 2u, 8u}) {
    counter[0] = 0;
    fsum[0] = 0;
    mx[0] = 0;
    auto r = dev.launch(cfg(Dim3(200), Dim3(128), false, threads),
                        [](TG_GLOBAL(unsigned long long) c, TG_GLOBAL(float) f, TG_GLOBAL(int) a, TG_GLOBAL(int) b) {
                          int id = blockIdx.x * blockDim.x + threadIdx.x;
                          atomicAdd(&c[0], 1ull);
                          atomicAdd(&f[0], 0.5f);
                          atomicMax(&a[0], id);
                          atomicMin(&b[0], id + 7);
                        },
                        counter, fsum, mx, mn);
    EXPECT_EQ(counter[0], 200u * 128u) << threads;
    EXPECT_EQ(fsum[0], 200.0f * 128.0f * 0.5f);
    EXPECT_EQ(mx[0], 200 * 128 - 1);
    EXPECT_EQ(mn[0], 7);
    EXPECT_EQ(r.counters.global_atomic.instructions, 4u * 200u * 4u);  // 4 sites x 4 warps x 200
    EXPECT_EQ(r.counters.global_atomic.thread_accesses, 4u * 200u * 128u);
    // 32 lanes on one word: 32 sectors each (docs/hardware-model.md 1.4). nvcc's warp aggregation
    // of the integer ones needs the pass's proof, which lambda kernels do not go through.
    EXPECT_EQ(r.counters.global_atomic.sectors, 4u * 200u * 4u * 32u);
    EXPECT_EQ(r.counters.global_load.instructions, 0u);
  }
}

TEST(Atomics, ExchAndCasReturnTheOldValue) {
  tgsim::Device dev;
  auto v = dev.alloc<int>(2, "v");
  auto out = dev.alloc<int>(2, "out");
  v[0] = 5;
  v[1] = 9;
  dev.launch(cfg(Dim3(1), Dim3(1)), [](TG_GLOBAL(int) p, TG_GLOBAL(int) o) {
    o[0] = atomicExch(&p[0], 11);
    o[1] = atomicCAS(&p[1], 9, 42);
    (void)atomicCAS(&p[1], 9, 77);  // compare fails: stays 42
  }, v, out);
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[1], 9);
  EXPECT_EQ(v[0], 11);
  EXPECT_EQ(v[1], 42);
}

TEST(Atomics, SharedAtomicsNeverRaceButMixedAccessesDo) {
  tgsim::Device dev;
  auto out = dev.alloc<unsigned>(1, "out");
  auto clean = dev.launch(cfg(Dim3(2), Dim3(64), true), [](TG_GLOBAL(unsigned) o) {
    TG_SHARED(unsigned, bin, [1]);
    if (threadIdx.x == 0) bin[0] = 0;
    __syncthreads();
    atomicAdd(&bin[0], 1u);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&o[0], unsigned(bin[0]));
  }, out);
  EXPECT_TRUE(clean.findings.empty());
  EXPECT_EQ(out[0], 128u);
  EXPECT_EQ(clean.counters.shared_atomic.instructions, 2u * 2u);
  auto mixed = dev.launch(cfg(Dim3(1), Dim3(64), true), [](TG_GLOBAL(unsigned) o) {
    TG_SHARED(unsigned, bin, [1]);
    if (threadIdx.x == 0) bin[0] = 0;
    __syncthreads();
    atomicAdd(&bin[0], 1u);
    if (threadIdx.x == 40) o[0] = bin[0];  // a plain read racing with the atomics
  }, out);
  ASSERT_FALSE(mixed.findings.empty());
  // A read-after-write hazard between the atomics and the plain read (the checker pairs the
  // read with its nearest atomic, here one of its own warp: the warp-sync class).
  EXPECT_TRUE(mixed.findings[0].kind == FindingKind::kRaw || mixed.findings[0].kind == FindingKind::kWarpRaw);
  for (const auto& f : mixed.findings) EXPECT_NE(f.line, f.line2) << "atomic-atomic pairs never race";
}

TEST(Atomics, MetalAtomicFetchAdd) {
  tgsim::Device dev;
  auto hist = dev.alloc<atomic_uint>(4, "hist");
  dev.launch(cfg(Dim3(3), Dim3(64)), [](device_ptr<atomic_uint> h) {
    uint id = thread_position_in_grid;
    atomic_fetch_add_explicit(&h[id % 4], 1u, memory_order_relaxed);
  }, hist);
  for (int b = 0; b < 4; ++b) EXPECT_EQ(hist[b], 48u);
}

// ---------------------------------------------------------------- constant memory

TG_CONSTANT(int, test_table, [4]);

TEST(Constant, BroadcastAndSerialisedCounts) {
  tgsim::Device dev;
  const int table[4] = {3, 5, 7, 11};
  tgsim::copy_to_constant(test_table, table, sizeof table);
  auto out = dev.alloc<int>(64, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(64)), [](TG_GLOBAL(int) o) {
    int same = test_table[1];                 // one address: 1 access per warp instruction
    int each = test_table[threadIdx.x % 4];   // four addresses: 4 serialised accesses
    o[threadIdx.x] = same + each;
  }, out);
  EXPECT_EQ(out[6], 5 + 7);
  EXPECT_EQ(r.counters.constant_load.instructions, 4u);
  EXPECT_EQ(r.counters.constant_load.distinct_addresses, 2u * (1u + 4u));
  EXPECT_THROW(tgsim::copy_to_constant(test_table, table, sizeof table, 4), std::invalid_argument);
}

TEST(Constant, WritesAndOutOfBoundsAreFindings) {
  tgsim::Device dev;
  const int table[4] = {3, 5, 7, 11};
  tgsim::copy_to_constant(test_table, table, sizeof table);
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), [](tgsim::ThreadCtx& t) {
    if (t.lane == 3) test_table[2] = 99;
    if (t.lane == 4) (void)int(test_table[4]);
  });
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].kind, FindingKind::kOutOfBounds);
  EXPECT_THAT(r.findings[0].message, HasSubstr("constant index 4 is outside 'test_table'"));
  EXPECT_EQ(r.findings[1].kind, FindingKind::kConstantWrite);
  EXPECT_EQ(test_table.host_data()[2], 7);  // dropped
}

// ---------------------------------------------------------------- seed 003: ties

// Equal maxima in block 1 and block 1024 of the block peaks: final_peak_and_centroid's thread 0
// scans blocks 0, 1024, ... and thread 1 blocks 1, 1025, ...; the shuffle tree keeps the lower
// lane on a tie, so the seed's `vv > v` returns lane 0's larger index 1024*256+3; the reviewed
// version takes the smaller one.
TEST(Seed003, TiesGoToTheSmallerIndexOnlyInTheReviewedVersion) {
  tgsim::Device dev;
  const int blocks = 4096, width = 1024, n = blocks * 256;
  auto peaks = dev.alloc<Peak>(blocks, "block_peaks");
  auto corr = dev.alloc<float>(n, "corr");
  for (int b = 0; b < blocks; ++b) peaks[b] = Peak{1.0f, b * 256};
  peaks[1] = Peak{9.0f, 1 * 256 + 3};
  peaks[1024] = Peak{9.0f, 1024 * 256 + 3};
  auto out_peak = dev.alloc<Peak>(1, "out_peak");
  auto out_c = dev.alloc<float>(3, "out_centroid");
  dev.launch(cfg(Dim3(1), Dim3(1024)), final_peak_and_centroid, peaks.data(), blocks, corr.data(), width, n / width,
             out_peak.data(), out_c.data());
  EXPECT_EQ(out_peak[0].idx, 1024 * 256 + 3);
  auto r = dev.launch(cfg(Dim3(1), Dim3(1024), true), final_peak_and_centroid_reviewed, peaks.data(), blocks,
                      corr.data(), width, n / width, out_peak.data(), out_c.data());
  EXPECT_EQ(out_peak[0].idx, 1 * 256 + 3);
  EXPECT_TRUE(r.findings.empty());
}

TEST(Seed003, BlockPeakCountsMatchTheH100Shuffles) {
  tgsim::catalog::RunOptions o;
  auto r = tgsim::catalog::run(tgsim::Device{}, "block_peak", o);  // 2^20 floats, 256-thread groups
  ASSERT_TRUE(r.correct);
  const auto& c = r.report.counters;
  EXPECT_EQ(c.shfl, 368640u);  // docs/hardware-model.md 5.5: measured on the H100
  EXPECT_EQ(c.barriers, 4096u * 8u);
  EXPECT_EQ(c.shared_store.instructions, 4096u * 8u * 2u);
  EXPECT_EQ(c.shared_load.instructions, 4096u * 2u);
  EXPECT_EQ(c.global_load.sectors, 131072u);
}

TEST(Reductions, InterleavedConflictsDisappearWhenSequential) {
  tgsim::catalog::RunOptions o;
  o.n = 1 << 16;
  auto inter = tgsim::catalog::run(tgsim::Device{}, "reduce_interleaved", o);
  auto seq = tgsim::catalog::run(tgsim::Device{}, "reduce_sequential", o);
  auto shfl = tgsim::catalog::run(tgsim::Device{}, "reduce_shuffle", o);
  ASSERT_TRUE(inter.correct && seq.correct && shfl.correct);
  const std::uint64_t groups = (1 << 16) / 256;
  // Per group: 25 LDS (24 in the tree, 1 final); interleaved costs 95 wavefronts
  // (2-, 4-, 8-, 8-, 8-, 4-, 2-, 1-way as the stride doubles), sequential 25.
  EXPECT_EQ(inter.report.counters.shared_load.instructions, groups * 25);
  EXPECT_EQ(inter.report.counters.shared_load.wavefronts, groups * 95);
  EXPECT_EQ(seq.report.counters.shared_load.wavefronts, groups * 25);
  EXPECT_EQ(seq.report.counters.shared_load.bank_conflicts() + seq.report.counters.shared_store.bank_conflicts(), 0u);
  EXPECT_EQ(shfl.report.counters.shfl, groups * 45);  // 5 steps x (8 warps + warp 0 again)
  EXPECT_EQ(shfl.report.counters.barriers, groups * 8);
}

TEST(Histogram, SharedAtomicsThenGlobalMerge) {
  tgsim::catalog::RunOptions o;
  o.n = 1 << 18;
  for (unsigned threads : {1u, 2u}) {
    o.threads = threads;
    auto r = tgsim::catalog::run(tgsim::Device{}, "histogram256", o);
    EXPECT_TRUE(r.correct);
    EXPECT_EQ(r.report.counters.shared_atomic.thread_accesses, 1u << 18);
    EXPECT_EQ(r.report.counters.global_atomic.thread_accesses, (1u << 18) / 2048 * 256);
  }
}

}  // namespace
