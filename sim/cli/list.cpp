// `tgsim list`: the catalog's kernels, with their default size and what each shows.
#include <CLI/CLI.hpp>

#include <iostream>

#include "commands.hpp"
#include "i18n.hpp"

namespace tgsim::cli {

Command add_list(CLI::App& program) {
  auto* c = program.add_subcommand("list", "list the kernels");
  return {c, [] {
            // In Japanese the catalog's line from the message catalog, where it has one.
            for (const auto& e : catalog::entries()) {
              const std::string key = "list." + e.name;
              const std::string text = lang() == Lang::kJa && has_message(key) ? tr(key) : e.description;
              std::cout << trf("list.line", {e.name, std::to_string(e.default_n), text}) << "\n";
            }
            return 0;
          }};
}

}  // namespace tgsim::cli
