// `tgsim tour`: the seed kernels side by side, each row with one sentence on what it shows.
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"

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
  if (k == "transpose_padded")
    return "padding the tile to [32][33] moves each row one bank over, so the column store hits 32 "
           "different banks: " + ratio(c.shared_store.wavefronts, c.shared_store.instructions) +
           " wavefront per store, " + num(c.shared_store.bank_conflicts()) + " conflicts.";
  return "";
}

}  // namespace

std::string result_json(const catalog::Result& r, int indent) {
  nlohmann::ordered_json j;
  nlohmann::json rep = nlohmann::json::parse(to_json(r.report, -1));
  j["kernel"] = r.report.kernel;
  j["n"] = r.n;
  j["grid"] = rep["grid"];
  j["block"] = rep["block"];
  j["correct"] = r.correct;
  j["counters"] = rep["counters"];
  j["sites"] = rep["sites"];
  j["findings"] = rep["findings"];
  return j.dump(indent);
}

int tour(std::ostream& os, unsigned threads, bool json) {
  const char* order[] = {"matmul_naive", "matmul_tiled8", "matmul_tiled16", "matmul_tiled32",
                         "transpose_naive", "transpose_shared", "transpose_padded"};
  std::map<std::string, catalog::Result> done;
  std::vector<const catalog::Result*> rows;
  Device dev;
  for (const char* k : order) {
    catalog::RunOptions opt;
    opt.threads = threads;
    done[k] = catalog::run(dev, k, opt);
    rows.push_back(&done[k]);
  }
  bool all_correct = true;
  for (const auto* r : rows) all_correct = all_correct && r->correct && r->report.findings.empty();
  if (json) {
    os << "[";
    for (std::size_t i = 0; i < rows.size(); ++i) os << (i ? ",\n" : "\n") << result_json(*rows[i], 2);
    os << "\n]\n";
    return all_correct ? 0 : 1;
  }
  os << "tgsim tour: the seed kernels, counted as Nsight Compute counts them on an H100\n"
     << "(global: warp requests and 32-byte sectors; shared: warp instructions, wavefronts and\n"
     << " bank conflicts = wavefronts - ideal; BAR: one per warp per __syncthreads)\n\n";
  os << std::left << std::setw(18) << "kernel" << std::right << std::setw(6) << "n" << std::setw(12)
     << "ld req" << std::setw(12) << "ld sectors" << std::setw(11) << "st sectors" << std::setw(12)
     << "sh ld inst" << std::setw(12) << "sh ld wavef" << std::setw(12) << "sh st wavef"
     << std::setw(12) << "conflicts" << std::setw(9) << "BAR" << std::setw(9) << "correct" << "\n";
  for (const auto* r : rows) {
    const Counters& c = r->report.counters;
    os << std::left << std::setw(18) << r->report.kernel << std::right << std::setw(6) << r->n
       << std::setw(12) << num(c.global_load.requests()) << std::setw(12) << num(c.global_load.sectors)
       << std::setw(11) << num(c.global_store.sectors) << std::setw(12) << num(c.shared_load.instructions)
       << std::setw(12) << num(c.shared_load.wavefronts) << std::setw(12) << num(c.shared_store.wavefronts)
       << std::setw(12) << num(c.shared_load.bank_conflicts() + c.shared_store.bank_conflicts())
       << std::setw(9) << num(c.barriers) << std::setw(9) << (r->correct ? "yes" : "NO") << "\n";
  }
  os << "\nWhat the numbers say:\n";
  for (const auto* r : rows) os << "  " << std::left << std::setw(18) << r->report.kernel << explain(*r, done) << "\n";
  os << "\nWhy tiling helps: a tile is loaded from global memory once and then read TILE times\n"
     << "from shared memory, so global requests fall by the tile width. Why padding helps: shared\n"
     << "memory has 32 banks of 4 bytes; a column of a [32][32] int tile lies in one bank (32-way\n"
     << "conflict, 32 wavefronts), a column of [32][33] lies in 32 banks (1 wavefront).\n";
  os << "\nEvery result " << (all_correct ? "equals" : "does NOT equal") << " its CPU reference"
     << (all_correct ? ", with no findings.\n" : ".\n");
  return all_correct ? 0 : 1;
}

}  // namespace tgsim::cli
