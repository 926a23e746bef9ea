// `tgsim check FILE ...`: the checker on under each schedule of --schedule (default both:
// in-order, then reverse). The findings printed are the union of every schedule's, each with
// the schedules that showed it (a race that one order exposes is not hidden by the other).
// Then the buffers of the runs are compared. A buffer that differs between schedules is
// information when an atomic explains every differing byte: the byte was written by an
// atomic, or stored by a thread after it made an atomic, or by its group after a barrier that
// followed one (Report::atomic_bytes, in either run): an atomicExch winner, a slot from an
// atomic counter, a float atomicAdd's rounding legitimately depend on the order of atomics.
// Otherwise it is a finding (schedule-dependent result: a race or a missing barrier).
// Exit 0: no finding; 1: findings; 2: usage or compile error.
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "buffers_out.hpp"
#include "commands.hpp"
#include "file_kernel.hpp"
#include <tgsim/internal/compile.hpp>
#include "i18n.hpp"
#include "report_words.hpp"
#include <tgsim/internal/text.hpp>

namespace tgsim::cli {

namespace {

// One finding of the union: as the first schedule that showed it reported it.
struct Seen {
  Finding finding;
  std::vector<std::string> schedules;
};
using FindingId = std::tuple<int, std::string, std::uint32_t, std::uint32_t, std::string, std::uint32_t,
                             std::uint32_t>;

std::vector<Seen> union_findings(const std::vector<FileRun>& runs, const std::vector<ScheduleChoice>& s) {
  std::map<FindingId, Seen> u;  // ordered as a Report's findings: kind, then sites
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (const Finding& f : runs[i].report.findings) {
      FindingId id{static_cast<int>(f.kind), f.file, f.line, f.column, f.file2, f.line2, f.column2};
      auto [it, fresh] = u.try_emplace(id, Seen{f, {}});
      it->second.schedules.push_back(s[i].name);
    }
  std::vector<Seen> out;
  for (auto& [id, seen] : u) out.push_back(std::move(seen));
  return out;
}

// One element's value as the user typed its type: "3", "1.5", "(1, 2, 3, 4)".
std::string element_text(const FileBuffer& b, std::size_t index) {
  const std::string& t = b.type;
  const bool fp = t.rfind("float", 0) == 0 || t.rfind("double", 0) == 0;
  const bool is_unsigned = t[0] == 'u' || t.rfind("bool", 0) == 0;
  const std::size_t scalar = t.rfind("double", 0) == 0 || t.rfind("long", 0) == 0 || t.rfind("ulong", 0) == 0 ? 8
                             : t.rfind("short", 0) == 0 || t.rfind("ushort", 0) == 0                       ? 2
                             : t.rfind("char", 0) == 0 || t.rfind("uchar", 0) == 0 || t == "bool"          ? 1
                                                                                                             : 4;
  const unsigned char* p = b.bytes.data() + index * b.elem_bytes;
  std::ostringstream os;
  const std::size_t n = b.elem_bytes / scalar;
  if (n > 1) os << "(";
  for (std::size_t c = 0; c < n; ++c, p += scalar) {
    if (c) os << ", ";
    if (fp && scalar == 4) {
      float f;
      std::memcpy(&f, p, 4);
      os << f;
    } else if (fp) {
      double d;
      std::memcpy(&d, p, 8);
      os << d;
    } else {
      std::uint64_t u = 0;
      std::memcpy(&u, p, scalar);
      if (!is_unsigned && scalar < 8 && (u >> (scalar * 8 - 1) & 1)) u |= ~0ull << (scalar * 8);
      if (is_unsigned) os << u;
      else os << static_cast<std::int64_t>(u);
    }
  }
  if (n > 1) os << ")";
  return os.str();
}

bool explained(const Report& r, const std::string& buffer, std::size_t byte) {
  for (const AtomicBytes& a : r.atomic_bytes)
    if (a.buffer == buffer && byte >= a.begin && byte < a.end) return true;
  return false;
}

// A buffer that differs between the first run and another: its first differing element, and
// the first element with a differing byte that no atomic explains (none: -1).
struct Difference {
  std::string buffer, other;  // the other run's schedule
  std::int64_t first = -1, unexplained = -1;
  std::string first_values[2], unexplained_values[2];
};

std::vector<Difference> differences(const std::vector<FileRun>& runs, const std::vector<ScheduleChoice>& s) {
  std::vector<Difference> out;
  for (std::size_t i = 1; i < runs.size(); ++i)
    for (std::size_t k = 0; k < runs[0].buffers.size() && k < runs[i].buffers.size(); ++k) {
      const FileBuffer &a = runs[0].buffers[k], &b = runs[i].buffers[k];
      if (a.bytes == b.bytes) continue;
      Difference d;
      d.buffer = a.name;
      d.other = s[i].name;
      for (std::size_t byte = 0; byte < a.bytes.size() && byte < b.bytes.size(); ++byte) {
        if (a.bytes[byte] == b.bytes[byte]) continue;
        const auto e = static_cast<std::int64_t>(byte / a.elem_bytes);
        if (d.first < 0) d.first = e, d.first_values[0] = element_text(a, e), d.first_values[1] = element_text(b, e);
        if (!explained(runs[0].report, a.name, byte) && !explained(runs[i].report, a.name, byte)) {
          d.unexplained = e;
          d.unexplained_values[0] = element_text(a, e);
          d.unexplained_values[1] = element_text(b, e);
          break;
        }
      }
      out.push_back(std::move(d));
    }
  return out;
}

// "arg 1 (slots)[3] is 0 under in-order, 63 under reverse"
std::string difference_text(const Difference& d, const std::string& first_schedule, bool unexplained) {
  const std::int64_t e = unexplained ? d.unexplained : d.first;
  const std::string* v = unexplained ? d.unexplained_values : d.first_values;
  return trf("check.element_values", {d.buffer, std::to_string(e), v[0], first_schedule, v[1], d.other});
}

std::string finding_line(const Seen& s) {
  const Finding& f = s.finding;
  std::string line = std::string(to_string(f.kind)) + " " + tr("check.at") + " " + f.where();
  if (!f.file2.empty()) line += " " + tr("check.and") + " " + f.where2();
  line += " [" + trf(f.count == 1 ? "check.time" : "check.times", {internal::with_commas(f.count)}) + "]";
  std::string under;
  for (const std::string& n : s.schedules) under += (under.empty() ? "" : tr("list.sep")) + n;
  return line + " " + trf("check.under", {under});
}

void write_json(std::ostream& os, const std::vector<FileRun>& runs, const std::vector<ScheduleChoice>& s,
                const std::vector<Seen>& seen, const std::vector<Difference>& diffs, bool clean,
                const std::vector<ExpectResult>& expected) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(file_json(runs[0], -1));
  nlohmann::ordered_json names = nlohmann::json::array(), findings = nlohmann::json::array();
  for (const ScheduleChoice& c : s) names.push_back(c.name);
  // The JSON of each finding as its first schedule wrote it, and the schedules that showed it.
  for (const Seen& x : seen) {
    Report one;
    one.findings.push_back(x.finding);
    nlohmann::ordered_json list = nlohmann::ordered_json::parse(to_json(one, -1))["findings"];
    localize_findings(list, one.findings);
    nlohmann::ordered_json f = list[0];
    f["schedules"] = x.schedules;
    findings.push_back(f);
  }
  show_paths(findings, runs[0].file);
  nlohmann::ordered_json dep = nlohmann::json::array();
  for (const Difference& d : diffs) {
    nlohmann::ordered_json e{{"buffer", d.buffer},
                             {"schedules", {s[0].name, d.other}},
                             {"index", d.first},
                             {"values", {d.first_values[0], d.first_values[1]}},
                             {"explained_by_atomics", d.unexplained < 0}};
    if (d.unexplained >= 0)
      e["unexplained"] = {{"index", d.unexplained}, {"values", {d.unexplained_values[0], d.unexplained_values[1]}}};
    dep.push_back(e);
  }
  j["schedules"] = names;
  j["findings"] = findings;
  j["schedule_dependent"] = dep;
  j["same_results_all_schedules"] = diffs.empty();
  if (!expected.empty()) j["expect"] = expect_json(expected);
  j["clean"] = clean;
  os << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

// The runs under each schedule, their findings' union, the buffers compared, --save and
// --expect; UsageError, CompileError or the launch's own exceptions otherwise.
struct FileCheck {
  std::vector<ScheduleChoice> scheds;
  std::vector<FileRun> runs;
  std::vector<Seen> seen;
  std::vector<Difference> diffs;
  std::vector<ExpectResult> expected;
  bool clean = true;
};

FileCheck run_check(const FileLaunch& f, const DeviceProfile& profile, const LaunchConfig& base,
                    const std::string& schedule) {
  FileCheck c;
  try {
    c.scheds = parse_schedule(schedule, true);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  for (const ScheduleChoice& s : c.scheds) {
    LaunchConfig one = base;
    one.check = true;
    one.schedule = s.schedule;
    one.shuffle_seed = s.seed;
    c.runs.push_back(run_file(f, profile, one));
  }
  c.seen = union_findings(c.runs, c.scheds);
  c.diffs = differences(c.runs, c.scheds);
  c.clean = c.seen.empty();
  for (const Difference& d : c.diffs) c.clean = c.clean && d.unexplained < 0;
  // --save and --expect: the first schedule's buffers
  save_buffers(c.runs[0], f.save);
  c.expected = expect_buffers(c.runs[0], f.expect);
  for (const ExpectResult& e : c.expected) c.clean = c.clean && e.differing == 0;
  return c;
}

}  // namespace

std::string check_file_json(const FileLaunch& f, const DeviceProfile& profile, const LaunchConfig& base,
                            const std::string& schedule, FileRun* first) {
  FileCheck c = run_check(f, profile, base, schedule);
  std::ostringstream os;
  write_json(os, c.runs, c.scheds, c.seen, c.diffs, c.clean, c.expected);
  if (first) *first = std::move(c.runs[0]);
  return os.str();
}

int check_file(std::ostream& os, std::ostream& err, const FileLaunch& f, const DeviceProfile& profile,
               const LaunchConfig& base, bool json, const std::string& schedule) {
  FileCheck c;
  try {
    c = run_check(f, profile, base, schedule);
  } catch (...) {
    return file_error(err, f, std::current_exception());
  }
  const std::vector<ScheduleChoice>& scheds = c.scheds;
  const std::vector<FileRun>& runs = c.runs;
  const std::vector<Seen>& seen = c.seen;
  const std::vector<Difference>& diffs = c.diffs;
  const std::vector<ExpectResult>& expected = c.expected;
  const bool clean = c.clean;
  if (json) {
    write_json(os, runs, scheds, seen, diffs, clean, expected);
    return clean ? 0 : 1;
  }
  const FileRun& a = runs[0];
  os << a.signature << "  (" << a.file << ")\n";
  std::string names;
  for (const ScheduleChoice& s : scheds) names += (names.empty() ? "" : tr("list.sep")) + s.name;
  // The first run's counters (findings: the union, below).
  Report counters = a.report;
  counters.findings.clear();
  std::ostringstream text;
  const ReportWords words = report_words();
  write_text(text, counters, words);
  std::string t = text.str();
  if (const std::size_t p = t.rfind("  " + words.findings_none + "\n"); p != std::string::npos) t.erase(p);
  os << t;
  if (seen.empty()) os << "  " << trf("check.findings_none_under", {names}) << "\n";
  else os << "  " << trf("check.findings_under", {std::to_string(seen.size()), names}) << "\n";
  for (const Seen& s : seen) {
    os << wrap("    " + finding_line(s), 100, 6) << "\n";
    os << wrap("      " + trf("check.example", {example_place(s.finding), finding_example(s.finding)}), 100, 8) << "\n";
  }
  for (const Difference& d : diffs) {
    if (d.unexplained >= 0)
      os << wrap("  " + trf("check.schedule_dependent", {difference_text(d, scheds[0].name, true)}), 100, 4) << "\n";
    else
      os << wrap("  " + trf("check.atomic_order", {difference_text(d, scheds[0].name, false)}), 100, 4) << "\n";
  }
  if (scheds.size() > 1 && diffs.empty()) os << "  " << trf("check.file_same", {names}) << "\n";
  if (!a.report.printed.empty()) os << tr("run.printf") << "\n" << a.report.printed;
  for (const std::string& n : a.report.notes) os << tr("note.prefix") << localize_error(n) << "\n";
  write_expect_text(os, expected);
  return clean ? 0 : 1;
}

}  // namespace tgsim::cli
