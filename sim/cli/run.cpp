// `tgsim run KERNEL|FILE`: runs one catalog kernel (with its CPU reference) or a user's kernel
// file and prints its counters, per source site, and the estimate of the chosen profile.
// Exit 0: correct and no findings; 1: findings or a result that differs from the reference.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "i18n.hpp"
#include "predict.hpp"

namespace tgsim::cli {

namespace {

struct RunState {
  std::string target, schedule = "in-order", profile = "nvidia-h100";
  int n = 0;
  unsigned threads = 0;
  bool json = false, no_cache = false;
  FileLaunch file;
};

int run_catalog(const RunState& o, const DeviceProfile& prof, const ScheduleChoice& sc) {
  catalog::RunOptions opt;
  opt.n = o.n;
  opt.threads = o.threads;
  opt.cache_model = !o.no_cache;
  opt.progress = !o.json;
  opt.schedule = sc.schedule;
  opt.shuffle_seed = sc.seed;
  catalog::Result r;
  try {
    r = catalog::run(Device{prof}, o.target, opt);
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  if (o.json) {
    std::cout << result_json(r, 2, &prof) << "\n";
  } else {
    write_text(std::cout, r.report);
    if (const auto* e = catalog::find(o.target)) {
      Estimate est = catalog::predict(*e, r, prof);
      std::cout << "  estimate (" << prof.name << "): " << est.time_ms() << " ms, bound by " << est.bound << "\n";
    }
    std::cout << "  n " << r.n << ", result " << (r.correct ? "equals" : "DIFFERS FROM") << " the CPU reference\n";
  }
  return r.correct && r.report.findings.empty() ? 0 : 1;
}

}  // namespace

Command add_run(CLI::App& program) {
  auto st = std::make_shared<RunState>();
  RunState& o = *st;
  auto* c = program.add_subcommand("run", "run one kernel and print its counters");
  c->add_option("target", o.target, "kernel name (tgsim list), or a kernel file FILE.cu / FILE.metal")->required();
  add_file_options(*c, o.file, "run");
  c->add_option("--n", o.n, "matrix size N (square); default 256 for matmul, 1024 for transpose")
      ->check(CLI::Range(1, kMaxN));
  c->add_option("--threads", o.threads, "worker threads (default: all cores)")
      ->check(CLI::Range(0u, kMaxWorkers));
  c->add_option("--schedule", o.schedule, "fiber order in a group: in-order, reverse, shuffle[:SEED]");
  c->add_flag("--json", o.json, "one JSON object");
  c->add_option("--profile", o.profile, "device profile: nvidia-h100, apple-m3, amd-cdna");
  c->add_flag("--no-cache", o.no_cache, "turn the L1/L2/DRAM model off (faster)");
  return {c, [st] {
            const RunState& o = *st;
            const bool is_file = looks_like_kernel_file(o.target);
            if (!is_file && !catalog::find(o.target)) {
              std::cerr << "tgsim: error: " << unknown_kernel_message(o.target) << "\n";
              return 2;
            }
            auto prof = profiles::by_name(o.profile);
            if (!prof) return usage_error("unknown profile '" + o.profile + "' (nvidia-h100, apple-m3, amd-cdna)");
            ScheduleChoice sc;
            try {
              sc = parse_schedule(o.schedule, false).front();
            } catch (const std::invalid_argument& e) {
              return usage_error(e.what());
            }
            if (!is_file) {
              if (!o.file.args.empty() || !o.file.grid.empty() || !o.file.block.empty())
                return usage_error("ARGs, --grid and --block go with a kernel FILE (.cu, .metal), not '" + o.target + "'");
              return run_catalog(o, *prof, sc);
            }
            FileLaunch file = o.file;
            file.file = o.target;
            LaunchConfig base;
            base.threads = o.threads;
            base.cache_model = !o.no_cache;
            base.progress = !o.json;
            base.schedule = sc.schedule;
            base.shuffle_seed = sc.seed;
            return run_file_command(std::cout, std::cerr, file, *prof, base, o.json);
          }};
}

}  // namespace tgsim::cli
