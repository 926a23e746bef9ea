// What the subcommands share: the usage error's form and the --schedule parser.
#include "commands.hpp"

#include <charconv>
#include <iostream>
#include <stdexcept>

namespace tgsim::cli {

int usage_error(const std::string& what) {
  std::cerr << "tgsim: error: " << what << " (see tgsim --help)\n";
  return 2;
}

int no_fixture_error() {
  return usage_error("no H100 fixture found (TGSIM_FIXTURE_DIR, ../share/tgsim beside tgsim, the source tree): "
                     "pass --fixture FILE");
}

std::vector<ScheduleChoice> parse_schedule(const std::string& s, bool allow_both) {
  if (allow_both && s == "both") return {{"in-order", Schedule::kInOrder}, {"reverse", Schedule::kReverse}};
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
