// `tgsim validate`: every kernel of the fixture run at its recorded size, each counter side by
// side with the H100's (the comparison itself: sim/validation/validate.cpp). Exit 0 when every
// compared counter is equal, 1 otherwise, 2 when the fixture cannot be read.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "i18n.hpp"
#include "validate.hpp"

namespace tgsim::cli {

Command add_validate(CLI::App& program) {
  struct State {
    std::string fixture = catalog::default_fixture_path();
    unsigned threads = 0;
    std::vector<std::string> only;
  };
  auto st = std::make_shared<State>();
  auto* c = program.add_subcommand("validate", "compare tgsim's counters with the recorded H100 counters");
  c->add_option("--fixture", st->fixture, kFixtureHelp);
  c->add_option("--threads", st->threads, "worker threads (default: all cores)");
  c->add_option("--kernels", st->only, "compare only these kernels (default: all)")->delimiter(',');
  return {c, [st] {
            if (st->fixture.empty()) return no_fixture_error();
            catalog::Validation v;
            try {
              v = catalog::validate_against(st->fixture, st->threads, st->only);
            } catch (const std::runtime_error& e) {
              return usage_error(e.what());
            }
            std::cout << catalog::format_table(v, localize_error);  // "table." entries (messages_notes.cpp)
            return v.all_equal() ? 0 : 1;
          }};
}

}  // namespace tgsim::cli
