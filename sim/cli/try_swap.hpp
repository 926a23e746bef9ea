// Measured advice for a kernel FILE's uncoalesced global loads (issue 38 item 3): for a costly
// line of rule "coalesce" in a kernel launched with 2-D groups, the x and y thread mapping is
// swapped on the user's own kernel rather than advised blindly.
//
// When: the line's global load with the most sectors above its need is captured (its first warp
// instruction, one more run) and the lanes' addresses give the stride between two threads one
// apart in x (same y), and, where the warp spans two rows of threads (blockDim.x < 32), one apart
// in y. A swap is tried when the x stride is not one element (the lanes do not read consecutive
// words) and the y stride, where seen, is smaller than the x stride: the classic naive mapping
// `row = blockIdx.x*blockDim.x + threadIdx.x; ... A[row*n + k]`, whose warp reads a column.
// How: a temporary copy of FILE (try_pad.hpp's run_copy: the user's file is never written) with
// every threadIdx/blockIdx/blockDim/gridDim `.x` and `.y` exchanged (Metal: the `.x`/`.y` of each
// kernel parameter with a position attribute, [[thread_position_in_grid]] and the like, inside
// its kernel; swizzles such as `.xy` become `.yx`), launched with the grid, block and
// --threads-in-grid dimensions' x and y exchanged, so that every logical thread does the same
// work, now with its old y in the warp's lanes.
// The re-run, not the lanes, decides: the swap is advised only when the launch's global sectors
// fall, its estimate does not grow, its buffers are byte-equal and no new finding appears.
// One re-run per kernel (the swap is the kernel's, not a line's), shown on each "coalesce" line.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <tgsim/report.hpp>

#include "rules.hpp"
#include "source_view.hpp"
#include "try_pad.hpp"

namespace tgsim::cli {

// The strides of captured warp instruction `c` of a group of `block` threads: bytes between the
// addresses of two active lanes one thread apart in x (and in y, when the warp spans two rows).
struct LaneStrides {
  bool x_seen = false, y_seen = false;
  std::int64_t x = 0, y = 0;
};
LaneStrides lane_strides(const CapturedInstruction& c, const Dim3& block);
// Whether those strides call for the swap (see above): the x stride seen and not one element of
// `width` bytes, the y stride unseen or smaller.
bool swap_worth_trying(const LaneStrides& s, std::uint32_t width, const Dim3& block);

// FILE's source with the x and y thread mapping swapped (see above), or nullopt when nothing in
// it reads a thread position's x or y (or a Metal position parameter is a scalar, 1-D).
std::optional<std::string> swapped_source(const std::string& text, bool metal);

// Fills Advice::swapped of each "coalesce" advice of `advice` (lines of `v`), with one re-run.
void add_swap_tries(std::vector<Advice>& advice, const SourceView& v, const TryContext& c);

// "tried: swap x and y thread mapping (grid 4,4 -> 4,4, block 32,8 -> 8,32): 65,536 -> 8,192 global
// sectors, estimated time 23% of now" (or that it did not help, and why), in the current language.
std::string swap_text(const SwapTry& t);
// What the captured lanes showed: "In the first warp that reaches it, lanes one thread apart in x read
// addresses 256 bytes apart, lanes one thread apart in y 4 bytes apart."
std::string swap_strides_text(const SwapTry& t);
nlohmann::ordered_json swap_json(const SwapTry& t);

}  // namespace tgsim::cli
