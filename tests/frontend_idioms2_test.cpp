// Everyday CUDA idioms, part 2 (tests/frontend/idioms.cu, idioms2.cu): vector types, math,
// conversions, templates, extern/constant/device memory, atomics, printf, cooperative_groups,
// warp intrinsics, a host pointer. Counts derived by hand as in frontend_idioms_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <tgsim/kernel/cuda_host_api.h>
#include <tgsim/kernel/cuda_vector_types.h>
#include <tgsim/tgsim.hpp>

#include "frontend_idioms_expect.hpp"
#include "frontend_idioms_kernels.hpp"

namespace {

using tgsim::Dim3;
using idioms::Expect;
using idioms::expect_counts;
using idioms::findings;
using idioms::buf;

TEST(Idioms, VectorTypesAndMake) {
  tgsim::Device d;
  auto a = buf<float4>(d, 32, "a", [](int i) { return make_float4(i, 1, 2 * i, 3); });
  float3* b = nullptr;  // 12-byte elements: from cudaMalloc (tgsim::Buffer takes 1-16 byte powers of 2)
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&b), 32 * sizeof(float3)), cudaSuccess);
  auto c = d.alloc<uint4>(32, "c");
  auto u = d.alloc<uchar4>(32, "d");
  auto r = tgsim::launch(vector_types, Dim3(1), Dim3(32), 0, a.data(), b, c.data(), u.data());
  for (int i = 0; i < 32; ++i) {
    ASSERT_EQ(b[i].x, i + 1.0f);
    ASSERT_EQ(b[i].y, 2.0f * i);
    ASSERT_EQ(b[i].z, 3.0f);
    ASSERT_EQ(c[i].w, 4u * i);
    ASSERT_EQ(u[i].z, i + 2);
  }
  cudaFree(b);
  // float4 load: LDG.128, 16 sectors. float3 (12 bytes, 4-aligned): three 4-byte stores, lanes
  // 12 bytes apart, 12 sectors each. uint4: STG.128, 16 sectors. uchar4: one 4-byte store, 4.
  expect_counts(r, {.ld = 1, .ld_sectors = 16, .st = 5, .st_sectors = 36 + 16 + 4});
}

TEST(Idioms, AggregateCopiesKeepTheirWidth) {
  tgsim::Device d;
  auto f = buf<float2>(d, 32, "f", [](int i) { return make_float2(i, -i); });
  auto e = d.alloc<float2>(32, "e");
  auto r = tgsim::launch(aggregate_fields, Dim3(1), Dim3(32), 0, f.data(), e.data());
  for (int i = 0; i < 32; ++i) {
    ASSERT_EQ(e[i].x, float(-i));
    ASSERT_EQ(e[i].y, float(i));
  }
  // float2 (8-aligned): one 8-byte load and one 8-byte store, 256 bytes = 8 sectors each.
  expect_counts(r, {.ld = 1, .ld_sectors = 8, .st = 1, .st_sectors = 8});
}

TEST(Idioms, RsqrtfMul24AndMaxOverload) {
  tgsim::Device d;
  auto data = buf<float>(d, 32, "data", [](int i) { return float(i - 16); });
  auto out = d.alloc<float>(32, "out");
  auto iout = d.alloc<int>(32, "iout");
  auto r = tgsim::launch(math_idioms, Dim3(1), Dim3(32), 0, data.data(), out.data(), iout.data());
  for (int i = 0; i < 32; ++i) {
    ASSERT_EQ(out[i], std::max(0.0f, float(i - 16)) * 0.5f);
    ASSERT_EQ(iout[i], 3 * i);
  }
  expect_counts(r, {.ld = 1, .ld_sectors = 4, .st = 2, .st_sectors = 8});
}

TEST(Idioms, ConditionalWithIntZeroKeepsFloatAndDouble) {
  tgsim::Device d;
  auto f = buf<float>(d, 40, "f", [](int i) { return i + 0.25f; });
  auto dd = buf<double>(d, 40, "d", [](int i) { return i + 0.125; });
  auto fo = d.alloc<float>(64, "fo");
  auto dout = d.alloc<double>(64, "dout");
  auto r = tgsim::launch(cond_zero, Dim3(1), Dim3(64), 0, f.data(), dd.data(), fo.data(), dout.data(), 40);
  for (int i = 0; i < 64; ++i) {
    ASSERT_EQ(fo[i], i < 40 ? i + 0.25f : 0.0f) << i;
    ASSERT_EQ(dout[i], i < 40 ? i + 0.125 : 0.0) << i;
  }
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  // Loads: f warp 0 (4 sectors), f lanes 0-7 of warp 1 (bytes 128-159: 1), d warp 0 (256 bytes:
  // 8), d lanes 0-7 of warp 1 (bytes 256-319: 2). Stores: fo 2 x 4, dout 2 x 8.
  expect_counts(r, {.ld = 4, .ld_sectors = 15, .st = 4, .st_sectors = 24});
}

TEST(Idioms, RawIntPointers) {
  tgsim::Device d;
  auto a = buf<int>(d, 32, "a", [](int i) { return i; });
  auto b = buf<int>(d, 32, "b", [](int i) { return 100 * i; });
  auto r = tgsim::launch(int_params, Dim3(1), Dim3(32), 0, a.data(), b.data());
  for (int i = 0; i < 32; ++i) ASSERT_EQ(a[i], 101 * i);
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  expect_counts(r, {.ld = 2, .ld_sectors = 8, .st = 1, .st_sectors = 4});
}

TEST(Idioms, SharedInFunctionTemplateIsOnePerInstantiation) {
  tgsim::Device d;
  auto f = buf<float>(d, 64, "f", [](int i) { return i + 0.5f; });
  auto dd = buf<double>(d, 64, "d", [](int i) { return -i - 0.25; });
  auto fo = d.alloc<float>(64, "fo");
  auto dout = d.alloc<double>(64, "dout");
  auto r = tgsim::launch(template_shared, Dim3(1), Dim3(64), 0, f.data(), dd.data(), fo.data(), dout.data());
  for (int t = 0; t < 64; ++t) {
    ASSERT_EQ(fo[t], 63 - t + 0.5f) << t;
    ASSERT_EQ(dout[t], -(63 - t) - 0.25) << t;
  }
  // Per warp: float STS (1 wavefront), double STS (2: stores never merge), float LDS (1),
  // double LDS at distinct consecutive addresses (2 half-warp phases). Globals: float 4 sectors,
  // double 8 per warp instruction.
  expect_counts(r, {.ld = 4, .ld_sectors = 24, .st = 4, .st_sectors = 24, .lds = 4, .lds_wf = 6, .sts = 4,
                    .sts_wf = 6, .bar = 2});
}

TEST(Idioms, ExternSharedSizedAtLaunch) {
  tgsim::Device d;
  auto in = buf<int>(d, 64, "in", [](int i) { return i; });
  auto out = d.alloc<int>(64, "out");
  auto r = tgsim::launch(dynamic_shared, Dim3(1), Dim3(64), 2 * 64 * sizeof(int), in.data(), out.data());
  for (int t = 0; t < 64; ++t) ASSERT_EQ(out[t], 3 * (63 - t));
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  expect_counts(r, {.ld = 2, .ld_sectors = 8, .st = 2, .st_sectors = 8, .lds = 4, .lds_wf = 4, .sts = 4,
                    .sts_wf = 4, .bar = 2});
}

TEST(Idioms, ConstantMemoryByMemcpyToSymbol) {
  const float coef[4] = {1.0f, 0.5f, 0.25f, 2.0f};
  ASSERT_EQ(set_coef(coef), 0);
  tgsim::Device d;
  auto x = buf<float>(d, 32, "x", [](int i) { return float(i); });
  auto y = d.alloc<float>(32, "y");
  auto r = tgsim::launch(constant_poly, Dim3(1), Dim3(32), 0, x.data(), y.data());
  for (int t = 0; t < 32; ++t) ASSERT_EQ(y[t], 1.0f + t * (0.5f + t * 0.25f) + 2.0f);
  // 4 __constant__ reads per warp, each one address.
  expect_counts(r, {.ld = 1, .ld_sectors = 4, .st = 1, .st_sectors = 4, .constant = 4});
}

TEST(Idioms, DeviceVariablesPersistAcrossLaunches) {
  tgsim::Device d;
  auto out = d.alloc<float>(32, "out");
  int before = -1;
  ASSERT_EQ(read_launches(&before), 0);
  tgsim::Report r;
  for (int k = 0; k < 2; ++k) r = tgsim::launch(device_globals, Dim3(1), Dim3(32), 0, out.data());
  int after = -1;
  ASSERT_EQ(read_launches(&after), 0);
  EXPECT_EQ(after, before + 2);
  for (int t = 0; t < 32; ++t) ASSERT_EQ(out[t], (31 - t) * 0.5f);
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  // g_table store + out store, g_table load (global memory), one atomicAdd by thread 0.
  expect_counts(r, {.ld = 1, .ld_sectors = 4, .st = 2, .st_sectors = 8, .bar = 1, .global_atom = 1});
}

TEST(Idioms, AtomicsOnSharedAndGlobal) {
  tgsim::Device d;
  auto gsum = d.alloc<int>(1, "gsum");
  auto ginc = d.alloc<unsigned>(1, "ginc");
  auto gcas = d.alloc<int>(1, "gcas");
  auto wrap = d.alloc<unsigned>(1, "wrap_out");
  auto owner = d.alloc<int>(1, "owner_out");
  auto r = tgsim::launch(atomics, Dim3(1), Dim3(64), 0, gsum.data(), ginc.data(), gcas.data(), wrap.data(),
                         owner.data());
  EXPECT_EQ(gsum[0], 64);
  EXPECT_EQ(ginc[0], 64u);
  EXPECT_EQ(wrap[0], 64u % 10);  // atomicInc(p, 9) counts 0..9
  EXPECT_GE(gcas[0], 1);         // exactly one atomicCAS(gcas, 0, t + 1) succeeded
  EXPECT_LE(gcas[0], 64);
  EXPECT_GE(owner[0], 0);        // exactly one atomicCAS(&s_owner, -1, t) succeeded
  EXPECT_LT(owner[0], 64);
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  // Shared: thread 0's stores of s_count and s_wrap (8-aligned, adjacent) are one STS.64 as nvcc
  // merges them, s_owner's one STS; 3 LDS by thread 0 (an atomic between them; 1 wavefront
  // each); atomicAdd, atomicInc, atomicCAS per warp (6 ATOMS). Global: atomicAdd by thread 0,
  // atomicInc and atomicCAS per warp (5); the wrap_out and owner_out stores by thread 0 (1 sector each).
  expect_counts(r, {.st = 2, .st_sectors = 2, .lds = 3, .lds_wf = 3, .sts = 2, .sts_wf = 2, .bar = 4,
                    .shared_atom = 6, .global_atom = 5});
}

TEST(Idioms, PrintfInGroupAndThreadOrder) {
  auto r = tgsim::launch(hello, Dim3(2), Dim3(32), 0, 10);
  EXPECT_EQ(r.printed,
            "block 0 thread 0 value 10\nblock 0 thread 16 value 26\n"
            "block 1 thread 0 value 10\nblock 1 thread 16 value 26\n");
  expect_counts(r, {});
}

TEST(Idioms, CooperativeGroupsBasics) {
  tgsim::Device d;
  auto in = buf<int>(d, 64, "in", [](int i) { return i; });
  auto out = d.alloc<int>(1, "out");
  auto r = tgsim::launch(cg_block_sum, Dim3(1), Dim3(64), 0, in.data(), out.data());
  EXPECT_EQ(out[0], 63 * 64 / 2);
  EXPECT_TRUE(r.findings.empty()) << findings(r);
  // 5 shfl_down and 1 tile.sync per warp; lane 0 of each warp stores its sum; cg::sync(block)
  // is one BAR per warp; thread 0 reads both sums with one LDS.64, as nvcc merges them.
  expect_counts(r, {.ld = 2, .ld_sectors = 8, .st = 1, .st_sectors = 1, .lds = 1, .lds_wf = 1, .sts = 2,
                    .sts_wf = 2, .bar = 2, .shfl = 10, .warpsync = 2});
}

TEST(Idioms, ShufflesVotesSyncwarp) {
  tgsim::Device d;
  auto in = buf<int>(d, 64, "in", [](int i) { return (7 * i) % 45; });
  auto out = d.alloc<int>(64, "out");
  auto ballots = d.alloc<unsigned>(2, "ballots");
  auto r = tgsim::launch(warp_ops, Dim3(1), Dim3(64), 0, in.data(), out.data(), ballots.data());
  for (int w = 0; w < 2; ++w) {
    unsigned b = 0;
    int any = 0, all = 1;
    for (int l = 0; l < 32; ++l) {
      const int v = in[32 * w + l];
      b |= unsigned(v & 1) << l;
      any |= v > 40;
      all &= v >= 0;
    }
    EXPECT_EQ(ballots[w], b);
    for (int l = 0; l < 32; ++l) {
      auto at = [&](int lane) { return in[32 * w + lane]; };
      const int x = at(l ^ 1), u = l >= 1 ? at(l - 1) : at(l), s = at(0), dn = l + 2 < 32 ? at(l + 2) : at(l);
      ASSERT_EQ(out[32 * w + l], x + u + s + dn + any + all) << w << " " << l;
    }
  }
  // Per warp: 3 int shuffles + 1 double (2 SHFL) = 5; 3 votes; 1 __syncwarp. Stores: out
  // (4 sectors) and lane 0's ballot (1 sector).
  expect_counts(r, {.ld = 2, .ld_sectors = 8, .st = 4, .st_sectors = 10, .shfl = 10, .vote = 6, .warpsync = 2});
}

TEST(Idioms, HostPointerIsAFindingNotACrash) {
  std::vector<int> host(32, 7);
  tgsim::Device d;
  auto out = d.alloc<int>(32, "out");
  auto r = tgsim::launch(read_pointer, Dim3(1), Dim3(32), 0, host.data(), out.data());
  ASSERT_EQ(r.findings.size(), 1u) << findings(r);
  EXPECT_NE(r.findings[0].message.find("host pointer"), std::string::npos) << r.findings[0].message;
  EXPECT_EQ(r.findings[0].line, 121u);  // read_pointer in idioms2.cu
  EXPECT_NE(r.findings[0].file.find("idioms2.cu"), std::string::npos);
  // The host load is not counted; the store to `out` is.
  expect_counts(r, {.st = 1, .st_sectors = 4});
}

}  // namespace
