// The time estimate (terms, bound, scaling), its check against the H100 timings, and the
// SVG pictures of `tgsim explain`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include <tgsim/estimate.hpp>
#include <tgsim/tgsim.hpp>

#include "svg.hpp"
#include "catalog.hpp"
#include "predict.hpp"
#include "validate.hpp"

namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST(Estimate, NamesTheLargestTerm) {
  const tgsim::DeviceProfile p = tgsim::profiles::nvidia_h100();
  tgsim::Counters c;
  c.cache_modelled = true;
  c.dram_read_bytes = 1ull << 30;  // 1 GiB: 0.45 ms at 2.38 TB/s
  tgsim::Workload w{132 * 8, 256, 0};
  tgsim::Estimate e = tgsim::estimate(c, w, p);
  EXPECT_EQ(e.bound, "dram");
  EXPECT_NEAR(e.dram_s, double(1ull << 30) / (3.35e12 * 0.71), 1e-9);
  EXPECT_NEAR(e.time_s, e.dram_s + p.launch_overhead_s, 1e-12);
  c.shared_load.wavefronts = 10'000'000'000ull;  // 38 ms of L1 wavefronts on 132 SMs
  e = tgsim::estimate(c, w, p);
  EXPECT_EQ(e.bound, "l1");
  EXPECT_NEAR(e.l1_s, 1e10 / (132 * 1.98e9), 1e-9);
  w.flops = 1e13;  // 0.15 s at 67 TFLOPS
  EXPECT_EQ(tgsim::estimate(c, w, p).bound, "fp32");
  w.groups = 4;  // 4 busy SMs: the L1 term grows 33x
  EXPECT_NEAR(tgsim::estimate(c, w, p).l1_s, 1e10 / (4 * 1.98e9), 1e-9);
}

TEST(Estimate, OccupancyAndL2Capacity) {
  const tgsim::DeviceProfile p = tgsim::profiles::nvidia_h100();
  tgsim::Counters c;
  c.cache_modelled = true;
  c.global_load.instructions = 64 * 8 * 100;  // 100 loads per warp
  c.global_load.sectors = 64 * 8 * 100;
  c.l2_read_sectors = c.global_load.sectors;  // every load misses L1
  c.dram_read_bytes = 1 << 20;
  tgsim::Workload w{64, 256, 0};  // tiled32 at n=256: 64 groups of 8 warps on 132 SMs
  tgsim::Estimate e = tgsim::estimate(c, w, p);
  EXPECT_EQ(e.busy_sms, 64u);
  EXPECT_EQ(e.groups_per_sm, 8u);  // 64 warps per SM / 8
  EXPECT_EQ(e.waves, 1.0);
  EXPECT_TRUE(e.reads_fit_l2);
  EXPECT_EQ(e.dram_reread_bytes, 0u);
  EXPECT_NEAR(e.latency_s, 100 * p.l1_miss_l2_clk / p.clock_hz, 1e-12);
  c.dram_read_bytes = 2 * p.l2_bytes;  // twice the L2: half the L2 reads come from DRAM again
  c.l2_read_sectors = 8 * p.l2_bytes / p.sector_bytes;
  e = tgsim::estimate(c, w, p);
  EXPECT_FALSE(e.reads_fit_l2);
  EXPECT_EQ(e.dram_reread_bytes, 2 * p.l2_bytes);  // 8 L2 x 1/2, less the compulsory 2 L2
  EXPECT_NEAR(e.latency_s, 100 * p.l1_miss_dram_clk / p.clock_hz, 1e-12);
  w.groups = 132 * 8 * 3 + 1;  // one group more than three full waves
  EXPECT_EQ(tgsim::estimate(c, w, p).waves, 4.0);
}

TEST(Estimate, ScalesAccessesAndFootprintSeparately) {
  const tgsim::DeviceProfile p = tgsim::profiles::nvidia_h100();
  tgsim::Counters c;
  c.global_load.sectors = 1000;
  c.l2_read_sectors = 100;
  c.l2_write_sectors = 32;
  c.dram_read_bytes = 64 * 10 + p.dram_fixed_read_bytes;
  tgsim::Counters s = tgsim::scale_counters(c, 8.0, 4.0, p);
  EXPECT_EQ(s.global_load.sectors, 8000u);
  EXPECT_EQ(s.l2_read_sectors, 800u);
  EXPECT_EQ(s.dram_read_bytes, 64 * 40 + p.dram_fixed_read_bytes);
  EXPECT_EQ(s.dram_write_bytes, 0u);  // fits L2
  tgsim::Counters big = tgsim::scale_counters(c, 1e6, 1e6, p);  // 1 GB written: beyond L2
  EXPECT_EQ(big.dram_write_bytes, std::uint64_t(32.0 * 32 * 1e6));
}

TEST(Estimate, AgreesWithEveryH100PairWithin25Percent) {
  tgsim::catalog::Prediction p = tgsim::catalog::predict_against(tgsim::catalog::default_fixture_path());
  std::size_t h100 = 0, m3 = 0;
  for (const auto& r : p.pairs) {
    if (r.device == "apple-m3") {
      ++m3;  // seed 001's M3 pairs under the unified load path rule (no figure fitted to them)
      EXPECT_TRUE(r.same_sign()) << r.n;
      EXPECT_LT(std::abs(r.error()), 0.30) << "naive / tiled16 n=" << r.n;
      continue;
    }
    ++h100;
    EXPECT_TRUE(r.same_sign()) << r.slower << " / " << r.faster << " n=" << r.n;
    EXPECT_LT(std::abs(r.error()), 0.25) << r.slower << " / " << r.faster << " n=" << r.n;
  }
  EXPECT_EQ(h100, 15u);
  EXPECT_EQ(m3, 3u);
  // naive matmul at n=4096: A and B (128 MiB) exceed the 50 MiB L2, the estimate says so
  for (const auto& t : p.timings)
    if (t.kernel == "matmul_naive") {
      EXPECT_EQ(t.est.reads_fit_l2, t.n < 4096) << t.n;
      EXPECT_EQ(t.est.bound, "latency") << t.n;
    }
  nlohmann::json j = nlohmann::json::parse(tgsim::catalog::prediction_json(p));
  ASSERT_EQ(j.at("speedups").size(), 18u);
  const auto& s0 = j.at("speedups").at(0);
  for (const char* k : {"device", "first", "second", "n", "measured", "predicted"}) EXPECT_TRUE(s0.contains(k)) << k;
  EXPECT_EQ(j.at("speedups").back().at("device"), "apple-m3");
  // The cache counters that the model gets exactly: L2 writes, DRAM, transposes' L2 reads.
  for (const auto& r : p.cache) {
    // Off by design (see README): L2 reads of sectors several SMs read at once (matmul, the
    // bias vector), L1 hits of tiled matmuls from groups sharing an SM at once.
    const bool shared_sectors = (r.kernel.rfind("matmul", 0) == 0 || r.kernel == "add_bias") &&
                                r.counter == "l2.read_sectors";
    const bool tiled_hits = r.kernel.rfind("matmul_tiled", 0) == 0 && r.counter == "global.load.l1_hit_sectors";
    if (!shared_sectors && !tiled_hits) {
      // DRAM: the fixed ~3 KB per launch varies from 2.8 to 3.6 KB on the H100
      EXPECT_LT(std::abs(r.error()), r.counter == "dram.read_bytes" ? 0.03 : 0.01) << r.kernel << " " << r.counter;
    }
  }
  EXPECT_NE(tgsim::catalog::format_prediction(p).find("Speedups"), std::string::npos);
}

TEST(Estimate, OtherProfilesGiveOtherTimes) {
  tgsim::catalog::RunOptions o;
  o.n = 64;
  auto r = tgsim::catalog::run(tgsim::Device{}, "matmul_tiled16", o);
  const auto* e = tgsim::catalog::find("matmul_tiled16");
  double h100 = tgsim::catalog::predict(*e, r, tgsim::profiles::nvidia_h100()).time_s;
  double m3 = tgsim::catalog::predict(*e, r, tgsim::profiles::apple_m3()).time_s;
  EXPECT_GT(m3, h100);
}

TEST(Pictures, BankPictureOfTheConflictedTransposeStore) {
  tgsim::catalog::RunOptions o;
  o.n = 64;
  o.capture_site = "transpose.cu:24:33";  // s[lx][ly] = ...
  auto r = tgsim::catalog::run(tgsim::Device{}, "transpose_shared", o);
  ASSERT_TRUE(r.report.captured.present);
  auto p = tgsim::profiles::nvidia_h100();
  tgsim::cli::BankView v = tgsim::cli::bank_view(r.report.captured, p);
  EXPECT_EQ(v.wavefronts, 32);
  EXPECT_EQ(v.words_in_bank[0], 32);  // a column of int[32][32]: every lane in bank 0
  for (int l = 0; l < 32; ++l) EXPECT_EQ(v.wave[l], l);
  std::string svg = tgsim::cli::instruction_svg(r.report.captured, p, "t");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(count(svg, "<line"), 32u);  // one arrow per lane
  EXPECT_NE(svg.find("32 wavefronts (ideal 1, 31 bank conflicts)"), std::string::npos);

  o.capture_site = "transpose.cu:24:33";
  auto padded = tgsim::catalog::run(tgsim::Device{}, "transpose_padded", o);
  ASSERT_TRUE(padded.report.captured.present);
  EXPECT_EQ(tgsim::cli::bank_view(padded.report.captured, p).wavefronts, 1);
}

TEST(Pictures, SectorPictureOfTheNaiveTransposeLoad) {
  tgsim::catalog::RunOptions o;
  o.n = 64;
  auto first = tgsim::catalog::run(tgsim::Device{}, "transpose_naive", o);
  std::string site;
  for (const auto& s : first.report.sites)
    if (s.kind == tgsim::SiteKind::kGlobalLoad) site = s.where();
  o.capture_site = site;
  auto r = tgsim::catalog::run(tgsim::Device{}, "transpose_naive", o);
  ASSERT_TRUE(r.report.captured.present) << site;
  std::string svg = tgsim::cli::instruction_svg(r.report.captured, tgsim::profiles::nvidia_h100(), "t");
  EXPECT_NE(svg.find("1 request, 32 sectors"), std::string::npos);
}

TEST(Pictures, BarChartHasOneBarPerValue) {
  std::vector<tgsim::cli::Bar> bars = {{"requests", {4, 2, 1}}, {"ms", {3, 2, 1}}};
  std::string svg = tgsim::cli::bars_svg("sweep", {"a", "b", "c"}, bars);
  EXPECT_EQ(count(svg, "<rect"), 1u + 3u + 6u);  // background, legend, bars
  EXPECT_NE(svg.find(">requests<"), std::string::npos);
}
