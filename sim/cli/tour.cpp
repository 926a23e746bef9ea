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
#include "util.hpp"

namespace tgsim::cli {

using detail::with_commas;

namespace {

std::string ratio(std::uint64_t a, std::uint64_t b) {
  if (b == 0) return "-";
  std::ostringstream o;
  o << std::fixed << std::setprecision(a % b == 0 ? 0 : 1) << double(a) / double(b);
  return o.str();
}

std::string explain(const catalog::Result& r, const std::map<std::string, catalog::Result>& done) {
  const Counters& c = r.report.counters;
  const std::string& k = r.report.kernel;
  if (k == "matmul_naive")
    return "every thread reads a row of A and a column of B from global memory: " +
           with_commas(c.global_load.requests()) + " load requests, " +
           ratio(c.global_load.sectors, c.global_load.requests()) +
           " sectors each (a warp spans two 16-thread rows).";
  if (k.rfind("matmul_tiled", 0) == 0) {
    std::string t = k.substr(12);
    const Counters& naive = done.at("matmul_naive").report.counters;
    return "loads fall " + ratio(naive.global_load.requests(), c.global_load.requests()) +
           "x against naive (" + with_commas(c.global_load.requests()) +
           " requests): each value staged in the " + t + "x" + t + " tile is read " + t +
           " times from shared memory, " + ratio(c.shared_load.wavefronts, c.shared_load.instructions) +
           " wavefront per shared load, " + with_commas(c.shared_load.bank_conflicts() + c.shared_store.bank_conflicts()) +
           " bank conflicts.";
  }
  if (k == "transpose_naive")
    return "the load walks a column of `in`: " + ratio(c.global_load.sectors, c.global_load.requests()) +
           " sectors per request (one per lane, " + with_commas(c.global_load.sectors) +
           " in all); the store is coalesced at " + ratio(c.global_store.sectors, c.global_store.requests()) + ".";
  if (k == "transpose_shared")
    return "both global sides coalesce (" + ratio(c.global_load.sectors, c.global_load.requests()) +
           " sectors/request), but s[lx][ly] writes a column of a [32][32] int tile: 32 lanes, one bank, " +
           ratio(c.shared_store.wavefronts, c.shared_store.instructions) + " wavefronts per store (" +
           with_commas(c.shared_store.bank_conflicts()) + " conflicts).";
  auto conflicts = [](const Counters& x) { return x.shared_load.bank_conflicts() + x.shared_store.bank_conflicts(); };
  if (k == "block_peak")
    return "each warp finds its arg-max in 5 shuffle steps of value and index: " + with_commas(c.shfl) +
           " SHFL (10 per warp + 10 more in warp 0), then 8 warp winners meet in shared memory (" +
           with_commas(c.shared_store.instructions) + " single-lane STS).";
  if (k == "reduce_interleaved")
    return "s[2*s*tid] puts the active lanes 2s words apart: " + with_commas(conflicts(c)) +
           " bank conflicts, " + ratio(c.shared_load.wavefronts, c.shared_load.instructions) +
           " wavefronts per shared load.";
  if (k == "reduce_sequential")
    return "s[tid] += s[tid + s] keeps the active lanes on consecutive words: the conflicts disappear (" +
           with_commas(conflicts(c)) + "), same " + with_commas(c.shared_load.instructions) + " shared loads.";
  if (k == "reduce_shuffle")
    return "the tree moves into registers: " + with_commas(c.shfl) + " SHFL replace " +
           with_commas(done.at("reduce_sequential").report.counters.shared_load.instructions - c.shared_load.instructions) +
           " shared loads, and " + with_commas(c.barriers) + " BAR instead of " +
           with_commas(done.at("reduce_sequential").report.counters.barriers) + ".";
  if (k == "histogram256")
    return "bytes are counted with " + with_commas(c.shared_atomic.instructions) +
           " shared-atomic warp instructions; only " + with_commas(c.global_atomic.instructions) +
           " global atomics merge the per-group bins.";
  if (k == "poly_eval")
    return "every lane reads the same coefficient: each of the " + with_commas(c.constant_load.instructions) +
           " constant loads is one broadcast access (" + with_commas(c.constant_load.distinct_addresses) + " in all).";
  if (k == "lane_coeff")
    return "lanes read coeffs[lane % 8]: 8 addresses per warp instruction, serialised into " +
           with_commas(c.constant_load.distinct_addresses) + " accesses for " + with_commas(c.constant_load.instructions) +
           " loads.";
  if (k == "int_matmul_global")
    return "seed 004: a warp walks 32 rows i, so A[i*n+k] touches 32 sectors per request (" +
           ratio(c.global_load.sectors, c.global_load.requests()) + " sectors/request on average).";
  if (k == "int_matmul_shared")
    return "a[NT*i_local + k] is 32 words apart across the warp: a 32-way conflict on every other "
           "load (" + ratio(c.shared_load.wavefronts, c.shared_load.instructions) +
           " wavefronts per LDS, docs/hardware-model.md E8).";
  if (k == "blur3x3")
    return "the 18x18 tile with its halo is loaded once and read 9 times per pixel; a warp holds two "
           "16-pixel rows 18 words apart, so banks 0-1 collide: " +
           ratio(c.shared_load.wavefronts, c.shared_load.instructions) + " wavefronts per LDS (" +
           with_commas(conflicts(c)) + " conflicts; only a row pitch of 16 mod 32 words, e.g. [18][48], would separate the rows).";
  if (k == "neighbour_sum")
    return "seed 000's neighbour read through shared_data[256] with the barrier: a rotation of banks, " +
           with_commas(conflicts(c)) + " conflicts.";
  if (k == "layer_relu")
    return "ReLU(W x + b) as three launches; matvec's W[row*n+k] is strided across a warp (" +
           ratio(c.global_load.sectors, c.global_load.requests()) + " sectors per request).";
  if (k == "transpose_padded")
    return "padding the tile to [32][33] moves each row one bank over, so the column store hits 32 "
           "different banks: " + ratio(c.shared_store.wavefronts, c.shared_store.instructions) +
           " wavefront per store, " + with_commas(c.shared_store.bank_conflicts()) + " conflicts.";
  return "";
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
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);  // names need not be UTF-8
}

namespace {

struct Row {
  const char* kernel;
  int n;  // 0: the catalog's default
};

std::string fixed(double v, int prec) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(prec) << v;
  return o.str();
}

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
  const char* header;
  std::string (*value)(const catalog::Result&);
};
std::string pct_l1(const Counters& c) {
  return c.global_load.sectors ? fixed(100.0 * double(c.global_load.l1_hit_sectors) / double(c.global_load.sectors), 1)
                               : std::string("-");
}
const Column kColumns[] = {
    {"n", [](const catalog::Result& r) { return std::to_string(r.n); }},
    {"ld req", [](const catalog::Result& r) { return with_commas(r.report.counters.global_load.requests()); }},
    {"ld sectors", [](const catalog::Result& r) { return with_commas(r.report.counters.global_load.sectors); }},
    {"st sectors", [](const catalog::Result& r) { return with_commas(r.report.counters.global_store.sectors); }},
    {"sh ld inst", [](const catalog::Result& r) { return with_commas(r.report.counters.shared_load.instructions); }},
    {"sh ld wavef", [](const catalog::Result& r) { return with_commas(r.report.counters.shared_load.wavefronts); }},
    {"sh st wavef", [](const catalog::Result& r) { return with_commas(r.report.counters.shared_store.wavefronts); }},
    {"conflicts",
     [](const catalog::Result& r) {
       const Counters& c = r.report.counters;
       return with_commas(c.shared_load.bank_conflicts() + c.shared_store.bank_conflicts());
     }},
    {"BAR", [](const catalog::Result& r) { return with_commas(r.report.counters.barriers); }},
    {"SHFL", [](const catalog::Result& r) { return with_commas(r.report.counters.shfl); }},
    {"atomics",
     [](const catalog::Result& r) {
       const Counters& c = r.report.counters;
       return with_commas(c.shared_atomic.instructions + c.global_atomic.instructions);
     }},
    {"L1 hit%", [](const catalog::Result& r) { return pct_l1(r.report.counters); }},
    {"L2 sect",
     [](const catalog::Result& r) {
       return with_commas(r.report.counters.l2_read_sectors + r.report.counters.l2_write_sectors);
     }},
    {"DRAM KB",
     [](const catalog::Result& r) {
       const Counters& c = r.report.counters;
       return with_commas((c.dram_read_bytes + c.dram_write_bytes + 512) / 1024);
     }},
    {"est. us", [](const catalog::Result& r) { return fixed(est_us(r), 1); }},
    {"correct", [](const catalog::Result& r) { return std::string(r.correct ? "yes" : "NO"); }},
    {"sh wavef",
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

void print_table(std::ostream& os, const std::vector<const catalog::Result*>& rows, const std::vector<int>& cols) {
  std::size_t kw = display_width(tr("tour.col.kernel")) + 2;
  for (const auto* r : rows) kw = std::max(kw, r->report.kernel.size() + 1);
  std::vector<std::size_t> w;
  for (int c : cols) {
    std::size_t m = std::string_view(kColumns[c].header).size();
    for (const auto* r : rows) m = std::max(m, kColumns[c].value(*r).size());
    w.push_back(m + 1);
  }
  os << pad_right(tr("tour.col.kernel"), kw);
  for (std::size_t i = 0; i < cols.size(); ++i) os << pad_left(kColumns[cols[i]].header, w[i]);
  os << "\n";
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

// Seed 001 (tiling): what tiling cuts, the L2 capacity cliff, occupancy at n=256.
void matmul_paragraph(std::ostream& os, const std::map<std::string, catalog::Result>& done) {
  const auto& mn = done.at("matmul_naive");
  const auto& m16 = done.at("matmul_tiled16");
  const auto& m32 = done.at("matmul_tiled32");
  const Counters& nv = mn.report.counters;
  const Counters& t16 = m16.report.counters;
  const Estimate e16 = est_of(m16), e32 = est_of(m32), big = est_of(mn, 4096);
  os << "\nMatmul, the seed 001 puzzle. Seed 001 expects tiling to cut memory reads 8x; at tile 16 "
        "the global load requests fall " << ratio(nv.global_load.requests(), t16.global_load.requests())
     << "x (" << with_commas(nv.global_load.requests()) << " -> " << with_commas(t16.global_load.requests())
     << "), the tile width, not 8. The time falls far less, because the naive kernel's reads were "
        "cheaper than they look: " << fixed(100.0 * double(nv.global_load.l1_hit_sectors) / double(nv.global_load.sectors), 1)
     << "% of its load sectors hit in the SM's L1 (the threads of a group share rows of A and columns "
        "of B). What decides the naive kernel's time is waiting: each warp waits for one load after "
        "another. On " << g_profile->name << " the estimate at n=2048 is naive " << fixed(est_us(mn, 2048) / 1e3, 2)
     << " ms, tiled16 " << fixed(est_us(m16, 2048) / 1e3, 2) << " ms (H100 measured 5.62 / 2.86 ms); at n=4096 "
     << fixed(est_us(mn, 4096) / 1e3, 1) << " / " << fixed(est_us(m16, 4096) / 1e3, 1) << " ms (measured 80.9 / 22.8 ms). "
        "At n=4096 A and B hold 128 MiB, more than the 50 MiB L2"
     << (big.reads_fit_l2 ? "" : ", so every L1 miss waits for DRAM")
     << ": on the H100 the naive kernel's cost per load doubles between n=2560 and n=3072, where A and "
        "B outgrow L2 (tests/hardware/size_probe), which is why tiling gains 3.5x at n=4096 but 2x at "
        "n=2048. Times above n=" << mn.n << " are scaled from the counters at n=" << mn.n
     << "; the L2's merging of requests from several SMs is not modelled (`tgsim predict`). Tile 32 "
        "is not faster than tile 16 at n=" << m32.n << " (estimate " << fixed(est_us(m32), 1) << " vs "
     << fixed(est_us(m16), 1) << " us): its grid has only " << e32.groups << " groups for "
     << g_profile->sm_count << " SMs, so " << (g_profile->sm_count - e32.busy_sms)
     << " SMs idle, while tile 16 has " << e16.groups << " groups. At n=2048 the grids fill every SM "
        "and tile 32 wins (measured 2.65 vs 2.86 ms).\n";
}

// Seed 002 (transpose): which side is uncoalesced, and the shared version's bank conflict.
void transpose_paragraph(std::ostream& os, const std::map<std::string, catalog::Result>& done) {
  const Counters& tn = done.at("transpose_naive").report.counters;
  const Counters& ts = done.at("transpose_shared").report.counters;
  os << "\nTranspose, seed 002. The seed calls the naive transpose's store uncoalesced; in this "
        "kernel it is the load that walks a column: "
     << ratio(tn.global_load.sectors, tn.global_load.requests()) << " sectors per load request, while "
        "the store takes " << ratio(tn.global_store.sectors, tn.global_store.requests())
     << " (one full 128-byte line). The load's cost is L1 work, not DRAM: " << with_commas(tn.global_load.l1_hit_sectors)
     << " of " << with_commas(tn.global_load.sectors) << " load sectors hit in L1. The seed also expects the "
        "shared-memory version to be faster; on the H100 it is slower (442 vs 415 us at n=8192), "
        "because s[lx][ly] writes a column of a [32][32] tile: a 32-way bank conflict, "
     << with_commas(ts.shared_store.wavefronts) << " store wavefronts. Padding to [32][33], the seed's own "
        "fix, removes it and wins (326 us). Predicted on " << g_profile->name << " at n=8192: naive "
     << fixed(est_us(done.at("transpose_naive"), 8192), 0) << " us, shared "
     << fixed(est_us(done.at("transpose_shared"), 8192), 0) << " us, padded "
     << fixed(est_us(done.at("transpose_padded"), 8192), 0) << " us.\n";
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
  std::ostringstream raw;
  raw << "\nSeed 004's int matmul. Verdict: the shared-memory version does not pay. a[NT*i_local + k] "
         "puts the 32 lanes of a warp 32 words apart, all in one bank: a 32-way conflict, "
      << ratio(c.shared_load.wavefronts, c.shared_load.instructions) << " wavefronts per shared load on "
         "average. The estimate at n=" << s.n << " is " << fixed(est_us(s), 1) << " us shared vs "
      << fixed(est_us(g), 1) << " us global; the H100 measured 79.6 vs 71.1 ms at n=2048. The fix is "
         "to pad the tile to [NT][NT+1] (index a[(NT+1)*i_local + k]), which puts the 32 lanes in 32 "
         "banks. And the grid is small: ceil(n/NT) groups in one dimension, "
      << s.report.grid.volume() << " at n=" << s.n << " and 32 at n=1000, for "
      << g_profile->sm_count << " SMs, so most of the GPU idles whichever version runs.\n";
  os << wrap(raw.str());
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
  const Row tiling[] = {{"matmul_naive", 0},    {"matmul_tiled8", 0},    {"matmul_tiled16", 0},
                        {"matmul_tiled32", 0},  {"transpose_naive", 0},  {"transpose_shared", 0},
                        {"transpose_padded", 0}};
  // Seed 004's int matmul runs at n = 250 here (not a multiple of 32; `tgsim run` uses 1000).
  const Row more[] = {{"block_peak", 0},       {"reduce_interleaved", 0}, {"reduce_sequential", 0},
                      {"reduce_shuffle", 0},   {"histogram256", 0},       {"poly_eval", 0},
                      {"lane_coeff", 0},       {"int_matmul_global", 250}, {"int_matmul_shared", 250},
                      {"blur3x3", 0},          {"neighbour_sum", 0},      {"layer_relu", 0}};
  const std::size_t total = std::size(tiling) + std::size(more);
  std::map<std::string, catalog::Result> done;
  std::vector<const catalog::Result*> rows1, rows2;
  Device dev;
  auto run_rows = [&](const auto& list, std::vector<const catalog::Result*>& rows) {
    for (const Row& row : list) {
      progress(done.size() + 1, total, row.kernel);
      catalog::RunOptions opt;
      opt.threads = threads;
      opt.n = row.n;
      done[row.kernel] = catalog::run(dev, row.kernel, opt);
      rows.push_back(&done[row.kernel]);
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
