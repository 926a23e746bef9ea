// The subcommands of the tgsim program (each in its own file).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "catalog.hpp"

namespace CLI {
class App;
}

namespace tgsim::cli {

struct CheckOptions {  // `tgsim check` (check.cpp)
  std::string kernel, schedule = "both";
  int n = 0;
  unsigned threads = 0;
  bool json = false, same_value_waw = false;
};
CLI::App* add_check(CLI::App& app, CheckOptions& o);
int check(std::ostream& os, std::ostream& err, const CheckOptions& o);

int tour(std::ostream& os, unsigned threads, bool json);
int bench(std::ostream& os, const std::vector<int>& sizes, int reps, unsigned threads, bool json);
std::string result_json(const catalog::Result& r, int indent);  // run's --json object

}  // namespace tgsim::cli
