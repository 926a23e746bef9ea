// The subcommands of the tgsim program, one file each (tour.cpp, run.cpp, list.cpp, bench.cpp,
// check.cpp, explain.cpp, validate.cpp, predict.cpp), all of one shape: add_<name>(program)
// registers the subcommand and its options on the program and returns it with the function
// that runs it when the user named it. main.cpp adds them all, parses, and runs the one named.
// Adding a subcommand: a file with its add_<name>, one line here and one in main.cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "file_kernel.hpp"

namespace CLI {
class App;
}

namespace tgsim::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // the exit status: 0 success, 1 findings or a wrong result, 2 usage
};
Command add_tour(CLI::App& program);
Command add_run(CLI::App& program);
Command add_list(CLI::App& program);
Command add_bench(CLI::App& program);
Command add_check(CLI::App& program);
Command add_explain(CLI::App& program);
Command add_validate(CLI::App& program);
Command add_predict(CLI::App& program);
Command add_merge(CLI::App& program);  // merge.cpp

// "tgsim: error: WHAT (see tgsim --help)" on stderr; returns 2, the usage errors' status.
int usage_error(const std::string& what);
// Errors of the command itself (not the kernel's findings): `line` on stderr as given; under
// --json (set_json_errors, from main) also one JSON object on stdout,
//   {"error": {"kind": KIND, "message": MESSAGE, "exit_status": STATUS[, "details": DETAILS]}}
// Kinds and statuses: "usage", "compile", "launch", "resource" 2; "kernel" 1; "output" 5 (the
// report could not be written). Returns `status`.
void set_json_errors(bool on);
bool json_errors();
int report_error(const std::string& kind, const std::string& message, int status, const std::string& line,
                 const std::string& details = "");
// The report written to stdout reached it: else an "output" error (exit status 5), else `status`.
int finish_output(int status);
// validate and predict without a fixture (none installed, no source tree, no --fixture): exit 2.
int no_fixture_error();
// The fixture option of validate and predict (default: the installed or source-tree copy).
inline constexpr const char* kFixtureHelp =
    "Nsight Compute fixture (default: ../share/tgsim/h100.json beside tgsim, else tests/hardware/h100.json)";

// Parsed the same way for every command. --n: 1 .. kMaxN (run and check).
inline constexpr int kMaxN = 1 << 20;
// --schedule: in-order, reverse, shuffle or shuffle:SEED (SEED: decimal, 0 .. 2^64-1; default
// 1), and for `check` also both (in-order then reverse). Throws std::invalid_argument with one
// line naming the bad value.
struct ScheduleChoice {
  std::string name;
  Schedule schedule;
  std::uint64_t seed = 1;
};
// "explore:N" (check's --schedules N): in-order, reverse, then shuffle:1 .. shuffle:N-2.
inline constexpr unsigned kMaxSchedules = 1000;
std::vector<ScheduleChoice> parse_schedule(const std::string& s, bool allow_both);

struct CheckOptions {  // `tgsim check` (check.cpp)
  std::string kernel, schedule = "both", schedules;
  int n = 0;
  unsigned threads = 0;
  bool json = false, same_value_waw = false;
};
int check(std::ostream& os, std::ostream& err, const CheckOptions& o);

struct ExplainOptions {  // `tgsim explain` (explain.cpp)
  std::string kernel, site, svg, html, sweep, profile = "nvidia-h100";
  int n = 0, at = 0;
  unsigned threads = 0;
  bool source = false, wide = false;
  bool no_try = false;  // --no-try: a kernel FILE's rules without pads tried by re-runs (try_pad.hpp)
  FileLaunch file;  // `tgsim explain FILE ...`: file.file set
};
// "unknown kernel 'x'; did you mean y?" (or "tgsim list shows them all"), in the language.
std::string unknown_kernel_message(const std::string& name);
int explain(std::ostream& os, std::ostream& err, const ExplainOptions& o);

// The tour: family by family, each printed as soon as it is done (progress on stderr);
// tables and paragraphs fit 100 columns unless `wide`.
int tour(std::ostream& os, unsigned threads, bool json, const std::string& profile = "nvidia-h100",
         bool wide = false);
extern bool g_bench_cache;
extern bool g_bench_count_none;
int bench(std::ostream& os, const std::vector<int>& sizes, int reps, unsigned threads, bool json);
// run's --json object; with the estimate of `profile` when given
std::string result_json(const catalog::Result& r, int indent, const DeviceProfile* profile = nullptr);

}  // namespace tgsim::cli
