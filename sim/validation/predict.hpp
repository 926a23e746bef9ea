// Cache counters and time estimates of the catalog kernels against the H100 fixture
// (tests/hardware/h100.json): the L1/L2/DRAM counters per kernel with their relative error,
// and the estimate (tgsim/estimate.hpp) at the sizes the fixture was timed at. Those sizes
// (matmul N=2048/4096, transpose N=8192) take too long to simulate here, so the counters are
// measured at the catalog size and scaled analytically (catalog::access_exponent; DRAM by
// the footprint, n^2): `scaled_from_n` says which size was simulated.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <tgsim/estimate.hpp>

#include "catalog.hpp"
#include "validate.hpp"

namespace tgsim::catalog {

// The estimate of a run at its own size, or at size `at_n` from that run's counters.
Estimate predict(const Entry& e, const Result& r, const DeviceProfile& p, int at_n = 0);

struct CacheRow {
  std::string kernel, counter, metric;
  int n = 0;
  std::uint64_t tgsim = 0, h100 = 0;
  double error() const;  // (tgsim - h100) / h100; 0 when both are 0
};
struct TimingRow {
  std::string kernel;
  int n = 0, scaled_from_n = 0;
  double measured_ms = 0;
  Estimate est;
};
struct PairRow {  // speedup of `faster` over `slower` variant: t(slower) / t(faster)
  std::string device = "nvidia-h100";  // the profile of the prediction and the measurement
  std::string slower, faster;
  int n = 0;
  int simulated_n = 0;  // the size the counters were simulated at (0: the pair's own runs)
  double measured = 0, predicted = 0;
  double error() const { return (predicted - measured) / measured; }
  double target() const;  // the largest |error| the issue asks: 25 % on the H100, 30 % on the M3
  bool same_sign() const { return (measured >= 1) == (predicted >= 1); }
};
struct Prediction {
  std::vector<CacheRow> cache;
  std::vector<TimingRow> timings;
  std::vector<PairRow> pairs;
};

// Runs the seven tiling/transpose kernels and six seed-001 kernels at the fixture's sizes (one
// run each), compares their cache counters, and the estimate of the seven with the timings.
// Then the seed 001 pairs of the Apple M3 fixture beside it (apple_m3_seed001.json), when
// present: naive and tiled16 simulated at the catalog's default size under apple-m3 (its
// unified load path rule), scaled to each timed size. A pair beyond its target prints
// "model misses".
Prediction predict_against(const std::string& fixture_path, unsigned threads = 0);
// The M3 pairs alone (appended to `out.pairs`, device "apple-m3").
void add_m3_pairs(Prediction& out, const std::string& m3_fixture_path, unsigned threads = 0);
std::string format_prediction(const Prediction& p, const Say& say = {});  // Say: validate.hpp
// {"speedups": [{"device", "first", "second", "n", "measured", "predicted"}...],
//  "timings": [...], "cache": [...]}
std::string prediction_json(const Prediction& p, int indent = 1);

}  // namespace tgsim::catalog
