// The shuffle picture of `tgsim explain`: the shuffles one warp ran (Report::shuffles, recorded
// with LaunchConfig::capture_site), drawn step by step as they ran: 32 lanes per row, an arrow
// from the lane read to the lane that reads it, each step labelled with its intrinsic (down, up,
// xor or idx), its offset, lane mask or source lane, and the source lines. Consecutive shuffles
// that move values between the same lanes (an arg-max's value and index) are one step.
#pragma once
#include <string>
#include <vector>

#include <tgsim/report.hpp>

namespace tgsim::cli {

struct ShuffleStep {
  std::vector<const CapturedShuffle*> shuffles;  // one or more, same intrinsic, lanes and mask
  const CapturedShuffle& first() const { return *shuffles.front(); }
};
std::vector<ShuffleStep> shuffle_steps(const std::vector<CapturedShuffle>& shuffles);

// The step in words: "__shfl_down_sync, offset 16 (reduce.cu:12, 13)", of its argument
// ("offset 16", "lane mask 1", "source lane 0", with ", width 16" where not 32) and its lines.
std::string shuffle_step_head(const ShuffleStep& s);
std::string shuffle_step_arg(const ShuffleStep& s);
std::string shuffle_step_lines(const ShuffleStep& s);
// Which lanes read which: "lanes 0-15 read lane l+16, lanes 16-31 keep their own value".
std::string shuffle_step_lanes(const ShuffleStep& s);
// The steps in words, one line each after a head line (explain's text), `indent` spaces before.
std::string shuffle_text(const Report& r, std::size_t width, std::size_t indent);
// The picture: `title`, then the steps (at most 16 drawn, the rest named in the note).
std::string shuffle_svg(const std::string& title, const Report& r);

}  // namespace tgsim::cli
