// `tgsim check KERNEL`: runs a kernel with the checker on (hazards, uninitialised shared
// reads, out-of-bounds, barrier divergence) under the in-order and the reversed schedule (or
// --schedule's; a kernel FILE: check_file.cpp), and
// says whether the two runs give the same findings and a correct result (a missing barrier
// often shows as a wrong result in one schedule only). Exit 0: clean; 1: findings or a wrong
// result; 2: usage error.
#include <cctype>
#include <CLI/CLI.hpp>

#include <charconv>
#include <memory>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "file_kernel.hpp"
#include "i18n.hpp"
#include <tgsim/internal/text.hpp>

namespace tgsim::cli {

using internal::with_commas;

namespace {

// "thread (x,y,z) (warp w lane l)", with "block (x,y,z)" before it when `block` is given.
std::string who(const Finding& f) {
  return trf("check.who", {f.thread.str(), std::to_string(f.warp), std::to_string(f.lane)});
}
std::string who2(const Finding& f) {
  return f.block2 == f.block ? trf("check.who2", {f.thread2.str()})
                             : trf("check.who2_group", {f.block2.str(), f.thread2.str()});
}
// The element as the English example names it, its indices per dimension ("tileB[2][0]"), else
// the array and its flat index.
std::string word(const Finding& f) {
  if (f.object.empty()) return tr("check.same_word");
  for (std::size_t at = f.message.find(f.object + "["); at != std::string::npos;
       at = f.message.find(f.object + "[", at + 1)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(f.message[at - 1])) || f.message[at - 1] == '_')) continue;
    std::size_t end = at + f.object.size();
    while (end < f.message.size() && f.message[end] == '[') {
      const std::size_t close = f.message.find(']', end);
      if (close == std::string::npos) break;
      end = close + 1;
    }
    if (end > at + f.object.size()) return f.message.substr(at, end - at);
  }
  return f.index >= 0 ? f.object + "[" + std::to_string(f.index) + "]" : f.object;
}

// A hazard between two accesses: the order they lack (a barrier, a __syncwarp, or none at
// all between threadgroups of one launch).
std::string hazard(const Finding& f) {
  const char* key = f.kind == FindingKind::kRaw || f.kind == FindingKind::kWarpRaw   ? "check.ex.raw"
                    : f.kind == FindingKind::kWar || f.kind == FindingKind::kWarpWar ? "check.ex.war"
                                                                                     : "check.ex.waw";
  // (The checker's English sentence says when a Metal threadgroup_barrier without mem_device
  // was between the two accesses: checker.cpp, hazard_findings.)
  const bool device_flag = f.message.find("orders no device memory") != std::string::npos;
  const char* sep = !(f.block2 == f.block)          ? "check.sep.grid"
                    : device_flag                     ? "check.sep.device"
                    : f.kind >= FindingKind::kWarpRaw ? "check.sep.syncwarp"
                                                      : "check.sep.barrier";
  return trf(key, {who(f), f.where(), word(f), who2(f), f.where2()}) + tr(sep);
}

}  // namespace

std::string example_place(const Finding& f) {
  if (lang() != Lang::kEn) return f.block.str();  // (the translations name the thread: who())
  return f.message.find("thread (") == std::string::npos ? f.block.str() + " thread " + f.thread.str() : f.block.str();
}

std::string finding_example(const Finding& f) {
  if (lang() == Lang::kEn) return f.message;
  switch (f.kind) {
    case FindingKind::kRaw:
    case FindingKind::kWar:
    case FindingKind::kWaw:
    case FindingKind::kWarpRaw:
    case FindingKind::kWarpWar:
    case FindingKind::kWarpWaw: return hazard(f);
    case FindingKind::kUninitialized: return trf("check.ex.uninitialized", {who(f), f.where(), word(f)});
    case FindingKind::kOutOfBounds: return trf("check.ex.out_of_bounds", {who(f), f.where()});
    case FindingKind::kBarrierDivergence: return trf("check.ex.barrier_divergence", {who(f), f.where()});
    case FindingKind::kWarpCollective: return trf("check.ex.warp_collective", {who(f), f.where()});
    case FindingKind::kConstantWrite: return trf("check.ex.constant_write", {who(f), f.where()});
    case FindingKind::kUseAfterFree: return trf("check.ex.use_after_free", {who(f), f.where()});
    case FindingKind::kWatchdog:  // a spin on a flag nobody sets (co-resident groups) or a runaway loop
      return trf(f.message.find("spins on one address") != std::string::npos ? "check.ex.watchdog_spin"
                                                                              : "check.ex.watchdog",
                 {who(f), f.where()});
    case FindingKind::kUnsupported: return trf("check.ex.unsupported", {who(f), f.where()});
    case FindingKind::kAssert: return trf("check.ex.assert", {who(f), f.where()});
    case FindingKind::kTrap: return trf("check.ex.trap", {who(f), f.where()});
    case FindingKind::kIntegerDivision: return trf("check.ex.integer_division", {who(f), f.where()});
    case FindingKind::kMisaligned: return trf("check.ex.misaligned", {who(f), f.where()});
  }
  return f.message;
}

Command add_check(CLI::App& program) {
  struct State {
    CheckOptions o;
    FileLaunch file;
  };
  auto st = std::make_shared<State>();
  CheckOptions& o = st->o;
  auto* c = program.add_subcommand("check", "run a kernel with the checker: races, uninitialised "
                                            "reads, out of bounds, divergent barriers");
  c->add_option("target", o.kernel, "kernel name (tgsim list), or a kernel file FILE.cu / FILE.metal")->required();
  c->add_option("--n", o.n, "problem size N (default: the kernel's)")->check(CLI::Range(1, kMaxN));
  c->add_option("--threads", o.threads, "worker threads (default: all cores)")
      ->check(CLI::Range(0u, kMaxWorkers));
  c->add_option("--schedule", o.schedule,
                "fiber order in a group: both (in-order and reverse), in-order, reverse, "
                "shuffle[:SEED]");
  c->add_option("--schedules", o.schedules,
                 "explore N schedules: in-order, reverse, then N-2 seeded shuffles of the threads at "
                 "every barrier interval (shuffle:1 ...; each replays with --schedule shuffle:K)");
  c->add_flag("--same-value-waw", o.same_value_waw,
              "also report write-after-write hazards whose stores write equal values");
  c->add_flag("--json", o.json, "one JSON object");
  add_file_options(*c, st->file, "check");
  return {c, [st] {
            CheckOptions& o = st->o;
            if (!o.schedules.empty()) {
              if (o.schedule != "both") {
                std::cerr << error_line("--schedule '" + o.schedule + "' and --schedules '" + o.schedules +
                                        "' exclude each other")
                          << "\n";
                return 2;
              }
              o.schedule = "explore:" + o.schedules;
            }
            if (looks_like_kernel_file(o.kernel)) {
              FileLaunch file = st->file;
              file.file = o.kernel;
              LaunchConfig base;
              base.threads = o.threads;
              base.report_same_value_waw = o.same_value_waw;
              return check_file(std::cout, std::cerr, file, profiles::nvidia_h100(), base, o.json, o.schedule);
            }
            if (!catalog::find(o.kernel)) {
              std::cerr << error_line(unknown_kernel_message(o.kernel)) << "\n";
              return 2;
            }
            return check(std::cout, std::cerr, o);
          }};
}

int check(std::ostream& os, std::ostream& err, const CheckOptions& o) {
  std::vector<ScheduleChoice> scheds;
  std::vector<catalog::Result> results;
  try {
    scheds = parse_schedule(o.schedule, true);
    for (const ScheduleChoice& s : scheds) {
      catalog::RunOptions opt;
      opt.n = o.n;
      opt.threads = o.threads;
      opt.schedule = s.schedule;
      opt.shuffle_seed = s.seed;
      opt.check = true;
      opt.report_same_value_waw = o.same_value_waw;
      results.push_back(catalog::run(Device{}, o.kernel, opt));
    }
  } catch (const std::invalid_argument& e) {
    err << error_line(e.what(), true) << "\n";
    return 2;
  }
  bool same_findings = true, all_correct = true, clean = true;
  for (const catalog::Result& r : results) {
    same_findings = same_findings && r.report.findings == results[0].report.findings;
    all_correct = all_correct && r.correct;
    clean = clean && r.report.findings.empty();
  }
  if (o.json) {
    nlohmann::ordered_json runs = nlohmann::json::array();
    for (std::size_t i = 0; i < results.size(); ++i) {
      auto run = nlohmann::ordered_json::parse(result_json(results[i], -1));
      run["schedule"] = scheds[i].name;
      runs.push_back(run);
    }
    os << nlohmann::ordered_json{{"schema", kJsonSchema},
                                 {"tgsim", version()},
                                 {"kernel", o.kernel},
                                 {"clean", clean},
                                 {"correct", all_correct},
                                 {"schedules_agree", same_findings},
                                 {"runs", runs}}
              .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
       << "\n";
    return clean && all_correct ? 0 : 1;
  }
  const catalog::Result& first = results[0];
  os << trf("check.header", {o.kernel, std::to_string(first.n), first.report.grid.str(), first.report.block.str()})
     << "\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Report& r = results[i].report;
    if (i > 0 && same_findings) continue;  // printed once when every schedule agrees
    const std::string who = same_findings && results.size() > 1 ? tr("check.all_schedules")
                                                                 : trf("check.schedule", {scheds[i].name});
    const std::string what = r.findings.empty() ? tr("check.no_findings")
                                                : trf(r.findings.size() == 1 ? "check.finding" : "check.findings",
                                                      {std::to_string(r.findings.size())});
    os << "  " << who << ": " << what << "\n";
    for (const Finding& f : r.findings) {
      std::string line = std::string(to_string(f.kind)) + " " + tr("check.at") + " " + f.where();
      if (!f.file2.empty()) line += " " + tr("check.and") + " " + f.where2();
      line += " [" + trf(f.count == 1 ? "check.time" : "check.times", {with_commas(f.count)}) + "]";
      os << wrap("    " + line, 100, 6) << "\n";
      // A Japanese gloss of the kind; the English names are self-describing (empty there).
      const std::string& gloss = tr("finding." + std::string(to_string(f.kind)));
      if (has_message("finding." + std::string(to_string(f.kind))) && !gloss.empty())
        os << wrap("      " + gloss, 100, 6) << "\n";
      os << wrap("      " + trf("check.example", {example_place(f), finding_example(f)}), 100, 8) << "\n";
    }
  }
  for (std::size_t i = 0; i < results.size(); ++i)
    os << "  "
       << trf(results[i].correct ? "check.result_equals" : "check.result_differs", {scheds[i].name}) << "\n";
  if (results.size() > 1) {
    bool same_result = true;
    for (const auto& r : results) same_result = same_result && r.correct == results[0].correct;
    os << "  " << tr(same_findings ? "check.agree" : "check.disagree")
       << (same_result ? "" : tr("check.depends")) << "\n";
  }
  os << "  " << tr(clean && all_correct ? "check.clean" : "check.not_clean") << "\n";
  return clean && all_correct ? 0 : 1;
}

}  // namespace tgsim::cli
