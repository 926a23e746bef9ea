// Measured advice for a kernel FILE's bank conflicts (issue 38): for a costly line whose shared
// accesses conflict (rule "pad"), the fix is tried on the user's own kernel rather than asserted.
// The conflicted array is found from the line's captured warp instruction (its lanes' shared
// offsets fall in one array the kernel reaches, tgsim_shared_desc); its declaration in FILE has
// its last dimension padded by P elements in a temporary copy of the source (the user's file is
// never written; `#line` keeps the file's name and lines), compiled (the compile cache keys on
// content) and the same launch re-run with the same arguments. P is the smallest of 1..32 that
// takes the captured instructions of the array's rule lines (each weighed by its site's
// instructions) to their fewest wavefronts under the bank model (rows pitch+P elements apart:
// two 16-lane rows need a pitch of 16 mod 32 words); where no P lowers them
// (a 1-D array, a stride inside a row) P = 1, the usual pad, shows that padding does not help.
// The re-run, not the model, decides: a pad is advised only when the launch's bank conflicts
// fall, its estimate does not grow, its buffers are byte-equal and no new finding appears.
// At most one re-run per array and kMaxTries arrays per kernel.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <tgsim/launch.hpp>
#include <tgsim/profile.hpp>

#include "file_kernel.hpp"
#include "rules.hpp"
#include "source_view.hpp"
#include "svg.hpp"

namespace tgsim::cli {

constexpr std::size_t kMaxTries = 2;

struct TryContext {
  const FileLaunch& file;
  const FileRun& first;  // the advised run, with its buffers (run_file keep_buffers)
  const DeviceProfile& sim;       // the profile the launch was simulated with
  const DeviceProfile& estimate;  // the profile of the estimate
  LaunchConfig cfg;               // the run's options (threads, schedule, cache model)
};

// What the tries share (the pads here, the swapped thread mapping of try_swap.hpp):
// The first warp instruction at site `s` (of the lowest group and warp that reach it), by one more run.
CapturedInstruction capture_site(const TryContext& c, const SiteCounters& s);
std::string read_text(const std::string& file);
// Whether run `a`'s buffers are byte-equal to run `b`'s.
bool same_buffers(const FileRun& a, const FileRun& b);
// Launch `f` (the advised launch, its dimensions perhaps changed) re-run, quietly and with its buffers,
// from `text`: a changed copy of FILE's source, written with a `#line` naming FILE into a folder of the
// compile cache named `tag` and by its content (so the compile is cached), removed after. The user's
// file is never written. Throws what run_file throws.
FileRun run_copy(const TryContext& c, FileLaunch f, const std::string& text, const std::string& tag);
// Why a re-run's change is not advised, "" when it is: `target` (the count the change aims at:
// "conflicts", "sectors") did not fall from `before` to `after`, the buffers of `rerun` differ from
// the advised run's ("results"), it has more findings ("findings"), or its estimate grew ("slower").
std::string rerun_verdict(const std::string& target, std::uint64_t before, std::uint64_t after, double time_before_ms,
                          double time_after_ms, const FileRun& rerun, const TryContext& c);

// Fills Advice::tried of each "pad" advice of `advice` (lines of `v`), trying each array once.
void add_pad_tries(std::vector<Advice>& advice, const SourceView& v, const TryContext& c);

// "tried: tile[16][18] -> tile[16][48]: 2,048 -> 0 conflict wavefronts, estimated time 61% of now"
// (or that it did not help, and why), in the current language.
std::string tried_text(const PadTry& t);

// The tile picture of a kernel FILE (explain --svg / --html): the first warp instruction of its
// costliest shared site (`drawn` when that is shared, else captured by one more run), drawn on
// the 2-D array of 4-byte words it falls in (tgsim_shared_desc: outer dimensions as rows, at most
// 64 x 64), and beside it, where a pad was tried and helped, the same lanes' indices in the padded
// array. Empty when the kernel has no such access.
std::vector<TilePanel> file_tile_panels(const TryContext& c, const CapturedInstruction& drawn,
                                        const std::vector<Advice>& advice);

// The estimate of a kernel FILE's launch (no floating-point work is counted).
Estimate file_estimate(const Report& r, const DeviceProfile& p);

// `run FILE --advice`: rules for the costliest lines (with pads tried unless `try_pads` is off),
// as text after the report or as the "advice" array of --json.
std::vector<Advice> file_advice(const FileLaunch& f, const FileRun& r, const DeviceProfile& prof,
                                const LaunchConfig& cfg, bool try_pads, SourceView* view_out = nullptr);
// `given`: the kernel file as the command line names it (shown_path).
void write_advice_text(std::ostream& os, const SourceView& v, const std::vector<Advice>& advice,
                       const std::string& given);
nlohmann::ordered_json advice_json(const SourceView& v, const std::vector<Advice>& advice, const std::string& given);

}  // namespace tgsim::cli
