// `tgsim predict`: the time model against the measured pairs (the H100 fixture's kernel times
// and the seed 001 Apple M3 pairs; the comparison itself: sim/validation/predict.cpp).
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "i18n.hpp"
#include "predict.hpp"
#include "validate.hpp"

namespace tgsim::cli {

Command add_predict(CLI::App& program) {
  struct State {
    std::string fixture = catalog::default_fixture_path();
    unsigned threads = 0;
    bool json = false;
  };
  auto st = std::make_shared<State>();
  auto* c = program.add_subcommand("predict", "cache counters and time estimates against the recorded H100");
  c->add_option("--fixture", st->fixture, kFixtureHelp);
  c->add_option("--threads", st->threads, "worker threads (default: all cores)");
  c->add_flag("--json", st->json, "one JSON object: speedups, timings, cache counters");
  return {c, [st] {
            if (st->fixture.empty()) return no_fixture_error();
            catalog::Prediction p;
            try {
              p = catalog::predict_against(st->fixture, st->threads);
            } catch (const std::runtime_error& e) {
              return usage_error(e.what());
            }
            // The table's words: its "table." entries (messages_notes.cpp), a bound's name (dram, latency).
            auto say = [](const std::string& en) {
              return has_message("bound." + en) ? bound_name(en) : localize_error(en);
            };
            std::cout << (st->json ? catalog::prediction_json(p) + "\n" : catalog::format_prediction(p, say));
            return 0;
          }};
}

}  // namespace tgsim::cli
