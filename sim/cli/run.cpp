// `tgsim run KERNEL|FILE`: runs one catalog kernel (with its CPU reference) or a user's kernel
// file and prints its counters, per source site, and the estimate of the chosen profile.
// Exit 0: correct and no findings; 1: findings or a result that differs from the reference.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "i18n.hpp"
#include "report_words.hpp"
#include "partial.hpp"
#include "predict.hpp"

namespace tgsim::cli {

namespace {

// A number as an ostream prints it by default (6 significant digits): the estimate's format.
std::string ostream_text(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

struct RunState {
  std::string target, schedule = "in-order", profile = "nvidia-h100", groups, sample = "auto";
  int n = 0;
  unsigned threads = 0;
  bool json = false, no_cache = false;
  bool advice = false, no_try = false;  // --advice, --no-try (a kernel FILE's rules, try_pad.hpp)
  FileLaunch file;
};

int run_catalog(const RunState& o, const DeviceProfile& prof, const ScheduleChoice& sc, const GroupsOption& g,
                const SampleChoice& sample) {
  catalog::RunOptions opt;
  opt.sample = sample.share;
  opt.sample_auto = sample.automatic;
  opt.slice = g.slice;
  opt.slices = g.slices;
  opt.n = o.n;
  opt.threads = o.threads;
  opt.cache_model = !o.no_cache;
  set_progress(opt, !o.json);
  opt.schedule = sc.schedule;
  opt.shuffle_seed = sc.seed;
  catalog::Result r;
  try {
    r = catalog::run(Device{prof}, o.target, opt);
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  if (g.on) {  // a slice: the result is not checked (the other slices compute the rest)
    if (o.json) {
      nlohmann::ordered_json j = nlohmann::ordered_json::parse(result_json(r, -1, &prof));
      j["correct"] = nullptr;
      j["partial"] = partial_json(r.report, g, prof,
                                  launch_fingerprint(r.report, "catalog n=" + std::to_string(r.n), opt.cache_model,
                                                     sc.name));
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cout << partial_line(r.report, g);
      write_text(std::cout, r.report, report_words());
      std::cout << "  n " << r.n << ", result not checked (a slice)\n";
    }
    return r.report.findings.empty() ? 0 : 1;
  }
  if (r.report.sampling.on) {  // a sample: the result is not checked (most groups did not run)
    if (o.json) {
      nlohmann::ordered_json j = nlohmann::ordered_json::parse(result_json(r, -1, &prof));
      j["correct"] = nullptr;
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      write_text(std::cout, r.report, report_words());
      if (const auto* e = catalog::find(o.target)) {
        Estimate est = catalog::predict(*e, r, prof);
        std::cout << "  " << trf("run.estimate_sampled", {prof.name, ostream_text(est.time_ms()), bound_name(est.bound)}) << "\n";
      }
      std::cout << "  " << trf("run.result_sampled", {std::to_string(r.n)}) << "\n";
    }
    return r.report.findings.empty() ? 0 : 1;
  }
  if (o.json) {
    std::cout << result_json(r, 2, &prof) << "\n";
  } else {
    write_text(std::cout, r.report, report_words());
    if (const auto* e = catalog::find(o.target)) {
      Estimate est = catalog::predict(*e, r, prof);
      std::cout << "  " << trf("run.estimate", {prof.name, ostream_text(est.time_ms()), bound_name(est.bound)}) << "\n";
    }
    std::cout << "  " << trf(r.correct ? "run.result_equals" : "run.result_differs", {std::to_string(r.n)}) << "\n";
  }
  return r.correct && r.report.findings.empty() ? 0 : 1;
}

// `tgsim run FILE ... --groups I/N`: the slice's report, marked partial.
int run_file_slice(std::ostream& os, std::ostream& err, const FileLaunch& f, const DeviceProfile& prof,
                   const LaunchConfig& base, bool json, const GroupsOption& g, const std::string& schedule) {
  try {
    const FileRun r = run_file(f, prof, base, /*keep_buffers=*/false);
    if (json) {
      nlohmann::ordered_json j = nlohmann::ordered_json::parse(file_json(r, -1));
      j["partial"] = partial_json(r.report, g, prof,
                                  launch_fingerprint(r.report, file_launch_args(f), base.cache_model, schedule));
      os << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      os << partial_line(r.report, g) << r.signature << "  (" << r.file << ")\n";
      write_text(os, r.report, report_words());
      if (!r.report.printed.empty()) os << tr("run.printf") << "\n" << r.report.printed;
      for (const std::string& n : r.report.notes) os << tr("note.prefix") << localize_error(n) << "\n";
    }
    return r.report.findings.empty() ? 0 : 1;
  } catch (...) {
    return file_error(err, f, std::current_exception());
  }
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
  c->add_flag("--advice", o.advice,
              "with a FILE: rules for the costliest lines; a bank-conflict rule's pad is tried by re-running the "
              "launch with the array padded in a copy of the file");
  c->add_flag("--no-try", o.no_try, "with --advice: the rules without re-runs");
  c->add_option("--groups", o.groups,
                "I/N: only slice I (from 0) of N of the grid, a partial report for `tgsim merge` (with --json)");
  c->add_option("--sample", o.sample,
                "auto (default), off, or P: simulate a stratified sample of P of the threadgroups (2% or 0.02) and "
                "estimate the counters; auto samples a launch that would make more than 2^27 thread accesses");
  return {c, [st] {
            const RunState& o = *st;
            const bool is_file = looks_like_kernel_file(o.target);
            if (!is_file && !catalog::find(o.target)) {
              std::cerr << error_line(unknown_kernel_message(o.target)) << "\n";
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
            GroupsOption groups;
            SampleChoice sample;
            try {
              if (!o.groups.empty()) groups = parse_groups(o.groups);
              sample = parse_sample(o.sample);
            } catch (const std::invalid_argument& e) {
              return usage_error(e.what());
            }
            const bool sampled = sample.share > 0 && sample.share < 1;
            if (groups.on && sampled) return usage_error("--sample and --groups do not go together: sample the whole launch");
            if (o.advice && !is_file) return usage_error("--advice goes with a kernel FILE; for '" + o.target +
                                                         "', tgsim explain " + o.target + " --source");
            if (o.advice && (groups.on || sampled))
              return usage_error("--advice needs the whole launch, not --groups or --sample");
            // --sample auto leaves a launch whole where the whole launch is asked for.
            if (groups.on || o.advice || !o.file.save.empty() || !o.file.expect.empty()) sample.automatic = false;
            if (!is_file) {
              if (!o.file.args.empty() || !o.file.grid.empty() || !o.file.block.empty())
                return usage_error("ARGs, --grid and --block go with a kernel FILE (.cu, .metal), not '" + o.target + "'");
              return run_catalog(o, *prof, sc, groups, sample);
            }
            FileLaunch file = o.file;
            file.file = o.target;
            LaunchConfig base;
            base.threads = o.threads;
            base.cache_model = !o.no_cache;
            set_progress(base, !o.json);
            base.schedule = sc.schedule;
            base.shuffle_seed = sc.seed;
            base.sample = sample.share;
            base.sample_auto = sample.automatic;
            if (sampled && (!o.file.save.empty() || !o.file.expect.empty()))
              return usage_error("--save and --expect need the whole launch, not --sample " + o.sample);
            if (groups.on) {
              if (!o.file.save.empty() || !o.file.expect.empty())
                return usage_error("--save and --expect need the whole launch, not --groups " + o.groups);
              base.slice = groups.slice;
              base.slices = groups.slices;
              return run_file_slice(std::cout, std::cerr, file, *prof, base, o.json, groups, sc.name);
            }
            return run_file_command(std::cout, std::cerr, file, *prof, base, o.json, o.advice, !o.no_try);
          }};
}

}  // namespace tgsim::cli
