// `tgsim tour`: the seed kernels side by side, each row with one sentence on what it shows.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <memory>

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "i18n.hpp"
#include "predict.hpp"
#include <tgsim/internal/text.hpp>

namespace tgsim::cli {

using internal::fixed;

using internal::with_commas;

namespace {

std::string ratio(std::uint64_t a, std::uint64_t b) { return catalog::ratio_text(a, b); }

// The catalog entry's sentence on the run, in the current language.
std::string explain(const catalog::Result& r, const catalog::Results& done) {
  const catalog::Entry* e = catalog::find(r.report.kernel);
  if (!e || !e->explain) return "";
  catalog::Text t = e->explain(r, done);
  return lang() == Lang::kJa ? t.ja : t.en;
}

}  // namespace

std::string result_json(const catalog::Result& r, int indent, const DeviceProfile* profile) {
  nlohmann::ordered_json j;
  nlohmann::json rep = nlohmann::json::parse(to_json(r.report, -1));
  // Source paths relative to the current directory when inside it.
  for (auto* list : {&rep["sites"], &rep["findings"]})
    if (list->is_array())
      for (auto& x : *list)
        for (const char* f : {"file", "file2"})
          if (x.contains(f) && x[f].is_string()) x[f] = relative_path(x[f].get<std::string>());
  localize_findings(rep["findings"], r.report.findings);
  j["schema"] = kJsonSchema;
  j["tgsim"] = version();
  j["kernel"] = r.report.kernel;
  j["n"] = r.n;
  j["grid"] = rep["grid"];
  j["block"] = rep["block"];
  j["correct"] = r.correct;
  j["profile"] = rep["profile"];
  j["counters"] = rep["counters"];
  if (profile)
    if (const catalog::Entry* e = catalog::find(r.report.kernel)) {
      Estimate est = catalog::predict(*e, r, *profile);
      j["estimate"] = {{"time_ms", est.time_ms()}, {"bound", est.bound},
                       {"terms_ms", {{"dram", est.dram_s * 1e3}, {"l2", est.l2_s * 1e3}, {"l1", est.l1_s * 1e3},
                                     {"fp32", est.fp32_s * 1e3}, {"latency", est.latency_s * 1e3}}}};
    }
  j["sites"] = rep["sites"];
  j["findings"] = rep["findings"];
  if (rep.contains("sampled")) j["sampled"] = rep["sampled"];
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);  // names need not be UTF-8
}

namespace {

const DeviceProfile* g_profile = nullptr;  // the tour's estimate profile

double est_us(const catalog::Result& r, int at_n = 0) {
  const catalog::Entry* e = catalog::find(r.report.kernel);
  if (!e || !g_profile) return 0;
  return catalog::predict(*e, r, *g_profile, at_n).time_s * 1e6;
}

// The table's columns. The full table (--wide) has them all (about 200 columns); a family's
// narrow table (100 columns) keeps the ones its paragraphs talk about ("sh wavef": loads and
// stores together, in the narrow tables only).
struct Column {
  const char* header;  // a catalog key: the header's text, its rows separated by '\n' (Japanese)
  std::string (*value)(const catalog::Result&);
};
std::string pct_l1(const Counters& c) {
  return c.global_load.sectors ? fixed(100.0 * double(c.global_load.l1_hit_sectors) / double(c.global_load.sectors), 1)
                               : std::string("-");
}
const Column kColumns[] = {
    {"tour.col.n", [](const catalog::Result& r) { return std::to_string(r.n); }},
    {"tour.col.ld_req", [](const catalog::Result& r) { return with_commas(r.report.counters.global_load.requests()); }},
    {"tour.col.ld_sectors", [](const catalog::Result& r) { return with_commas(r.report.counters.global_load.sectors); }},
    {"tour.col.st_sectors", [](const catalog::Result& r) { return with_commas(r.report.counters.global_store.sectors); }},
    {"tour.col.sh_ld_inst", [](const catalog::Result& r) { return with_commas(r.report.counters.shared_load.instructions); }},
    {"tour.col.sh_ld_wavef", [](const catalog::Result& r) { return with_commas(r.report.counters.shared_load.wavefronts); }},
    {"tour.col.sh_st_wavef", [](const catalog::Result& r) { return with_commas(r.report.counters.shared_store.wavefronts); }},
    {"tour.col.conflicts",
     [](const catalog::Result& r) {
       const Counters& c = r.report.counters;
       return with_commas(c.shared_load.bank_conflicts() + c.shared_store.bank_conflicts());
     }},
    {"tour.col.bar", [](const catalog::Result& r) { return with_commas(r.report.counters.barriers); }},
    {"tour.col.shfl", [](const catalog::Result& r) { return with_commas(r.report.counters.shfl); }},
    {"tour.col.atomics",
     [](const catalog::Result& r) {
       const Counters& c = r.report.counters;
       return with_commas(c.shared_atomic.instructions + c.global_atomic.instructions);
     }},
    {"tour.col.l1_hit", [](const catalog::Result& r) { return pct_l1(r.report.counters); }},
    {"tour.col.l2_sect",
     [](const catalog::Result& r) {
       return with_commas(r.report.counters.l2_read_sectors + r.report.counters.l2_write_sectors);
     }},
    {"tour.col.dram_kb",
     [](const catalog::Result& r) {
       const Counters& c = r.report.counters;
       return with_commas((c.dram_read_bytes + c.dram_write_bytes + 512) / 1024);
     }},
    {"tour.col.est_us", [](const catalog::Result& r) { return fixed(est_us(r), 1); }},
    {"tour.col.correct", [](const catalog::Result& r) { return tr(r.correct ? "tour.correct.yes" : "tour.correct.no"); }},
    {"tour.col.sh_wavef",
     [](const catalog::Result& r) {
       return with_commas(r.report.counters.shared_load.wavefronts + r.report.counters.shared_store.wavefronts);
     }},
};

// Narrow tables (100 columns): family 1 (tiling) and family 2 (warps, reductions, atomics),
// as indices into kColumns; --wide gives all. Each column is as wide as its widest cell + 1.
const std::vector<int> kTiling = {0, 1, 2, 16, 7, 11, 12, 13, 14};
const std::vector<int> kWarps = {0, 4, 16, 7, 8, 9, 10, 14};

std::vector<int> columns(const std::vector<int>& narrow, bool wide) {
  if (!wide) return narrow;
  std::vector<int> all;
  for (int i = 0; i < 16; ++i) all.push_back(i);  // every column but the narrow-only "sh wavef"
  return all;
}

// A header's rows (tr(key) split at '\n'), bottom-aligned in `rows` rows.
std::vector<std::string> header_rows(const char* key, std::size_t rows) {
  std::vector<std::string> out;
  std::istringstream in(tr(key));
  for (std::string l; std::getline(in, l);) out.push_back(l);
  out.insert(out.begin(), rows > out.size() ? rows - out.size() : 0, std::string());
  return out;
}

void print_table(std::ostream& os, const std::vector<const catalog::Result*>& rows, const std::vector<int>& cols) {
  std::size_t kw = display_width(tr("tour.col.kernel")) + 2;
  for (const auto* r : rows) kw = std::max(kw, r->report.kernel.size() + 1);
  std::size_t header_lines = 1;
  for (int c : cols) header_lines = std::max(header_lines, header_rows(kColumns[c].header, 1).size());
  std::vector<std::size_t> w;
  for (int c : cols) {
    std::size_t m = 0;
    for (const std::string& l : header_rows(kColumns[c].header, 1)) m = std::max(m, display_width(l));
    for (const auto* r : rows) m = std::max(m, kColumns[c].value(*r).size());
    w.push_back(m + 1);
  }
  for (std::size_t line = 0; line < header_lines; ++line) {
    std::string text = pad_right(line + 1 == header_lines ? tr("tour.col.kernel") : std::string(), kw);
    for (std::size_t i = 0; i < cols.size(); ++i) text += pad_left(header_rows(kColumns[cols[i]].header, header_lines)[line], w[i]);
    os << text.substr(0, text.find_last_not_of(' ') + 1) << "\n";
  }
  for (const auto* r : rows) {
    os << pad_right(r->report.kernel, kw);
    for (std::size_t i = 0; i < cols.size(); ++i) os << pad_left(kColumns[cols[i]].value(*r), w[i]);
    os << "\n";
  }
}

// "  kernel              sentence..." with the sentence wrapped under itself.
void hanging(std::ostream& os, const std::string& name, const std::string& text, std::size_t width) {
  const std::string head = "  " + pad_right(name, 20);
  const std::string body = wrap(text, width > 40 ? width - 22 : 40);
  std::istringstream lines(body);
  bool first = true;
  for (std::string l; std::getline(lines, l);) {
    os << (first ? head : std::string(22, ' ')) << l << "\n";
    first = false;
  }
}

}  // namespace

void family_paragraphs_raw(std::ostream& os, const std::map<std::string, catalog::Result>& done);

// The estimate at `at_n` (0: the run's own size), with the occupancy it used.
Estimate est_of(const catalog::Result& r, int at_n = 0) {
  return catalog::predict(*catalog::find(r.report.kernel), r, *g_profile, at_n);
}

// "50 MiB", "8 MiB", "256 KiB".
std::string bytes_text(std::size_t b) {
  return b >= (1u << 20) ? std::to_string(b >> 20) + " MiB" : std::to_string(b >> 10) + " KiB";
}

// Seed 001 on the H100: waiting for loads decides the naive kernel's time; the L2 capacity cliff.
void matmul_h100_part(std::ostream& os, const catalog::Result& mn, const catalog::Result& m16) {
  const Estimate big = est_of(mn, 4096);
  os << trf("tour.p.matmul.h100",
            {g_profile->name, fixed(est_us(mn, 2048) / 1e3, 2), fixed(est_us(m16, 2048) / 1e3, 2),
             fixed(est_us(mn, 4096) / 1e3, 1), fixed(est_us(m16, 4096) / 1e3, 1), bytes_text(g_profile->l2_bytes),
             big.reads_fit_l2 ? "" : tr("tour.p.matmul.dram")});
}

// Seed 001 on its own device (apple-m3): one load path for L1 and threadgroup memory.
void matmul_unified_part(std::ostream& os, const catalog::Result& mn, const catalog::Result& m16) {
  const Counters& nv = mn.report.counters;
  const Counters& t = m16.report.counters;
  const double naive_ms = est_us(mn, 2048) / 1e3, tiled_ms = est_us(m16, 2048) / 1e3;
  const std::uint64_t naive_slots = nv.global_load.sectors + nv.global_store.sectors;
  const std::uint64_t tiled_slots = t.global_load.sectors + t.global_store.sectors + t.shared_load.wavefronts +
                                    t.shared_store.wavefronts;
  os << trf("tour.p.matmul.unified",
            {g_profile->name, fixed(naive_ms, 1), fixed(tiled_ms, 1), fixed(naive_ms / tiled_ms, 2),
             with_commas(naive_slots), with_commas(tiled_slots), ratio(naive_slots, tiled_slots)});
}

// Seed 001 (tiling): what tiling cuts, then the device's part, occupancy at n=256.
void matmul_paragraph(std::ostream& os, const std::map<std::string, catalog::Result>& done) {
  const auto& mn = done.at("matmul_naive");
  const auto& m16 = done.at("matmul_tiled16");
  const auto& m32 = done.at("matmul_tiled32");
  const Counters& nv = mn.report.counters;
  const Counters& t16 = m16.report.counters;
  const Estimate e16 = est_of(m16), e32 = est_of(m32);
  os << trf("tour.p.matmul",
            {ratio(nv.global_load.requests(), t16.global_load.requests()), with_commas(nv.global_load.requests()),
             with_commas(t16.global_load.requests()),
             fixed(100.0 * double(nv.global_load.l1_hit_sectors) / double(nv.global_load.sectors), 1),
             bytes_text(g_profile->l1_bytes), tr(g_profile->unified_load_path ? "unit.core" : "unit.sm")});
  if (g_profile->unified_load_path) matmul_unified_part(os, mn, m16);
  else matmul_h100_part(os, mn, m16);
  os << trf("tour.p.matmul.scaled", {std::to_string(mn.n)});
  if (e32.busy_sms < g_profile->sm_count)
    os << trf("tour.p.matmul.tile32",
              {std::to_string(m32.n), fixed(est_us(m32), 1), fixed(est_us(m16), 1), std::to_string(e32.groups),
               std::to_string(g_profile->sm_count), std::to_string(g_profile->sm_count - e32.busy_sms),
               std::to_string(e16.groups)});
  os << "\n";
}

// Seed 002 (transpose): which side is uncoalesced, and the shared version's bank conflict.
void transpose_paragraph(std::ostream& os, const std::map<std::string, catalog::Result>& done) {
  const Counters& tn = done.at("transpose_naive").report.counters;
  const Counters& ts = done.at("transpose_shared").report.counters;
  os << trf("tour.p.transpose",
            {ratio(tn.global_load.sectors, tn.global_load.requests()),
             ratio(tn.global_store.sectors, tn.global_store.requests()), with_commas(tn.global_load.l1_hit_sectors),
             with_commas(tn.global_load.sectors), with_commas(ts.shared_store.wavefronts), g_profile->name,
             fixed(est_us(done.at("transpose_naive"), 8192), 0), fixed(est_us(done.at("transpose_shared"), 8192), 0),
             fixed(est_us(done.at("transpose_padded"), 8192), 0)});
}

void family_paragraphs_raw(std::ostream& os, const std::map<std::string, catalog::Result>& done) {
  matmul_paragraph(os, done);
  transpose_paragraph(os, done);
}

// Seed 004: the verdict on the shared int matmul, its fix and its grid.
void int_matmul_paragraph(std::ostream& os, const std::map<std::string, catalog::Result>& done) {
  const auto& g = done.at("int_matmul_global");
  const auto& s = done.at("int_matmul_shared");
  const Counters& c = s.report.counters;
  os << wrap(trf("tour.p.int_matmul",
                 {ratio(c.shared_load.wavefronts, c.shared_load.instructions), std::to_string(s.n),
                  fixed(est_us(s), 1), fixed(est_us(g), 1), std::to_string(s.report.grid.volume()),
                  std::to_string(g_profile->sm_count)}));
}

namespace {

// Progress on stderr while the tour runs: one line per kernel, rewritten in place on a
// terminal ("\r"), one line each otherwise.
void progress(std::size_t i, std::size_t total, const std::string& kernel) {
  static const bool tty = isatty(fileno(stderr));
  const std::string msg = trf("tour.progress", {std::to_string(i), std::to_string(total), kernel});
  if (tty) std::cerr << "\r\033[K" << msg << std::flush;
  else std::cerr << msg << "\n";
}

void progress_done() {
  if (isatty(fileno(stderr))) std::cerr << "\r\033[K" << std::flush;
}

}  // namespace

int tour(std::ostream& os, unsigned threads, bool json, const std::string& profile_name, bool wide) {
  auto profile = profiles::by_name(profile_name);
  if (!profile) throw std::invalid_argument("unknown profile '" + profile_name + "'");
  g_profile = &*profile;
  const std::size_t width = 100;  // paragraphs; --wide widens the tables only
  const std::vector<const catalog::Entry*> tiling = catalog::tour_entries(1), more = catalog::tour_entries(2);
  const std::size_t total = tiling.size() + more.size();
  std::map<std::string, catalog::Result> done;
  std::vector<const catalog::Result*> rows1, rows2;
  // The counters come from the profile's geometry and caches (only 32-wide warps are simulated).
  Device dev(profile->warp_size == 32 ? *profile : profiles::nvidia_h100());
  auto run_rows = [&](const auto& list, std::vector<const catalog::Result*>& rows) {
    for (const catalog::Entry* e : list) {
      progress(done.size() + 1, total, e->name);
      catalog::RunOptions opt;
      opt.threads = threads;
      opt.n = e->tour.n;
      done[e->name] = catalog::run(dev, e->name, opt);
      rows.push_back(&done[e->name]);
    }
    progress_done();
  };
  auto print_family = [&](const std::vector<const catalog::Result*>& rows, const std::vector<int>& narrow) {
    print_table(os, rows, columns(narrow, wide));
    os << "\n" << tr("tour.numbers_say") << "\n";
    for (const auto* r : rows) hanging(os, r->report.kernel, explain(*r, done), width);
  };
  if (!json) {
    os << wrap(trf("tour.title", {profile->name}), width) << "\n"
       << wrap(trf("tour.device", {profile->name, std::to_string(profile->sm_count), bytes_text(profile->l1_bytes),
                                   bytes_text(profile->l2_bytes), fixed(profile->clock_hz / 1e9, 2),
                                   std::to_string(profile->max_warps_per_sm * profile->warp_size)}),
               width) << "\n"
       << wrap(trf("tour.legend", {profile->name}), width, 1) << "\n\n";
    os << tr("tour.family1") << "\n\n" << std::flush;
  }
  run_rows(tiling, rows1);
  if (!json) {
    print_family(rows1, kTiling);
    os << "\n" << wrap(tr("tour.why_tiling"), width);
    std::ostringstream raw;
    family_paragraphs_raw(raw, done);
    os << wrap(raw.str(), width);
    os << "\n" << tr("tour.family2") << "\n\n" << std::flush;
  }
  run_rows(more, rows2);
  bool all_correct = true;
  for (const auto& [name, r] : done) all_correct = all_correct && r.correct && r.report.findings.empty();
  if (json) {
    os << "[";
    std::size_t i = 0;
    for (const auto* rows : {&rows1, &rows2})
      for (const auto* r : *rows) os << (i++ ? ",\n" : "\n") << result_json(*r, 2, g_profile);
    os << "\n]\n";
    return all_correct ? 0 : 1;
  }
  print_family(rows2, kWarps);
  {
    std::ostringstream raw;
    int_matmul_paragraph(raw, done);
    os << raw.str();
  }
  os << "\n" << tr(all_correct ? "tour.all_correct" : "tour.not_all_correct") << "\n";
  return all_correct ? 0 : 1;
}

Command add_tour(CLI::App& program) {
  struct State {
    unsigned threads = 0;
    bool json = false, wide = false;
    std::string profile = "nvidia-h100";
  };
  auto st = std::make_shared<State>();
  auto* c = program.add_subcommand("tour", "run the seed kernels and explain their counts (the main job)");
  c->add_option("--threads", st->threads, "worker threads (default: all cores)");
  c->add_flag("--json", st->json, "one JSON array of run objects");
  c->add_option("--profile", st->profile, "device profile for the estimate: nvidia-h100, apple-m3, amd-cdna");
  c->add_flag("--wide", st->wide, "the full table (about 200 columns) instead of 100 columns");
  return {c, [st] {
            if (!profiles::by_name(st->profile))
              return usage_error("unknown profile '" + st->profile + "' (nvidia-h100, apple-m3, amd-cdna)");
            return tour(std::cout, st->threads, st->json, st->profile, st->wide);
          }};
}

}  // namespace tgsim::cli
