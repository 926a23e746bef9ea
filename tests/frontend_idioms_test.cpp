// Everyday CUDA idioms through tgsim's front end (tests/frontend/idioms.cu, idioms2.cu): each
// test checks the result and every counter, derived by hand from docs/hardware-model.md:
//   global: one request per warp instruction; sectors = distinct 32-byte sectors the active lanes
//     touch (tgsim buffers start 256-byte aligned, so element 0 opens a sector);
//   shared: wavefronts per warp instruction (2.4): 4-byte accesses, max words per bank; 8-byte
//     ones two half-warp phases unless the pair rule merges them (loads only);
//   BAR per warp per barrier; SHFL per warp per 32-bit word; VOTE / WARPSYNC per warp; atomics
//     per warp instruction; constant loads per warp instruction.
// A counter not named in an Expect is 0.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <tgsim/kernel/cuda_host_api.h>
#include <tgsim/tgsim.hpp>

#include "frontend_idioms_expect.hpp"
#include "frontend_idioms_kernels.hpp"

namespace {

using tgsim::Dim3;

using idioms::Expect;
using idioms::expect_counts;
using idioms::findings;
using idioms::buf;

TEST(Idioms, AddressOfElementAsPointer) {
  tgsim::Device d;
  auto in = buf<float>(d, 64, "in", [](int i) { return float(i); });
  auto out = d.alloc<float>(64, "out");
  auto r = tgsim::launch(addr_of_element, Dim3(1), Dim3(64), 0, in.data(), out.data());
  for (int i = 0; i < 64; ++i) ASSERT_EQ(out[i], 2.0f * i);
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  // 2 warps: one coalesced 128-byte load and store each (4 sectors).
  expect_counts(r, {.ld = 2, .ld_sectors = 8, .st = 2, .st_sectors = 8});
}

TEST(Idioms, PointerIncrement) {
  tgsim::Device d;
  auto in = buf<int>(d, 128, "in", [](int i) { return i; });
  auto out = d.alloc<int>(32, "out");
  auto r = tgsim::launch(walk_pointer, Dim3(1), Dim3(32), 0, in.data(), out.data());
  for (int i = 0; i < 32; ++i) ASSERT_EQ(out[i], 16 * i + 6);
  // 4 loads (*p++), lanes 16 bytes apart: 512 bytes = 16 sectors each; 1 coalesced store.
  expect_counts(r, {.ld = 4, .ld_sectors = 64, .st = 1, .st_sectors = 4});
}

TEST(Idioms, NullptrArgumentAndIfPointer) {
  tgsim::Device d;
  auto in = buf<float>(d, 32, "in", [](int i) { return float(i); });
  auto bias = buf<float>(d, 32, "bias", [](int) { return 0.5f; });
  auto out = d.alloc<float>(32, "out");
  auto r0 = tgsim::launch(optional_bias, Dim3(1), Dim3(32), 0, in.data(), nullptr, out.data());
  for (int i = 0; i < 32; ++i) ASSERT_EQ(out[i], float(i));
  expect_counts(r0, {.ld = 1, .ld_sectors = 4, .st = 1, .st_sectors = 4});  // bias not read
  auto r1 = tgsim::launch(optional_bias, Dim3(1), Dim3(32), 0, in.data(), bias.data(), out.data());
  for (int i = 0; i < 32; ++i) ASSERT_EQ(out[i], i + 0.5f);
  expect_counts(r1, {.ld = 2, .ld_sectors = 8, .st = 1, .st_sectors = 4});
  EXPECT_TRUE(r0.findings.empty() && r1.findings.empty()) << findings(r0) << findings(r1);
}

TEST(Idioms, ReinterpretCastToFloat4IsOne16ByteAccess) {
  tgsim::Device d;
  auto in = buf<float>(d, 128, "in", [](int i) { return float(i) * 0.25f; });
  auto out = d.alloc<float>(128, "out");
  auto r = tgsim::launch(copy_as_float4, Dim3(1), Dim3(32), 0, in.data(), out.data());
  for (int i = 0; i < 128; ++i) ASSERT_EQ(out[i], in[i]);
  // LDG.128 / STG.128: one request per warp, 32 x 16 bytes = 16 sectors.
  expect_counts(r, {.ld = 1, .ld_sectors = 16, .st = 1, .st_sectors = 16});
}

TEST(Idioms, PointerComparison) {
  tgsim::Device d;
  auto in = buf<int>(d, 40, "in", [](int i) { return 3 * i; });
  auto out = d.alloc<int>(64, "out");
  auto r = tgsim::launch(bounded_copy, Dim3(1), Dim3(64), 0, in.data(), in.data() + 40, out.data());
  for (int i = 0; i < 64; ++i) ASSERT_EQ(out[i], i < 40 ? 3 * i : -1);
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  // Warp 0 loads in[0..31] (4 sectors); warp 1 only lanes 0-7, in[32..39] = bytes 128-159 (1).
  expect_counts(r, {.ld = 2, .ld_sectors = 5, .st = 2, .st_sectors = 8});
}

TEST(Idioms, StructMemberStores) {
  tgsim::Device d;
  auto p = d.alloc<Particle>(32, "p");
  // tgsim::Buffer takes 1- to 16-byte power-of-two elements: the 12-byte struct comes from
  // cudaMalloc, as in CUDA host code.
  Out12* o = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&o), 32 * sizeof(Out12)), cudaSuccess);
  ASSERT_EQ(cudaMemset(o, 0, 32 * sizeof(Out12)), cudaSuccess);
  auto r = tgsim::launch(set_members, Dim3(1), Dim3(32), 0, p.data(), o, 1.5f);
  for (int i = 0; i < 32; ++i) {
    ASSERT_EQ(p[i].x, 1.5f);
    ASSERT_EQ(p[i].y, 0.0f);
    ASSERT_EQ(o[i].val, 1.5f + i);
    ASSERT_EQ(o[i].idx, 0);
  }
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  cudaFree(o);
  // Two 4-byte stores: p[i].x at 16i spans 512 bytes (16 sectors); block_out[i].val at 12i + 4
  // spans bytes 4-379, every 32-byte sector of 0-383 holds one (12 sectors).
  expect_counts(r, {.st = 2, .st_sectors = 28});
}

TEST(Idioms, SharedIncrement) {
  tgsim::Device d;
  auto out = d.alloc<int>(64, "out");
  auto r = tgsim::launch(shared_increment, Dim3(1), Dim3(64), 0, out.data());
  for (int t = 0; t < 64; ++t) ASSERT_EQ(out[t], 64 - t);
  // Per warp: stores s[t] = t and s[t]++ (2 STS), loads s[t] and s[63 - t] (2 LDS), all one
  // word per bank (1 wavefront); 2 barriers; 1 coalesced global store.
  expect_counts(r, {.st = 2, .st_sectors = 8, .lds = 4, .lds_wf = 4, .sts = 4, .sts_wf = 4, .bar = 4});
}

TEST(Idioms, SyncthreadsCountAndOr) {
  tgsim::Device d;
  auto in = buf<int>(d, 64, "in", [](int i) { return i % 3 == 0 ? 1 : 0; });
  auto out = d.alloc<int>(3, "out");
  auto r = tgsim::launch(vote_barriers, Dim3(1), Dim3(64), 0, in.data(), out.data());
  EXPECT_EQ(out[0], 22);  // 0, 3, ..., 63
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[2], 1);
  // 3 reducing barriers per warp (BAR.RED); thread 0 stores 3 ints (1 sector each).
  expect_counts(r, {.ld = 2, .ld_sectors = 8, .st = 3, .st_sectors = 3, .bar = 6});
}

TEST(Idioms, Threadfence) {
  tgsim::Device d;
  auto data = d.alloc<int>(32, "data");
  auto flag = d.alloc<int>(1, "flag");
  auto r = tgsim::launch(publish, Dim3(1), Dim3(32), 0, data.data(), flag.data());
  for (int t = 0; t < 32; ++t) ASSERT_EQ(data[t], t + 1);
  EXPECT_EQ(flag[0], 1);
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  // A fence is no memory access: 1 coalesced store, 1 single-lane store.
  expect_counts(r, {.st = 2, .st_sectors = 5});
}

TEST(Idioms, Ldg) {
  tgsim::Device d;
  auto in = buf<float>(d, 32, "in", [](int i) { return float(i); });
  auto out = d.alloc<float>(32, "out");
  auto r = tgsim::launch(read_only_load, Dim3(1), Dim3(32), 0, in.data(), out.data());
  for (int t = 0; t < 32; ++t) ASSERT_EQ(out[t], 31.0f);
  expect_counts(r, {.ld = 2, .ld_sectors = 8, .st = 1, .st_sectors = 4});
}

TEST(Idioms, SharedArrayPassedToHelper) {
  tgsim::Device d;
  auto in = buf<float>(d, 32, "in", [](int i) { return float(i + 1); });
  auto out = d.alloc<float>(32, "out");
  auto r = tgsim::launch(shared_to_helper, Dim3(1), Dim3(32), 0, in.data(), out.data());
  for (int t = 0; t < 32; ++t) ASSERT_EQ(out[t], 10.0f + t);
  // p[0..3] in the helper, p the shared array's 16-aligned start: one broadcast LDS.128 as nvcc
  // merges them (2 wavefronts; tests/nvcc_fidelity/widening).
  expect_counts(r, {.ld = 1, .ld_sectors = 4, .st = 1, .st_sectors = 4, .lds = 1, .lds_wf = 2, .sts = 1,
                    .sts_wf = 1, .bar = 1});
}

TEST(Idioms, SharedPointerArithmetic) {
  tgsim::Device d;
  auto out = d.alloc<int>(64, "out");
  auto r = tgsim::launch(shared_offsets, Dim3(1), Dim3(64), 0, out.data());
  for (int t = 0; t < 64; ++t) {
    const int j = 2 * t % 64;
    ASSERT_EQ(out[t], j < 32 ? j : 100 + j - 32) << t;
  }
  // 2 STS per warp into its slice (1 wavefront); s_Hist[2t] reads words 2 apart: 2 wavefronts.
  expect_counts(r, {.st = 2, .st_sectors = 8, .lds = 2, .lds_wf = 4, .sts = 4, .sts_wf = 4, .bar = 2});
}

TEST(Idioms, BytesClearedAsWords) {
  tgsim::Device d;
  auto out = d.alloc<unsigned>(64, "out");
  auto r = tgsim::launch(clear_bytes_as_words, Dim3(1), Dim3(64), 0, out.data());
  for (int t = 0; t < 64; ++t) ASSERT_EQ(out[t], t < 16 ? 0x01010101u : 0u) << t;
  // Per warp: word store, byte load + byte store (32 bytes = 8 words, 1 wavefront), word load.
  expect_counts(r, {.st = 2, .st_sectors = 8, .lds = 4, .lds_wf = 4, .sts = 4, .sts_wf = 4, .bar = 4});
}

TEST(Idioms, VolatileSharedHelper) {
  tgsim::Device d;
  auto out = d.alloc<unsigned>(32, "out");
  auto r = tgsim::launch(volatile_shared, Dim3(1), Dim3(32), 0, out.data());
  for (int t = 0; t < 32; ++t) ASSERT_EQ(out[t], 32u - t);
  // Every volatile access happens: store, load, store; then the s[31 - t] load.
  expect_counts(r, {.st = 1, .st_sectors = 4, .lds = 2, .lds_wf = 2, .sts = 2, .sts_wf = 2, .bar = 1});
}

TEST(Idioms, Restrict) {
  tgsim::Device d;
  auto x = buf<float>(d, 50, "x", [](int i) { return float(i); });
  auto y = buf<float>(d, 50, "y", [](int) { return 1.0f; });
  auto r = tgsim::launch(saxpy_restrict, Dim3(1), Dim3(64), 0, 50, 2.0f, x.data(), y.data());
  for (int i = 0; i < 50; ++i) ASSERT_EQ(y[i], 2.0f * i + 1.0f);
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  // Warp 0: x and y loads, 4 sectors each. Warp 1: 18 lanes, bytes 128-199 = 3 sectors each.
  expect_counts(r, {.ld = 4, .ld_sectors = 14, .st = 2, .st_sectors = 7});
}

}  // namespace
