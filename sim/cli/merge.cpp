// `tgsim merge PART.json...`: the reports of the N slices of one launch (`tgsim run --groups
// I/N --json`) summed into the report of the whole launch. Counters, per-site counters and
// findings' counts are sums; derived figures (requests, bank conflicts, the estimate) are
// computed again from the sums by the writers of `tgsim run`. Exit 2 with one line for parts
// that are not the N slices of one launch.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "commands.hpp"
#include "i18n.hpp"
#include "report_words.hpp"
#include "partial.hpp"
#include "predict.hpp"

namespace tgsim::cli {

namespace {

struct MergeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Part {
  std::string path;
  nlohmann::ordered_json json;  // the slice's whole --json report
  std::uint32_t slice = 0, slices = 1;
  bool whole_sms = true;
  Report report;
};

Part read_part(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw MergeError("cannot read '" + path + "'");
  Part p;
  p.path = path;
  try {
    p.json = nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception&) {
    throw MergeError("'" + path + "' is not JSON (tgsim run ... --groups I/N --json writes a part)");
  }
  if (!p.json.is_object() || !p.json.contains("partial") || !p.json["partial"].is_object())
    throw MergeError("'" + path + "' is not a partial report (tgsim run ... --groups I/N --json writes one)");
  const auto& q = p.json["partial"];
  try {
    p.slice = q.at("slice").get<std::uint32_t>();
    p.slices = q.at("slices").get<std::uint32_t>();
    p.whole_sms = q.at("whole_sms").get<bool>();
    if (!q.at("fingerprint").is_object()) throw MergeError("");
    p.report = report_from_raw(q.at("raw"));
  } catch (const std::exception& e) {
    throw MergeError("'" + path + "' is not a complete partial report: " + e.what());
  }
  if (p.slices < 1 || p.slice >= p.slices)
    throw MergeError("'" + path + "' claims slice " + std::to_string(p.slice) + " of " + std::to_string(p.slices));
  return p;
}

// The parts are the slices 0 .. N-1 of one launch, each once; sorted by slice.
void check_parts(std::vector<Part>& parts) {
  const Part& a = parts.front();
  const auto& fa = a.json["partial"]["fingerprint"];
  for (const Part& p : parts) {
    const auto& fp = p.json["partial"]["fingerprint"];
    for (auto it = fa.begin(); it != fa.end(); ++it)
      if (!fp.contains(it.key()) || fp[it.key()] != it.value())
        throw MergeError("'" + p.path + "' is of another launch than '" + a.path + "': " + it.key() + " " +
                         (fp.contains(it.key()) ? fp[it.key()].dump() : "(none)") + " against " + it.value().dump());
    if (fp.size() != fa.size())
      throw MergeError("'" + p.path + "' is of another launch than '" + a.path + "': their fingerprints differ");
    if (p.slices != a.slices)
      throw MergeError("'" + p.path + "' is a slice of " + std::to_string(p.slices) + ", '" + a.path + "' of " +
                       std::to_string(a.slices) + ": slices of different splits overlap");
  }
  std::stable_sort(parts.begin(), parts.end(), [](const Part& x, const Part& y) { return x.slice < y.slice; });
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (parts[i].slice == parts[i - 1].slice)
      throw MergeError("slice " + std::to_string(parts[i].slice) + " is given twice ('" + parts[i - 1].path +
                       "', '" + parts[i].path + "')");
  if (parts.size() != a.slices) {
    std::string missing;
    std::size_t k = 0, shown = 0;
    for (std::uint32_t s = 0; s < a.slices && shown < 10; ++s) {
      if (k < parts.size() && parts[k].slice == s) { ++k; continue; }
      missing += (shown++ ? ", " : "") + std::to_string(s);
    }
    throw MergeError("slices missing: " + missing + (a.slices - parts.size() > shown ? ", ..." : "") + " of " +
                     std::to_string(a.slices) + " (" + std::to_string(parts.size()) + " given)");
  }
}

// The example a finding shows: the lowest block, other block, thread, other thread (as the
// launch's merge chooses it, sinks.hpp).
auto example_order(const Finding& f, const Report& r) {
  return std::make_tuple(linearise(f.block, r.grid), linearise(f.block2, r.grid), linearise(f.thread, r.block),
                         linearise(f.thread2, r.block));
}

Report sum_reports(const std::vector<Part>& parts) {
  Report r = parts.front().report;
  r.counters = {};
  r.sites.clear(), r.findings.clear(), r.printed.clear(), r.notes.clear();
  std::map<std::tuple<std::string, std::uint32_t, std::uint32_t, int>, SiteCounters> sites;
  using FKey = std::tuple<int, std::string, std::uint32_t, std::uint32_t, std::string, std::uint32_t, std::uint32_t,
                          bool>;
  std::map<FKey, Finding> findings;
  for (const Part& p : parts) {
    const Report& x = p.report;
    r.counters += x.counters;
    for (const SiteCounters& s : x.sites) {
      auto [it, fresh] = sites.try_emplace({s.file, s.line, s.column, int(s.kind)}, s);
      if (fresh) continue;
      it->second.counters += s.counters;
      it->second.barriers += s.barriers;
      it->second.warp_ops += s.warp_ops;
    }
    for (const Finding& f : x.findings) {
      const bool grid = !f.file2.empty() && !(f.block == f.block2);
      auto [it, fresh] = findings.try_emplace({int(f.kind), f.file, f.line, f.column, f.file2, f.line2, f.column2, grid}, f);
      if (fresh) continue;
      const std::uint64_t total = it->second.count + f.count;
      if (example_order(f, x) < example_order(it->second, x)) it->second = f;
      it->second.count = total;
    }
    r.printed += x.printed;  // each part's lines are in group order, and the slices follow each other
  }
  for (auto& [k, s] : sites) r.sites.push_back(s);
  for (auto& [k, f] : findings) r.findings.push_back(f);
  // A note the whole launch makes (e.g. no access seen) holds for it when it holds for every slice.
  for (const std::string& n : parts.front().report.notes)
    if (std::all_of(parts.begin(), parts.end(), [&](const Part& p) {
          return std::find(p.report.notes.begin(), p.report.notes.end(), n) != p.report.notes.end();
        }))
      r.notes.push_back(n);
  return r;
}

// Which sums are the whole launch's, which are not, and what a merge cannot cover.
nlohmann::ordered_json merged_json(const std::vector<Part>& parts, const Report& r) {
  nlohmann::ordered_json not_exact = nlohmann::ordered_json::object();
  const bool whole_sms = std::all_of(parts.begin(), parts.end(), [](const Part& p) { return p.whole_sms; });
  if (r.counters.cache_modelled && parts.size() > 1) {
    if (!whole_sms) {
      const char* why = "each slice starts every SM's L1 cold; exact only when every SM's threadgroups are in one "
                        "slice (a grid of at most sm_count groups: group g runs on SM g % sm_count)";
      not_exact["global.load.l1_hit_sectors"] = why;
      not_exact["l2.read_sectors"] = why;
      not_exact["sites.l1_hit_sectors"] = why;
    }
    const char* dram = "each slice counts its own unique DRAM chunks and written sectors: data several slices "
                       "touch counts once per slice, once in the whole launch";
    not_exact["dram.read_bytes"] = dram;
    not_exact["dram.write_bytes"] = dram;
  }
  nlohmann::ordered_json j;
  j["slices"] = parts.size();
  j["parts"] = nlohmann::ordered_json::array();
  for (const Part& p : parts) j["parts"].push_back(p.path);
  j["exact"] = "every counter, per-site counter and finding count not listed in not_exact: the slices' sums";
  j["not_exact"] = not_exact;
  j["not_covered"] = "hazards between threadgroups of different slices (the checker: tgsim check runs whole "
                     "launches), and the result's check (each slice computes only its own part of the output; a "
                     "later launch of a multi-launch kernel reads what other slices did not write)";
  return j;
}

}  // namespace

int merge(std::ostream& os, const std::vector<std::string>& paths, bool json) {
  std::vector<Part> parts;
  Report r;
  try {
    for (const std::string& p : paths) parts.push_back(read_part(p));
    check_parts(parts);
    r = sum_reports(parts);
  } catch (const MergeError& e) {
    return usage_error(e.what());
  }
  const nlohmann::ordered_json& first = parts.front().json;
  const std::optional<DeviceProfile> prof = profiles::by_name(r.profile);
  nlohmann::ordered_json out;
  if (first.contains("file")) {
    FileRun fr;
    fr.report = r;
    fr.file = first.value("file", "");
    fr.signature = first.value("signature", "");
    out = nlohmann::ordered_json::parse(file_json(fr, -1));
  } else {
    catalog::Result cr{r, false, first.value("n", 0)};
    out = nlohmann::ordered_json::parse(result_json(cr, -1, prof ? &*prof : nullptr));
    out["correct"] = nullptr;  // not checked: no slice holds the whole output
  }
  out["merged"] = merged_json(parts, r);
  if (json) {
    os << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    write_text(os, r, report_words());
    if (out.contains("estimate")) {
      std::ostringstream ms;
      ms << out["estimate"]["time_ms"].get<double>();
      os << "  " << trf("run.estimate", {r.profile, ms.str(), bound_name(out["estimate"]["bound"].get<std::string>())})
         << "\n";
    }
    std::string not_exact;
    for (auto it = out["merged"]["not_exact"].begin(); it != out["merged"]["not_exact"].end(); ++it)
      not_exact += " " + it.key();
    os << "  " << trf("merge.summary", {std::to_string(parts.size()), not_exact.empty() ? tr("merge.none") : not_exact})
       << "\n";
  }
  return r.findings.empty() ? 0 : 1;
}

Command add_merge(CLI::App& program) {
  struct State {
    std::vector<std::string> parts;
    bool json = false;
  };
  auto st = std::make_shared<State>();
  auto* c = program.add_subcommand("merge", "sum the partial reports of a sharded launch (run --groups I/N --json)");
  c->add_option("parts", st->parts, "the N parts, PART.json ...")->required();
  c->add_flag("--json", st->json, "one JSON object");
  return {c, [st] { return merge(std::cout, st->parts, st->json); }};
}

}  // namespace tgsim::cli
