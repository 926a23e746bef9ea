// Comparison of tgsim's counters with the Nsight Compute counters recorded on an H100
// (tests/hardware/h100.json): each kernel of the fixture is run through tgsim at the
// fixture's size and compared counter by counter. Only exact (SASS-level) metrics are
// compared; the hardware bank-conflict counters include arbitration wavefronts no address
// causes (docs/hardware-model.md 2.6) and are shown as information, never compared.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <tgsim/launch.hpp>

namespace tgsim::catalog {

struct MetricRow {
  std::string counter;  // tgsim counter, e.g. "global.load.sectors"
  std::string metric;   // Nsight Compute metric it is compared with
  std::uint64_t tgsim = 0;
  std::uint64_t h100 = 0;
  bool compared = true;  // false: shown for information only
  bool equal() const { return tgsim == h100; }
};

struct KernelComparison {
  std::string kernel;
  int n = 0;
  bool correct_tgsim = false, correct_h100 = false;
  std::vector<MetricRow> rows;
  bool all_equal() const;
};

struct Validation {
  std::string gpu, driver, ncu;
  std::vector<KernelComparison> kernels;
  std::vector<std::string> catalog_kernels_missing;  // catalog entries the fixture lacks
  bool all_equal() const;
};

// Throws std::runtime_error when the file is missing or malformed.
// `only`: kernel names to compare (empty: every catalog kernel, and missing ones are listed).
Validation validate_against(const std::string& fixture_path, unsigned threads = 0,
                            const std::vector<std::string>& only = {});
// The H100 fixture used when no --fixture is given, the first that exists of:
//   $TGSIM_FIXTURE_DIR/h100.json when that variable is set (then nothing else is tried);
//   the installed copy beside the executable, <exe dir>/../share/tgsim/h100.json
//     (kernels/CMakeLists.txt installs it to ${CMAKE_INSTALL_DATADIR}/tgsim);
//   the source tree's tests/hardware/h100.json (a build-tree binary).
// Returns "" when none exists. predict looks for apple_m3_seed001.json beside it.
std::string default_fixture_path();
// The tables of `tgsim validate` and `tgsim predict` in words: each English sentence, header and
// word passes through `say` (the command's language: its catalog's "table." entries), cells padded
// by display width (a CJK character takes two columns). No `say`: English.
using Say = std::function<std::string(const std::string& english)>;
std::string format_table(const Validation& v, const Say& say = {});
// `s` padded to `w` terminal columns, on the right (left-aligned) or on the left (with one space
// before a right-aligned cell that fills or overflows its column).
std::string pad_cell(const std::string& s, std::size_t w, bool left);
std::size_t display_columns(const std::string& s);  // a CJK character counts 2

}  // namespace tgsim::catalog
