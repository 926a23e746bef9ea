// The models' short cuts with the lanes' spread known (WarpAccess::spread, models.hpp) against
// their lane-by-lane paths (spread unknown), on random address patterns shaped to hit the
// short cuts (one line, one window of sectors, aligned and misaligned lanes, partial masks)
// and on unshaped ones, for the default geometry and others; and lane_spread against its
// definition.
//
// Seed: 2024 always, plus TGSIM_PROPERTY_SEED from the environment when set.
#include <tgsim/models.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace tgsim::model;

std::vector<std::uint64_t> seeds() {
  std::vector<std::uint64_t> s{2024};
  if (const char* e = std::getenv("TGSIM_PROPERTY_SEED")) s.push_back(std::strtoull(e, nullptr, 10));
  return s;
}

std::uint64_t spread_by_definition(std::uint32_t active, const std::uint64_t* addr) {
  std::uint64_t first = 0, x = 0;
  bool any = false;
  for (int l = 0; l < 32; ++l) {
    if (!(active >> l & 1u)) continue;
    if (!any) first = addr[l], any = true;
    x |= addr[l] ^ first;
  }
  return x;
}

// A random warp access: lanes within `span` bytes of a random base (aligned to `width` unless
// `misalign`), any of several masks.
struct Pattern {
  std::uint32_t active;
  std::uint32_t width;
  std::array<std::uint64_t, 32> addr;
};

Pattern random_pattern(std::mt19937_64& rng) {
  static const std::uint32_t widths[] = {1, 2, 4, 8, 16};
  static const std::uint64_t spans[] = {1, 16, 64, 128, 256, 1024, 2048, 1u << 16};
  Pattern p{};
  p.width = widths[rng() % 5];
  const std::uint64_t span = spans[rng() % 8];
  const bool misalign = rng() % 4 == 0;
  const std::uint64_t base = (rng() & 0xFFFFFFFFFFull) & ~std::uint64_t(p.width - 1);
  const int shape = static_cast<int>(rng() % 4);
  for (int l = 0; l < 32; ++l) {
    std::uint64_t off = rng() % span;
    if (shape == 0) off = (static_cast<std::uint64_t>(l) * p.width) % span;  // consecutive
    if (shape == 1) off = (static_cast<std::uint64_t>(l % 16) * p.width) % span;  // two halves
    if (!misalign) off &= ~std::uint64_t(p.width - 1);
    p.addr[l] = base + off;
  }
  switch (rng() % 4) {
    case 0: p.active = static_cast<std::uint32_t>(rng()); break;
    case 1: p.active = 1u << (rng() % 32); break;
    default: p.active = 0xFFFFFFFFu; break;
  }
  return p;
}

std::string describe(const Pattern& p) {
  std::string s = "mask=" + std::to_string(p.active) + " width=" + std::to_string(p.width) + " addr=";
  for (std::uint64_t a : p.addr) s += std::to_string(a) + ",";
  return s;
}

TEST(LaneSpread, MatchesItsDefinition) {
  for (std::uint64_t seed : seeds()) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 20000; ++i) {
      const Pattern p = random_pattern(rng);
      ASSERT_EQ(lane_spread(p.active, p.addr.data()), spread_by_definition(p.active, p.addr.data()))
          << describe(p);
    }
  }
  const std::array<std::uint64_t, 32> addr{};
  EXPECT_EQ(lane_spread(0, addr.data()), 0u);
  EXPECT_EQ(lane_spread(0xFFFFFFFFu, addr.data()), 0u);
}

TEST(ModelsSpread, ShortCutsEqualTheLaneByLanePaths) {
  const Geometry geometries[] = {Geometry{}, Geometry{16, 4, 32}, Geometry{32, 8, 64}, Geometry{64, 4, 16}};
  for (std::uint64_t seed : seeds()) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 200000; ++i) {
      const Pattern p = random_pattern(rng);
      const Geometry& g = geometries[i % 4];
      WarpAccess slow{p.active, p.width, p.addr.data()};
      WarpAccess fast = slow;
      fast.spread = lane_spread(p.active, p.addr.data());
      ASSERT_EQ(global_sectors(fast, g), global_sectors(slow, g)) << describe(p) << " banks=" << g.banks;
      for (bool load : {true, false}) {
        const Wavefronts a = shared_wavefronts(fast, load, g), b = shared_wavefronts(slow, load, g);
        if (one_shared_wavefront(fast, g)) {
          ASSERT_EQ(b.wavefronts, 1u) << describe(p);
          ASSERT_EQ(b.ideal, 1u) << describe(p);
        }
        ASSERT_FALSE(one_shared_wavefront(slow, g));  // an unknown spread never takes it
        ASSERT_EQ(a.wavefronts, b.wavefronts) << describe(p) << " load=" << load << " banks=" << g.banks;
        ASSERT_EQ(a.ideal, b.ideal) << describe(p) << " load=" << load << " banks=" << g.banks;
      }
    }
  }
}

// global_sectors against its definition (the number of distinct sectors its active lanes'
// bytes fall in), on the random patterns and on lanes scattered over many windows of 32
// sectors, misaligned so that a lane may cross into a second sector (64 sectors at most).
std::uint32_t sectors_by_definition(const WarpAccess& a, std::uint32_t sector_bytes) {
  std::set<std::uint64_t> s;
  for (int l = 0; l < 32; ++l)
    if (a.active >> l & 1u)
      for (std::uint64_t b = a.addr[l]; b < a.addr[l] + a.width; ++b) s.insert(b / sector_bytes);
  return static_cast<std::uint32_t>(s.size());
}

TEST(GlobalSectors, EqualTheDistinctSectorsOfTheLanes) {
  const Geometry geometries[] = {Geometry{}, Geometry{16, 4, 32}, Geometry{32, 8, 64}, Geometry{64, 4, 16}};
  static const std::uint32_t widths[] = {1, 2, 4, 8, 16};
  for (std::uint64_t seed : seeds()) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 40000; ++i) {
      Pattern p = random_pattern(rng);
      if (i % 4 == 3) {  // scattered: a window each, or a few lanes sharing a window
        p.width = widths[rng() % 5];
        for (std::uint64_t& x : p.addr) x = (rng() % 64) * (rng() % 2 ? 1 : 4096) + rng() % 64;
      }
      const Geometry& g = geometries[i % 4];
      for (bool known : {false, true}) {
        WarpAccess a{p.active, p.width, p.addr.data()};
        if (known) a.spread = lane_spread(p.active, p.addr.data());
        ASSERT_EQ(global_sectors(a, g), sectors_by_definition(a, g.sector_bytes))
            << describe(p) << " sector=" << g.sector_bytes << " spread known=" << known;
      }
    }
  }
  std::array<std::uint64_t, 32> addr{};
  for (int l = 0; l < 32; ++l) addr[l] = static_cast<std::uint64_t>(l) * 1024 + 24;  // 32 windows, 2 sectors each
  EXPECT_EQ(global_sectors(WarpAccess{0xFFFFFFFFu, 16, addr.data()}), 64u);
  for (int l = 0; l < 32; ++l) addr[l] = static_cast<std::uint64_t>(l % 8) * 4096 + (l / 8) * 4;  // 8 windows, 1 sector each
  EXPECT_EQ(global_sectors(WarpAccess{0xFFFFFFFFu, 4, addr.data()}), 8u);
}

// Full warps as rows of consecutive lanes at a pitch, the shape of a warp spanning several rows
// of a matrix (the counters take a short cut for sectors that never fall from lane to lane):
// rows rising, falling, overlapping, one lane moved back or misaligned, at every width.
TEST(GlobalSectors, RowsOfLanesEqualTheDistinctSectors) {
  const Geometry geometries[] = {Geometry{}, Geometry{16, 4, 32}, Geometry{32, 8, 64}, Geometry{64, 4, 16}};
  static const std::uint32_t widths[] = {1, 2, 4, 8, 16};
  static const std::int64_t pitches[] = {2048, 4096, 1024, 96, 64, 36, 0, -2048, -64, 1 << 20};
  int listed = 0;
  for (std::uint64_t seed : seeds()) {
    std::mt19937_64 rng(seed + 7);
    for (int i = 0; i < 40000; ++i) {
      const std::uint32_t width = widths[rng() % 5];
      const std::uint32_t row = 1u << (rng() % 6);  // lanes per row: 1 to 32
      const std::int64_t pitch = pitches[rng() % 10];
      const std::uint64_t base = ((rng() & 0xFFFFFFFFull) + (std::uint64_t(1) << 36)) & ~std::uint64_t(width - 1);
      std::array<std::uint64_t, 32> addr{};
      for (std::uint32_t l = 0; l < 32; ++l)
        addr[l] = base + static_cast<std::uint64_t>(static_cast<std::int64_t>(l / row) * pitch) + (l % row) * width;
      const int twist = static_cast<int>(rng() % 4);
      const std::uint32_t at = 1 + static_cast<std::uint32_t>(rng() % 31);
      if (twist == 1) addr[at] = addr[at - 1] - 64;  // one lane falls back
      if (twist == 2) addr[at] += 1;                 // one lane misaligned
      const Geometry& g = geometries[i % 4];
      for (bool known : {false, true}) {
        WarpAccess a{0xFFFFFFFFu, width, addr.data()};
        if (known) a.spread = lane_spread(a.active, addr.data());
        ASSERT_EQ(global_sectors(a, g), sectors_by_definition(a, g.sector_bytes))
            << "width=" << width << " row=" << row << " pitch=" << pitch << " twist=" << twist
            << " at=" << at << " sector=" << g.sector_bytes << " spread known=" << known;
      }
      // The list the cache model takes: the distinct sectors, ascending (or 0: not this shape).
      std::uint64_t out[32];
      const WarpAccess a{0xFFFFFFFFu, width, addr.data()};
      if (const std::uint32_t n = ascending_sectors(a, g.sector_bytes, out)) {
        std::set<std::uint64_t> want;
        for (std::uint64_t x : addr) want.insert(x / g.sector_bytes);
        ASSERT_EQ(std::vector<std::uint64_t>(out, out + n), std::vector<std::uint64_t>(want.begin(), want.end()))
            << "width=" << width << " row=" << row << " pitch=" << pitch << " twist=" << twist;
        ++listed;
      }
    }
  }
  // matmul_tiled16's global loads at N=512: two rows of 16 floats 2 KiB apart, 2 sectors each
  std::array<std::uint64_t, 32> addr{};
  for (int l = 0; l < 32; ++l) addr[l] = (1u << 20) + static_cast<std::uint64_t>(l / 16) * 2048 + (l % 16) * 4;
  EXPECT_EQ(global_sectors(WarpAccess{0xFFFFFFFFu, 4, addr.data()}), 4u);
  std::uint64_t out[32];
  const bool avx2 = __builtin_cpu_supports("avx2");  // without it, ascending_sectors always says 0
  ASSERT_EQ(ascending_sectors(WarpAccess{0xFFFFFFFFu, 4, addr.data()}, 32, out), avx2 ? 4u : 0u);
  if (avx2) {
    EXPECT_EQ(out[0] + 1, out[1]);
    EXPECT_EQ(out[0] + 64, out[2]);
    EXPECT_GT(listed, 10000);  // the shape is common among the rows above
  }
  addr[31] = addr[0];  // the last lane back on the first sector: still 4
  EXPECT_EQ(global_sectors(WarpAccess{0xFFFFFFFFu, 4, addr.data()}), 4u);
  addr[31] = addr[0] - 32;  // a sector before the first: 5
  EXPECT_EQ(global_sectors(WarpAccess{0xFFFFFFFFu, 4, addr.data()}), 5u);
  EXPECT_EQ(ascending_sectors(WarpAccess{0xFFFFFFFFu, 4, addr.data()}, 32, out), 0u);  // it falls
}

// The models take a known spread as given (so the comparison above compares two paths): a
// spread of 0 claims one address, and the short cuts count it so.
TEST(ModelsSpread, AKnownSpreadIsTaken) {
  std::array<std::uint64_t, 32> addr{};
  for (int l = 0; l < 32; ++l) addr[l] = 4096 + 64 * static_cast<std::uint64_t>(l);
  WarpAccess a{0xFFFFFFFFu, 4, addr.data()};
  EXPECT_EQ(global_sectors(a), 32u);
  EXPECT_EQ(shared_wavefronts(a, true).wavefronts, 16u);
  a.spread = 0;
  EXPECT_EQ(shared_wavefronts(a, true).wavefronts, 1u);
}

// Sectors in one window, lanes crossing a sector end (misaligned) and not.
TEST(ModelsSpread, WindowSectorsCrossingAndNot) {
  std::array<std::uint64_t, 32> addr{};
  for (int l = 0; l < 32; ++l) addr[l] = 1024 + 4 * static_cast<std::uint64_t>(l);
  WarpAccess a{0xFFFFFFFFu, 4, addr.data(), lane_spread(0xFFFFFFFFu, addr.data())};
  EXPECT_EQ(global_sectors(a), 4u);
  for (int l = 0; l < 32; ++l) addr[l] = 1024 + 2 + 4 * static_cast<std::uint64_t>(l);
  a.spread = lane_spread(0xFFFFFFFFu, addr.data());
  EXPECT_EQ(global_sectors(a), 5u);
  for (int l = 0; l < 32; ++l) addr[l] = 1024 + 31 * 32 + 8;  // the window's last sector, 16 bytes
  a.width = 16;
  a.spread = 0;
  EXPECT_EQ(global_sectors(a), 1u);
  for (int l = 0; l < 32; ++l) addr[l] = 1024 + 31 * 32 + 24;  // crosses into the next window
  EXPECT_EQ(global_sectors(a), 2u);
}

}  // namespace
