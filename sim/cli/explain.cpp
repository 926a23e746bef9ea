// `tgsim explain`: one warp instruction drawn (lanes -> banks with the wavefronts it takes,
// or lanes -> sectors; for a 2-D tile the tile itself, beside its padded variant), the
// launch's memory hierarchy and time estimate; with --source / --html the source lines with
// their counters and rules (source_view.hpp); with --sweep, the counters and predicted time
// of several variants side by side as a bar chart, with the H100's measured times.
#include <CLI/CLI.hpp>

#include <cmath>
#include <memory>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include <tgsim/estimate.hpp>
#include <tgsim/kernel/abi.h>
#include <tgsim/models.hpp>

#include "commands.hpp"
#include "file_kernel.hpp"
#include <tgsim/internal/compile.hpp>
#include "predict.hpp"
#include "i18n.hpp"
#include "rules.hpp"
#include "report_words.hpp"
#include "shuffle_picture.hpp"
#include "source_view.hpp"
#include "svg.hpp"
#include "try_pad.hpp"
#include "try_swap.hpp"
#include "validate.hpp"
#include <tgsim/internal/text.hpp>

namespace tgsim::cli {

using internal::with_commas;

namespace {

bool write_file(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream f(path);
  f << text;
  if (!f) {
    err << error_line("cannot write " + path) << "\n";
    return false;
  }
  return true;
}

// The site to draw: the global or shared access with the largest share of the unit that
// sets the estimate (source_view.hpp), ties to the earlier site.
const SiteCounters* pick_site(const Report& r, const std::string& unit) {
  const SiteCounters* best = nullptr;
  double score = -1;
  for (const SiteCounters& s : r.sites) {
    const bool drawable = s.kind == SiteKind::kSharedLoad || s.kind == SiteKind::kSharedStore ||
                          s.kind == SiteKind::kGlobalLoad || s.kind == SiteKind::kGlobalStore;
    if (!drawable || s.counters.instructions == 0) continue;
    const double sc = site_cost(s, unit);
    if (sc > score) {
      score = sc;
      best = &s;
    }
  }
  return best;
}

// The 2-D shared tiles of the catalog (their declarations, as the pictures draw them) and the
// padded variant drawn beside the unpadded one. `index` is the order of the array among the
// kernel's shared declarations (its base offset is index * rows * cols * 4).
struct Tile {
  const char* kernel;
  int rows, cols;
  const char* array;
  const char* padded;  // the kernel with the padded tile, or nullptr
};
const Tile* tile_of(const std::string& kernel) {
  static const Tile tiles[] = {{"transpose_shared", 32, 32, "s", "transpose_padded"},
                               {"transpose_padded", 32, 33, "s", nullptr},
                               {"int_matmul_shared", 32, 32, "a", nullptr},
                               {"matmul_tiled8", 8, 8, "tile", nullptr},
                               {"matmul_tiled16", 16, 16, "tile", nullptr},
                               {"matmul_tiled32", 32, 32, "tile", nullptr}};
  for (const Tile& t : tiles)
    if (kernel == t.kernel) return &t;
  return nullptr;
}

TilePanel panel(const CapturedInstruction& c, const std::string& kernel, const Tile& t) {
  TilePanel p;
  p.c = c;
  p.rows = t.rows;
  p.cols = t.cols;
  p.array = t.array;
  const std::uint64_t bytes = std::uint64_t(t.rows) * std::uint64_t(t.cols) * 4;
  std::uint64_t lo = std::numeric_limits<std::uint64_t>::max();
  for (int l = 0; l < 32; ++l)
    if ((c.mask >> l) & 1u) lo = std::min(lo, c.addr[l]);
  p.base = lo == std::numeric_limits<std::uint64_t>::max() ? 0 : lo / bytes * bytes;
  p.label = kernel + ": " + t.array + "[" + std::to_string(t.rows) + "][" + std::to_string(t.cols) + "]";
  return p;
}

// The H100's measured time of `kernel` at size n (tests/hardware/h100.json), NaN if none.
double measured_ms(const nlohmann::json& fx, const std::string& kernel, int n) {
  const auto& k = fx["timings"]["kernels"];
  if (!k.contains(kernel) || !k[kernel].contains(std::to_string(n))) return std::numeric_limits<double>::quiet_NaN();
  return k[kernel][std::to_string(n)].value("ms_median", std::numeric_limits<double>::quiet_NaN());
}

}  // namespace

void print_estimate(std::ostream& os, const Estimate& e) {
  auto ms = [](double v) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(4) << v;
    return s.str();
  };
  os << "  "
     << trf("explain.estimate", {ms(e.time_ms()), bound_name(e.bound), ms(e.dram_s * 1e3), ms(e.l2_s * 1e3), ms(e.l1_s * 1e3),
                                 ms(e.fp32_s * 1e3), ms(e.latency_s * 1e3)})
     << "\n";
}

Command add_explain(CLI::App& program) {
  auto st = std::make_shared<ExplainOptions>();
  ExplainOptions& o = *st;
  auto* c = program.add_subcommand("explain", "draw one warp instruction, or sweep variants, with the time estimate");
  c->add_option("target", o.kernel, "kernel name (tgsim list), a family with --sweep (matmul), or a kernel "
                                    "file FILE.cu / FILE.metal")->required();
  add_file_options(*c, o.file, "explain");
  c->add_option("--site", o.site, "file:line[:column] of the access to draw (default: the costliest one)");
  c->add_option("--svg", o.svg, "write the picture to this SVG file");
  c->add_flag("--source", o.source, "the kernel's source lines with their counters, worst first, and rules");
  c->add_option("--html", o.html, "write the source view with its pictures to this HTML file");
  c->add_flag("--wide", o.wide, "do not fit the output to 100 columns");
  c->add_flag("--no-try", o.no_try,
              "with a FILE: rules without trying their fix (a conflicted shared array is otherwise padded, an "
              "uncoalesced load's x and y thread mapping swapped, in a copy of the file and the launch re-run)");
  c->add_option("--sweep", o.sweep, "variants to compare, e.g. tile=8,16,32 (matmul) ");
  c->add_option("--n", o.n, "problem size (default: the catalog's)")->check(CLI::Range(1, 1 << 26));
  c->add_option("--at", o.at, "also predict the time at this size (counters scaled analytically); with a FILE: for this many threadgroups")
      ->check(CLI::Range(1, 1 << 26));
  c->add_option("--profile", o.profile, "device profile: nvidia-h100, apple-m3, amd-cdna");
  c->add_option("--threads", o.threads, "worker threads (default: all cores)")
      ->check(CLI::Range(0u, kMaxWorkers));
  return {c, [st] {
            ExplainOptions o = *st;
            if (looks_like_kernel_file(o.kernel)) o.file.file = o.kernel;
            return explain(std::cout, std::cerr, o);
          }};
}

std::string unknown_kernel_message(const std::string& name) {
  std::vector<std::string> names;
  for (const catalog::Entry& e : catalog::entries()) names.push_back(e.name);
  for (const char* family : {"matmul"}) names.push_back(family);
  const std::string best = closest(name, names);
  return trf("err.unknown_kernel", {name}) + tr("err.sep") + (best.empty() ? tr("err.see_list") : trf("err.did_you_mean", {best}));
}

namespace {

int sweep(std::ostream& os, std::ostream& err, const ExplainOptions& o, const DeviceProfile& prof,
          const Device& sim_dev) {
  auto eq = o.sweep.find('=');
  if (o.kernel != "matmul" || eq == std::string::npos || o.sweep.substr(0, eq) != "tile") {
    err << error_line("--sweep supports `matmul --sweep tile=8,16,32` (tile=naive for the naive kernel)") << "\n";
    return 2;
  }
  std::vector<std::string> variants;
  std::stringstream ss(o.sweep.substr(eq + 1));
  for (std::string v; std::getline(ss, v, ',');)
    variants.push_back(v == "naive" || v == "0" ? "matmul_naive" : "matmul_tiled" + v);
  for (const std::string& k : variants)
    if (!catalog::find(k)) {
      err << error_line("no kernel " + k + " for that sweep value") << "\n";
      return 2;
    }
  std::vector<Bar> bars = {{tr("pic.bar.requests"), {}},  {tr("pic.bar.sectors"), {}},
                           {tr("pic.bar.l1_hits"), {}},   {tr("pic.bar.l2"), {}},
                           {tr("pic.bar.dram"), {}},      {tr("pic.bar.wavefronts"), {}},
                           {tr("pic.bar.ms"), {}}};
  const int at = o.at;
  // 99 columns: 15 + 6 x 11 + 10 + 8, a column widened to its widest cell + 1 (counts of 10^9
  // and more keep their columns apart); printed once every variant has run.
  std::vector<std::vector<std::string>> table = {{tr("sweep.variant")}};
  for (const char* col : {"sweep.ld_req", "sweep.ld_sectors", "sweep.l1_hits", "sweep.l2_sectors", "sweep.dram_bytes",
                          "sweep.sh_wavef", "sweep.est_ms", "sweep.bound"})
    table[0].push_back(tr(col));
  for (const std::string& k : variants) {
    catalog::RunOptions opt;
    opt.n = o.n;
    opt.threads = o.threads;
    set_progress(opt, true);
    catalog::Result r = catalog::run(sim_dev, k, opt);
    const Counters& c = r.report.counters;
    Estimate est = catalog::predict(*catalog::find(k), r, prof, at);
    const double v[] = {double(c.global_load.requests()), double(c.global_load.sectors),
                        double(c.global_load.l1_hit_sectors), double(c.l2_read_sectors + c.l2_write_sectors),
                        double(c.dram_read_bytes + c.dram_write_bytes),
                        double(c.shared_load.wavefronts + c.shared_store.wavefronts), est.time_ms()};
    for (std::size_t i = 0; i < bars.size(); ++i) bars[i].values.push_back(v[i]);
    table.push_back({k});
    for (int i = 0; i < 6; ++i) table.back().push_back(with_commas(std::uint64_t(v[i])));  // exact counts
    table.back().push_back(fmt3(est.time_ms()));
    table.back().push_back(bound_name(est.bound));
  }
  std::vector<std::size_t> w = {15, 11, 11, 11, 11, 11, 11, 10, 8};
  // A header cell may hold rows (Japanese, split at '\n'): bottom-aligned.
  std::vector<std::vector<std::string>> header(table[0].size());
  std::size_t header_rows = 1;
  for (std::size_t i = 0; i < header.size(); ++i) {
    std::istringstream in(table[0][i]);
    for (std::string l; std::getline(in, l);) header[i].push_back(l);
    header_rows = std::max(header_rows, header[i].size());
  }
  for (auto& cell : header) cell.insert(cell.begin(), header_rows - cell.size(), std::string());
  for (std::size_t i = 1; i < w.size(); ++i) {
    for (std::size_t r = 1; r < table.size(); ++r) w[i] = std::max(w[i], display_width(table[r][i]) + 1);
    for (const std::string& l : header[i]) w[i] = std::max(w[i], display_width(l) + 1);
  }
  for (std::size_t r = 0; r < header_rows; ++r) {
    std::string line = pad_right(header[0][r], w[0]);
    for (std::size_t i = 1; i < w.size(); ++i) line += pad_left(header[i][r], w[i]);
    os << line.substr(0, line.find_last_not_of(' ') + 1) << "\n";
  }
  for (std::size_t r = 1; r < table.size(); ++r) {
    os << pad_right(table[r][0], w[0]);
    for (std::size_t i = 1; i < w.size(); ++i) os << pad_left(table[r][i], w[i]);
    os << "\n";
  }
  const int n = o.n ? o.n : catalog::find(variants.front())->default_n;
  const int timed_n = at ? at : n;
  // Measured times exist for the H100 only, at the sizes the fixture was timed at.
  if (prof.name == "nvidia-h100") {
    std::ifstream in(catalog::default_fixture_path());
    if (in) {
      const nlohmann::json fx = nlohmann::json::parse(in, nullptr, false);
      for (const std::string& k : variants) bars[6].measured.push_back(measured_ms(fx, k, timed_n));
      bars[6].measured_label = trf("pic.measured_h100", {std::to_string(timed_n)});
      std::string line;
      for (std::size_t i = 0; i < variants.size(); ++i)
        if (bars[6].measured[i] == bars[6].measured[i])
          line += (line.empty() ? "" : tr("list.sep")) + variants[i] + " " + fmt3(bars[6].measured[i]) + " ms";
      if (!line.empty()) os << wrap(trf("explain.measured", {std::to_string(timed_n), line}), 100, 2) << "\n";
    }
  }
  os << wrap(at ? trf("explain.sweep_note_at", {std::to_string(n), prof.name, std::to_string(at)})
                : trf("explain.sweep_note", {std::to_string(n), prof.name}),
             o.wide ? 1000 : 100)
     << "\n";
  if (!o.svg.empty()) {
    bars[6].metric = at ? trf("pic.bar.ms_at", {std::to_string(at)}) : tr("pic.bar.ms");
    if (!write_file(o.svg, bars_svg(trf("pic.sweep.title", {std::to_string(n), prof.name}), variants, bars),
                    err))
      return 2;
    os << trf("explain.wrote", {o.svg}) << "\n";
  }
  return 0;
}

// The pictures of the HTML page (and of --svg): the drawn instruction, as a tile beside its
// padded variant where the catalog has one, and the shuffles one warp ran when the kernel shuffles
// (shuffle_picture.hpp).
// A kernel FILE's tile (`file_tile`, try_pad.hpp) comes first when it draws the same instruction.
std::vector<std::string> pictures(const catalog::Result& r, const std::string& kernel, const std::string& site,
                                  const DeviceProfile& prof, const Device& sim_dev, const ExplainOptions& o,
                                  const std::vector<TilePanel>& file_tile = {}) {
  std::vector<std::string> out;
  const CapturedInstruction& c = r.report.captured;
  std::ostringstream title;
  title << trf("pic.title", {kernel, to_string(c.kind), internal::basename_of(c.file) + ":" + std::to_string(c.line)});
  const Tile* t = tile_of(kernel);
  const bool shared = c.kind == SiteKind::kSharedLoad || c.kind == SiteKind::kSharedStore;
  if (shared && t) {
    std::vector<TilePanel> panels = {panel(c, kernel, *t)};
    if (t->padded) {  // the same source site in the padded kernel (one template, one line)
      catalog::RunOptions opt;
      opt.n = r.n;
      opt.threads = o.threads;
      opt.capture_site = site;
      catalog::Result pr = catalog::run(sim_dev, t->padded, opt);
      if (pr.report.captured.present) panels.push_back(panel(pr.report.captured, t->padded, *tile_of(t->padded)));
    }
    out.push_back(tile_svg(panels, prof, title.str() + (panels.size() > 1 ? tr("pic.and_padded") : "")));
  }
  out.push_back(instruction_svg(c, prof, title.str()));
  if (!file_tile.empty()) {
    const CapturedInstruction& t = file_tile.front().c;
    const std::string svg = tile_svg(
        file_tile, prof,
        trf("pic.title", {kernel, to_string(t.kind), internal::basename_of(t.file) + ":" + std::to_string(t.line)}) +
            (file_tile.size() > 1 ? tr("pic.and_padded") : ""));
    out.insert(t == c ? out.begin() : out.end(), svg);
  }
  if (!r.report.shuffles.empty()) out.push_back(shuffle_svg(trf("pic.shuffle.title", {kernel}), r.report));
  return out;
}

// The drawn instruction in words (lanes -> banks, or its sectors), the launch's memory
// hierarchy counters and the estimate, wrapped to `width`.
void print_instruction(std::ostream& os, const std::string& kernel, const catalog::Result& r, const Estimate& est,
                       const Device& sim_dev, std::size_t width) {
  const CapturedInstruction& c = r.report.captured;
  const Counters& k = r.report.counters;
  const std::string site =
      internal::basename_of(c.file) + ":" + std::to_string(c.line) + ":" + std::to_string(tgsim_site_column(c.column));
  // A kernel FILE has no problem size n: its head names none.
  os << wrap(trf(r.n ? "explain.head" : "explain.head.file", {kernel, std::to_string(r.n), to_string(c.kind), site, std::to_string(c.group),
                                  std::to_string(c.warp), std::to_string(c.width)}),
             width)
     << "\n";
  if (c.kind == SiteKind::kSharedLoad || c.kind == SiteKind::kSharedStore) {
    BankView v = bank_view(c, sim_dev.profile());
    std::string lanes = tr("explain.lane_bank");
    for (int l = 0; l < 32; ++l)
      if (v.bank[l] >= 0) lanes += " " + std::to_string(l) + ":" + std::to_string(v.bank[l]);
    os << "  " << wrap(lanes, width - 2, 2) << "\n  "
       << trf(v.wavefronts == 1 ? "explain.wavefront" : "explain.wavefronts",
              {std::to_string(v.wavefronts), std::to_string(v.ideal), std::to_string(v.wavefronts - v.ideal)})
       << "\n";
  } else {
    model::WarpAccess a{c.mask, c.width, c.addr};
    os << "  "
       << trf("explain.sectors",
              {std::to_string(model::global_sectors(a)), std::to_string(sim_dev.profile().sector_bytes)})
       << "\n";
  }
  os << "  "
     << wrap(trf("explain.launch", {with_commas(k.global_load.requests()), with_commas(k.global_load.sectors),
                                     with_commas(k.global_load.l1_hit_sectors), with_commas(k.l2_read_sectors),
                                     with_commas(k.l2_write_sectors), with_commas(k.dram_read_bytes)}),
             width - 2, 2)
     << "\n";
  std::ostringstream estimate_text;
  print_estimate(estimate_text, est);
  os << "  " << wrap(estimate_text.str().substr(2), width - 2, 2);
}

}  // namespace

// `tgsim explain FILE ...`: the same view of a user's kernel file (file_kernel.hpp); its
// estimate counts no floating-point work (tgsim does not count arithmetic) and there is no
// catalog variant to rerun a rule's fix with.
// What one explained instruction shows, from the catalog or a kernel FILE alike.
struct Shown {
  const catalog::Result& first;  // the counted run (source view, rules)
  const catalog::Result& r;      // the run that captured the instruction
  const std::string& kernel;
  const std::string& site;
  const Estimate& est;
  const SourceView& view;
  const DeviceProfile& prof;
  const Device& sim_dev;
  const TryContext* file = nullptr;  // a kernel FILE's launch (its tile picture, pads to try)
  bool try_pads = false;             // try the pads of its "pad" rules (try_pad.hpp)
};

// The instruction, then (as asked) the source view with its rules, the SVG and the HTML page.
int show(std::ostream& os, std::ostream& err, const ExplainOptions& o, const Shown& x, std::size_t width) {
  print_instruction(os, x.kernel, x.r, x.est, x.sim_dev, width);
  os << shuffle_text(x.r.report, width, 2);
  std::vector<Advice> advice;
  if (o.source || !o.html.empty()) advice = advise(x.view, x.first, x.prof, x.sim_dev, o.threads);
  if (x.file && x.try_pads) {
    add_pad_tries(advice, x.view, *x.file);
    add_swap_tries(advice, x.view, *x.file);
  }
  if (o.source) {
    os << "\n";
    print_source(os, x.view, advice, width);
  }
  const bool drawn = !o.svg.empty() || !o.html.empty();
  const std::vector<TilePanel> tile =
      drawn && x.file ? file_tile_panels(*x.file, x.r.report.captured, advice) : std::vector<TilePanel>{};
  const std::vector<std::string> svgs =
      drawn ? pictures(x.r, x.kernel, x.site, x.prof, x.sim_dev, o, tile) : std::vector<std::string>{};
  if (!o.svg.empty()) {
    if (!write_file(o.svg, svgs.front(), err)) return 2;
    os << trf("explain.wrote", {o.svg}) << "\n";
  }
  if (!o.html.empty()) {
    if (!write_file(o.html, source_html(x.view, advice, svgs), err)) return 2;
    os << trf("explain.wrote", {o.html}) << "\n";
  }
  return 0;
}

int explain_file(std::ostream& os, std::ostream& err, const ExplainOptions& o, const DeviceProfile& prof) {
  try {
    LaunchConfig cfg;
    cfg.threads = o.threads;
    const DeviceProfile sim = prof.warp_size == 32 ? prof : profiles::nvidia_h100();
    // With rules shown, their pads are tried (try_pad.hpp): the re-runs' buffers are compared with these.
    const bool trying = (o.source || !o.html.empty()) && !o.no_try;
    const FileRun first_run = run_file(o.file, sim, cfg, trying);
    catalog::Result first{first_run.report, true, 0};
    const TryContext tries{o.file, first_run, sim, prof, cfg};
    Workload w;
    w.groups = first.report.grid.volume();
    w.threads_per_group = static_cast<std::uint32_t>(first.report.block.volume());
    // --at G: the time of G threadgroups, every counter scaled by G / groups (each group's work
    // and data its own, as in a launch that grows with its input).
    Counters counted = first.report.counters;
    if (o.at) {
      const double f = double(o.at) / double(w.groups);
      counted = scale_counters(counted, f, f, prof);
      os << wrap(trf("explain.file_at", {std::to_string(o.at), std::to_string(w.groups)}), o.wide ? 1000 : 100)
         << "\n";
      w.groups = static_cast<std::uint64_t>(o.at);
    }
    const Estimate est = estimate(counted, w, prof);
    const SourceView view = source_view(first.report, 0, prof.name, est);
    std::string site = o.site;
    if (site.empty()) {
      const SiteCounters* s = pick_site(first.report, view.unit);
      if (!s) {
        err << error_line(first.report.kernel + " has no global or shared access to draw") << "\n";
        return 1;
      }
      site = internal::basename_of(s->file) + ":" + std::to_string(s->line) + ":" + std::to_string(s->column);
    }
    cfg.capture_site = site;
    catalog::Result r{run_file(o.file, sim, cfg, false).report, true, 0};
    if (!r.report.captured.present) {
      err << error_line("no warp instruction of " + r.report.kernel + " at " + site) << "\n";
      return 2;
    }
    const std::size_t width = o.wide ? 1000 : 100;
    const Device sim_dev(sim);
    return show(os, err, o, {first, r, r.report.kernel, site, est, view, prof, sim_dev, &tries, trying}, width);
  } catch (const internal::CacheError& e) {
    err << error_line(e.what()) << "\n";
    return 2;
  } catch (const internal::CompileError& e) {
    err << compile_error_text(e.what()) << error_line(o.file.file + " did not compile") << "\n";
    return 2;
  } catch (const UsageError& e) {
    err << error_line(e.what()) << "\n";
    return 2;
  }
}

int explain(std::ostream& os, std::ostream& err, const ExplainOptions& o) {
  auto prof = profiles::by_name(o.profile);
  if (!prof) {
    err << error_line("unknown profile '" + o.profile + "' (nvidia-h100, apple-m3, amd-cdna)") << "\n";
    return 2;
  }
  if (!o.file.file.empty()) return explain_file(os, err, o, *prof);
  if (o.sweep.empty() && !catalog::find(o.kernel)) {
    err << error_line(unknown_kernel_message(o.kernel)) << "\n";
    return 2;
  }
  // Estimates use the chosen profile; the simulation itself needs 32-wide warps.
  Device sim_dev(prof->warp_size == 32 ? *prof : profiles::nvidia_h100());
  if (prof->warp_size != 32)
    os << wrap(trf("explain.profile_note", {prof->name, std::to_string(prof->warp_size)}), o.wide ? 1000 : 100)
       << "\n";
  if (!o.sweep.empty()) return sweep(os, err, o, *prof, sim_dev);

  const catalog::Entry* e = catalog::find(o.kernel);
  catalog::RunOptions opt;
  opt.n = o.n;
  opt.threads = o.threads;
  set_progress(opt, true);
  catalog::Result first = catalog::run(sim_dev, o.kernel, opt);
  const Estimate est = catalog::predict(*e, first, *prof, o.at);
  const SourceView view = source_view(first.report, first.n, prof->name, est);
  std::string site = o.site;
  if (site.empty()) {
    const SiteCounters* s = pick_site(first.report, view.unit);
    if (!s) {
      err << error_line(o.kernel + " has no global or shared access to draw") << "\n";
      return 1;
    }
    site = internal::basename_of(s->file) + ":" + std::to_string(s->line) + ":" + std::to_string(s->column);
  }
  opt.capture_site = site;
  catalog::Result r = catalog::run(sim_dev, o.kernel, opt);
  const CapturedInstruction& c = r.report.captured;
  if (!c.present) {
    err << error_line("no warp instruction of " + o.kernel + " at " + site) << "\n";
    return 2;
  }
  const std::size_t width = o.wide ? 1000 : 100;
  return show(os, err, o, {first, r, o.kernel, site, est, view, *prof, sim_dev}, width);
}

}  // namespace tgsim::cli
