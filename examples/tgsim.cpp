// tgsim: run the seed kernels on the CPU and print what the hardware counters would say.
//   tgsim tour                       the seed kernels side by side, with what the numbers mean
//   tgsim run KERNEL [--n N] [--threads T] [--schedule S] [--json]
//   tgsim list                       the kernels `run` knows
//   tgsim bench [--sizes 256,512]    tgsim vs a native triple loop, as ratios
//   tgsim validate [--fixture F]     tgsim's counters side by side with the recorded H100 ones
//   tgsim check KERNEL [--n N] [--json] [--schedule S] [--threads T]   races, bounds, barriers
//   tgsim explain KERNEL [--site file:line] [--svg F] [--source] [--html F] | matmul --sweep tile=8,16,32
//   tgsim --version; --lang en|ja anywhere (default: from LANG)
//   tgsim predict [--fixture F] [--json]   cache counters and time estimates vs the H100 (and
//                                   the seed 001 Apple M3 pairs)
//   tgsim run|check FILE.cu|FILE.metal --kernel K --grid X,Y --block X,Y ARG...   a user's kernel
// Usage errors print one line and exit with status 2.
#include <CLI/CLI.hpp>

#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "file_kernel.hpp"
#include "i18n.hpp"
#include "predict.hpp"
#include "validate.hpp"

namespace {

int usage_error(const std::string& what) {
  std::cerr << "tgsim: error: " << what << " (see tgsim --help)\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tgsim: GPU kernels on the CPU, counted as Nsight Compute counts them on an H100"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("tgsim ") + tgsim::cli::version());
  // --lang on the program or after any subcommand (subcommands pass it up: fallthrough).
  std::string lang;
  app.add_option("--lang", lang, "language of the output: en, ja (default: from LANG)");
  app.fallthrough();
  unsigned threads = 0;
  bool json = false;

  auto* tour = app.add_subcommand("tour", "run the seed kernels and explain their counts (the main job)");
  tour->add_option("--threads", threads, "worker threads (default: all cores)");
  tour->add_flag("--json", json, "one JSON array of run objects");
  std::string profile = "nvidia-h100";
  tour->add_option("--profile", profile, "device profile for the estimate: nvidia-h100, apple-m3, amd-cdna");
  bool wide = false;
  tour->add_flag("--wide", wide, "the full table (about 200 columns) instead of 100 columns");

  auto* run = app.add_subcommand("run", "run one kernel and print its counters");
  std::string kernel, schedule = "in-order";
  int n = 0;
  run->add_option("target", kernel, "kernel name (tgsim list), or a kernel file FILE.cu / FILE.metal")->required();
  tgsim::cli::FileLaunch file_run;
  run->add_option("args", file_run.args, "with a FILE: one ARG per kernel parameter (TYPE[COUNT], TYPE:VALUE)");
  run->add_option("--kernel", file_run.kernel, "with a FILE: the kernel to run");
  run->add_option("--grid", file_run.grid, "with a FILE: threadgroups, X[,Y[,Z]]");
  run->add_option("--block", file_run.block, "with a FILE: threads per group, X[,Y[,Z]]");
  run->add_option("--shared", file_run.shared, "with a FILE: bytes of dynamic shared memory");
  run->add_option("--threads-in-grid", file_run.grid_threads,
                  "with a Metal FILE: dispatchThreads' grid size in threads, X[,Y[,Z]]");
  run->add_option("--n", n, "matrix size N (square); default 256 for matmul, 1024 for transpose")
      ->check(CLI::Range(1, tgsim::cli::kMaxN));
  run->add_option("--threads", threads, "worker threads (default: all cores)");
  run->add_option("--schedule", schedule, "fiber order in a group: in-order, reverse, shuffle[:SEED]");
  run->add_flag("--json", json, "one JSON object");
  run->add_option("--profile", profile, "device profile: nvidia-h100, apple-m3, amd-cdna");
  bool no_cache = false;
  run->add_flag("--no-cache", no_cache, "turn the L1/L2/DRAM model off (faster)");

  auto* list = app.add_subcommand("list", "list the kernels");

  auto* bench = app.add_subcommand("bench", "time tgsim against a native loop, in one process");
  std::vector<int> sizes = {256, 512};
  int reps = 3;
  bench->add_option("--sizes", sizes, "matrix sizes")->delimiter(',');
  bench->add_option("--reps", reps, "repetitions (the minimum time is kept)")->check(CLI::Range(1, 100));
  bench->add_option("--threads", threads, "worker threads (default: all cores)");
  bench->add_flag("--json", json, "one JSON object");
  bool bench_no_cache = false;
  bench->add_flag("--no-cache", bench_no_cache, "time without the L1/L2/DRAM model");
  std::string bench_count = "all";
  bench->add_option("--count", bench_count, "all: every row; none: only tgsim's engine with counting off")
      ->check(CLI::IsMember({"all", "none"}));

  auto* validate = app.add_subcommand("validate", "compare tgsim's counters with the recorded H100 counters");
  std::string fixture = tgsim::catalog::default_fixture_path();
  validate->add_option("--fixture", fixture, "Nsight Compute fixture (default: ../share/tgsim/h100.json beside tgsim, else tests/hardware/h100.json)");
  validate->add_option("--threads", threads, "worker threads (default: all cores)");
  std::vector<std::string> only;
  validate->add_option("--kernels", only, "compare only these kernels (default: all)")->delimiter(',');
  tgsim::cli::CheckOptions check_opt;
  auto* check = tgsim::cli::add_check(app, check_opt);
  tgsim::cli::FileLaunch file_check;
  check->add_option("args", file_check.args, "with a FILE: one ARG per kernel parameter");
  check->add_option("--kernel", file_check.kernel, "with a FILE: the kernel to check");
  check->add_option("--grid", file_check.grid, "with a FILE: threadgroups, X[,Y[,Z]]");
  check->add_option("--block", file_check.block, "with a FILE: threads per group, X[,Y[,Z]]");
  check->add_option("--shared", file_check.shared, "with a FILE: bytes of dynamic shared memory");
  check->add_option("--threads-in-grid", file_check.grid_threads, "with a Metal FILE: dispatchThreads' size");
  tgsim::cli::ExplainOptions explain_opt;
  auto* explain = tgsim::cli::add_explain(app, explain_opt);
  auto* predict = app.add_subcommand("predict", "cache counters and time estimates against the recorded H100");
  predict->add_option("--fixture", fixture, "Nsight Compute fixture (default: ../share/tgsim/h100.json beside tgsim, else tests/hardware/h100.json)");
  predict->add_option("--threads", threads, "worker threads (default: all cores)");
  predict->add_flag("--json", json, "one JSON object: speedups, timings, cache counters");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    return usage_error(what.empty() ? e.get_name() : what);
  }

  if (!tgsim::cli::set_lang_from(lang)) return usage_error(tgsim::cli::trf("err.lang", {lang}));
  // No fixture installed beside tgsim (../share/tgsim) and no source tree: the user names one.
  if ((*validate || *predict) && fixture.empty())
    return usage_error("no H100 fixture found (TGSIM_FIXTURE_DIR, ../share/tgsim beside tgsim, the source tree): pass --fixture FILE");
  if ((*run || *check) && !tgsim::cli::looks_like_kernel_file(*run ? kernel : check_opt.kernel) &&
      !tgsim::catalog::find(*run ? kernel : check_opt.kernel)) {
    std::cerr << "tgsim: error: " << tgsim::cli::unknown_kernel_message(*run ? kernel : check_opt.kernel) << "\n";
    return 2;
  }
  try {
    if (*check && tgsim::cli::looks_like_kernel_file(check_opt.kernel)) {
      file_check.file = check_opt.kernel;
      tgsim::LaunchConfig base;
      base.threads = check_opt.threads;
      base.report_same_value_waw = check_opt.same_value_waw;
      return tgsim::cli::run_file_command(std::cout, std::cerr, file_check, tgsim::profiles::nvidia_h100(), base,
                                          check_opt.json, true);
    }
    if (*check) return tgsim::cli::check(std::cout, std::cerr, check_opt);
    if (*explain && tgsim::cli::looks_like_kernel_file(explain_opt.kernel)) explain_opt.file.file = explain_opt.kernel;
    if (*explain) return tgsim::cli::explain(std::cout, std::cerr, explain_opt);
    if (*predict) {
      tgsim::catalog::Prediction p;
      try {
        p = tgsim::catalog::predict_against(fixture, threads);
      } catch (const std::runtime_error& e) {
        return usage_error(e.what());
      }
      std::cout << (json ? tgsim::catalog::prediction_json(p) + "\n" : tgsim::catalog::format_prediction(p));
      return 0;
    }
    auto prof = tgsim::profiles::by_name(profile);
    if (!prof) return usage_error("unknown profile '" + profile + "' (nvidia-h100, apple-m3, amd-cdna)");
    if (*run && tgsim::cli::looks_like_kernel_file(kernel)) {
      file_run.file = kernel;
      tgsim::LaunchConfig base;
      base.threads = threads;
      base.cache_model = !no_cache;
      base.progress = !json;
      try {
        const tgsim::cli::ScheduleChoice sc = tgsim::cli::parse_schedule(schedule, false).front();
        base.schedule = sc.schedule;
        base.shuffle_seed = sc.seed;
      } catch (const std::invalid_argument& e) {
        return usage_error(e.what());
      }
      return tgsim::cli::run_file_command(std::cout, std::cerr, file_run, *prof, base, json, false);
    }
    if (!file_run.args.empty() || !file_run.grid.empty() || !file_run.block.empty())
      if (*run) return usage_error("ARGs, --grid and --block go with a kernel FILE (.cu, .metal), not '" + kernel + "'");
    if (*run) {
      tgsim::catalog::RunOptions opt;
      opt.n = n;
      opt.threads = threads;
      opt.cache_model = !no_cache;
      opt.progress = !json;
      tgsim::catalog::Result r;
      try {
        const tgsim::cli::ScheduleChoice sc = tgsim::cli::parse_schedule(schedule, false).front();
        opt.schedule = sc.schedule;
        opt.shuffle_seed = sc.seed;
        r = tgsim::catalog::run(tgsim::Device{*prof}, kernel, opt);
      } catch (const std::invalid_argument& e) {
        return usage_error(e.what());
      }
      if (json) {
        std::cout << tgsim::cli::result_json(r, 2, &*prof) << "\n";
      } else {
        tgsim::write_text(std::cout, r.report);
        if (const auto* e = tgsim::catalog::find(kernel)) {
          tgsim::Estimate est = tgsim::catalog::predict(*e, r, *prof);
          std::cout << "  estimate (" << prof->name << "): " << est.time_ms() << " ms, bound by " << est.bound << "\n";
        }
        std::cout << "  n " << r.n << ", result " << (r.correct ? "equals" : "DIFFERS FROM")
                  << " the CPU reference\n";
      }
      return r.correct && r.report.findings.empty() ? 0 : 1;
    }
    if (*list) {
      for (const auto& e : tgsim::catalog::entries())
        std::cout << e.name << "  (default n " << e.default_n << ")  " << e.description << "\n";
      return 0;
    }
    if (*validate) {
      tgsim::catalog::Validation v;
      try {
        v = tgsim::catalog::validate_against(fixture, threads, only);
      } catch (const std::runtime_error& e) {
        return usage_error(e.what());
      }
      std::cout << tgsim::catalog::format_table(v);
      return v.all_equal() ? 0 : 1;
    }
    if (*bench) {
      for (int s : sizes)
        if (s < 16 || s > 4096) return usage_error("bench size " + std::to_string(s) + " is outside 16..4096");
      tgsim::cli::g_bench_cache = !bench_no_cache;
      tgsim::cli::g_bench_count_none = bench_count == "none";
      return tgsim::cli::bench(std::cout, sizes, reps, threads, json);
    }
    return tgsim::cli::tour(std::cout, threads, json, profile, wide);  // `tgsim` alone runs the tour
  } catch (const tgsim::LaunchError& e) {
    std::cerr << "tgsim: launch error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "tgsim: kernel error: " << e.what() << "\n";
    return 1;
  }
}
