// The subcommands of the tgsim program (each in its own file).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "catalog.hpp"

namespace tgsim::cli {

int tour(std::ostream& os, unsigned threads, bool json);
int bench(std::ostream& os, const std::vector<int>& sizes, int reps, unsigned threads, bool json);
std::string result_json(const catalog::Result& r, int indent);  // run's --json object

}  // namespace tgsim::cli
