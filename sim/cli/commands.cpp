// What the subcommands share: the usage error's form and the --schedule parser.
#include "commands.hpp"
#include "i18n.hpp"

#include <charconv>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include <nlohmann/json.hpp>

#include <tgsim/internal/launch.hpp>
#include <stdexcept>

namespace tgsim::cli {

namespace {
bool g_json_errors = false;
}

void set_json_errors(bool on) {
  g_json_errors = on;
  internal::set_fatal_errors_as_json(on);  // exits 3 and 4 (guard.hpp)
}
bool json_errors() { return g_json_errors; }

int report_error(const std::string& kind, const std::string& message, int status, const std::string& line,
                 const std::string& details) {
  std::cerr << line;
  if (!line.empty() && line.back() != '\n') std::cerr << "\n";
  if (g_json_errors) {
    nlohmann::ordered_json e;
    e["kind"] = kind;
    e["message"] = message;
    e["exit_status"] = status;
    if (!details.empty()) e["details"] = details;
    nlohmann::ordered_json j;
    j["error"] = e;
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
  }
  return status;
}

int finish_output(int status) {
  std::cout.flush();
  if (std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
  const int e = errno;
  std::cerr << "tgsim: error: cannot write the report to standard output"
            << (e ? std::string(": ") + std::strerror(e) : std::string()) << "\n";
  return 5;
}

int usage_error(const std::string& what) {
  return report_error("usage", what, 2, error_line(what, true));
}

int no_fixture_error() {
  return usage_error("no H100 fixture found (TGSIM_FIXTURE_DIR, ../share/tgsim beside tgsim, the source tree): "
                     "pass --fixture FILE");
}

std::vector<ScheduleChoice> parse_schedule(const std::string& s, bool allow_both) {
  if (allow_both && s == "both") return {{"in-order", Schedule::kInOrder}, {"reverse", Schedule::kReverse}};
  if (allow_both && s.rfind("explore:", 0) == 0) {  // --schedules N: in-order, reverse, shuffle:1 ...
    unsigned n = 0;
    auto [p, ec] = std::from_chars(s.data() + 8, s.data() + s.size(), n);
    if (ec != std::errc() || p != s.data() + s.size() || n < 1 || n > kMaxSchedules)
      throw std::invalid_argument("bad --schedules '" + s.substr(8) + "': a number from 1 to " +
                                  std::to_string(kMaxSchedules));
    std::vector<ScheduleChoice> v{{"in-order", Schedule::kInOrder}, {"reverse", Schedule::kReverse}};
    v.resize(std::min<std::size_t>(n, 2));
    for (unsigned k = 1; k + 2 <= n; ++k) v.push_back({"shuffle:" + std::to_string(k), Schedule::kShuffle, k});
    return v;
  }
  if (s == "in-order") return {{s, Schedule::kInOrder}};
  if (s == "reverse") return {{s, Schedule::kReverse}};
  if (s == "shuffle") return {{s, Schedule::kShuffle, 1}};
  if (s.rfind("shuffle:", 0) == 0) {
    std::uint64_t seed = 0;
    const char* b = s.data() + 8;
    const char* e = s.data() + s.size();
    auto [p, ec] = std::from_chars(b, e, seed);
    if (b == e || ec != std::errc() || p != e)
      throw std::invalid_argument("bad --schedule '" + s + "': SEED must be a decimal number from 0 to " +
                                  std::to_string(~std::uint64_t(0)));
    return {{s, Schedule::kShuffle, seed}};
  }
  throw std::invalid_argument("unknown --schedule '" + s + "' (" +
                              (allow_both ? "both, " : "") + "in-order, reverse, shuffle[:SEED])");
}

}  // namespace tgsim::cli
