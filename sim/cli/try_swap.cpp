// The x and y thread mapping swapped on a user's kernel FILE for an uncoalesced global load
// (try_swap.hpp says when and how).
#include "try_swap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>

#include <tgsim/internal/text.hpp>

#include "file_kernel.hpp"
#include "i18n.hpp"

namespace tgsim::cli {

namespace fs = std::filesystem;
using internal::with_commas;

namespace {

std::string with_commas_signed(std::int64_t v) {
  return (v < 0 ? "-" : "") + with_commas(static_cast<std::uint64_t>(v < 0 ? -v : v));
}

std::uint64_t global_sectors(const Counters& c) { return c.global_load.sectors + c.global_store.sectors; }

// The line's global access of `kind` (a load, a store) with the most sectors above what its bytes
// need, or nullptr.
const SiteCounters* worst_global_access(const LineCost& l, SiteKind kind) {
  const SiteCounters* best = nullptr;
  double excess = 0;
  for (const SiteCounters& s : l.sites) {
    const AccessCounters& c = s.counters;
    if (s.kind != kind || c.instructions == 0) continue;
    const double need = double(c.instructions) * std::max(1.0, std::ceil(double(c.bytes) / double(c.instructions) / 32));
    if (const double e = double(c.sectors) - need; e > excess) {
      excess = e;
      best = &s;
    }
  }
  return best;
}

// A token of C++ source: an identifier or one punctuation character (comments, string and
// character literals, numbers and white space are skipped).
struct Token {
  std::size_t at = 0, size = 0;
  bool ident = false;
};

bool ident_start(char ch) { return std::isalpha(static_cast<unsigned char>(ch)) || ch == '_'; }
bool ident_char(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }

// The end of the literal or comment starting at `i`, or `i` when none starts there.
std::size_t skip_literal(const std::string& s, std::size_t i) {
  const std::size_t n = s.size();
  if (s.compare(i, 2, "//") == 0) return std::min(n, s.find('\n', i) == std::string::npos ? n : s.find('\n', i));
  if (s.compare(i, 2, "/*") == 0) {
    const std::size_t e = s.find("*/", i + 2);
    return e == std::string::npos ? n : e + 2;
  }
  if (s[i] == '"' || (s[i] == '\'' && (i == 0 || !ident_char(s[i - 1])))) {
    std::size_t j = i + 1;
    while (j < n && s[j] != s[i] && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
    return std::min(n, j + 1);
  }
  if (std::isdigit(static_cast<unsigned char>(s[i]))) {  // a pp-number: 1.5f, 0x1p-3, 1'000
    std::size_t j = i + 1;
    while (j < n && (ident_char(s[j]) || s[j] == '.' || s[j] == '\'' ||
                     ((s[j] == '+' || s[j] == '-') && std::strchr("eEpP", s[j - 1]))))
      ++j;
    return j;
  }
  return i;
}

std::vector<Token> tokens(const std::string& s) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < s.size();) {
    if (const std::size_t e = skip_literal(s, i); e != i) {
      i = e;
    } else if (ident_start(s[i])) {
      std::size_t j = i + 1;
      while (j < s.size() && ident_char(s[j])) ++j;
      out.push_back({i, j - i, true});
      i = j;
    } else {
      if (!std::isspace(static_cast<unsigned char>(s[i]))) out.push_back({i, 1, false});
      ++i;
    }
  }
  return out;
}

// Exchanges x and y in the member (or swizzle) after token `i` of `toks` when it is `.` and
// letters of xyzw; returns whether anything changed.
bool swap_member(std::string& s, const std::vector<Token>& toks, std::size_t i, bool swizzle) {
  if (i + 2 >= toks.size() || toks[i + 1].ident || s[toks[i + 1].at] != '.' || !toks[i + 2].ident) return false;
  const Token& m = toks[i + 2];
  const std::string member = s.substr(m.at, m.size);
  if ((!swizzle && member != "x" && member != "y") || member.find_first_not_of("xyzw") != std::string::npos)
    return false;
  bool changed = false;
  for (std::size_t k = m.at; k < m.at + m.size; ++k)
    if (s[k] == 'x' || s[k] == 'y') {
      s[k] = s[k] == 'x' ? 'y' : 'x';
      changed = true;
    }
  return changed;
}

std::string text_of(const std::string& s, const Token& t) { return s.substr(t.at, t.size); }

bool punct(const std::string& s, const std::vector<Token>& toks, std::size_t i, char ch) {
  return i < toks.size() && !toks[i].ident && s[toks[i].at] == ch;
}

// CUDA: threadIdx.x <-> threadIdx.y and the same for blockIdx, blockDim and gridDim, wherever
// they are not a member of something else (a.threadIdx.x).
bool swap_cuda(std::string& s, const std::vector<Token>& toks) {
  static const std::set<std::string> builtins = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  bool changed = false;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    if (!toks[i].ident || !builtins.count(text_of(s, toks[i]))) continue;
    if (i > 0 && (punct(s, toks, i - 1, '.') || punct(s, toks, i - 1, '>'))) continue;
    changed = swap_member(s, toks, i, false) || changed;
  }
  return changed;
}

// Metal: inside each kernel, the .x/.y of its parameters with a position attribute. Returns
// false when one of them is a scalar (the kernel reads one dimension: nothing to swap).
bool swap_metal(std::string& s, const std::vector<Token>& toks, bool& changed) {
  static const std::set<std::string> positions = {
      "thread_position_in_grid", "thread_position_in_threadgroup", "threadgroup_position_in_grid",
      "threads_per_threadgroup", "threadgroups_per_grid",          "threads_per_grid",
      "grid_size",               "dispatch_threads_per_threadgroup"};
  for (std::size_t j = 2; j + 3 < toks.size(); ++j) {
    if (!punct(s, toks, j, '[') || !punct(s, toks, j + 1, '[') || !toks[j + 2].ident ||
        !positions.count(text_of(s, toks[j + 2])) || !toks[j - 1].ident || !toks[j - 2].ident)
      continue;
    const std::string name = text_of(s, toks[j - 1]), type = text_of(s, toks[j - 2]);
    if (type.back() != '2' && type.back() != '3') return false;
    std::size_t open = j;  // the kernel's body: the first { after the attribute, to its }
    while (open < toks.size() && !punct(s, toks, open, '{')) ++open;
    int depth = 0;
    for (std::size_t i = open; i < toks.size(); ++i) {
      depth += punct(s, toks, i, '{') ? 1 : punct(s, toks, i, '}') ? -1 : 0;
      if (toks[i].ident && text_of(s, toks[i]) == name && !punct(s, toks, i - 1, '.'))
        changed = swap_member(s, toks, i, true) || changed;
      if (depth == 0 && i > open) break;
    }
  }
  return true;
}

std::string dims_text(const std::string& given, const char* what, bool swap) {
  if (given.empty()) return "";
  Dim3 d = parse_dim3(given, what);
  if (swap) std::swap(d.x, d.y);
  return std::to_string(d.x) + "," + std::to_string(d.y) + (d.z > 1 ? "," + std::to_string(d.z) : "");
}

// The launch re-run with the mapping swapped, compared with the advised run.
void rerun(const TryContext& c, SwapTry& t) {
  try {
    const std::string ext = fs::path(c.file.file).extension().string();
    const std::optional<std::string> text = swapped_source(read_text(c.file.file), ext == ".metal");
    if (!text) {
      t.failed = "unchanged";
      return;
    }
    FileLaunch f = c.file;
    f.grid = t.grid_to;
    f.block = t.block_to;
    f.grid_threads = dims_text(c.file.grid_threads, "--threads-in-grid", true);
    const FileRun r = run_copy(c, f, *text, "swap");
    t.sectors_after = global_sectors(r.report.counters);
    t.time_after_ms = file_estimate(r.report, c.estimate).time_ms();
    t.failed = rerun_verdict("sectors", t.sectors_before, t.sectors_after, t.time_before_ms, t.time_after_ms, r, c);
  } catch (const std::exception&) {  // the copy did not compile, the swapped block is too large...
    t.failed = "error";
  }
}

}  // namespace

LaneStrides lane_strides(const CapturedInstruction& c, const Dim3& block) {
  LaneStrides out;
  auto at = [&](int lane) { return unlinearise(std::uint64_t(c.warp) * 32 + lane, block); };
  for (int a = 0; a < 32; ++a) {
    if (!((c.mask >> a) & 1u)) continue;
    const Dim3 p = at(a);
    for (int b = a + 1; b < 32; ++b) {
      if (!((c.mask >> b) & 1u)) continue;
      const Dim3 q = at(b);
      const std::int64_t d = std::int64_t(c.addr[b]) - std::int64_t(c.addr[a]);
      if (!out.x_seen && q.y == p.y && q.z == p.z && q.x == p.x + 1) {
        out.x_seen = true;
        out.x = d;
      }
      if (!out.y_seen && q.x == p.x && q.z == p.z && q.y == p.y + 1) {
        out.y_seen = true;
        out.y = d;
      }
    }
  }
  return out;
}

bool swap_worth_trying(const LaneStrides& s, std::uint32_t width, const Dim3& block) {
  if (block.y < 2 || !s.x_seen) return false;  // a group of one row: its threads have no y to give x
  return std::llabs(s.x) > std::int64_t(width) && (!s.y_seen || std::llabs(s.y) < std::llabs(s.x));
}

std::optional<std::string> swapped_source(const std::string& text, bool metal) {
  std::string s = text;
  const std::vector<Token> toks = tokens(text);
  bool changed = false;
  if (metal) {
    if (!swap_metal(s, toks, changed)) return std::nullopt;
  } else {
    changed = swap_cuda(s, toks);
  }
  if (!changed) return std::nullopt;
  return s;
}

void add_swap_tries(std::vector<Advice>& advice, const SourceView& v, const TryContext& c) {
  const Dim3 block = c.first.report.block;
  std::optional<SwapTry> tried;  // one re-run for the kernel, on the costliest line that calls for it
  for (Advice& a : advice) {
    if (a.rule != "coalesce" && a.rule != "coalesce_store") continue;
    if (!tried) {
      const auto l = std::find_if(v.lines.begin(), v.lines.end(),
                                  [&](const LineCost& x) { return x.file == a.file && x.line == a.line; });
      const bool store = a.rule == "coalesce_store";
      const SiteKind kind = store ? SiteKind::kGlobalStore : SiteKind::kGlobalLoad;
      const SiteCounters* s = l == v.lines.end() ? nullptr : worst_global_access(*l, kind);
      if (!s) continue;
      const CapturedInstruction cap = capture_site(c, *s);
      if (!cap.present) continue;
      const LaneStrides strides = lane_strides(cap, block);
      if (!swap_worth_trying(strides, cap.width, block)) continue;
      SwapTry t;
      t.store = store;
      t.stride_x = strides.x;
      t.stride_y = strides.y;
      t.y_seen = strides.y_seen;
      t.grid_from = dims_text(c.file.grid, "--grid", false);
      t.block_from = dims_text(c.file.block, "--block", false);
      t.grid_to = dims_text(c.file.grid, "--grid", true);
      t.block_to = dims_text(c.file.block, "--block", true);
      t.sectors_before = global_sectors(c.first.report.counters);
      t.time_before_ms = file_estimate(c.first.report, c.estimate).time_ms();
      rerun(c, t);
      if (t.failed == "unchanged") return;  // nothing in FILE reads the thread's x or y
      tried = t;
    }
    a.swapped.push_back(*tried);
  }
}

std::string swap_text(const SwapTry& t) {
  const std::vector<std::string> args = {
      t.grid_from, t.grid_to, t.block_from, t.block_to, with_commas(t.sectors_before), with_commas(t.sectors_after),
      std::to_string(std::lround(t.time_before_ms > 0 ? 100 * t.time_after_ms / t.time_before_ms : 100))};
  if (t.failed == "error") return trf("swap.error", args);
  return trf(t.helps() ? "swap.helps" : "swap.no_help", args) + (t.helps() ? "" : " " + tr("swap.why." + t.failed));
}

std::string swap_strides_text(const SwapTry& t) {
  const std::string key = t.store ? "swap.strides_store" : "swap.strides";
  return t.y_seen ? trf(key + ".xy", {with_commas_signed(t.stride_x), with_commas_signed(t.stride_y)})
                  : trf(key + ".x", {with_commas_signed(t.stride_x)});
}

nlohmann::ordered_json swap_json(const SwapTry& t) {
  nlohmann::ordered_json x;
  x["grid_from"] = t.grid_from;
  x["grid_to"] = t.grid_to;
  x["block_from"] = t.block_from;
  x["block_to"] = t.block_to;
  x["stride_x_bytes"] = t.stride_x;
  x["stride_y_bytes"] = t.y_seen ? nlohmann::ordered_json(t.stride_y) : nlohmann::ordered_json(nullptr);
  x["sectors_before"] = t.sectors_before;
  x["sectors_after"] = t.sectors_after;
  x["time_before_ms"] = t.time_before_ms;
  x["time_after_ms"] = t.time_after_ms;
  x["helps"] = t.helps();
  x["failed"] = t.failed.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(t.failed);
  x["access"] = t.store ? "store" : "load";  // the access whose lanes were captured
  return x;
}

}  // namespace tgsim::cli
