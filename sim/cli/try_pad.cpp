// Pads of conflicted shared arrays tried on a user's kernel FILE (try_pad.hpp says how).
#include "try_pad.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>

#include <tgsim/estimate.hpp>
#include <tgsim/kernel/abi.h>
#include <tgsim/models.hpp>

#include <tgsim/internal/compile.hpp>
#include <tgsim/internal/text.hpp>

#include "i18n.hpp"
#include "try_swap.hpp"

namespace tgsim::cli {

namespace fs = std::filesystem;
using internal::with_commas;

namespace {

std::uint64_t conflicts_of(const Counters& c) { return c.shared_load.bank_conflicts() + c.shared_store.bank_conflicts(); }

// The line's shared site with the most wavefronts above its ideal, or nullptr.
const SiteCounters* worst_shared_site(const LineCost& l) {
  const SiteCounters* best = nullptr;
  std::uint64_t excess = 0;
  for (const SiteCounters& s : l.sites) {
    if (s.kind != SiteKind::kSharedLoad && s.kind != SiteKind::kSharedStore) continue;
    const std::uint64_t e = s.counters.wavefronts - std::min(s.counters.wavefronts, s.counters.ideal_wavefronts);
    if (e > excess) {
      excess = e;
      best = &s;
    }
  }
  return best;
}

// The shared array (with a size and dimensions) every active lane of `c` falls in, or nullptr.
const tgsim_shared_desc* array_of(const tgsim_kernel_desc& k, const CapturedInstruction& c) {
  for (unsigned i = 0; i < k.nshared; ++i) {
    const tgsim_shared_desc& a = k.shared[i];
    if (a.bytes == 0 || a.rank == 0 || a.elem_bytes == 0) continue;
    bool inside = c.mask != 0;
    for (int l = 0; l < 32 && inside; ++l)
      if ((c.mask >> l) & 1u) inside = c.addr[l] >= a.offset && c.addr[l] + c.width <= a.offset + a.bytes;
    if (inside) return &a;
  }
  return nullptr;
}

// `c` with the rows of `a` (its last dimension, `inner` elements) `inner + pad` apart.
CapturedInstruction padded_lanes(const CapturedInstruction& c, const tgsim_shared_desc& a, std::uint64_t inner,
                                 std::uint64_t pad) {
  CapturedInstruction out = c;
  for (int l = 0; l < 32; ++l) {
    if (!((c.mask >> l) & 1u)) continue;
    const std::uint64_t off = c.addr[l] - a.offset, e = off / a.elem_bytes;
    out.addr[l] = a.offset + ((e / inner) * (inner + pad) + e % inner) * a.elem_bytes + off % a.elem_bytes;
  }
  return out;
}

// Wavefronts of `c` were the rows of `a` (its last dimension, `inner` elements) `inner + pad` apart.
std::uint64_t wavefronts_padded(const CapturedInstruction& c, const tgsim_shared_desc& a, std::uint64_t inner,
                                std::uint64_t pad) {
  const CapturedInstruction p = padded_lanes(c, a, inner, pad);
  const model::WarpAccess w{p.mask, p.width, p.addr};
  return model::shared_wavefronts(w, p.kind == SiteKind::kSharedLoad).wavefronts;
}

// One conflicted line's recorded access to an array: its captured warp instruction and the
// warp instructions of its site, which weigh it.
struct Seen {
  const tgsim_shared_desc* array;
  CapturedInstruction c;
  std::uint64_t weight;
};

// The pad to try for `seen` (the lines of one array): the smallest of 1..32 with the fewest
// wavefronts over them, each weighed by its site's instructions; 1 when none has fewer than
// today (the model sees no pad that helps: the re-run shows that the usual one does not).
std::uint32_t choose_pad(const std::vector<Seen>& seen) {
  const tgsim_shared_desc& a = *seen.front().array;
  const std::uint64_t inner = a.extents[a.rank - 1];
  auto total = [&](std::uint64_t p) {
    std::uint64_t w = 0;
    for (const Seen& s : seen) w += s.weight * wavefronts_padded(s.c, a, inner, p);
    return w;
  };
  std::uint64_t best = total(0);
  std::uint32_t pad = 1;
  for (std::uint32_t p = 1; p <= 32; ++p)
    if (const std::uint64_t w = total(p); w < best) {
      best = w;
      pad = p;
    }
  return pad;
}

std::string dims(const tgsim_shared_desc& a, std::uint32_t pad) {
  std::string s;
  for (unsigned d = 0; d < a.rank; ++d) s += "[" + std::to_string(a.extents[d] + (d + 1 == a.rank ? pad : 0)) + "]";
  return s;
}

// `text` with the last dimension of the declaration of `name` on line `line` (1-based) padded by
// `pad`: "[T + 2]" -> "[(T + 2) + 30]" (the line keeps its number); "" when the line does not
// declare it with `rank` dimensions.
std::string padded_source(const std::string& text, unsigned line, const std::string& name, unsigned rank,
                          std::uint32_t pad) {
  std::size_t begin = 0;
  for (unsigned l = 1; l < line && begin != std::string::npos; ++l) {
    begin = text.find('\n', begin);
    if (begin != std::string::npos) ++begin;
  }
  if (begin == std::string::npos) return "";
  const std::size_t end = std::min(text.find('\n', begin), text.size());
  auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (std::size_t at = text.find(name, begin); at != std::string::npos && at < end; at = text.find(name, at + 1)) {
    if ((at > 0 && ident(text[at - 1])) || ident(text[at + name.size()])) continue;
    std::size_t p = at + name.size(), open = 0, close = 0;
    unsigned groups = 0;
    for (;;) {
      while (p < end && (text[p] == ' ' || text[p] == '\t')) ++p;
      if (p >= end || text[p] != '[') break;
      int depth = 0;
      std::size_t q = p;
      for (; q < end; ++q) {
        depth += text[q] == '[' ? 1 : text[q] == ']' ? -1 : 0;
        if (depth == 0) break;
      }
      if (q >= end) return "";
      open = p;
      close = q;
      ++groups;
      p = q + 1;
    }
    if (groups != rank) continue;
    const std::string inner = text.substr(open + 1, close - open - 1);
    return text.substr(0, open + 1) + "(" + inner + ") + " + std::to_string(pad) + text.substr(close);
  }
  return "";
}

LaunchConfig quiet(LaunchConfig cfg) {
  cfg.progress = false;
  cfg.print_out = [](std::string_view) {};  // the kernel's printf was shown by the advised run
  cfg.capture_site.clear();
  return cfg;
}


// The launch re-run with `a` padded by `pad`, compared with the advised run.
void rerun(const TryContext& c, const tgsim_shared_desc& a, PadTry& t) {
  const std::string text = padded_source(read_text(c.file.file), a.line, a.name, a.rank, t.pad);
  if (text.empty()) {  // not declared on its line as the debug info says (a macro, several lines)
    t.failed = "undeclared";
    return;
  }
  try {
    const FileRun r = run_copy(c, c.file, text, "pad");
    t.conflicts_after = conflicts_of(r.report.counters);
    t.time_after_ms = file_estimate(r.report, c.estimate).time_ms();
    t.failed =
        rerun_verdict("conflicts", t.conflicts_before, t.conflicts_after, t.time_before_ms, t.time_after_ms, r, c);
  } catch (const std::exception&) {  // too much shared memory, a compile error of the copy, no cache
    t.failed = "error";
  }
}

}  // namespace

std::string rerun_verdict(const std::string& target, std::uint64_t before, std::uint64_t after, double time_before_ms,
                          double time_after_ms, const FileRun& rerun, const TryContext& c) {
  if (after >= before) return target;
  if (!same_buffers(rerun, c.first)) return "results";
  if (rerun.report.findings.size() > c.first.report.findings.size()) return "findings";
  if (time_after_ms > time_before_ms * 1.0001) return "slower";  // a rounding's worth of growth is no change
  return "";
}

CapturedInstruction capture_site(const TryContext& c, const SiteCounters& s) {
  LaunchConfig cfg = quiet(c.cfg);
  cfg.cache_model = false;  // the lanes' addresses are all it needs
  cfg.capture_site = internal::basename_of(s.file) + ":" + std::to_string(s.line) + ":" + std::to_string(s.column);
  return run_file(c.file, c.sim, cfg, false).report.captured;
}

std::string read_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool same_buffers(const FileRun& a, const FileRun& b) {
  bool same = a.buffers.size() == b.buffers.size();
  for (std::size_t i = 0; same && i < a.buffers.size(); ++i) same = a.buffers[i].bytes == b.buffers[i].bytes;
  return same;
}

FileRun run_copy(const TryContext& c, FileLaunch f, const std::string& text, const std::string& tag) {
  const std::string copy_text = internal::line_directive(1, fs::absolute(c.file.file).lexically_normal().string()) + text;
  const fs::path dir = fs::path(internal::secure_cache_dir()) / (tag + "-" + internal::content_hash(copy_text));
  struct Remove {  // the copy goes whatever the run does
    fs::path dir;
    ~Remove() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } remove{dir};
  std::error_code ec;
  const fs::path copy = dir / fs::path(c.file.file).filename();
  fs::create_directory(dir, ec);
  fs::permissions(dir, fs::perms::owner_all, ec);
  {
    std::ofstream out(copy, std::ios::binary);
    out << copy_text;
  }
  f.file = copy.string();
  f.include_dirs.insert(f.include_dirs.begin(), fs::absolute(c.file.file).parent_path().string());
  f.save.clear();
  f.expect.clear();
  return run_file(f, c.sim, quiet(c.cfg), true);
}

Estimate file_estimate(const Report& r, const DeviceProfile& p) {
  Workload w;
  w.groups = r.grid.volume();
  w.threads_per_group = static_cast<std::uint32_t>(r.block.volume());
  return estimate(r.counters, w, p);
}

void add_pad_tries(std::vector<Advice>& advice, const SourceView& v, const TryContext& c) {
  const tgsim_kernel_desc& k = file_kernel(c.file);
  const std::string given = fs::path(c.file.file).filename().string();
  // Each "pad" line's recorded access (one capture run each), by the array it falls in.
  std::vector<std::pair<std::size_t, Seen>> lines;
  std::vector<std::string> arrays;  // in the order of the advice (the costliest first)
  for (std::size_t i = 0; i < advice.size(); ++i) {
    if (advice[i].rule != "pad") continue;
    const auto l = std::find_if(v.lines.begin(), v.lines.end(), [&](const LineCost& x) {
      return x.file == advice[i].file && x.line == advice[i].line;
    });
    const SiteCounters* s = l == v.lines.end() ? nullptr : worst_shared_site(*l);
    if (!s) continue;
    const CapturedInstruction cap = capture_site(c, *s);
    const tgsim_shared_desc* a = cap.present ? array_of(k, cap) : nullptr;
    // Only an array FILE itself declares (the copy rewrites FILE, never a header).
    if (!a || !a->file || fs::path(a->file).filename() != given) continue;
    lines.push_back({i, {a, cap, s->counters.instructions}});
    if (std::find(arrays.begin(), arrays.end(), a->name) == arrays.end()) arrays.push_back(a->name);
  }
  // One re-run per array, its pad chosen for all its lines, shown on each of them.
  for (std::size_t n = 0; n < arrays.size() && n < kMaxTries; ++n) {
    std::vector<Seen> seen;
    for (const auto& [i, x] : lines)
      if (x.array->name == arrays[n]) seen.push_back(x);
    const tgsim_shared_desc& a = *seen.front().array;
    PadTry t;
    t.array = a.name;
    t.pad = choose_pad(seen);
    t.from = dims(a, 0);
    t.to = dims(a, t.pad);
    t.conflicts_before = conflicts_of(c.first.report.counters);
    t.time_before_ms = file_estimate(c.first.report, c.estimate).time_ms();
    rerun(c, a, t);
    if (t.failed == "undeclared") continue;
    for (const auto& [i, x] : lines)
      if (x.array->name == arrays[n]) advice[i].tried.push_back(t);
  }
}

std::vector<TilePanel> file_tile_panels(const TryContext& c, const CapturedInstruction& drawn,
                                        const std::vector<Advice>& advice) {
  CapturedInstruction cap = drawn;
  if (!cap.present || (cap.kind != SiteKind::kSharedLoad && cap.kind != SiteKind::kSharedStore)) {
    const SiteCounters* best = nullptr;  // the shared site with the most wavefronts
    for (const SiteCounters& s : c.first.report.sites)
      if ((s.kind == SiteKind::kSharedLoad || s.kind == SiteKind::kSharedStore) &&
          (!best || s.counters.wavefronts > best->counters.wavefronts))
        best = &s;
    if (!best) return {};
    cap = capture_site(c, *best);
  }
  const tgsim_kernel_desc& k = file_kernel(c.file);
  const tgsim_shared_desc* a = cap.present ? array_of(k, cap) : nullptr;
  if (!a || a->rank < 2 || a->elem_bytes != 4) return {};
  const std::uint64_t cols = a->extents[a->rank - 1], rows = a->bytes / 4 / cols;
  if (cols > 64 || rows > 64) return {};
  auto panel = [&](const CapturedInstruction& x, std::uint32_t pad, const std::string& note) {
    TilePanel t;
    t.c = x;
    t.rows = static_cast<int>(rows);
    t.cols = static_cast<int>(cols + pad);
    t.base = a->offset;
    t.array = a->name;
    t.label = std::string(k.name) + ": " + a->name + dims(*a, pad) + note;
    return t;
  };
  std::vector<TilePanel> out = {panel(cap, 0, "")};
  for (const Advice& adv : advice)
    for (const PadTry& t : adv.tried)
      if (t.array == a->name && t.helps() && out.size() == 1)
        out.push_back(panel(padded_lanes(cap, *a, cols, t.pad), t.pad,
                            trf("pic.file_padded", {with_commas(t.conflicts_before), with_commas(t.conflicts_after)})));
  return out;
}

std::string tried_text(const PadTry& t) {
  const std::vector<std::string> args = {t.array + t.from, t.array + t.to, with_commas(t.conflicts_before),
                                         with_commas(t.conflicts_after),
                                         std::to_string(static_cast<int>(std::lround(
                                             t.time_before_ms > 0 ? 100 * t.time_after_ms / t.time_before_ms : 100)))};
  if (t.failed == "error") return trf("try.error", args);
  return trf(t.helps() ? "try.helps" : "try.no_help", args) + (t.helps() ? "" : " " + tr("try.why." + t.failed));
}

std::vector<Advice> file_advice(const FileLaunch& f, const FileRun& r, const DeviceProfile& prof,
                                const LaunchConfig& cfg, bool try_pads, SourceView* view_out) {
  const Estimate est = file_estimate(r.report, prof);
  SourceView v = source_view(r.report, 0, prof.name, est);
  const catalog::Result first{r.report, true, 0};
  std::vector<Advice> advice = advise(v, first, prof, Device(prof), cfg.threads);
  if (try_pads) {
    add_pad_tries(advice, v, {f, r, prof, prof, cfg});
    add_swap_tries(advice, v, {f, r, prof, prof, cfg});
  }
  if (view_out) *view_out = std::move(v);
  return advice;
}

void write_advice_text(std::ostream& os, const SourceView& v, const std::vector<Advice>& advice,
                       const std::string& given) {
  if (advice.empty()) {
    os << tr("advice.none") << "\n";
    return;
  }
  os << tr("src.rules") << "\n";
  for (std::size_t i = 0; i < advice.size(); ++i) {
    const Advice& a = advice[i];
    const auto l = std::find_if(v.lines.begin(), v.lines.end(),
                                [&](const LineCost& x) { return x.file == a.file && x.line == a.line; });
    os << wrap(std::to_string(i + 1) + ". " + shown_path(a.file, given) + ":" + std::to_string(a.line) + "  " +
                   rule_title(a),
               100, 3)
       << "\n";
    if (l != v.lines.end()) os << wrap("   " + rule_text(a, *l), 100, 3) << "\n";
  }
}

nlohmann::ordered_json advice_json(const SourceView& v, const std::vector<Advice>& advice, const std::string& given) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Advice& a : advice) {
    nlohmann::ordered_json j;
    j["file"] = shown_path(a.file, given);
    j["line"] = a.line;
    j["rule"] = a.rule;
    const auto l = std::find_if(v.lines.begin(), v.lines.end(),
                                [&](const LineCost& x) { return x.file == a.file && x.line == a.line; });
    j["share"] = l == v.lines.end() ? 0.0 : l->share;
    j["tried"] = nlohmann::ordered_json::array();
    for (const PadTry& t : a.tried) {
      nlohmann::ordered_json x;
      x["array"] = t.array;
      x["from"] = t.array + t.from;
      x["to"] = t.array + t.to;
      x["pad"] = t.pad;
      x["conflicts_before"] = t.conflicts_before;
      x["conflicts_after"] = t.conflicts_after;
      x["time_before_ms"] = t.time_before_ms;
      x["time_after_ms"] = t.time_after_ms;
      x["helps"] = t.helps();
      x["failed"] = t.failed.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(t.failed);
      j["tried"].push_back(x);
    }
    j["swapped"] = nlohmann::ordered_json::array();
    for (const SwapTry& t : a.swapped) j["swapped"].push_back(swap_json(t));
    out.push_back(j);
  }
  return out;
}

}  // namespace tgsim::cli
