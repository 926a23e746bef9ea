// The warp grouper's fast paths against their definitions: the spreads and the transpose
// (sim/src/stream/warp_transpose.hpp) at every level this CPU runs (scalar, SSE2, AVX2), for every
// length from 0 to 40 (so every vector step count and remainder) and every range of rows up to
// 6 long, with equal tags and with one lane's tag differing at a random record; and the
// placement test by spread (lanes_inside, warp_instruction.hpp) on random lanes and regions,
// against every lane's own test.
#include "stream/warp_instruction.hpp"
#include "stream/warp_transpose.hpp"

#include <tgsim/models.hpp>

#include <tgsim/record.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using namespace tgsim::detail;

TEST(WarpTranspose, EveryLevelMatchesTheDefinition) {
  std::mt19937_64 rng(7);
  const TransposeLevel levels[] = {TransposeLevel::kScalar, TransposeLevel::kSse2, TransposeLevel::kAvx2};
  for (std::size_t len = 0; len <= 40; ++len) {
    for (int variant = 0; variant < 3; ++variant) {
      // variant 0: equal tags; 1: lane l's tag differs at one record; 2: equal, one address
      std::vector<std::vector<std::uint64_t>> logs(32, std::vector<std::uint64_t>(len + 1));
      for (std::size_t k = 0; k < len; ++k) {
        const std::uint64_t tag = (rng() % 1000) << kTagShift;
        const std::uint64_t a0 = rng() & kAddrMask;
        for (int l = 0; l < 32; ++l) logs[l][k] = tag | (variant == 2 ? a0 : rng() & kAddrMask);
      }
      const int odd_lane = static_cast<int>(rng() % 32);
      if (variant == 1 && len > 0) logs[odd_lane][rng() % len] ^= std::uint64_t(1) << 60;
      const std::uint64_t* data[32];
      for (int l = 0; l < 32; ++l) data[l] = logs[l].data();
      std::vector<std::uint64_t> want_rows(len * 32), want_spread(len);
      bool want_uniform = true;
      for (std::size_t k = 0; k < len; ++k) {
        for (int l = 0; l < 32; ++l) {
          want_rows[k * 32 + l] = logs[l][k] & kAddrMask;
          want_spread[k] |= logs[l][k] ^ logs[0][k];
        }
        want_uniform = want_uniform && (want_spread[k] >> kTagShift) == 0;
      }
      if (variant == 1 && len > 0) {
        EXPECT_FALSE(want_uniform);
      }
      for (TransposeLevel level : levels) {
        SCOPED_TRACE("len " + std::to_string(len) + " variant " + std::to_string(variant) + " level " +
                     std::to_string(static_cast<int>(level)));
        std::vector<std::uint64_t> spread(len + 1, 7);
        EXPECT_EQ(lane_spreads(data, len, spread.data(), level), want_uniform);
        EXPECT_EQ(std::vector<std::uint64_t>(spread.begin(), spread.begin() + len), want_spread);
        EXPECT_EQ(spread[len], 7u);  // nothing written past the spreads
        // Every range [from, to) of up to 6 rows (flush_warp asks for 4 at a time from any row).
        for (std::size_t from = 0; from <= len; ++from) {
          for (std::size_t to = from; to <= len && to <= from + 6; ++to) {
            std::vector<std::uint64_t> rows(len * 32 + 1, 7);
            transpose_rows(data, from, to, rows.data(), level);
            for (std::size_t i = 0; i < rows.size(); ++i) {
              const bool inside = i >= from * 32 && i < to * 32;
              ASSERT_EQ(rows[i], inside ? want_rows[i] : 7u)
                  << "from " << from << " to " << to << " index " << i;
            }
          }
        }
      }
    }
  }
}

TEST(LanesInside, NeverAcceptsALaneOutsideAndAcceptsTheTightCases) {
  std::mt19937_64 rng(11);
  std::uint64_t accepted = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::uint32_t width = 1u << (rng() % 5);
    const std::uint64_t from = 0x10000 + (rng() % 4096) * 16, size = 1 + rng() % 8192;
    const std::uint64_t span = std::uint64_t(1) << (rng() % 14);
    const std::uint64_t start = from - 64 + rng() % (size + 128);
    std::uint64_t addr[32];
    for (auto& a : addr) a = start + rng() % span;
    const std::uint32_t active = rng() % 2 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(rng()) | 1u;
    const std::uint64_t spread = tgsim::model::lane_spread(active, addr);
    const std::uint64_t a0 = addr[std::countr_zero(active)];
    bool all = true;
    for (int l = 0; l < 32; ++l)
      if (active >> l & 1u) all = all && addr[l] >= from && addr[l] + width <= from + size;
    if (lanes_inside(a0, spread, width, from, size)) {
      ++accepted;
      ASSERT_TRUE(all) << "from " << from << " size " << size << " a0 " << a0 << " spread " << spread;
    }
    EXPECT_FALSE(lanes_inside(a0, tgsim::model::kUnknownSpread, width, from, size));
  }
  EXPECT_GT(accepted, 1000u);
  // One address, and lanes filling an aligned block exactly.
  EXPECT_TRUE(lanes_inside(0x1000, 0, 4, 0x1000, 4));
  EXPECT_FALSE(lanes_inside(0x1000, 0, 8, 0x1000, 4));
  EXPECT_TRUE(lanes_inside(0x1000 + 4, 0x7C, 1, 0x1000, 128));  // lanes bounded to [0x1000, 0x1080)
  EXPECT_FALSE(lanes_inside(0x1000 + 4, 0x7C, 1, 0x1000, 127));
  EXPECT_FALSE(lanes_inside(0x1000 + 4, 0x7C, 1, 0x1001, 127));
}

}  // namespace
