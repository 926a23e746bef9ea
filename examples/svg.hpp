// SVG pictures for `tgsim explain`: one warp instruction (lanes -> banks or sectors, with
// the wavefronts it takes) and a bar chart of counters and predicted time per variant.
#pragma once
#include <string>
#include <vector>

#include <tgsim/profile.hpp>
#include <tgsim/report.hpp>

namespace tgsim::cli {

// Per-lane bank and wavefront index of a captured shared access (4-byte words; for wider
// accesses the lane's first word, the phases as hardware-model.md 1.2 splits them).
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
};
std::string bars_svg(const std::string& title, const std::vector<std::string>& variants,
                     const std::vector<Bar>& bars);

}  // namespace tgsim::cli
