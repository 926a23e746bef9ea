// SVG pictures for `tgsim explain`: one warp instruction (lanes -> banks or sectors, with
// the wavefronts it takes) and a bar chart of counters and predicted time per variant.
#pragma once
#include <string>
#include <vector>

#include <tgsim/profile.hpp>
#include <tgsim/report.hpp>

namespace tgsim::cli {

// Per-lane bank and wavefront index of a captured shared access (4-byte words; for wider
// accesses the lane's first word, the phases as docs/hardware-model.md 2.2 splits them).
struct BankView {
  int bank[32];       // -1: inactive lane
  int wave[32];       // the wavefront that serves this lane (0-based)
  int words_in_bank[32] = {};  // distinct words per bank (max over phases)
  int wavefronts = 0, ideal = 0;
};
BankView bank_view(const CapturedInstruction& c, const DeviceProfile& p);

std::string instruction_svg(const CapturedInstruction& c, const DeviceProfile& p, const std::string& title);

struct Bar {
  std::string metric;               // "global load requests"
  std::vector<double> values;       // one per variant
  std::vector<double> measured = {};  // per variant, NaN where none: drawn as a marker
  std::string measured_label = {};    // "H100 measured"
};
std::string bars_svg(const std::string& title, const std::vector<std::string>& variants,
                     const std::vector<Bar>& bars);

// A value with three significant digits and no exponent: 0.0213, 1.52, 80.9, 1.23M.
std::string fmt3(double v);

// The 2-D tile a shared access walks: which s[row][col] each lane touches and its bank,
// bank = (row*cols + col) mod 32. Panels are drawn side by side (e.g. [32][32] and the padded
// [32][33]); `base` is the byte offset of s[0][0] in shared memory.
struct TilePanel {
  CapturedInstruction c;
  int rows = 32, cols = 32;
  std::uint64_t base = 0;
  std::string label;  // "transpose_shared: s[32][32]"
  std::string array = "s";
};
// Wavefronts and bank per lane as bank_view gives them, in tile coordinates.
std::string tile_svg(const std::vector<TilePanel>& panels, const DeviceProfile& p, const std::string& title);

}  // namespace tgsim::cli
