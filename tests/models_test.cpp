// Tests of the pure hardware models (sim/include/tgsim/models.hpp) against
// docs/hardware-model.md: the worked examples of section 2.5 with their H100 numbers, the
// H100 store rules of section 2.3, the sector table of section 1.3, and randomized property
// tests against a brute-force oracle written here straight from the formulas of sections
// 2.2-2.4 and 1.2 (std::set based, no call into the library).
//
// Property seeds: 12345 always, plus TGSIM_PROPERTY_SEED from the environment when set.
#include <tgsim/hash.hpp>
#include <tgsim/models.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using tgsim::model::global_sectors;
using tgsim::model::shared_wavefronts;
using tgsim::model::WarpAccess;
using tgsim::model::Wavefronts;

constexpr std::uint32_t kAll = 0xFFFFFFFFu;

// One warp instruction: owns its addresses so a WarpAccess can point at them.
struct Warp {
  std::uint32_t active = 0;
  std::uint32_t width = 4;
  std::array<std::uint64_t, 32> addr{};

  WarpAccess access() const { return WarpAccess{active, width, addr.data()}; }
};

// Lane i at base + i * stride_elems * width (the `s[lane*stride]` pattern of section 1.4).
Warp strided(std::uint32_t width, std::uint64_t stride_elems, std::uint32_t active = kAll,
             std::uint64_t base = 0) {
  Warp w;
  w.active = active;
  w.width = width;
  for (int i = 0; i < 32; ++i) w.addr[i] = base + static_cast<std::uint64_t>(i) * stride_elems * width;
  return w;
}

std::uint32_t first_lanes(int n) { return n >= 32 ? kAll : ((1u << n) - 1u); }

std::string describe(const Warp& w) {
  std::ostringstream os;
  os << "mask=0x" << std::hex << w.active << std::dec << " width=" << w.width << " addr[lane]={";
  for (int i = 0; i < 32; ++i) {
    os << (i ? ", " : "") << i << ":";
    if (w.active >> i & 1u)
      os << "0x" << std::hex << w.addr[i] << std::dec;
    else
      os << "-";
  }
  os << "}";
  return os.str();
}

std::uint32_t shared_wf(const Warp& w, bool is_load) { return shared_wavefronts(w.access(), is_load).wavefronts; }

// ---------------------------------------------------------------------------------------------
// Brute-force oracle, written from the doc's text and formulas only.
// ---------------------------------------------------------------------------------------------

// Section 2.1: sectors = |{ floor(b/32) : b in [a_i, a_i + W), i active }|.
std::uint32_t oracle_sectors(const Warp& w) {
  std::set<std::uint64_t> sectors;
  for (int i = 0; i < 32; ++i) {
    if (!(w.active >> i & 1u)) continue;
    for (std::uint64_t b = w.addr[i]; b < w.addr[i] + w.width; ++b) sectors.insert(b / 32);
  }
  return static_cast<std::uint32_t>(sectors.size());
}

// Section 1.2 pair condition for one distance d: every active lane i has lane i^d inactive or
// at the same address.
bool oracle_pairs(const Warp& w, int d) {
  for (int i = 0; i < 32; ++i) {
    if (!(w.active >> i & 1u)) continue;
    int j = i ^ d;
    if ((w.active >> j & 1u) && w.addr[j] != w.addr[i]) return false;
  }
  return true;
}

struct OracleWavefronts {
  std::uint32_t wavefronts = 0;
  std::uint32_t ideal = 0;
};

// Sections 1.2 (phases, merge for loads only) and 1.3 (formula).
OracleWavefronts oracle_shared(const Warp& w, bool is_load) {
  const bool merge = is_load && (oracle_pairs(w, 1) || oracle_pairs(w, 2));
  // Phase of each lane.
  auto phase_of = [&](int lane) {
    if (w.width <= 4) return 0;
    if (w.width == 8) return merge ? 0 : lane / 16;  // one phase, or half-warps
    return merge ? lane / 16 : lane / 8;             // W = 16: half-warps, or quarter-warps
  };
  std::map<int, std::set<std::uint64_t>> words;  // phase -> words_p
  const std::uint64_t words_per_lane = std::max<std::uint64_t>(1, w.width / 4);
  for (int i = 0; i < 32; ++i) {
    if (!(w.active >> i & 1u)) continue;
    for (std::uint64_t k = 0; k < words_per_lane; ++k) words[phase_of(i)].insert((w.addr[i] >> 2) + k);
  }
  OracleWavefronts r;
  for (const auto& [phase, ws] : words) {
    std::map<std::uint64_t, std::uint32_t> per_bank;
    std::uint32_t wf = 0;
    for (std::uint64_t word : ws) wf = std::max(wf, ++per_bank[word & 31]);
    r.wavefronts += wf;
    r.ideal += 1;
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Section 1.4 worked examples and section 1.2 H100 store rules.
// ---------------------------------------------------------------------------------------------

struct StrideCase {
  std::uint64_t stride;
  std::uint32_t h100;  // measured wavefronts
};

void PrintTo(const StrideCase& c, std::ostream* os) { *os << "{stride " << c.stride << ", H100 " << c.h100 << "}"; }

std::string stride_name(const testing::TestParamInfo<StrideCase>& info) {
  return "Stride" + std::to_string(info.param.stride);
}

// E1: float s[..]; s[lane*stride], full warp. Wavefronts gcd(stride, 32); stride 0 -> 1.
class E1FloatStride : public testing::TestWithParam<StrideCase> {};

TEST_P(E1FloatStride, MatchesH100) {
  const StrideCase c = GetParam();
  const Warp w = strided(4, c.stride);
  for (bool is_load : {true, false}) {
    Wavefronts r = shared_wavefronts(w.access(), is_load);
    EXPECT_EQ(r.wavefronts, c.h100) << "E1 float stride " << c.stride << (is_load ? " load" : " store");
    EXPECT_EQ(r.ideal, 1u) << "E1 float stride " << c.stride << (is_load ? " load" : " store");
    EXPECT_EQ(r.conflicts(), c.h100 - 1) << "E1 float stride " << c.stride << (is_load ? " load" : " store");
  }
  // The model column of the table: gcd(stride, 32), stride 0 -> 1.
  const std::uint32_t model = c.stride == 0 ? 1u : std::gcd<std::uint32_t>(c.stride, 32);
  EXPECT_EQ(model, c.h100) << "doc model column disagrees with H100 at stride " << c.stride;
}

INSTANTIATE_TEST_SUITE_P(SharedExamples, E1FloatStride,
                         testing::Values(StrideCase{1, 1}, StrideCase{2, 2}, StrideCase{3, 1}, StrideCase{4, 4},
                                         StrideCase{8, 8}, StrideCase{16, 16}, StrideCase{17, 1},
                                         StrideCase{32, 32}, StrideCase{33, 1}, StrideCase{0, 1}),
                         stride_name);

// E2: 32x32 transpose, block 32x32, float tile[32][32], column access tile[lx][ly]: a warp
// is the 32 values of lx for one ly -> stride 32 words -> 32 wavefronts (31 conflicts).
// H100: STS 1,048,576 wavefronts for 32,768 instructions.
TEST(SharedExamples, E2TransposeColumnUnpadded) {
  std::uint64_t total = 0;
  const std::uint64_t instructions = 32768;
  for (std::uint64_t ly = 0; ly < 32; ++ly) {
    Warp w;
    w.active = kAll;
    w.width = 4;
    for (std::uint64_t lx = 0; lx < 32; ++lx) w.addr[lx] = (lx * 32 + ly) * 4;
    for (bool is_load : {true, false}) {
      Wavefronts r = shared_wavefronts(w.access(), is_load);
      EXPECT_EQ(r.wavefronts, 32u) << "ly=" << ly << (is_load ? " load" : " store");
      EXPECT_EQ(r.ideal, 1u) << "ly=" << ly;
      EXPECT_EQ(r.conflicts(), 31u) << "ly=" << ly;
    }
    total += shared_wf(w, false);
  }
  // Every warp of the kernel does one of these 32 patterns; per instruction it is 32.
  EXPECT_EQ(total / 32 * instructions, 1048576u);
}

// E2': same with tile[32][33] -> stride 33 words -> 1. H100: 32,768 / 32,768.
TEST(SharedExamples, E2PrimeTransposeColumnPadded) {
  for (std::uint64_t ly = 0; ly < 32; ++ly) {
    Warp w;
    w.active = kAll;
    w.width = 4;
    for (std::uint64_t lx = 0; lx < 32; ++lx) w.addr[lx] = (lx * 33 + ly) * 4;
    for (bool is_load : {true, false}) {
      Wavefronts r = shared_wavefronts(w.access(), is_load);
      EXPECT_EQ(r.wavefronts, 1u) << "ly=" << ly << (is_load ? " load" : " store");
      EXPECT_EQ(r.ideal, 1u) << "ly=" << ly;
      EXPECT_EQ(r.conflicts(), 0u) << "ly=" << ly;
    }
  }
}

// E3: 16x16 block, float tile[16][17], read tile[ty][tx]. Warp k holds rows ty = 2k and 2k+1;
// lanes 16-31 are row ty+1 (index 17..32): lane 31 and lane 0 share bank 0 -> 2.
TEST(SharedExamples, E3Block16x16Padded17) {
  for (std::uint64_t k = 0; k < 8; ++k) {  // the 8 warps of the block
    Warp w;
    w.active = kAll;
    w.width = 4;
    for (std::uint64_t lane = 0; lane < 32; ++lane) {
      std::uint64_t t = 32 * k + lane;  // linear thread id, Dx = 16
      std::uint64_t tx = t % 16, ty = t / 16;
      w.addr[lane] = (ty * 17 + tx) * 4;
    }
    Wavefronts r = shared_wavefronts(w.access(), /*is_load=*/true);
    EXPECT_EQ(r.wavefronts, 2u) << "warp " << k;
    EXPECT_EQ(r.ideal, 1u) << "warp " << k;
    EXPECT_EQ(r.conflicts(), 1u) << "warp " << k;
  }
}

// E4: double s[..]; s[lane*stride], loads: strides 1,2,4,16,0 -> 2,4,8,32,1 (H100).
class E4DoubleStrideLoad : public testing::TestWithParam<StrideCase> {};

TEST_P(E4DoubleStrideLoad, MatchesH100) {
  const StrideCase c = GetParam();
  Wavefronts r = shared_wavefronts(strided(8, c.stride).access(), /*is_load=*/true);
  EXPECT_EQ(r.wavefronts, c.h100) << "E4 double load stride " << c.stride;
  // Stride 0 satisfies the pair condition: one merged phase; otherwise two half-warps.
  const std::uint32_t ideal = c.stride == 0 ? 1u : 2u;
  EXPECT_EQ(r.ideal, ideal) << "E4 double load stride " << c.stride;
  EXPECT_EQ(r.conflicts(), c.h100 - ideal) << "E4 double load stride " << c.stride;
}

INSTANTIATE_TEST_SUITE_P(SharedExamples, E4DoubleStrideLoad,
                         testing::Values(StrideCase{1, 2}, StrideCase{2, 4}, StrideCase{4, 8}, StrideCase{16, 32},
                                         StrideCase{0, 1}),
                         stride_name);

// E5: float4 s[..]; s[lane*stride], loads: strides 1,2,8,0 -> 4,8,32,2 (half-warps never merge).
class E5Float4StrideLoad : public testing::TestWithParam<StrideCase> {};

TEST_P(E5Float4StrideLoad, MatchesH100) {
  const StrideCase c = GetParam();
  Wavefronts r = shared_wavefronts(strided(16, c.stride).access(), /*is_load=*/true);
  EXPECT_EQ(r.wavefronts, c.h100) << "E5 float4 load stride " << c.stride;
  const std::uint32_t ideal = c.stride == 0 ? 2u : 4u;
  EXPECT_EQ(r.ideal, ideal) << "E5 float4 load stride " << c.stride;
  EXPECT_EQ(r.conflicts(), c.h100 - ideal) << "E5 float4 load stride " << c.stride;
}

INSTANTIATE_TEST_SUITE_P(SharedExamples, E5Float4StrideLoad,
                         testing::Values(StrideCase{1, 4}, StrideCase{2, 8}, StrideCase{8, 32}, StrideCase{0, 2}),
                         stride_name);

// E6: store by lane 0 only -> 1 wavefront (H100: 65,536 wavefronts / 65,536 STS).
TEST(SharedExamples, E6SingleLaneStore) {
  for (std::uint32_t width : {1u, 2u, 4u, 8u, 16u}) {
    for (std::uint64_t a : {0ull, 64ull, 4096ull, 228ull * 1024 - 16}) {
      Warp w;
      w.active = 1u;  // lane 0
      w.width = width;
      w.addr[0] = a / width * width;
      Wavefronts r = shared_wavefronts(w.access(), /*is_load=*/false);
      EXPECT_EQ(r.wavefronts, 1u) << "width " << width << " addr " << w.addr[0];
      EXPECT_EQ(r.ideal, 1u) << "width " << width << " addr " << w.addr[0];
      EXPECT_EQ(r.conflicts(), 0u) << "width " << width << " addr " << w.addr[0];
    }
  }
  // The kernel-level number: one wavefront per STS.
  EXPECT_EQ(65536u * shared_wf(strided(4, 0, 1u), false), 65536u);
}

// E8: seed 004 shared int matmul, 32x32 block, NT = 32. One warp = 32 values of i_local.
// a[NT*i_local + k_local] -> 32-way; b[NT*k_local + j_local] broadcast -> 1;
// stores a/b[NT*i_local + j_local] -> 32-way.
// H100 (unroll 1): 1,107,296,256 load wavefronts for 67,108,864 LDS (16.5 each);
// 67,108,864 store wavefronts for 2,097,152 STS.
TEST(SharedExamples, E8IntMatmul) {
  constexpr std::uint64_t NT = 32;
  const std::uint64_t a_base = 0, b_base = NT * NT * 4;
  std::uint64_t lds_per_pair = 0;
  for (std::uint64_t k = 0; k < NT; ++k) {
    const std::uint64_t j_local = 7;  // constant across the warp
    Warp a, b;
    a.active = b.active = kAll;
    a.width = b.width = 4;
    for (std::uint64_t i = 0; i < 32; ++i) {
      a.addr[i] = a_base + (NT * i + k) * 4;
      b.addr[i] = b_base + (NT * k + j_local) * 4;
    }
    Wavefronts ra = shared_wavefronts(a.access(), true);
    Wavefronts rb = shared_wavefronts(b.access(), true);
    EXPECT_EQ(ra.wavefronts, 32u) << "a load, k_local=" << k;
    EXPECT_EQ(ra.ideal, 1u);
    EXPECT_EQ(ra.conflicts(), 31u);
    EXPECT_EQ(rb.wavefronts, 1u) << "b load (broadcast), k_local=" << k;
    EXPECT_EQ(rb.ideal, 1u);
    EXPECT_EQ(rb.conflicts(), 0u);
    lds_per_pair = ra.wavefronts + rb.wavefronts;
  }
  // Average over the two loads: 16.5 per LDS, times the kernel's LDS count.
  EXPECT_EQ(lds_per_pair * (67108864ull / 2), 1107296256ull);

  for (std::uint64_t j = 0; j < NT; ++j) {
    for (std::uint64_t base : {a_base, b_base}) {
      Warp s;
      s.active = kAll;
      s.width = 4;
      for (std::uint64_t i = 0; i < 32; ++i) s.addr[i] = base + (NT * i + j) * 4;
      Wavefronts r = shared_wavefronts(s.access(), false);
      EXPECT_EQ(r.wavefronts, 32u) << "store, j_local=" << j << " base=" << base;
      EXPECT_EQ(r.conflicts(), 31u);
    }
  }
  EXPECT_EQ(2097152ull * shared_wf(strided(4, NT), false), 67108864ull);
}

// Section 1.2, [H100]: stores never merge. double store by 32 lanes to one address -> 2,
// float4 -> 4.
TEST(SharedStoreRulesH100, SameAddressStoresNeverMerge) {
  Wavefronts d = shared_wavefronts(strided(8, 0).access(), false);
  EXPECT_EQ(d.wavefronts, 2u) << "double store, 32 lanes, one address";
  EXPECT_EQ(d.ideal, 2u);
  EXPECT_EQ(d.conflicts(), 0u);
  Wavefronts q = shared_wavefronts(strided(16, 0).access(), false);
  EXPECT_EQ(q.wavefronts, 4u) << "float4 store, 32 lanes, one address";
  EXPECT_EQ(q.ideal, 4u);
  EXPECT_EQ(q.conflicts(), 0u);
  // The same accesses as loads merge (E4 stride 0 -> 1, E5 stride 0 -> 2).
  EXPECT_EQ(shared_wf(strided(8, 0), true), 1u);
  EXPECT_EQ(shared_wf(strided(16, 0), true), 2u);
}

// float4 store at stride 1: 16 active lanes -> 2, 8 -> 1, 1 -> 1 (empty phases cost nothing).
TEST(SharedStoreRulesH100, Float4StoreStride1PartialWarp) {
  const std::pair<int, std::uint32_t> cases[] = {{32, 4}, {16, 2}, {8, 1}, {1, 1}};
  for (auto [lanes, expected] : cases) {
    Wavefronts r = shared_wavefronts(strided(16, 1, first_lanes(lanes)).access(), false);
    EXPECT_EQ(r.wavefronts, expected) << "float4 store stride 1, " << lanes << " active lanes";
    EXPECT_EQ(r.ideal, expected) << "float4 store stride 1, " << lanes << " active lanes";
    EXPECT_EQ(r.conflicts(), 0u) << "float4 store stride 1, " << lanes << " active lanes";
  }
}

// double store at stride 2 (16 bytes apart): 32 lanes -> 4, 16 -> 2, 8 -> 1.
TEST(SharedStoreRulesH100, DoubleStoreStride2PartialWarp) {
  struct C {
    int lanes;
    std::uint32_t wavefronts, ideal;
  };
  for (C c : {C{32, 4, 2}, C{16, 2, 1}, C{8, 1, 1}}) {
    Wavefronts r = shared_wavefronts(strided(8, 2, first_lanes(c.lanes)).access(), false);
    EXPECT_EQ(r.wavefronts, c.wavefronts) << "double store stride 2, " << c.lanes << " active lanes";
    EXPECT_EQ(r.ideal, c.ideal) << "double store stride 2, " << c.lanes << " active lanes";
    EXPECT_EQ(r.conflicts(), c.wavefronts - c.ideal) << "double store stride 2, " << c.lanes << " active lanes";
  }
}

// ---------------------------------------------------------------------------------------------
// Further direct checks of the shared rules of sections 1.1-1.3.
// ---------------------------------------------------------------------------------------------

TEST(SharedRules, EmptyMaskCostsNothing) {
  for (std::uint32_t width : {1u, 2u, 4u, 8u, 16u})
    for (bool is_load : {true, false}) {
      Wavefronts r = shared_wavefronts(strided(width, 1, 0u).access(), is_load);
      EXPECT_EQ(r.wavefronts, 0u) << "width " << width;
      EXPECT_EQ(r.ideal, 0u) << "width " << width;
      EXPECT_EQ(r.conflicts(), 0u) << "width " << width;
    }
}

TEST(SharedRules, SubWordWidthsUseTheContainingWord) {
  // 32 chars in a row: 8 words in 8 banks -> 1.
  EXPECT_EQ(shared_wf(strided(1, 1), true), 1u);
  // 32 shorts in a row: 16 words -> 1.
  EXPECT_EQ(shared_wf(strided(2, 1), true), 1u);
  // chars 128 bytes apart: 32 distinct words of bank 0 -> 32.
  EXPECT_EQ(shared_wf(strided(1, 128), true), 32u);
  // shorts 64 bytes apart (stride 32 shorts = 16 words): banks 0 and 16, 16 words each -> 16.
  EXPECT_EQ(shared_wf(strided(2, 32), false), 16u);
  // Two chars in one word, the rest elsewhere in bank 0: same word is a broadcast.
  Warp w = strided(1, 128);
  w.addr[1] = w.addr[0] + 3;
  EXPECT_EQ(shared_wf(w, true), 31u);
}

TEST(SharedRules, PairConditionMergesLoadsOnly) {
  // double, lane pairs (i, i^1) at the same address, 16 consecutive doubles -> 32 words in
  // 32 banks, one merged phase -> 1 for loads; stores keep two half-warps -> 2.
  Warp d1;
  d1.active = kAll;
  d1.width = 8;
  for (int i = 0; i < 32; ++i) d1.addr[i] = static_cast<std::uint64_t>(i / 2) * 8;
  Wavefronts l = shared_wavefronts(d1.access(), true);
  EXPECT_EQ(l.wavefronts, 1u);
  EXPECT_EQ(l.ideal, 1u);
  Wavefronts s = shared_wavefronts(d1.access(), false);
  EXPECT_EQ(s.wavefronts, 2u);
  EXPECT_EQ(s.ideal, 2u);

  // Distance 2: lanes i and i^2 agree.
  Warp d2 = d1;
  for (int i = 0; i < 32; ++i) d2.addr[i] = static_cast<std::uint64_t>((i & ~3) / 2 + (i & 1)) * 8;
  EXPECT_EQ(shared_wavefronts(d2.access(), true).ideal, 1u);

  // One lane breaks both conditions -> no merge.
  Warp broken = d1;
  broken.addr[5] = 31 * 8;
  EXPECT_EQ(shared_wavefronts(broken.access(), true).ideal, 2u);

  // Partner inactive counts as agreeing: even lanes only, stride 1 double.
  Wavefronts even = shared_wavefronts(strided(8, 1, 0x55555555u).access(), true);
  // Words 0,1,4,5,...,60,61 in one phase: banks 0,1,4,5,...,28,29 twice each -> 2.
  EXPECT_EQ(even.ideal, 1u);
  EXPECT_EQ(even.wavefronts, 2u);
  EXPECT_EQ(even.conflicts(), 1u);
  // The same as a store: two half-warps of 1 each.
  Wavefronts even_st = shared_wavefronts(strided(8, 1, 0x55555555u).access(), false);
  EXPECT_EQ(even_st.ideal, 2u);
  EXPECT_EQ(even_st.wavefronts, 2u);
  EXPECT_EQ(even_st.conflicts(), 0u);
}

// ---------------------------------------------------------------------------------------------
// Section 2.1 global sectors.
// ---------------------------------------------------------------------------------------------

constexpr std::uint64_t kGlobalBase = 0x7f3a00000000ull;  // 128-byte aligned

struct SectorCase {
  const char* name;
  std::uint32_t width;
  std::uint64_t stride_elems;
  std::uint64_t shift_bytes;
  std::uint32_t active;
  std::uint32_t sectors;
};

void PrintTo(const SectorCase& c, std::ostream* os) {
  *os << "{" << c.name << ": width " << c.width << ", stride " << c.stride_elems << ", shift " << c.shift_bytes
      << ", mask 0x" << std::hex << c.active << std::dec << ", sectors " << c.sectors << "}";
}

class GlobalSectorsTable : public testing::TestWithParam<SectorCase> {};

TEST_P(GlobalSectorsTable, MatchesDoc) {
  const SectorCase c = GetParam();
  Warp w = strided(c.width, c.stride_elems, c.active, kGlobalBase + c.shift_bytes);
  EXPECT_EQ(global_sectors(w.access()), c.sectors) << c.name << ": " << describe(w);
}

INSTANTIATE_TEST_SUITE_P(
    GlobalSectors, GlobalSectorsTable,
    testing::Values(
        // Section 2.1 table ([H100] gmem_stride where measured).
        SectorCase{"CoalescedAligned", 4, 1, 0, kAll, 4}, SectorCase{"Stride2", 4, 2, 0, kAll, 8},
        SectorCase{"Stride4", 4, 4, 0, kAll, 16}, SectorCase{"Stride8", 4, 8, 0, kAll, 32},
        SectorCase{"Stride32", 4, 32, 0, kAll, 32}, SectorCase{"Stride1000", 4, 1000, 0, kAll, 32},
        SectorCase{"CoalescedShifted4B", 4, 1, 4, kAll, 5}, SectorCase{"Broadcast", 4, 0, 0, kAll, 1},
        SectorCase{"DoubleCoalesced", 8, 1, 0, kAll, 8}, SectorCase{"Float4Coalesced", 16, 1, 0, kAll, 16},
        // Partial masks.
        SectorCase{"OneLane", 4, 1, 0, 1u, 1}, SectorCase{"OneLaneLast", 4, 1, 0, 0x80000000u, 1},
        SectorCase{"EmptyMask", 4, 1, 0, 0u, 0}, SectorCase{"EmptyMaskFloat4", 16, 1, 0, 0u, 0},
        SectorCase{"FirstHalfCoalesced", 4, 1, 0, 0x0000FFFFu, 2},
        SectorCase{"EvenLanesCoalesced", 4, 1, 0, 0x55555555u, 4},
        SectorCase{"EveryEighthLane", 4, 1, 0, 0x01010101u, 4},
        SectorCase{"Stride8HalfWarp", 4, 8, 0, 0x0000FFFFu, 16},
        // 1- and 2-byte widths.
        SectorCase{"Char32Coalesced", 1, 1, 0, kAll, 1}, SectorCase{"Short32Coalesced", 2, 1, 0, kAll, 2},
        SectorCase{"CharShifted1B", 1, 1, 1, kAll, 2}, SectorCase{"CharStride32", 1, 32, 0, kAll, 32},
        SectorCase{"ShortStride16", 2, 16, 0, kAll, 32}, SectorCase{"CharBroadcast", 1, 0, 5, kAll, 1},
        // Misaligned: every lane straddles a sector boundary.
        SectorCase{"FloatStride8Shift30", 4, 8, 30, kAll, 33},
        SectorCase{"FloatStride16Shift30", 4, 16, 30, kAll, 64},
        SectorCase{"Float4CoalescedShift8", 16, 1, 8, kAll, 17}),
    [](const testing::TestParamInfo<SectorCase>& info) { return std::string(info.param.name); });

TEST(GlobalSectors, MisalignedFloatStraddlesTwoSectors) {
  Warp w;
  w.active = 1u;
  w.width = 4;
  w.addr[0] = kGlobalBase + 30;  // bytes 30..33: sectors 0 and 1
  EXPECT_EQ(global_sectors(w.access()), 2u);
  w.addr[0] = kGlobalBase + 28;  // bytes 28..31: sector 0 only
  EXPECT_EQ(global_sectors(w.access()), 1u);
  w.addr[0] = kGlobalBase + 29;  // bytes 29..32
  EXPECT_EQ(global_sectors(w.access()), 2u);
  w.width = 2;
  w.addr[0] = kGlobalBase + 31;  // bytes 31..32
  EXPECT_EQ(global_sectors(w.access()), 2u);
  w.width = 16;
  w.addr[0] = kGlobalBase + 17;  // bytes 17..32
  EXPECT_EQ(global_sectors(w.access()), 2u);
  w.addr[0] = kGlobalBase + 16;  // bytes 16..31
  EXPECT_EQ(global_sectors(w.access()), 1u);
}

TEST(GlobalSectors, InactiveLanesAddressesIgnored) {
  // Inactive lanes hold garbage that would add sectors if read.
  Warp w = strided(4, 1, 0x000000FFu, kGlobalBase);
  for (int i = 8; i < 32; ++i) w.addr[i] = 0xdead0000ull + 4096ull * i;
  EXPECT_EQ(global_sectors(w.access()), 1u);
}

// ---------------------------------------------------------------------------------------------
// Property tests against the oracle.
// ---------------------------------------------------------------------------------------------

constexpr int kCasesPerSeed = 100000;
constexpr int kMaxReportedFailures = 5;

std::vector<std::uint64_t> property_seeds() {
  std::vector<std::uint64_t> seeds{12345};
  if (const char* env = std::getenv("TGSIM_PROPERTY_SEED"); env && *env) {
    char* end = nullptr;
    std::uint64_t s = std::strtoull(env, &end, 0);
    if (end && *end == '\0')
      seeds.push_back(s);
    else
      ADD_FAILURE() << "TGSIM_PROPERTY_SEED is not an integer: '" << env << "'";
  }
  return seeds;
}

void record_seeds(const std::vector<std::uint64_t>& seeds) {
  std::string list;
  for (std::uint64_t s : seeds) list += (list.empty() ? "" : ",") + std::to_string(s);
  testing::Test::RecordProperty("seeds", list);
  std::cout << "[ seeds    ] " << list << " (" << kCasesPerSeed << " cases each)" << std::endl;
}

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  std::uint64_t below(std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng_); }
  bool coin(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }

  std::uint32_t width() {
    static constexpr std::uint32_t widths[] = {1, 2, 4, 8, 16};
    return widths[below(5)];
  }

  std::uint32_t mask() {
    switch (below(12)) {
      case 0:
      case 1:
      case 2: return kAll;
      case 3: return 1u << below(32);                           // single lane
      case 4: return 0u;                                        // empty
      case 5: return static_cast<std::uint32_t>(rng_());        // random ~half
      case 6: return first_lanes(static_cast<int>(below(32)) + 1);  // first N lanes
      case 7: {                                                 // one half or quarter
        static constexpr std::uint32_t m[] = {0x0000FFFFu, 0xFFFF0000u, 0x000000FFu, 0x0000FF00u,
                                              0x00FF0000u, 0xFF000000u, 0x55555555u, 0xAAAAAAAAu,
                                              0x33333333u, 0xCCCCCCCCu, 0x0F0F0F0Fu, 0x00FF00FFu};
        return m[below(std::size(m))];
      }
      case 8: {  // sparse
        std::uint32_t m = 0;
        int n = static_cast<int>(below(4)) + 2;
        for (int i = 0; i < n; ++i) m |= 1u << below(32);
        return m;
      }
      case 9: return kAll & ~(1u << below(32));  // all but one
      default: {                                 // dense random
        std::uint32_t m = static_cast<std::uint32_t>(rng_() | rng_());
        return m;
      }
    }
  }

  // Addresses in units of `width`-aligned elements then scaled; `misalign` adds byte offsets.
  void addresses(Warp& w, std::uint64_t base, std::uint64_t span_bytes, bool misalign) {
    const std::uint64_t W = w.width;
    const std::uint64_t elems = span_bytes / W;
    static constexpr std::uint64_t strides[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 64, 65, 128};
    switch (below(7)) {
      case 0:
      case 1: {  // strided
        std::uint64_t stride = coin(80) ? strides[below(std::size(strides))] : below(300);
        std::uint64_t start = below(elems / 2);
        for (int i = 0; i < 32; ++i) w.addr[i] = ((start + i * stride) % elems) * W;
        break;
      }
      case 2: {  // fully random, small window (many collisions) or whole span
        std::uint64_t window = coin(50) ? std::max<std::uint64_t>(1, below(64) + 1) : elems;
        std::uint64_t start = below(elems - std::min(elems, window) + 1);
        for (int i = 0; i < 32; ++i) w.addr[i] = (start + below(window)) * W;
        break;
      }
      case 3: {  // k distinct addresses shared by lanes (broadcast groups)
        std::uint64_t k = below(4) + 1;
        std::uint64_t pool[4];
        for (std::uint64_t j = 0; j < k; ++j) pool[j] = below(elems) * W;
        for (int i = 0; i < 32; ++i) w.addr[i] = pool[below(k)];
        break;
      }
      case 4: {  // permutation of a contiguous block
        std::array<std::uint64_t, 32> p;
        std::iota(p.begin(), p.end(), 0);
        std::shuffle(p.begin(), p.end(), rng_);
        std::uint64_t stride = coin(50) ? 1 : strides[below(std::size(strides))];
        std::uint64_t start = below(elems / 2);
        for (int i = 0; i < 32; ++i) w.addr[i] = ((start + p[i] * stride) % elems) * W;
        break;
      }
      case 5: {  // 2D tile: row = lane / cols, address = row * pitch + col
        std::uint64_t cols = std::uint64_t{1} << below(6);  // 1..32
        std::uint64_t pitch = cols + below(40);
        std::uint64_t start = below(elems / 2);
        for (int i = 0; i < 32; ++i) w.addr[i] = ((start + (i / cols) * pitch + i % cols) % elems) * W;
        break;
      }
      default: {  // pairs made to satisfy the pair condition (for d = 1 or 2), before mixing
        int d = coin(50) ? 1 : 2;
        std::uint64_t stride = strides[below(std::size(strides))];
        std::uint64_t start = below(elems / 2);
        for (int i = 0; i < 32; ++i) {
          int leader = std::min(i, i ^ d);
          w.addr[i] = ((start + static_cast<std::uint64_t>(leader) * stride) % elems) * W;
        }
        break;
      }
    }
    // Mixing: copy some lanes from others (broadcast), or scatter a few at random.
    if (coin(30)) {
      int n = static_cast<int>(below(6)) + 1;
      for (int j = 0; j < n; ++j) w.addr[below(32)] = w.addr[below(32)];
    }
    if (coin(15)) {
      int n = static_cast<int>(below(3)) + 1;
      for (int j = 0; j < n; ++j) w.addr[below(32)] = below(elems) * W;
    }
    // Inactive lanes get garbage that must be ignored.
    for (int i = 0; i < 32; ++i)
      if (!(w.active >> i & 1u) && coin(50)) w.addr[i] = rng_() & 0xFFFFFFFFFFull;
    for (int i = 0; i < 32; ++i) {
      if (!(w.active >> i & 1u)) continue;
      w.addr[i] += base;
    }
    if (misalign) {
      if (coin(50)) {  // one offset for the whole warp
        std::uint64_t off = below(32);
        for (auto& a : w.addr) a += off;
      } else {  // independent offsets
        for (auto& a : w.addr) a += below(32);
      }
    }
  }

 private:
  std::mt19937_64 rng_;
};

TEST(Property, SharedWavefrontsMatchOracle) {
  const std::vector<std::uint64_t> seeds = property_seeds();
  record_seeds(seeds);
  int failures = 0;
  std::uint64_t checked = 0;
  for (std::uint64_t seed : seeds) {
    Generator g(seed);
    for (int n = 0; n < kCasesPerSeed && failures < kMaxReportedFailures; ++n) {
      Warp w;
      w.width = g.width();
      w.active = g.mask();
      // Shared memory: byte offsets within 228 KiB, naturally aligned per width.
      g.addresses(w, 0, 228 * 1024, /*misalign=*/false);
      for (bool is_load : {true, false}) {
        Wavefronts got = shared_wavefronts(w.access(), is_load);
        OracleWavefronts want = oracle_shared(w, is_load);
        ++checked;
        if (got.wavefronts != want.wavefronts || got.ideal != want.ideal ||
            got.conflicts() != want.wavefronts - want.ideal) {
          ADD_FAILURE() << "seed " << seed << " case " << n << (is_load ? " load" : " store") << "\n  "
                        << describe(w) << "\n  library: wavefronts=" << got.wavefronts << " ideal=" << got.ideal
                        << " conflicts=" << got.conflicts() << "\n  oracle:  wavefronts=" << want.wavefronts
                        << " ideal=" << want.ideal << " conflicts=" << want.wavefronts - want.ideal;
          if (++failures >= kMaxReportedFailures) break;
        }
      }
    }
  }
  if (failures >= kMaxReportedFailures) std::cout << "stopped after " << failures << " failures" << std::endl;
  EXPECT_GE(checked, static_cast<std::uint64_t>(kCasesPerSeed)) << "too few cases ran";
}

TEST(Property, GlobalSectorsMatchOracle) {
  const std::vector<std::uint64_t> seeds = property_seeds();
  record_seeds(seeds);
  int failures = 0;
  std::uint64_t checked = 0;
  for (std::uint64_t seed : seeds) {
    Generator g(seed ^ tgsim::detail::kGoldenGamma);  // independent stream from the shared test
    for (int n = 0; n < kCasesPerSeed && failures < kMaxReportedFailures; ++n) {
      Warp w;
      w.width = g.width();
      w.active = g.mask();
      // Global: a 128-B aligned base somewhere in a 48-bit space, span up to 64 KiB,
      // with misaligned addresses half the time.
      const std::uint64_t base = g.below(std::uint64_t{1} << 40) * 128;
      const std::uint64_t span = g.coin(50) ? 4096 : 65536;
      g.addresses(w, base, span, /*misalign=*/g.coin(50));
      std::uint32_t got = global_sectors(w.access());
      std::uint32_t want = oracle_sectors(w);
      ++checked;
      if (got != want) {
        ADD_FAILURE() << "seed " << seed << " case " << n << "\n  " << describe(w) << "\n  library: sectors=" << got
                      << "\n  oracle:  sectors=" << want;
        ++failures;
      }
    }
  }
  if (failures >= kMaxReportedFailures) std::cout << "stopped after " << failures << " failures" << std::endl;
  EXPECT_GE(checked, static_cast<std::uint64_t>(kCasesPerSeed)) << "too few cases ran";
}

// The oracle itself, on the doc's numbers, so a wrong oracle cannot agree with a wrong library.
TEST(Property, OracleReproducesDocExamples) {
  EXPECT_EQ(oracle_shared(strided(4, 32), true).wavefronts, 32u);
  EXPECT_EQ(oracle_shared(strided(4, 17), true).wavefronts, 1u);
  EXPECT_EQ(oracle_shared(strided(8, 0), true).wavefronts, 1u);
  EXPECT_EQ(oracle_shared(strided(8, 0), false).wavefronts, 2u);
  EXPECT_EQ(oracle_shared(strided(8, 16), true).wavefronts, 32u);
  EXPECT_EQ(oracle_shared(strided(16, 0), true).wavefronts, 2u);
  EXPECT_EQ(oracle_shared(strided(16, 0), false).wavefronts, 4u);
  EXPECT_EQ(oracle_shared(strided(16, 8), true).wavefronts, 32u);
  EXPECT_EQ(oracle_shared(strided(16, 1, first_lanes(16)), false).wavefronts, 2u);
  EXPECT_EQ(oracle_shared(strided(8, 2, first_lanes(8)), false).wavefronts, 1u);
  EXPECT_EQ(oracle_shared(strided(8, 2), false).wavefronts, 4u);
  EXPECT_EQ(oracle_sectors(strided(4, 1, kAll, kGlobalBase + 4)), 5u);
  EXPECT_EQ(oracle_sectors(strided(16, 1, kAll, kGlobalBase)), 16u);
  EXPECT_EQ(oracle_sectors(strided(4, 1, 0u, kGlobalBase)), 0u);
}

}  // namespace

// ---------------------------------------------------------------- geometry from the profile

// A column of a [32][32] float tile (stride 128 bytes): 32 banks put every lane in bank 0
// (32 wavefronts); 64 banks split the lanes over banks 0 and 32 (16); 32 banks of 8 bytes
// over banks 0 and 16 (16).
TEST(Geometry, BanksComeFromTheProfile) {
  Warp w;
  w.active = kAll;
  w.width = 4;
  for (std::uint64_t l = 0; l < 32; ++l) w.addr[l] = l * 128;
  const tgsim::model::Geometry h100, banks64{64, 4, 32}, wide{32, 8, 32};
  EXPECT_EQ(shared_wavefronts(w.access(), true, h100).wavefronts, 32u);
  EXPECT_EQ(shared_wavefronts(w.access(), true, banks64).wavefronts, 16u);
  EXPECT_EQ(shared_wavefronts(w.access(), true, wide).wavefronts, 16u);
  EXPECT_EQ(tgsim::model::shared_atomic_wavefronts(w.access(), banks64).wavefronts, 16u);
  // Consecutive floats: one wavefront on any geometry; 8-byte lanes: two half-warp phases of
  // 128 bytes on the H100, one 256-byte wavefront with 64 banks.
  for (std::uint64_t l = 0; l < 32; ++l) w.addr[l] = l * 4;
  EXPECT_EQ(shared_wavefronts(w.access(), true, banks64).wavefronts, 1u);
  w.width = 8;
  for (std::uint64_t l = 0; l < 32; ++l) w.addr[l] = l * 8;
  EXPECT_EQ(shared_wavefronts(w.access(), false, h100).wavefronts, 2u);
  EXPECT_EQ(shared_wavefronts(w.access(), false, banks64).wavefronts, 1u);
  EXPECT_EQ(shared_wavefronts(w.access(), false, banks64).ideal, 1u);
  // The default geometry is the one the one-argument models use.
  EXPECT_EQ(shared_wavefronts(w.access(), false, h100).wavefronts, shared_wavefronts(w.access(), false).wavefronts);
}

TEST(Geometry, SectorsComeFromTheProfile) {
  Warp w;
  w.active = kAll;
  w.width = 4;
  for (std::uint64_t l = 0; l < 32; ++l) w.addr[l] = l * 4;  // 128 contiguous bytes
  EXPECT_EQ(global_sectors(w.access()), 4u);
  EXPECT_EQ(global_sectors(w.access(), tgsim::model::Geometry{32, 4, 64}), 2u);
  EXPECT_EQ(global_sectors(w.access(), tgsim::model::Geometry{32, 4, 16}), 8u);
  for (std::uint64_t l = 0; l < 32; ++l) w.addr[l] = l * 64;  // one float every 64 bytes
  EXPECT_EQ(global_sectors(w.access()), 32u);
  EXPECT_EQ(global_sectors(w.access(), tgsim::model::Geometry{32, 4, 128}), 16u);
}

TEST(Geometry, UnsupportedGeometriesAreNamed) {
  EXPECT_EQ(tgsim::model::Geometry{}.unsupported(), nullptr);
  EXPECT_EQ((tgsim::model::Geometry{64, 8, 64}.unsupported()), nullptr);
  EXPECT_NE((tgsim::model::Geometry{48, 4, 32}.unsupported()), nullptr);
  EXPECT_NE((tgsim::model::Geometry{128, 4, 32}.unsupported()), nullptr);
  EXPECT_NE((tgsim::model::Geometry{32, 2, 32}.unsupported()), nullptr);
  EXPECT_NE((tgsim::model::Geometry{32, 4, 8}.unsupported()), nullptr);
}
