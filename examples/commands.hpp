// The subcommands of the tgsim program (each in its own file).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "file_kernel.hpp"

namespace CLI {
class App;
}

namespace tgsim::cli {

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
std::vector<ScheduleChoice> parse_schedule(const std::string& s, bool allow_both);

struct CheckOptions {  // `tgsim check` (check.cpp)
  std::string kernel, schedule = "both";
  int n = 0;
  unsigned threads = 0;
  bool json = false, same_value_waw = false;
};
CLI::App* add_check(CLI::App& app, CheckOptions& o);
int check(std::ostream& os, std::ostream& err, const CheckOptions& o);

struct ExplainOptions {  // `tgsim explain` (explain.cpp)
  std::string kernel, site, svg, html, sweep, profile = "nvidia-h100";
  int n = 0, at = 0;
  unsigned threads = 0;
  bool source = false, wide = false;
  FileLaunch file;  // `tgsim explain FILE ...`: file.file set
};
// "unknown kernel 'x'; did you mean y?" (or "tgsim list shows them all"), in the language.
std::string unknown_kernel_message(const std::string& name);
CLI::App* add_explain(CLI::App& app, ExplainOptions& o);
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
