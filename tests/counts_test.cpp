// The exact figures of the seed kernels: what Nsight Compute reports on an H100 for the CUDA
// build of the same kernels (tests/hardware/h100.json holds the full recording).
#include <gtest/gtest.h>

#include "catalog.hpp"

namespace {

using tgsim::catalog::Result;

Result run(const char* name, int n = 0, unsigned threads = 0) {
  tgsim::catalog::RunOptions o;
  o.n = n;
  o.threads = threads;
  return tgsim::catalog::run(tgsim::Device{}, name, o);
}

TEST(Counts, MatmulNaive256) {
  Result r = run("matmul_naive", 256);
  ASSERT_TRUE(r.correct);
  const auto& c = r.report.counters;
  EXPECT_EQ(c.global_load.instructions, 1048576u);
  EXPECT_EQ(c.global_load.requests(), 1048576u);
  EXPECT_EQ(c.global_load.sectors, 2097152u);
  EXPECT_EQ(c.global_load.thread_accesses, 2u * 256 * 256 * 256);
  EXPECT_EQ(c.global_load.bytes, 4u * 2 * 256 * 256 * 256);
  EXPECT_EQ(c.global_store.instructions, 2048u);
  EXPECT_EQ(c.global_store.sectors, 8192u);
  EXPECT_EQ(c.shared_load.instructions + c.shared_store.instructions, 0u);
  EXPECT_EQ(c.barriers, 0u);
  EXPECT_TRUE(r.report.findings.empty());
}

TEST(Counts, MatmulTiled16At256) {
  Result r = run("matmul_tiled16", 256);
  ASSERT_TRUE(r.correct);
  const auto& c = r.report.counters;
  EXPECT_EQ(c.shared_load.instructions, 1048576u);
  EXPECT_EQ(c.shared_load.wavefronts, 1048576u);
  EXPECT_EQ(c.shared_load.bank_conflicts(), 0u);
  EXPECT_EQ(c.shared_store.instructions, 65536u);
  EXPECT_EQ(c.shared_store.bank_conflicts(), 0u);
  EXPECT_EQ(c.global_load.requests(), 65536u);
  EXPECT_EQ(c.global_load.sectors, 262144u);
  EXPECT_EQ(c.barriers, 65536u);  // 2 per tile x 16 tiles x 8 warps x 256 groups
}

TEST(Counts, MatmulTiled32At256) {
  Result r = run("matmul_tiled32", 256);
  ASSERT_TRUE(r.correct);
  const auto& c = r.report.counters;
  EXPECT_EQ(c.shared_load.instructions, 1048576u);
  EXPECT_EQ(c.global_load.requests(), 32768u);
  EXPECT_EQ(c.global_load.sectors, 131072u);
  EXPECT_EQ(c.barriers, 32768u);
}

TEST(Counts, MatmulTiled8At256) {
  Result r = run("matmul_tiled8", 256);
  ASSERT_TRUE(r.correct);
  EXPECT_EQ(r.report.counters.global_load.requests(), 131072u);
  EXPECT_EQ(r.report.counters.global_load.sectors, 524288u);
  EXPECT_EQ(r.report.counters.shared_store.instructions, 131072u);
}

TEST(Counts, TransposeNaive1024) {
  Result r = run("transpose_naive", 1024);
  ASSERT_TRUE(r.correct);
  EXPECT_EQ(r.report.counters.global_load.sectors, 1048576u);
  EXPECT_EQ(r.report.counters.global_store.sectors, 131072u);
  EXPECT_EQ(r.report.counters.global_load.requests(), 32768u);
}

TEST(Counts, TransposeShared1024Is32Way) {
  Result r = run("transpose_shared", 1024);
  ASSERT_TRUE(r.correct);
  EXPECT_EQ(r.report.counters.shared_store.instructions, 32768u);
  EXPECT_EQ(r.report.counters.shared_store.wavefronts, 1048576u);
  EXPECT_EQ(r.report.counters.shared_store.bank_conflicts(), 1048576u - 32768u);
  EXPECT_EQ(r.report.counters.shared_load.wavefronts, 32768u);
}

TEST(Counts, TransposePadded1024IsConflictFree) {
  Result r = run("transpose_padded", 1024);
  ASSERT_TRUE(r.correct);
  EXPECT_EQ(r.report.counters.shared_store.wavefronts, 32768u);
  EXPECT_EQ(r.report.counters.shared_store.bank_conflicts(), 0u);
  EXPECT_EQ(r.report.counters.global_load.sectors, 131072u);
}

// Sizes that are not a multiple of the tile: the guards predicate lanes off, results stay right.
TEST(Counts, EdgesAreCorrectAtOddSizes) {
  for (const char* k : {"matmul_naive", "matmul_tiled8", "matmul_tiled16", "matmul_tiled32",
                        "transpose_naive", "transpose_shared", "transpose_padded"}) {
    for (int n : {1, 17, 45}) {
      Result r = run(k, n);
      EXPECT_TRUE(r.correct) << k << " n=" << n;
      EXPECT_TRUE(r.report.findings.empty()) << k << " n=" << n;
    }
  }
}

// Edge warps: at n=17 with 16x16 blocks, partial warps count as instructions with fewer lanes.
TEST(Counts, PartialWarpsAtTheEdge) {
  Result r = run("matmul_naive", 17);
  ASSERT_TRUE(r.correct);
  // 17x17 results: threads with row<17, col<17 store once each.
  EXPECT_EQ(r.report.counters.global_store.thread_accesses, 17u * 17u);
  // Warps (pairs of 16-wide rows) with at least one active lane, per block column:
  // blocks x=0 cover cols 0..15 (16 lanes per row), x=1 cover col 16 (1 lane per row).
  // Rows 0..16 -> warps holding rows {0,1},...,{14,15} in block y=0 (8 warps) and row 16 in y=1 (1 warp).
  EXPECT_EQ(r.report.counters.global_store.instructions, 2u * 9u);
}

TEST(Counts, SitesSumToTotals) {
  Result r = run("matmul_tiled16", 64);
  tgsim::AccessCounters gl, sl;
  std::uint64_t bars = 0;
  for (const auto& s : r.report.sites) {
    if (s.kind == tgsim::SiteKind::kGlobalLoad) gl += s.counters;
    if (s.kind == tgsim::SiteKind::kSharedLoad) sl += s.counters;
    bars += s.barriers;
    EXPECT_TRUE(s.file.ends_with("kernels/matmul.cu")) << s.file;
  }
  EXPECT_EQ(gl, r.report.counters.global_load);
  EXPECT_EQ(sl, r.report.counters.shared_load);
  EXPECT_EQ(bars, r.report.counters.barriers);
  // Two global-load sites (A and B tile loads), two shared-load sites (inner loop), two barriers.
  int gsites = 0, bsites = 0;
  for (const auto& s : r.report.sites) {
    gsites += s.kind == tgsim::SiteKind::kGlobalLoad;
    bsites += s.kind == tgsim::SiteKind::kBarrier;
  }
  EXPECT_EQ(gsites, 2);
  EXPECT_EQ(bsites, 2);
}

TEST(Counts, UnknownKernelAndBadSizeThrow) {
  EXPECT_THROW(run("no_such_kernel"), std::invalid_argument);
  EXPECT_THROW(run("matmul_naive", -3), std::invalid_argument);
  EXPECT_THROW(run("matmul_naive", 100000), std::invalid_argument);
}

}  // namespace

namespace {

// Seed 004 shared int matmul: B row blocks x 32 warps x J j-blocks x K k-blocks, two STS each;
// a[NT*i_local + k] is 32 words apart across a warp (32-way), b[NT*k + j_local] a broadcast.
// At n = 1000 these formulas give docs/hardware-model.md E8's (2.5) H100 figures: 2,097,152 STS with
// 67,108,864 store wavefronts and 67,108,864 LDS with 1,107,296,256 load wavefronts.
TEST(Counts, IntMatmulSharedFollowsE8) {
  const int n = 250;  // not a multiple of 32: the edge blocks predicate lanes off
  Result r = run("int_matmul_shared", n);
  ASSERT_TRUE(r.correct);
  const std::uint64_t B = (n + 31) / 32, J = B, K = B;
  const auto& c = r.report.counters;
  EXPECT_EQ(c.shared_store.instructions, B * 32 * J * K * 2);
  EXPECT_EQ(c.shared_store.wavefronts, B * 32 * J * K * 2 * 32);
  EXPECT_EQ(c.shared_load.instructions, B * 32 * J * K * 32 * 2);
  EXPECT_EQ(c.shared_load.wavefronts, B * 32 * J * K * 32 * 33);
  EXPECT_EQ(c.barriers, B * 32 * J * K * 2);
  EXPECT_EQ(c.global_store.thread_accesses, std::uint64_t(n) * n);
}

TEST(Counts, IntMatmulGlobalIsCorrectAtOddSize) {
  Result r = run("int_matmul_global", 70);
  ASSERT_TRUE(r.correct);
  // Each thread (i < n) loads 2n values per column it owns; columns j = y, y+32, ... < n.
  std::uint64_t per_row = 0;
  for (int y = 0; y < 32; ++y) per_row += (70 - y + 31) / 32;
  EXPECT_EQ(r.report.counters.global_load.thread_accesses, 70u * per_row * 2 * 70);
  EXPECT_EQ(r.report.counters.shared_load.instructions, 0u);
}

TEST(Counts, Seed001LayerAndBlurAndSeed000Neighbour) {
  for (const char* k : {"relu", "add_bias", "layer_relu", "blur3x3", "neighbour_sum"}) {
    Result r = run(k);
    EXPECT_TRUE(r.correct) << k;
    EXPECT_TRUE(r.report.findings.empty()) << k;
  }
  Result blur = run("blur3x3", 100);  // edges: 100 is not a multiple of 16
  EXPECT_TRUE(blur.correct);
  // relu on 256x256: one coalesced load and store per warp, 4 sectors each.
  Result relu = run("relu", 256);
  EXPECT_EQ(relu.report.counters.global_load.instructions, 2048u);
  EXPECT_EQ(relu.report.counters.global_load.sectors, 8192u);
  // neighbour_sum: the shifted read s[(l+1) % 256] stays conflict-free (a rotation of banks).
  Result nb = run("neighbour_sum", 1024);
  EXPECT_EQ(nb.report.counters.shared_load.bank_conflicts(), 0u);
  EXPECT_EQ(nb.report.counters.shared_load.instructions, 4u * 8u * 2u);
  EXPECT_EQ(nb.report.counters.barriers, 4u * 8u * 2u);
  EXPECT_THROW(run("neighbour_sum", 1000), std::invalid_argument);
}

}  // namespace
