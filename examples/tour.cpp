// `tgsim tour`: the seed kernels side by side, each row with one sentence on what it shows.
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "predict.hpp"

namespace tgsim::cli {

namespace {

std::string num(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

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
           num(c.global_load.requests()) + " load requests, " +
           ratio(c.global_load.sectors, c.global_load.requests()) +
           " sectors each (a warp spans two 16-thread rows).";
  if (k.rfind("matmul_tiled", 0) == 0) {
    std::string t = k.substr(12);
    const Counters& naive = done.at("matmul_naive").report.counters;
    return "loads fall " + ratio(naive.global_load.requests(), c.global_load.requests()) +
           "x against naive (" + num(c.global_load.requests()) +
           " requests): each value staged in the " + t + "x" + t + " tile is read " + t +
           " times from shared memory, " + ratio(c.shared_load.wavefronts, c.shared_load.instructions) +
           " wavefront per shared load, " + num(c.shared_load.bank_conflicts() + c.shared_store.bank_conflicts()) +
           " bank conflicts.";
  }
  if (k == "transpose_naive")
    return "the load walks a column of `in`: " + ratio(c.global_load.sectors, c.global_load.requests()) +
           " sectors per request (one per lane, " + num(c.global_load.sectors) +
           " in all); the store is coalesced at " + ratio(c.global_store.sectors, c.global_store.requests()) + ".";
  if (k == "transpose_shared")
    return "both global sides coalesce (" + ratio(c.global_load.sectors, c.global_load.requests()) +
           " sectors/request), but s[lx][ly] writes a column of a [32][32] int tile: 32 lanes, one bank, " +
           ratio(c.shared_store.wavefronts, c.shared_store.instructions) + " wavefronts per store (" +
           num(c.shared_store.bank_conflicts()) + " conflicts).";
  auto conflicts = [](const Counters& x) { return x.shared_load.bank_conflicts() + x.shared_store.bank_conflicts(); };
  if (k == "block_peak")
    return "each warp finds its arg-max in 5 shuffle steps of value and index: " + num(c.shfl) +
           " SHFL (10 per warp + 10 more in warp 0), then 8 warp winners meet in shared memory (" +
           num(c.shared_store.instructions) + " single-lane STS).";
  if (k == "reduce_interleaved")
    return "s[2*s*tid] puts the active lanes 2s words apart: " + num(conflicts(c)) +
           " bank conflicts, " + ratio(c.shared_load.wavefronts, c.shared_load.instructions) +
           " wavefronts per shared load.";
  if (k == "reduce_sequential")
    return "s[tid] += s[tid + s] keeps the active lanes on consecutive words: the conflicts disappear (" +
           num(conflicts(c)) + "), same " + num(c.shared_load.instructions) + " shared loads.";
  if (k == "reduce_shuffle")
    return "the tree moves into registers: " + num(c.shfl) + " SHFL replace " +
           num(done.at("reduce_sequential").report.counters.shared_load.instructions - c.shared_load.instructions) +
           " shared loads, and " + num(c.barriers) + " BAR instead of " +
           num(done.at("reduce_sequential").report.counters.barriers) + ".";
  if (k == "histogram256")
    return "bytes are counted with " + num(c.shared_atomic.instructions) +
           " shared-atomic warp instructions; only " + num(c.global_atomic.instructions) +
           " global atomics merge the per-group bins.";
  if (k == "poly_eval")
    return "every lane reads the same coefficient: each of the " + num(c.constant_load.instructions) +
           " constant loads is one broadcast access (" + num(c.constant_load.distinct_addresses) + " in all).";
  if (k == "lane_coeff")
    return "lanes read coeffs[lane % 8]: 8 addresses per warp instruction, serialised into " +
           num(c.constant_load.distinct_addresses) + " accesses for " + num(c.constant_load.instructions) +
           " loads.";
  if (k == "int_matmul_global")
    return "seed 004: a warp walks 32 rows i, so A[i*n+k] touches 32 sectors per request (" +
           ratio(c.global_load.sectors, c.global_load.requests()) + " sectors/request on average).";
  if (k == "int_matmul_shared")
    return "a[NT*i_local + k] is 32 words apart across the warp: a 32-way conflict on every other "
           "load (" + ratio(c.shared_load.wavefronts, c.shared_load.instructions) +
           " wavefronts per LDS, hardware-model.md E8).";
  if (k == "blur3x3")
    return "the 18x18 tile with its halo is loaded once and read 9 times per pixel; a warp holds two "
           "16-pixel rows 18 words apart, so banks 0-1 collide: " +
           ratio(c.shared_load.wavefronts, c.shared_load.instructions) + " wavefronts per LDS (" +
           num(conflicts(c)) + " conflicts; only a row pitch of 16 mod 32 words, e.g. [18][48], would separate the rows).";
  if (k == "neighbour_sum")
    return "seed 000's neighbour read through shared_data[256] with the barrier: a rotation of banks, " +
           num(conflicts(c)) + " conflicts.";
  if (k == "layer_relu")
    return "ReLU(W x + b) as three launches; matvec's W[row*n+k] is strided across a warp (" +
           ratio(c.global_load.sectors, c.global_load.requests()) + " sectors per request).";
  if (k == "transpose_padded")
    return "padding the tile to [32][33] moves each row one bank over, so the column store hits 32 "
           "different banks: " + ratio(c.shared_store.wavefronts, c.shared_store.instructions) +
           " wavefront per store, " + num(c.shared_store.bank_conflicts()) + " conflicts.";
  return "";
}

}  // namespace

std::string result_json(const catalog::Result& r, int indent, const DeviceProfile* profile) {
  nlohmann::ordered_json j;
  nlohmann::json rep = nlohmann::json::parse(to_json(r.report, -1));
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

void table_header(std::ostream& os) {
  os << std::left << std::setw(20) << "kernel" << std::right << std::setw(8) << "n" << std::setw(12)
     << "ld req" << std::setw(12) << "ld sectors" << std::setw(11) << "st sectors" << std::setw(12)
     << "sh ld inst" << std::setw(13) << "sh ld wavef" << std::setw(12) << "sh st wavef"
     << std::setw(11) << "conflicts" << std::setw(9) << "BAR" << std::setw(9) << "SHFL" << std::setw(11)
     << "atomics" << std::setw(9) << "L1 hit%" << std::setw(11) << "L2 sect" << std::setw(10)
     << "DRAM KB" << std::setw(10) << "est. us" << std::setw(9) << "correct" << "\n";
}

void table_row(std::ostream& os, const catalog::Result& r) {
  const Counters& c = r.report.counters;
  os << std::left << std::setw(20) << r.report.kernel << std::right << std::setw(8) << r.n
     << std::setw(12) << num(c.global_load.requests()) << std::setw(12) << num(c.global_load.sectors)
     << std::setw(11) << num(c.global_store.sectors) << std::setw(12) << num(c.shared_load.instructions)
     << std::setw(13) << num(c.shared_load.wavefronts) << std::setw(12) << num(c.shared_store.wavefronts)
     << std::setw(11) << num(c.shared_load.bank_conflicts() + c.shared_store.bank_conflicts())
     << std::setw(9) << num(c.barriers) << std::setw(9) << num(c.shfl) << std::setw(11)
     << num(c.shared_atomic.instructions + c.global_atomic.instructions) << std::setw(9)
     << (c.global_load.sectors ? fixed(100.0 * double(c.global_load.l1_hit_sectors) / double(c.global_load.sectors), 1)
                               : std::string("-"))
     << std::setw(11) << num(c.l2_read_sectors + c.l2_write_sectors) << std::setw(10)
     << num((c.dram_read_bytes + c.dram_write_bytes + 512) / 1024) << std::setw(10) << fixed(est_us(r), 1)
     << std::setw(9) << (r.correct ? "yes" : "NO") << "\n";
}

}  // namespace

// One paragraph per family, as the seeds explain it, with this run's numbers.
std::string wrap(const std::string& text, std::size_t width = 100) {
  std::string out, line, word;
  std::istringstream in(text);
  auto flush_para = [&] {
    if (!line.empty()) out += line + "\n";
    line.clear();
  };
  for (std::string para; std::getline(in, para);) {
    if (para.empty()) {
      flush_para();
      out += "\n";
      continue;
    }
    std::istringstream words(para);
    while (words >> word) {
      if (!line.empty() && line.size() + 1 + word.size() > width) flush_para();
      line += (line.empty() ? "" : " ") + word;
    }
    flush_para();
  }
  return out;
}

void family_paragraphs_raw(std::ostream& os, const std::map<std::string, catalog::Result>& done);

void family_paragraphs(std::ostream& os, const std::map<std::string, catalog::Result>& done) {
  std::ostringstream raw;
  family_paragraphs_raw(raw, done);
  os << wrap(raw.str());
}

void family_paragraphs_raw(std::ostream& os, const std::map<std::string, catalog::Result>& done) {
  const Counters& nv = done.at("matmul_naive").report.counters;
  const Counters& t16 = done.at("matmul_tiled16").report.counters;
  const Counters& t32 = done.at("matmul_tiled32").report.counters;
  const auto& mn = done.at("matmul_naive");
  os << "\nMatmul, the seed 001 puzzle: tiling cuts load requests " << ratio(nv.global_load.requests(), t16.global_load.requests())
     << "x (" << num(nv.global_load.requests()) << " -> " << num(t16.global_load.requests())
     << " at tile 16), yet the traffic behind L1 does not fall: L2 reads " << num(nv.l2_read_sectors) << " vs "
     << num(t16.l2_read_sectors) << " sectors, DRAM " << num(nv.dram_read_bytes) << " vs " << num(t16.dram_read_bytes)
     << " bytes. In the naive kernel the threads of a group share rows of A and columns of B, so "
     << num(nv.global_load.l1_hit_sectors) << " of " << num(nv.global_load.sectors) << " load sectors ("
     << fixed(100.0 * double(nv.global_load.l1_hit_sectors) / double(nv.global_load.sectors), 1)
     << "%) hit in the SM's L1: L1 already does the reuse that tiling makes explicit. What tiling saves is L1 work "
        "(sectors to look up and move): the estimate gives n=" << mn.n << ": naive " << fixed(est_us(mn), 1) << " us, tiled16 "
     << fixed(est_us(done.at("matmul_tiled16")), 1) << " us, tiled32 " << fixed(est_us(done.at("matmul_tiled32")), 1)
     << " us; scaled to n=4096: " << fixed(est_us(mn, 4096) / 1e3, 1) << " / "
     << fixed(est_us(done.at("matmul_tiled16"), 4096) / 1e3, 1) << " / " << fixed(est_us(done.at("matmul_tiled32"), 4096) / 1e3, 1)
     << " ms (H100 measured 80.9 / 22.8 / 21.0 ms; `tgsim predict`). What larger tiles do cut is L2 traffic: "
        "each group fetches its rows of A and columns of B once, and a 32-wide tile needs half as many groups per row, "
        "so tile 32 reads " << num(t32.l2_read_sectors) << " L2 sectors, half of tile 16.\n";
  const Counters& tn = done.at("transpose_naive").report.counters;
  const Counters& ts = done.at("transpose_shared").report.counters;
  os << "\nTranspose: all three read and write the matrix once (" << num(tn.dram_read_bytes) << " DRAM bytes read, "
     << num(tn.l2_read_sectors) << " L2 read sectors each). The naive column read needs 32 sectors per request, but "
     << num(tn.global_load.l1_hit_sectors) << " of " << num(tn.global_load.sectors)
     << " hit in L1 (the next 7 warps read the other ints of each sector), so its cost is L1 work, not DRAM. "
        "The shared version moves that cost into the bank conflict: "
     << num(ts.shared_store.wavefronts) << " store wavefronts; padding removes it. Predicted at n=8192: naive "
     << fixed(est_us(done.at("transpose_naive"), 8192), 0) << " us, shared " << fixed(est_us(done.at("transpose_shared"), 8192), 0)
     << " us, padded " << fixed(est_us(done.at("transpose_padded"), 8192), 0) << " us (H100: 415, 442, 326 us).\n";
}

int tour(std::ostream& os, unsigned threads, bool json, const std::string& profile_name) {
  auto profile = profiles::by_name(profile_name);
  if (!profile) throw std::invalid_argument("unknown profile '" + profile_name + "'");
  g_profile = &*profile;
  const Row tiling[] = {{"matmul_naive", 0},    {"matmul_tiled8", 0},    {"matmul_tiled16", 0},
                        {"matmul_tiled32", 0},  {"transpose_naive", 0},  {"transpose_shared", 0},
                        {"transpose_padded", 0}};
  // Seed 004's int matmul runs at n = 250 here (not a multiple of 32; `tgsim run` uses 1000).
  const Row more[] = {{"block_peak", 0},       {"reduce_interleaved", 0}, {"reduce_sequential", 0},
                      {"reduce_shuffle", 0},   {"histogram256", 0},       {"poly_eval", 0},
                      {"lane_coeff", 0},       {"int_matmul_global", 250}, {"int_matmul_shared", 250},
                      {"blur3x3", 0},          {"neighbour_sum", 0},      {"layer_relu", 0}};
  std::map<std::string, catalog::Result> done;
  std::vector<const catalog::Result*> rows1, rows2;
  Device dev;
  auto run_rows = [&](const auto& list, std::vector<const catalog::Result*>& rows) {
    for (const Row& row : list) {
      catalog::RunOptions opt;
      opt.threads = threads;
      opt.n = row.n;
      done[row.kernel] = catalog::run(dev, row.kernel, opt);
      rows.push_back(&done[row.kernel]);
    }
  };
  run_rows(tiling, rows1);
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
  os << "tgsim tour: the seed kernels, counted as Nsight Compute counts them on an H100\n"
     << "(global: warp requests and 32-byte sectors; shared: warp instructions, wavefronts and\n"
     << " bank conflicts = wavefronts - ideal; BAR: one per warp per __syncthreads; SHFL: one per\n"
     << " warp per 32-bit shuffle; atomics: warp instructions, shared and global; L1 hit%: global\n"
     << " load sectors found in the SM's L1; L2 sect: sectors L1 reads from and writes to L2; DRAM KB:\n"
     << " bytes read and written in DRAM; est. us: the time estimate on " << profile->name << ")\n\n";
  os << "1. Tiling and padding (seeds 000, 001, 002)\n\n";
  table_header(os);
  for (const auto* r : rows1) table_row(os, *r);
  os << "\nWhat the numbers say:\n";
  for (const auto* r : rows1) os << "  " << std::left << std::setw(20) << r->report.kernel << explain(*r, done) << "\n";
  os << "\nWhy tiling helps: a tile is loaded from global memory once and then read TILE times\n"
     << "from shared memory, so global requests fall by the tile width. Why padding helps: shared\n"
     << "memory has 32 banks of 4 bytes; a column of a [32][32] int tile lies in one bank (32-way\n"
     << "conflict, 32 wavefronts), a column of [32][33] lies in 32 banks (1 wavefront).\n";
  family_paragraphs(os, done);
  os << "\n2. Warps, reductions, atomics, constant memory (seeds 000, 001, 003, 004)\n\n";
  table_header(os);
  for (const auto* r : rows2) table_row(os, *r);
  os << "\nWhat the numbers say:\n";
  for (const auto* r : rows2) os << "  " << std::left << std::setw(20) << r->report.kernel << explain(*r, done) << "\n";
  os << "\nEvery result " << (all_correct ? "equals" : "does NOT equal") << " its CPU reference"
     << (all_correct ? ", with no findings.\n" : ".\n");
  return all_correct ? 0 : 1;
}

}  // namespace tgsim::cli
