// `tgsim explain`: one warp instruction drawn (lanes -> banks with the wavefronts it takes,
// or lanes -> sectors), the launch's memory hierarchy and time estimate; with --sweep, the
// counters and predicted time of several variants side by side as a bar chart.
#include <CLI/CLI.hpp>

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <tgsim/estimate.hpp>
#include <tgsim/models.hpp>

#include "commands.hpp"
#include "predict.hpp"
#include "svg.hpp"

namespace tgsim::cli {

namespace {

std::string base(const std::string& path) {
  auto p = path.rfind('/');
  return p == std::string::npos ? path : path.substr(p + 1);
}

std::string num(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

bool write_file(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream f(path);
  f << text;
  if (!f) {
    err << "tgsim: error: cannot write " << path << "\n";
    return false;
  }
  return true;
}

// The most telling site: the shared access with the most wavefronts per instruction, else
// the global access with the most sectors per request.
const SiteCounters* pick_site(const Report& r) {
  const SiteCounters* best = nullptr;
  double score = -1;
  for (const SiteCounters& s : r.sites) {
    if (s.counters.instructions == 0) continue;
    double sc = -1;
    if (s.kind == SiteKind::kSharedLoad || s.kind == SiteKind::kSharedStore)
      sc = 1000.0 + double(s.counters.wavefronts) / double(s.counters.instructions);
    else if (s.kind == SiteKind::kGlobalLoad || s.kind == SiteKind::kGlobalStore)
      sc = double(s.counters.sectors) / double(s.counters.instructions);
    if (sc > score) {
      score = sc;
      best = &s;
    }
  }
  return best;
}

}  // namespace

void print_estimate(std::ostream& os, const Estimate& e) {
  os << std::fixed << std::setprecision(4) << "  estimate: " << e.time_ms() << " ms, bound by " << e.bound
     << " (dram " << e.dram_s * 1e3 << ", l2 " << e.l2_s * 1e3 << ", l1 " << e.l1_s * 1e3 << ", fp32 "
     << e.fp32_s * 1e3 << ", latency " << e.latency_s * 1e3 << " ms)\n";
  os.unsetf(std::ios::floatfield);
}

CLI::App* add_explain(CLI::App& app, ExplainOptions& o) {
  auto* c = app.add_subcommand("explain", "draw one warp instruction, or sweep variants, with the time estimate");
  c->add_option("kernel", o.kernel, "kernel name (tgsim list), or a family with --sweep (matmul)")->required();
  c->add_option("--site", o.site, "file:line[:column] of the access to draw (default: the most telling one)");
  c->add_option("--svg", o.svg, "write the picture to this SVG file");
  c->add_option("--sweep", o.sweep, "variants to compare, e.g. tile=8,16,32 (matmul) ");
  c->add_option("--n", o.n, "problem size (default: the catalog's)")->check(CLI::Range(1, 1 << 26));
  c->add_option("--at", o.at, "also predict the time at this size (counters scaled analytically)")
      ->check(CLI::Range(1, 1 << 26));
  c->add_option("--profile", o.profile, "device profile: nvidia-h100, apple-m3, amd-cdna");
  c->add_option("--threads", o.threads, "worker threads (default: all cores)");
  return c;
}

int explain(std::ostream& os, std::ostream& err, const ExplainOptions& o) {
  auto prof = profiles::by_name(o.profile);
  if (!prof) {
    err << "tgsim: error: unknown profile '" << o.profile << "' (nvidia-h100, apple-m3, amd-cdna)\n";
    return 2;
  }
  // Estimates use the chosen profile; the simulation itself needs 32-wide warps.
  Device sim_dev(prof->warp_size == 32 ? *prof : profiles::nvidia_h100());
  if (prof->warp_size != 32)
    os << "profile " << prof->name << ": warp size " << prof->warp_size
       << " is not simulated yet; counters come from 32-wide warps, limits and figures from "
       << prof->name << "\n";

  if (!o.sweep.empty()) {
    auto eq = o.sweep.find('=');
    if (o.kernel != "matmul" || eq == std::string::npos || o.sweep.substr(0, eq) != "tile") {
      err << "tgsim: error: --sweep supports `matmul --sweep tile=8,16,32` (tile=naive for the naive kernel)\n";
      return 2;
    }
    std::vector<std::string> variants;
    std::stringstream ss(o.sweep.substr(eq + 1));
    for (std::string v; std::getline(ss, v, ',');)
      variants.push_back(v == "naive" || v == "0" ? "matmul_naive" : "matmul_tiled" + v);
    std::vector<Bar> bars = {{"load requests", {}}, {"load sectors", {}}, {"L1 hit sectors", {}},
                             {"L2 sectors", {}},    {"DRAM bytes", {}},   {"shared wavefronts", {}},
                             {"predicted ms", {}}};
    const int at = o.at;
    os << std::left << std::setw(16) << "variant" << std::right << std::setw(12) << "ld req" << std::setw(12)
       << "ld sectors" << std::setw(12) << "L1 hits" << std::setw(12) << "L2 sectors" << std::setw(12)
       << "DRAM bytes" << std::setw(12) << "sh wavef" << std::setw(12) << "est. ms" << std::setw(9) << "bound"
       << "\n";
    for (const std::string& k : variants) {
      const catalog::Entry* e = catalog::find(k);
      if (!e) {
        err << "tgsim: error: no kernel " << k << " for that sweep value\n";
        return 2;
      }
      catalog::RunOptions opt;
      opt.n = o.n;
      opt.threads = o.threads;
      opt.progress = true;
      catalog::Result r = catalog::run(sim_dev, k, opt);
      const Counters& c = r.report.counters;
      Estimate est = catalog::predict(*e, r, *prof, at);
      bars[0].values.push_back(double(c.global_load.requests()));
      bars[1].values.push_back(double(c.global_load.sectors));
      bars[2].values.push_back(double(c.global_load.l1_hit_sectors));
      bars[3].values.push_back(double(c.l2_read_sectors + c.l2_write_sectors));
      bars[4].values.push_back(double(c.dram_read_bytes + c.dram_write_bytes));
      bars[5].values.push_back(double(c.shared_load.wavefronts + c.shared_store.wavefronts));
      bars[6].values.push_back(est.time_ms());
      os << std::left << std::setw(16) << k << std::right << std::setw(12) << num(c.global_load.requests())
         << std::setw(12) << num(c.global_load.sectors) << std::setw(12) << num(c.global_load.l1_hit_sectors)
         << std::setw(12) << num(c.l2_read_sectors + c.l2_write_sectors) << std::setw(12)
         << num(c.dram_read_bytes + c.dram_write_bytes) << std::setw(12)
         << num(c.shared_load.wavefronts + c.shared_store.wavefronts) << std::setw(12) << std::fixed
         << std::setprecision(3) << est.time_ms() << std::setw(9) << est.bound << "\n";
      os.unsetf(std::ios::floatfield);
    }
    const int n = o.n ? o.n : catalog::find(variants.front())->default_n;
    os << "(counters at n=" << n << "; predicted time " << (at ? "at n=" + std::to_string(at) + ", counters scaled by (N/n)^3, DRAM by (N/n)^2"
                                                                : "at n=" + std::to_string(n))
       << ", profile " << prof->name << ")\n";
    if (!o.svg.empty()) {
      std::vector<std::string> labels;
      for (const std::string& k : variants) labels.push_back(k);
      bars[6].metric = at ? "predicted ms (n=" + std::to_string(at) + ")" : "predicted ms";
      if (!write_file(o.svg, bars_svg("matmul, n=" + std::to_string(n) + ": traffic and predicted time per variant (" +
                                          prof->name + ")",
                                      labels, bars),
                      err))
        return 2;
      os << "wrote " << o.svg << "\n";
    }
    return 0;
  }

  const catalog::Entry* e = catalog::find(o.kernel);
  if (!e) {
    err << "tgsim: error: unknown kernel '" << o.kernel << "' (tgsim list)\n";
    return 2;
  }
  catalog::RunOptions opt;
  opt.n = o.n;
  opt.threads = o.threads;
  opt.progress = true;
  std::string site = o.site;
  if (site.empty()) {
    catalog::Result first = catalog::run(sim_dev, o.kernel, opt);
    const SiteCounters* s = pick_site(first.report);
    if (!s) {
      err << "tgsim: error: " << o.kernel << " has no global or shared access to draw\n";
      return 1;
    }
    site = base(s->file) + ":" + std::to_string(s->line) + ":" + std::to_string(s->column);
  }
  opt.capture_site = site;
  catalog::Result r = catalog::run(sim_dev, o.kernel, opt);
  const CapturedInstruction& c = r.report.captured;
  if (!c.present) {
    err << "tgsim: error: no warp instruction of " << o.kernel << " at " << site << "\n";
    return 2;
  }
  const Counters& k = r.report.counters;
  os << o.kernel << " (n " << r.n << "), " << to_string(c.kind) << " at " << base(c.file) << ":" << c.line << ":"
     << c.column << ", block " << c.group << " warp " << c.warp << ", " << c.width << "-byte lanes\n";
  std::ostringstream title;
  title << o.kernel << ": " << to_string(c.kind) << " at " << base(c.file) << ":" << c.line;
  if (c.kind == SiteKind::kSharedLoad || c.kind == SiteKind::kSharedStore) {
    BankView v = bank_view(c, sim_dev.profile());
    os << "  lane -> bank:";
    for (int l = 0; l < 32; ++l)
      if (v.bank[l] >= 0) os << " " << l << ":" << v.bank[l];
    os << "\n  " << v.wavefronts << (v.wavefronts == 1 ? " wavefront" : " wavefronts") << " (ideal " << v.ideal << ", " << (v.wavefronts - v.ideal)
       << " bank conflicts)\n";
  } else {
    model::WarpAccess a{c.mask, c.width, c.addr};
    os << "  1 request, " << model::global_sectors(a) << " sectors of " << sim_dev.profile().sector_bytes
       << " bytes\n";
  }
  os << "  launch: " << num(k.global_load.requests()) << " load requests, " << num(k.global_load.sectors)
     << " load sectors (" << num(k.global_load.l1_hit_sectors) << " hit in L1), L2 " << num(k.l2_read_sectors)
     << " read / " << num(k.l2_write_sectors) << " write sectors, DRAM " << num(k.dram_read_bytes) << " bytes read\n";
  print_estimate(os, catalog::predict(*e, r, *prof, o.at));
  if (!o.svg.empty()) {
    if (!write_file(o.svg, instruction_svg(c, *prof, title.str()), err)) return 2;
    os << "wrote " << o.svg << "\n";
  }
  return 0;
}

}  // namespace tgsim::cli
