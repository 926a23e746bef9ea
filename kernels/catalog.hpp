// The catalog of named kernels that `tgsim run/tour/bench` and the tests know: each entry
// builds its inputs, launches the kernel at size n, and checks the result against a CPU
// reference. Shapes are the ones the H100 fixture (tests/hardware) was recorded with.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <tgsim/launch.hpp>

namespace tgsim::catalog {

// How to run an entry: its size and the launch settings of every launch it makes (workers,
// schedule, checker, cache model, capture, progress, ...); grid, block and name come from the
// entry.
struct RunOptions : LaunchConfig {
  int n = 0;  // 0: the entry's default size
};

struct Result {
  Report report;
  bool correct = false;  // result equals the CPU reference exactly
  int n = 0;
};

using Results = std::map<std::string, Result>;

// A sentence in English and in Japanese (the seeds' terms: スレッドグループ, ワープ, 共有メモリ,
// バンクコンフリクト, コアレッシング, セクタ).
struct Text {
  std::string en, ja;
};

// Where `tgsim tour` shows an entry: section 1 (tiling and padding) or 2 (warps, reductions,
// atomics, constant memory), its place in the section, and its size (0: default_n).
// Section 0: not in the tour.
struct TourPlace {
  int section = 0;
  int order = 0;
  int n = 0;
};

// The catalog variant that applies a source-view rule ("pad", "coalesce", "stage",
// "sequential", "shuffle"; sim/cli/rules.cpp) to this kernel.
struct Fix {
  std::string rule, kernel;
};

struct Entry {
  std::string name;
  std::string family;       // "matmul", "transpose", "reduce", "buggy"
  std::string description;  // one line
  int default_n;
  int max_n;
  Result (*run)(const Device& dev, const RunOptions& opt);
  bool buggy = false;  // a kernel with a deliberate bug (kernels/buggy.cu): `tgsim check` food
  TourPlace tour = {};
  // The tour's sentence on a run of this kernel; `done` holds the runs of the entries before it
  // in the tour (a tiled matmul compares itself with matmul_naive).
  std::function<Text(const Result& r, const Results& done)> explain = {};
  std::vector<Fix> fixes = {};
};

// The entries in the tour's section `section` (1 or 2), in tour order.
std::vector<const Entry*> tour_entries(int section);
// The variant of `kernel` that applies `rule`, "" when the catalog has none.
std::string fix_for(std::string_view kernel, std::string_view rule);
// a / b with no decimals when exact, else one ("-" when b is 0).
std::string ratio_text(std::uint64_t a, std::uint64_t b);

const std::vector<Entry>& entries();
// For the time estimate: floating-point operations of one run at size n (2 n^3 for a
// matmul, 0 for data movement), and how per-access counters grow with n (n^3 for a
// matmul, n^2 for the others): counters at n scale to N by (N/n)^exponent.
double flops(const Entry& e, int n);
int access_exponent(const Entry& e);
const Entry* find(std::string_view name);
// Runs `name` with `opt`; throws std::invalid_argument for an unknown kernel or a bad size.
Result run(const Device& dev, std::string_view name, const RunOptions& opt);

}  // namespace tgsim::catalog
