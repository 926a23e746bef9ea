// The kernel vocabularies (CUDA words, Metal words, the explicit API) and how thread streams
// become warp instructions: x-fastest lanes, loops and divergent branches, access widths.
#include <gtest/gtest.h>

#include "dialect/cuda.hpp"
#include "dialect/metal.hpp"
#include <tgsim/tgsim.hpp>

namespace {

using tgsim::Dim3;
using tgsim::SiteKind;

tgsim::LaunchConfig cfg(Dim3 grid, Dim3 block) {
  tgsim::LaunchConfig c;
  c.grid = grid;
  c.block = block;
  return c;
}

const tgsim::SiteCounters& only_site(const tgsim::Report& r, SiteKind k) {
  const tgsim::SiteCounters* found = nullptr;
  for (const auto& s : r.sites)
    if (s.kind == k) {
      EXPECT_EQ(found, nullptr) << "more than one site of kind " << tgsim::to_string(k);
      found = &s;
    }
  if (!found) throw std::runtime_error("no site");
  return *found;
}

// Seed 000, written in the Metal dialect.
void neighbour_metal(device_ptr<const float> input, device_ptr<float> output) {
  uint id = thread_position_in_grid;
  uint local_id = thread_position_in_threadgroup;
  uint group_size = threads_per_threadgroup;
  TG_THREADGROUP(float, shared_data, [256]);
  shared_data[local_id] = input[id];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  float result = shared_data[local_id] + shared_data[(local_id + 1) % group_size];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  output[id] = result;
}

TEST(Dialect, MetalWordsRunSeed000Neighbour) {
  tgsim::Device dev;
  auto in = dev.alloc<float>(1024, "input"), out = dev.alloc<float>(1024, "output");
  for (int i = 0; i < 1024; ++i) in[i] = float(i * 2);
  auto r = dev.launch(cfg(Dim3(4), Dim3(256)), neighbour_metal, in, out);
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(out[i], in[i] + in[(i / 256) * 256 + (i % 256 + 1) % 256]);
  EXPECT_EQ(r.counters.barriers, 4u * 8u * 2u);
  EXPECT_EQ(r.counters.shared_load.instructions, 4u * 8u * 2u);
  EXPECT_EQ(r.counters.shared_load.bank_conflicts(), 0u);
  EXPECT_EQ(r.counters.global_load.sectors, 4u * 8u * 4u);
}

TEST(Dialect, MetalPositionsAsUint2AndGroupIds) {
  tgsim::Device dev;
  auto out = dev.alloc<unsigned>(4 * 6 * 4, "out");
  dev.launch(cfg(Dim3(2, 3), Dim3(2, 2)), [](device_ptr<unsigned> o) {
    uint2 pos = thread_position_in_grid;
    uint3 group = threadgroup_position_in_grid;
    uint3 groups = threadgroups_per_grid;
    uint i = (pos.y * 4 + pos.x) * 4;
    o[i] = pos.x;
    o[i + 1] = pos.y;
    o[i + 2] = group.x + 10 * group.y;
    o[i + 3] = groups.x * 10 + groups.y;
  }, out);
  for (unsigned y = 0; y < 6; ++y)
    for (unsigned x = 0; x < 4; ++x) {
      unsigned i = (y * 4 + x) * 4;
      EXPECT_EQ(out[i], x);
      EXPECT_EQ(out[i + 1], y);
      EXPECT_EQ(out[i + 2], x / 2 + 10 * (y / 2));
      EXPECT_EQ(out[i + 3], 23u);
    }
}

TEST(Dialect, CudaWordsAndDim3) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(8 * 4 * 2 * 3, "out");
  dev.launch(cfg(Dim3(3), Dim3(8, 4, 2)), [](TG_GLOBAL(int) o) {
    int t = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    o[blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + t] = t + 1000 * gridDim.x + warpSize * 0;
  }, out);
  for (int i = 0; i < 192; ++i) EXPECT_EQ(out[i], i % 64 + 3000);
  dim3 d(4, 2);
  EXPECT_EQ(d.volume(), 8u);
}

// Lanes are linearised x-fastest: a (8,4,2) block's warp 0 is z=0, y=0..3.
TEST(Dialect, WarpsAreFormedXFastest) {
  tgsim::Device dev;
  auto out = dev.alloc<float>(64, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(8, 4, 2)), [](tgsim::ThreadCtx& t, tgsim::global_ptr<float> o) {
    o[t.linear_tid] = float(t.warp * 100 + t.lane);
  }, out);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], float((i / 32) * 100 + i % 32));
  EXPECT_EQ(r.counters.global_store.instructions, 2u);
  EXPECT_EQ(r.counters.global_store.sectors, 8u);  // 128 contiguous bytes per warp
}

// Lane i runs the loop i times: 31 warp instructions, with 31, 30, ..., 1 active lanes.
TEST(Dialect, LoopsWithPerLaneTripCountsFormOneInstructionPerIteration) {
  tgsim::Device dev;
  auto in = dev.alloc<float>(32, "in"), out = dev.alloc<float>(32, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), [](TG_GLOBAL(const float) a, TG_GLOBAL(float) o) {
    float s = 0;
    for (unsigned k = 0; k < threadIdx.x; ++k) s += a[k];
    o[threadIdx.x] = s;
  }, in, out);
  EXPECT_EQ(r.counters.global_load.instructions, 31u);
  EXPECT_EQ(r.counters.global_load.thread_accesses, 31u * 32u / 2u);
  EXPECT_EQ(r.counters.global_load.sectors, 31u);  // every lane reads a[k]: one sector
}

// if/else: each branch is its own site, each a warp instruction with half the lanes.
TEST(Dialect, DivergentBranchesAreSeparateInstructions) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(64, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(64)), [](TG_GLOBAL(int) o) {
    if (threadIdx.x % 2 == 0) {
      o[threadIdx.x] = 1;
    } else {
      o[threadIdx.x] = 2;
    }
  }, out);
  EXPECT_EQ(r.counters.global_store.instructions, 4u);  // 2 sites x 2 warps
  EXPECT_EQ(r.counters.global_store.thread_accesses, 64u);
  int sites = 0;
  for (const auto& s : r.sites)
    if (s.kind == SiteKind::kGlobalStore) {
      ++sites;
      EXPECT_EQ(s.counters.instructions, 2u);
      EXPECT_EQ(s.counters.sectors, 8u);  // 16 lanes spread over 128 bytes: 4 sectors each
    }
  EXPECT_EQ(sites, 2);
}

// A lane that skips a site does not take part; a lane-0-only store is one instruction (E6).
TEST(Dialect, SingleLaneStoreIsOneInstruction) {
  tgsim::Device dev;
  auto r = dev.launch(cfg(Dim3(2), Dim3(64)), [](tgsim::ThreadCtx& t) {
    auto s = t.shared<int[64]>("s");
    if (t.lane == 0) s[t.warp] = 7;
  });
  const auto& st = only_site(r, SiteKind::kSharedStore);
  EXPECT_EQ(st.counters.instructions, 4u);
  EXPECT_EQ(st.counters.wavefronts, 4u);
}

struct alignas(16) float4v { float x, y, z, w; };

TEST(Dialect, WideAccessesAreOneAccessEach) {
  tgsim::Device dev;
  auto v4 = dev.alloc<float4v>(32, "v4");
  auto d = dev.alloc<double>(32, "d");
  auto c = dev.alloc<char>(32, "c");
  auto out = dev.alloc<float>(32, "out");
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), [](tgsim::ThreadCtx& t, tgsim::global_ptr<const float4v> a,
                                                 tgsim::global_ptr<const double> b, tgsim::global_ptr<const char> ch,
                                                 tgsim::global_ptr<float> o) {
    float4v v = a[t.lane];
    double x = b[t.lane];
    char y = ch[t.lane];
    auto sd = t.shared<double[64]>("sd");
    sd[t.lane] = x;
    double back = sd[t.lane];
    o[t.lane] = v.x + v.w + float(back) + float(y);
  }, v4, d, c, out);
  std::uint64_t sectors_by_width[17] = {};
  for (const auto& s : r.sites)
    if (s.kind == SiteKind::kGlobalLoad)
      sectors_by_width[s.counters.bytes / s.counters.thread_accesses] = s.counters.sectors;
  EXPECT_EQ(sectors_by_width[16], 16u);  // float4 coalesced
  EXPECT_EQ(sectors_by_width[8], 8u);    // double coalesced
  EXPECT_EQ(sectors_by_width[1], 1u);    // 32 chars in one sector
  EXPECT_EQ(r.counters.global_load.instructions, 3u);
  EXPECT_EQ(r.counters.shared_store.wavefronts, 2u);  // double stride 1: two half-warp phases
  EXPECT_EQ(r.counters.shared_load.wavefronts, 2u);
  EXPECT_EQ(r.counters.shared_load.bank_conflicts(), 0u);
}

TEST(Dialect, CompoundAssignmentIsALoadAndAStore) {
  tgsim::Device dev;
  auto a = dev.alloc<int>(32, "a");
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), [](TG_GLOBAL(int) p) { p[threadIdx.x] += 5; }, a);
  EXPECT_EQ(a[3], 5);
  EXPECT_EQ(r.counters.global_load.instructions, 1u);
  EXPECT_EQ(r.counters.global_store.instructions, 1u);
}

TEST(Dialect, SharedArraysOfAnyRankAreOnePerGroup) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(2 * 24, "out");
  auto r = dev.launch(cfg(Dim3(2), Dim3(24)), [](tgsim::ThreadCtx& t, tgsim::global_ptr<int> o) {
    auto cube = t.shared<int[2][3][4]>("cube");
    unsigned i = t.linear_tid;
    cube[i / 12][(i / 4) % 3][i % 4] = int(i + 100 * t.block_idx.x);
    t.barrier();
    unsigned j = 23 - i;
    o[t.block_idx.x * 24 + i] = cube[j / 12][(j / 4) % 3][j % 4];
  }, out);
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 24; ++i) EXPECT_EQ(out[b * 24 + i], 23 - i + 100 * b);
  EXPECT_TRUE(r.findings.empty());
}

TEST(Dialect, GlobalPointerArithmetic) {
  tgsim::Device dev;
  auto a = dev.alloc<int>(64, "a");
  auto r = dev.launch(cfg(Dim3(1), Dim3(32)), [](TG_GLOBAL(int) p) {
    TG_GLOBAL(int) q = p + 32;
    q[threadIdx.x] = 9;
    *(p + threadIdx.x) = 1;
  }, a);
  EXPECT_EQ(a[0], 1);
  EXPECT_EQ(a[40], 9);
  EXPECT_TRUE(r.findings.empty());
}

}  // namespace
