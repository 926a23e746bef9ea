// Sharded launches: `tgsim run ... --groups I/N` simulates slice I of N of the grid (the
// contiguous linear group ids floor(G I / N) .. floor(G (I + 1) / N), LaunchConfig::slice) and
// marks its --json report "partial", with what `tgsim merge` needs: the report's raw counters,
// per-site counters and findings, the slice, and a fingerprint of the launch. `tgsim merge
// PART.json...` checks that the parts are the N slices of one launch and sums them into the
// report the whole launch gives (docs/commands.md, "Sharding a launch").
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <tgsim/profile.hpp>
#include <tgsim/report.hpp>

#include "file_kernel.hpp"

namespace tgsim::cli {

struct GroupsOption {
  bool on = false;
  std::uint32_t slice = 0, slices = 1;
};
// "I/N" (decimal, 0 <= I < N, 1 <= N < 2^32); throws std::invalid_argument with one line.
GroupsOption parse_groups(const std::string& s);
// `--sample auto|off|P`: auto (LaunchConfig::sample_auto), off (every group), or the share P
// (2% or 0.02; 1 or 100%: every group). Bad: std::invalid_argument.
struct SampleChoice {
  bool automatic = false;
  double share = 0.0;
};
SampleChoice parse_sample(const std::string& s);

// Every field of a Report that merging needs, without rounding or renaming, and back
// (report_from_raw throws std::runtime_error naming what is missing).
nlohmann::ordered_json report_raw(const Report& r);
Report report_from_raw(const nlohmann::json& j);

// What makes two parts parts of one launch: kernel, grid, block, a hash of the arguments
// (`args`: a catalog entry's size, or a kernel file's bytes and its command-line arguments),
// the tgsim version, the profile, the cache model and the schedule.
nlohmann::ordered_json launch_fingerprint(const Report& r, const std::string& args, bool cache_model,
                                          const std::string& schedule);
std::string file_launch_args(const FileLaunch& f);

// The "partial" object of a slice's report.
nlohmann::ordered_json partial_json(const Report& r, const GroupsOption& g, const DeviceProfile& p,
                                    nlohmann::ordered_json fingerprint);
// "partial: slice I of N, groups [a, b) of G ..." for the text report.
std::string partial_line(const Report& r, const GroupsOption& g);

// `tgsim merge`: exit 0 (merged, no findings), 1 (findings), 2 (bad input: one line).
int merge(std::ostream& os, const std::vector<std::string>& paths, bool json);

}  // namespace tgsim::cli
