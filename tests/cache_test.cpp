// The memory-hierarchy model: the L1 cache unit, the seed kernels' L1/L2/DRAM counters (and
// their H100 references), determinism for any worker count, JSON keys, device profiles,
// the capture hook and progress.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "dialect/cuda.hpp"
#include <tgsim/tgsim.hpp>

#include "analyses/cache/cache.hpp"
#include "catalog.hpp"

using tgsim::Dim3;

namespace {

tgsim::catalog::Result run(const char* k, int n, unsigned threads = 0, bool cache = true,
                           std::string capture = "") {
  tgsim::catalog::RunOptions o;
  o.n = n;
  o.threads = threads;
  o.cache_model = cache;
  o.capture_site = std::move(capture);
  return tgsim::catalog::run(tgsim::Device{}, k, o);
}

// One sector looked up on its own (what the cache model did per sector before it looked up a
// line's sectors together): 1 if it hit.
std::uint32_t load_sector(tgsim::detail::L1Cache& l1, std::uint64_t sector) {
  const std::uint64_t line = l1.line_of(sector);
  return l1.load_line(line, 1u << (sector - line * l1.sectors_per_line())) != 0;
}

}  // namespace

TEST(L1Cache, ColdMissThenSectorHit) {
  tgsim::detail::L1Cache l1(1024, 128, 32, 2);
  std::uint64_t s0 = 100 * 4;  // sector 0 of line 100
  EXPECT_EQ(load_sector(l1, s0), 0u);
  EXPECT_EQ(load_sector(l1, s0), 1u);
  std::uint64_t s1 = s0 + 1;   // same line, other sector: fetched separately
  EXPECT_EQ(load_sector(l1, s1), 0u);
  EXPECT_EQ(load_sector(l1, s1), 1u);
  tgsim::detail::L1Cache cold(1024, 128, 32, 2);  // a new L1 (each SM's, per launch) is cold
  EXPECT_EQ(load_sector(cold, s0), 0u);
}

TEST(L1Cache, EvictsLeastRecentlyUsedBeyondCapacity) {
  tgsim::detail::L1Cache l1(8 * 128, 128, 32, 8);  // one set of 8 lines
  for (std::uint64_t line = 0; line < 8; ++line) {
    std::uint64_t s = line * 4;
    EXPECT_EQ(load_sector(l1, s), 0u);
  }
  std::uint64_t s0 = 0;
  EXPECT_EQ(load_sector(l1, s0), 1u);  // line 0 is now the most recent
  std::uint64_t s8 = 8 * 4;
  EXPECT_EQ(load_sector(l1, s8), 0u);  // evicts line 1 (least recent)
  EXPECT_EQ(load_sector(l1, s0), 1u);
  std::uint64_t s1 = 1 * 4;
  EXPECT_EQ(load_sector(l1, s1), 0u);
}

// CacheSim::load looks up the sectors of one line together (load_line): the same hits as
// sector by sector, on random ascending sector lists over few sets (so lines are evicted),
// with 4 and with 3 sectors per line; and the misses join the footprint as before.
TEST(L1Cache, LinesLookedUpTogetherHitAsSectorBySector) {
  std::uint64_t x = 777;
  auto next = [&x] { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  for (std::uint32_t line_bytes : {128u, 96u}) {
    tgsim::detail::L1Cache by_sector(4 * line_bytes * 4, line_bytes, 32, 4);  // 4 sets of 4 ways
    tgsim::detail::L1Cache by_line(4 * line_bytes * 4, line_bytes, 32, 4);
    tgsim::DeviceProfile p = tgsim::profiles::nvidia_h100();
    tgsim::detail::LaunchFootprint f(p, 0, 1 << 20);
    tgsim::detail::CacheSim sim(p, f);
    std::uint64_t hits = 0, misses = 0;
    for (int i = 0; i < 20000; ++i) {
      std::vector<std::uint64_t> s;  // ascending, distinct
      for (std::uint64_t v = next() % 64, n = 1 + next() % 8; s.size() < n; v += 1 + next() % 3) s.push_back(v);
      std::uint32_t want = 0;
      for (std::uint64_t v : s) want += load_sector(by_sector, v);
      const std::uint32_t got = sim.load(by_line, s.data(), static_cast<std::uint32_t>(s.size()));
      ASSERT_EQ(got, want) << "round " << i << ", line " << line_bytes;
      hits += got;
      misses += s.size() - got;
    }
    EXPECT_GT(hits, 1000u);
    EXPECT_GT(misses, 1000u);
    EXPECT_EQ(sim.l2_read_sectors, misses);
  }
}

// The L1's set index takes (hash % sets) by multiplication: equal to % for every divisor the
// profiles can give and for hashes across the 24-bit range, the ends included.
TEST(L1Cache, FastmodEqualsTheRemainder) {
  std::uint64_t x = 12345;
  for (std::uint32_t d = 1; d <= 5000; ++d) {
    const std::uint64_t magic = tgsim::detail::fastmod_magic(d);
    for (std::uint32_t a : {0u, 1u, d - 1, d, d + 1, (1u << 24) - 1, ~0u})
      ASSERT_EQ(tgsim::detail::fastmod_u32(a, magic, d), a % d) << a << " % " << d;
    for (int i = 0; i < 50; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const auto a = static_cast<std::uint32_t>(x >> 32);
      ASSERT_EQ(tgsim::detail::fastmod_u32(a, magic, d), a % d) << a << " % " << d;
    }
  }
}

TEST(L1Cache, InstructionSectorsAreDistinctAndSorted) {
  std::uint64_t addr[32];
  for (int l = 0; l < 32; ++l) addr[l] = 4096 + 4 * l + 4;  // shifted by 4 bytes: 5 sectors
  std::uint64_t out[64];
  tgsim::model::WarpAccess a{~0u, 4, addr};
  ASSERT_EQ(tgsim::detail::instruction_sectors(a, 32, out), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], 4096 / 32 + std::uint64_t(i));
}

// docs/hardware-model.md 7.1-7.3 and the H100 fixture (tests/hardware/h100.json).
TEST(CacheModel, MatmulNaiveHitsInL1AsOnTheH100) {
  auto r = run("matmul_naive", 256);
  const auto& c = r.report.counters;
  ASSERT_TRUE(c.cache_modelled);
  EXPECT_EQ(c.global_load.sectors, 2097152u);
  EXPECT_EQ(c.global_load.l1_hit_sectors, 1835008u);  // H100: 1,842,688 (-0.4 %)
  EXPECT_EQ(c.l2_read_sectors, 262144u);              // each group's A rows and B columns once
  EXPECT_EQ(c.l2_write_sectors, 8192u);               // H100: 8,192
  EXPECT_EQ(c.dram_read_bytes, 8192u * 64 + 3072);    // A and B once + fixed; H100: 527,616
  EXPECT_EQ(c.dram_write_bytes, 0u);                  // H100: 0 (C stays in L2)
}

TEST(CacheModel, TilingCutsRequestsButNotL2OrDramTraffic) {
  auto naive = run("matmul_naive", 256), t16 = run("matmul_tiled16", 256);
  const auto& a = naive.report.counters;
  const auto& b = t16.report.counters;
  EXPECT_EQ(a.global_load.requests(), 16 * b.global_load.requests());
  EXPECT_EQ(a.l2_read_sectors, b.l2_read_sectors);
  EXPECT_EQ(a.dram_read_bytes, b.dram_read_bytes);
  EXPECT_EQ(b.global_load.l1_hit_sectors, 0u);
}

TEST(CacheModel, TransposeNaiveSevenOfEightColumnSectorsHit) {
  auto r = run("transpose_naive", 1024);
  const auto& c = r.report.counters;
  EXPECT_EQ(c.global_load.l1_hit_sectors, 917504u);  // H100: 917,504 exactly
  EXPECT_EQ(c.l2_read_sectors, 131072u);             // H100: 131,072
  EXPECT_EQ(c.l2_write_sectors, 131072u);            // H100: 131,072
  EXPECT_EQ(c.dram_read_bytes, 131072u / 2 * 64 + 3072);  // H100: 4,197,120
}

TEST(CacheModel, OffLeavesOtherCountersUnchanged) {
  // Sectors come from the cache model's gathering when it is on: they must equal the model's.
  for (const char* k : {"matmul_naive", "transpose_naive", "blur3x3", "add_bias"}) {
    tgsim::Counters a = run(k, 64).report.counters, b = run(k, 64, 0, false).report.counters;
    EXPECT_EQ(a.global_load.sectors, b.global_load.sectors) << k;
    EXPECT_EQ(a.global_store.sectors, b.global_store.sectors) << k;
  }
  auto on = run("matmul_tiled16", 64), off = run("matmul_tiled16", 64, 0, false);
  EXPECT_FALSE(off.report.counters.cache_modelled);
  EXPECT_EQ(off.report.counters.l2_read_sectors, 0u);
  EXPECT_EQ(off.report.counters.global_load.l1_hit_sectors, 0u);
  tgsim::Counters a = on.report.counters, b = off.report.counters;
  a.cache_modelled = false;
  a.l2_read_sectors = a.l2_write_sectors = a.dram_read_bytes = a.dram_write_bytes = 0;
  a.global_load.l1_hit_sectors = 0;
  EXPECT_EQ(a, b);
}

TEST(CacheModel, IdenticalForAnyWorkerCount) {
  // 300 groups: more than the 132 SMs, so SMs run several groups through one L1.
  for (const char* k : {"matmul_naive", "transpose_naive", "matmul_tiled8"}) {
    std::string first;
    for (unsigned threads : {1u, 2u, 8u}) {
      auto r = run(k, k[0] == 'm' ? 136 : 544, threads);
      std::string j = tgsim::to_json(r.report);
      if (first.empty()) first = j;
      EXPECT_EQ(j, first) << k << " threads " << threads;
    }
  }
}

TEST(CacheModel, JsonHasTheCacheCounters) {
  auto r = run("transpose_naive", 256);
  auto j = nlohmann::json::parse(tgsim::to_json(r.report));
  EXPECT_EQ(j["counters"]["global"]["load"]["l1_hit_sectors"], r.report.counters.global_load.l1_hit_sectors);
  EXPECT_EQ(j["counters"]["l2"]["read_sectors"], r.report.counters.l2_read_sectors);
  EXPECT_EQ(j["counters"]["l2"]["write_sectors"], r.report.counters.l2_write_sectors);
  EXPECT_EQ(j["counters"]["dram"]["read_bytes"], r.report.counters.dram_read_bytes);
  EXPECT_EQ(j["counters"]["dram"]["write_bytes"], 0);
  EXPECT_GT(r.report.counters.global_load.l1_hit_sectors, 0u);
}

TEST(CacheModel, DramWritesWhenTheFootprintExceedsL2) {
  tgsim::DeviceProfile p = tgsim::profiles::nvidia_h100();
  p.l2_bytes = 64 * 1024;  // smaller than the 2 x 256 KiB of a 256 x 256 transpose
  tgsim::catalog::RunOptions o;
  o.n = 256;
  auto r = tgsim::catalog::run(tgsim::Device{p}, "transpose_padded", o);
  EXPECT_EQ(r.report.counters.dram_write_bytes, 256u * 256 * 4);
}

// The launch-wide unique sets: one bitmap shared by the workers.
TEST(IdBitmap, CountsDistinctIdsAcrossPagesAndOutsideTheRange) {
  const std::uint64_t first = 1000, count = 3 * (1u << 15) + 5;  // four pages, the last partial
  tgsim::detail::IdBitmap b(first, count);
  for (int rep = 0; rep < 2; ++rep) {
    b.insert(first);
    b.insert(first + count - 1);
    b.insert(first + (1u << 15) - 1);
    b.insert(first + (1u << 15));
    b.insert(first - 1);      // below the range
    b.insert(first + count);  // above: memory registered during the launch
    b.insert(7);
  }
  EXPECT_EQ(b.size(), 7u);
}

TEST(IdBitmap, ConcurrentInsertsFromSeveralWorkersCountEachIdOnce) {
  tgsim::detail::IdBitmap b(0, 1u << 20);
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t)  // overlapping strides: ids 0, 3, 6, ... and 0, 5, 10, ...
    ts.emplace_back([&b, t] {
      const std::uint64_t step = t % 2 ? 5 : 3;
      for (std::uint64_t id = 0; id < (1u << 21); id += step) b.insert(id);  // half outside
    });
  for (std::thread& t : ts) t.join();
  std::uint64_t expect = 0;
  for (std::uint64_t id = 0; id < (1u << 21); ++id) expect += id % 3 == 0 || id % 5 == 0;
  EXPECT_EQ(b.size(), expect);
}

TEST(IdBitmap, MemoryFollowsTheIdsTouchedNotTheRange) {
  tgsim::detail::IdBitmap b(0, std::uint64_t(1) << 40);  // a terabit range: pages only when touched
  const std::size_t empty = b.bytes();
  EXPECT_LE(empty, (std::size_t(1) << 16) * sizeof(void*));
  for (std::uint64_t id = 0; id < 1000; ++id) b.insert(id);
  EXPECT_EQ(b.size(), 1000u);
  EXPECT_LE(b.bytes() - empty, std::size_t(4) << 20);  // one page of 2^25 ids
}

TEST(CacheModel, UniqueChunksAndSectorsExactForOneTwoAndThreeWorkers) {
  // matmul_naive at n = 256 reads A and B (2 x 256 KiB, more than an SM's L1) and writes C; an
  // L2 smaller than that makes the written sectors reach DRAM, so both unique counts show.
  tgsim::DeviceProfile p = tgsim::profiles::nvidia_h100();
  p.l2_bytes = 64 * 1024;
  const std::uint64_t n = 256;
  std::string first;
  for (unsigned threads : {1u, 2u, 3u}) {
    tgsim::catalog::RunOptions o;
    o.n = static_cast<int>(n);
    o.threads = threads;
    auto r = tgsim::catalog::run(tgsim::Device{p}, "matmul_naive", o);
    const auto& c = r.report.counters;
    EXPECT_GT(c.l2_read_sectors, 2 * n * n * 4 / 32) << "L1 spilled: sectors read again";
    EXPECT_EQ(c.dram_read_bytes, 2 * n * n * 4 + p.dram_fixed_read_bytes) << threads;
    EXPECT_EQ(c.dram_write_bytes, n * n * 4) << threads;
    std::string j = tgsim::to_json(r.report);
    if (first.empty()) first = j;
    EXPECT_EQ(j, first) << "threads " << threads;
  }
}

// ---------------------------------------------------------------- profiles

namespace {
TG_KERNEL void big_shared(TG_GLOBAL(float) out) {
  TG_SHARED(float, big, [9000]);  // 36,000 bytes: fits the H100's 48 KiB, not the M3's 32 KiB
  big[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = big[threadIdx.x];
}
}  // namespace

TEST(Profiles, ByNameAndLimits) {
  for (const auto& n : tgsim::profiles::names()) EXPECT_EQ(tgsim::profiles::by_name(n)->name, n);
  EXPECT_FALSE(tgsim::profiles::by_name("nvidia-a100"));
  EXPECT_EQ(tgsim::profiles::apple_m3().max_static_shared_bytes, 32u * 1024);
  EXPECT_TRUE(tgsim::profiles::apple_m3().bank_layout_assumed);
  EXPECT_EQ(tgsim::profiles::amd_cdna().warp_size, 64u);
  EXPECT_EQ(tgsim::profiles::amd_cdna().max_static_shared_bytes, 64u * 1024);
}

TEST(Profiles, AppleSharedLimitIsEnforced) {
  tgsim::LaunchConfig c;
  c.grid = Dim3(1);
  c.block = Dim3(64);
  c.threads = 1;
  tgsim::Device h100, m3(tgsim::profiles::apple_m3());
  auto out = h100.alloc<float>(64, "out");
  EXPECT_NO_THROW(h100.launch(c, big_shared, out));
  try {
    m3.launch(c, big_shared, out);
    FAIL() << "expected LaunchError";
  } catch (const tgsim::LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("apple-m3"), std::string::npos) << e.what();
  }
  c.block = Dim3(1025);
  EXPECT_THROW(m3.launch(c, big_shared, out), tgsim::LaunchError);
}

TEST(Profiles, SixtyFourWideIsRejectedClearly) {
  tgsim::catalog::RunOptions o;
  o.n = 64;
  try {
    tgsim::catalog::run(tgsim::Device{tgsim::profiles::amd_cdna()}, "matmul_naive", o);
    FAIL() << "expected LaunchError";
  } catch (const tgsim::LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("warp size 64 is not simulated yet"), std::string::npos);
  }
}

// The bank and sector models take their geometry from the profile: transpose_shared's column
// store (stride 32 words) is 32-way with 32 banks, 16-way with 64; its coalesced global rows
// take twice as few 64-byte sectors as 32-byte ones. Only the counts of that geometry move.
TEST(Profiles, GeometryComesFromTheProfile) {
  tgsim::catalog::RunOptions o;
  o.n = 256;
  for (bool cache : {false, true}) {
    o.cache_model = cache;
    const tgsim::Counters h100 = tgsim::catalog::run(tgsim::Device{}, "transpose_shared", o).report.counters;
    tgsim::DeviceProfile p = tgsim::profiles::nvidia_h100();
    p.shared_banks = 64;
    const tgsim::Counters b64 = tgsim::catalog::run(tgsim::Device{p}, "transpose_shared", o).report.counters;
    EXPECT_EQ(h100.shared_store.wavefronts, 32 * h100.shared_store.instructions);
    EXPECT_EQ(b64.shared_store.wavefronts, 16 * b64.shared_store.instructions);
    EXPECT_EQ(b64.shared_load, h100.shared_load);  // row loads: conflict-free either way
    EXPECT_EQ(b64.global_load, h100.global_load);
    EXPECT_EQ(b64.global_store, h100.global_store);
    p = tgsim::profiles::nvidia_h100();
    p.sector_bytes = 64;
    const tgsim::Counters s64 = tgsim::catalog::run(tgsim::Device{p}, "transpose_shared", o).report.counters;
    EXPECT_EQ(2 * s64.global_load.sectors, h100.global_load.sectors) << cache;
    EXPECT_EQ(2 * s64.global_store.sectors, h100.global_store.sectors) << cache;
    EXPECT_EQ(s64.shared_store, h100.shared_store);
  }
  tgsim::DeviceProfile bad = tgsim::profiles::nvidia_h100();
  bad.shared_banks = 48;
  EXPECT_THROW(tgsim::catalog::run(tgsim::Device{bad}, "transpose_shared", o), tgsim::LaunchError);
}

// ---------------------------------------------------------------- capture

TEST(Capture, FirstInstructionOfLowestGroupAndWarp) {
  for (unsigned threads : {1u, 2u}) {
    auto r = run("transpose_shared", 256, threads, true, "transpose.cu:24:33");  // s[lx][ly] = ...
    const auto& c = r.report.captured;
    ASSERT_TRUE(c.present);
    EXPECT_EQ(c.group, 0u);
    EXPECT_EQ(c.warp, 0u);
    EXPECT_EQ(c.line, 24u);
    EXPECT_EQ(c.column, 33u);  // a store's column is its `=`
    EXPECT_EQ(c.kind, tgsim::SiteKind::kSharedStore);
    EXPECT_EQ(c.mask, ~0u);
    tgsim::model::WarpAccess a{c.mask, c.width, c.addr};
    EXPECT_EQ(tgsim::model::shared_wavefronts(a, false).wavefronts, 32u);  // a column: one bank
  }
  // Line only: the first instruction of warp 0 at that line is the global load in[y*n+x].
  auto r = run("transpose_shared", 256, 0, true, "transpose.cu:24");
  ASSERT_TRUE(r.report.captured.present);
  EXPECT_EQ(r.report.captured.kind, tgsim::SiteKind::kGlobalLoad);
  tgsim::model::WarpAccess a{r.report.captured.mask, r.report.captured.width, r.report.captured.addr};
  EXPECT_EQ(tgsim::model::global_sectors(a), 4u);
  auto none = run("transpose_shared", 64, 0, true, "");
  EXPECT_FALSE(none.report.captured.present);
}

// ---------------------------------------------------------------- progress

// Off a terminal (a CI log, a pipe) progress is plain lines, one per tenth of the groups done
// once the launch has run a second; never the terminal's redrawn "\r" line. A fast machine
// prints nothing; a slow one (ASan) prints some of the ten lines: both are checked.
TEST(Progress, PlainLinesWhenStderrIsNotATerminal) {
  tgsim::catalog::RunOptions o;
  o.n = 256;
  o.progress = true;
  testing::internal::CaptureStderr();
  auto r = tgsim::catalog::run(tgsim::Device{}, "matmul_naive", o);
  // Under ASan (bash .ci/sanitize) the runtime itself warns once about swapcontext on stderr:
  // only lines that are not a sanitizer's own "==pid==" banner count.
  std::string err = testing::internal::GetCapturedStderr();
  std::istringstream lines(err);
  std::string line;
  int last = 0, ours = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("==", 0) == 0) continue;
    ++ours;
    EXPECT_EQ(line.find('\r'), std::string::npos) << line;
    int percent = -1;
    char rest[64] = {};
    ASSERT_EQ(std::sscanf(line.c_str(), "tgsim: matmul_naive: %d%% of 256 threadgroups done%63s",
                          &percent, rest), 2) << line;
    EXPECT_EQ(percent % 10, 0) << line;
    EXPECT_GT(percent, last) << "each tenth at most once, in order: " << line;
    last = percent;
  }
  EXPECT_LE(ours, 10);
  EXPECT_TRUE(r.correct);
}
