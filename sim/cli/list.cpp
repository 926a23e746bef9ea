// `tgsim list`: the catalog's kernels, with their default size and what each shows.
#include <CLI/CLI.hpp>

#include <iostream>

#include "commands.hpp"

namespace tgsim::cli {

Command add_list(CLI::App& program) {
  auto* c = program.add_subcommand("list", "list the kernels");
  return {c, [] {
            for (const auto& e : catalog::entries())
              std::cout << e.name << "  (default n " << e.default_n << ")  " << e.description << "\n";
            return 0;
          }};
}

}  // namespace tgsim::cli
