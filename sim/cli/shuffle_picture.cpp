// The shuffle picture (shuffle_picture.hpp).
#include "shuffle_picture.hpp"

#include <algorithm>
#include <bit>
#include <sstream>

#include "i18n.hpp"
#include "svg.hpp"
#include <tgsim/internal/text.hpp>

namespace tgsim::cli {

namespace {

constexpr std::size_t kMaxSteps = 16;  // steps shown, in words and drawn

bool same_lanes(const CapturedShuffle& a, const CapturedShuffle& b) {
  return a.op == b.op && a.mask == b.mask && std::equal(a.source, a.source + 32, b.source);
}

bool takes_part(const CapturedShuffle& s, int l) { return (s.mask >> l & 1u) != 0; }

// A lane's value comes from no lane that took part: a poison value.
bool poisoned(const CapturedShuffle& s, int l) {
  const int j = s.source[l];
  return j != l && (j < 0 || j > 31 || !takes_part(s, j));
}

// "0-15", "0-15, 20, 22-23" ("0-15、20、22-23" in Japanese).
std::string lane_ranges(std::uint32_t lanes) {
  std::string out;
  for (int l = 0; l < 32;) {
    if (!(lanes >> l & 1u)) {
      ++l;
      continue;
    }
    int e = l;
    while (e + 1 < 32 && (lanes >> (e + 1) & 1u)) ++e;
    out += (out.empty() ? "" : tr("list.sep")) + std::to_string(l) + (e > l ? "-" + std::to_string(e) : "");
    l = e + 1;
  }
  return out;
}

// The argument all lanes passed, or none.
bool uniform(const CapturedShuffle& s, const std::int32_t (&v)[32], std::int32_t* out) {
  bool first = true;
  for (int l = 0; l < 32; ++l) {
    if (!takes_part(s, l)) continue;
    if (!first && v[l] != *out) return false;
    *out = v[l];
    first = false;
  }
  return !first;
}

// How the reading lanes' sources follow from their lane, in words ("lanes 0-15 read lane l+16",
// "... lane 15 of their 16-lane segment"), or "" when no one rule fits.
std::string source_rule(const CapturedShuffle& s, std::uint32_t readers) {
  bool delta = true, ex = true, same = true, seg_same = true;
  const int f = __builtin_ctz(readers);
  const int w = s.width[f] >= 1 && s.width[f] <= 32 ? s.width[f] : 32;
  const int d = s.source[f] - f, x = s.source[f] ^ f, j = s.source[f], k = s.source[f] - (f & ~(w - 1));
  for (int l = 0; l < 32; ++l) {
    if (!(readers >> l & 1u)) continue;
    delta = delta && s.source[l] - l == d;
    ex = ex && (s.source[l] ^ l) == x;
    same = same && s.source[l] == j;
    seg_same = seg_same && s.width[l] == w && s.source[l] - (l & ~(w - 1)) == k;
  }
  const std::string lanes = lane_ranges(readers);
  const bool one = std::popcount(readers) == 1;
  auto reads = [&](const std::string& rule) { return trf(one ? "shfl.reads1" : "shfl.reads", {lanes, rule}); };
  if (same && !one) return reads(std::to_string(j));
  if (delta) return reads(d >= 0 ? "l+" + std::to_string(d) : "l-" + std::to_string(-d));
  if (ex) return reads("l^" + std::to_string(x));
  if (seg_same && w < 32) return trf("shfl.reads_segment", {lanes, std::to_string(k), std::to_string(w)});
  return "";
}

// "lanes 16-31 keep their own value", "lane 31 keeps its own value".
std::string lanes_say(const char* key, std::uint32_t lanes) {
  return trf(std::string(key) + (std::popcount(lanes) == 1 ? "1" : ""), {lane_ranges(lanes)});
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : tr("shfl.sep")) + p;
  return out;
}

}  // namespace

std::vector<ShuffleStep> shuffle_steps(const std::vector<CapturedShuffle>& shuffles) {
  std::vector<ShuffleStep> steps;
  for (const CapturedShuffle& s : shuffles) {
    if (!steps.empty() && same_lanes(steps.back().first(), s))
      steps.back().shuffles.push_back(&s);
    else
      steps.push_back({{&s}});
  }
  return steps;
}

std::string shuffle_step_arg(const ShuffleStep& st) {
  const CapturedShuffle& s = st.first();
  const std::string kind = s.op == "__shfl_xor_sync" ? "xor" : s.op == "__shfl_sync" ? "idx" : "offset";
  std::int32_t a = 0, w = 32;
  std::string arg = uniform(s, s.arg, &a) ? trf("shfl.arg." + kind, {std::to_string(a)}) : tr("shfl.per_lane." + kind);
  if (uniform(s, s.width, &w) && w != 32) arg += tr("shfl.comma") + trf("shfl.width", {std::to_string(w)});
  return arg;
}

std::string shuffle_step_lines(const ShuffleStep& st) {
  std::string lines;
  for (const CapturedShuffle* c : st.shuffles) {
    const bool same_file = c != st.shuffles.front() && c->file == st.first().file;
    lines += (lines.empty() ? "" : tr("list.sep")) + (same_file ? "" : internal::basename_of(c->file) + ":") +
             std::to_string(c->line);
  }
  return lines;
}

std::string shuffle_step_head(const ShuffleStep& st) {
  return st.first().op + tr("shfl.comma") + shuffle_step_arg(st) + trf("shfl.lines", {shuffle_step_lines(st)});
}

std::string shuffle_step_lanes(const ShuffleStep& st) {
  const CapturedShuffle& s = st.first();
  std::uint32_t readers = 0, own = 0, poison = 0;
  for (int l = 0; l < 32; ++l) {
    if (!takes_part(s, l)) continue;
    if (poisoned(s, l)) poison |= 1u << l;
    else if (s.source[l] == l) own |= 1u << l;
    else readers |= 1u << l;
  }
  std::vector<std::string> parts;
  if (readers) {
    std::string rule = source_rule(s, readers);
    if (rule.empty()) {
      std::string pairs;
      for (int l = 0; l < 32; ++l)
        if (readers >> l & 1u) pairs += (pairs.empty() ? "" : " ") + std::to_string(l) + "<-" + std::to_string(s.source[l]);
      rule = trf("shfl.reads_pairs", {pairs});
    }
    parts.push_back(rule);
  }
  if (own) parts.push_back(lanes_say("shfl.keep", own));
  if (poison) parts.push_back(lanes_say("shfl.poison", poison));
  if (s.mask != 0xFFFFFFFFu) parts.push_back(lanes_say("shfl.out", ~s.mask));
  return joined(parts) + tr("shfl.end");
}

std::string shuffle_text(const Report& r, std::size_t width, std::size_t indent) {
  if (r.shuffles.empty()) return "";
  const std::vector<ShuffleStep> steps = shuffle_steps(r.shuffles);
  const std::string pad(indent, ' ');
  std::string out = pad + wrap(trf(r.shuffles_total > r.shuffles.size() ? "shfl.head_cut" : "shfl.head",
                                   {std::to_string(r.shuffles.front().warp), std::to_string(r.shuffles.front().group),
                                    std::to_string(r.shuffles_total), std::to_string(steps.size()),
                                    std::to_string(r.shuffles.size())}),
                               width - indent, indent) +
                    "\n";
  const std::size_t shown = std::min<std::size_t>(steps.size(), kMaxSteps);
  for (std::size_t i = 0; i < shown; ++i) {
    const std::string number = std::to_string(i + 1) + ". ";
    const std::string line = number + shuffle_step_head(steps[i]) + tr("shfl.colon") + shuffle_step_lanes(steps[i]);
    out += pad + "  " + wrap(line, width - indent - 2, indent + 2 + number.size()) + "\n";
  }
  if (shown < steps.size()) out += pad + "  " + trf("shfl.more", {std::to_string(steps.size() - shown)}) + "\n";
  return out;
}

namespace {

constexpr int kLaneW = 34, kX0 = 200, kTop = 84, kRowH = 22, kStepH = 96;
constexpr int kMaxDrawn = static_cast<int>(kMaxSteps);

int lane_x(int l) { return kX0 + l * kLaneW + (kLaneW - 4) / 2; }

// Row `k` of lanes (0: before the first step; k: after step k, coloured by what step k did).
void lane_row(std::ostringstream& s, int y, const CapturedShuffle* after) {
  for (int l = 0; l < 32; ++l) {
    const char* fill = "#ffffff";
    const char* stroke = "#335";
    if (after) {
      if (!takes_part(*after, l)) fill = "#f4f4f4", stroke = "#bbb";
      else if (poisoned(*after, l)) fill = "#f6c9c9", stroke = "#b22";
      else if (after->source[l] != l) fill = "#dde8f5";
    }
    s << "<rect x='" << kX0 + l * kLaneW << "' y='" << y << "' width='" << kLaneW - 4 << "' height='" << kRowH
      << "' fill='" << fill << "' stroke='" << stroke << "'/><text x='" << lane_x(l) << "' y='" << y + 15
      << "' text-anchor='middle'>" << l << "</text>\n";
  }
}

// One step: its label on the left, an arrow from each lane read to the lane reading it.
void step_arrows(std::ostringstream& s, int k, int y_from, int y_to, const ShuffleStep& st) {
  const CapturedShuffle& c = st.first();
  s << "<g class='shuffle-step' data-step='" << k << "' data-op='" << c.op << "'>\n";
  const int ty = (y_from + y_to) / 2 - 14;
  s << "<text x='20' y='" << ty << "' font-size='12' font-weight='bold'>" << k << ". "
    << internal::xml_escape(c.op) << "</text>\n";
  s << "<text x='20' y='" << ty + 15 << "' font-size='11'>" << internal::xml_escape(shuffle_step_arg(st)) << "</text>\n";
  s << "<text x='20' y='" << ty + 30 << "' font-size='11' fill='#555'>" << internal::xml_escape(shuffle_step_lines(st))
    << "</text>\n";
  for (int l = 0; l < 32; ++l) {
    const int j = c.source[l];
    if (!takes_part(c, l) || j == l || j < 0 || j > 31) continue;
    const bool bad = poisoned(c, l);
    s << "<line x1='" << lane_x(j) << "' y1='" << y_from << "' x2='" << lane_x(l) << "' y2='" << y_to
      << "' stroke='" << (bad ? "#b22" : "#d95f02") << "' stroke-width='1.2' marker-end='url(#sh)'"
      << (bad ? " stroke-dasharray='4,3'" : "") << "/>\n";
  }
  s << "</g>\n";
}

}  // namespace

std::string shuffle_svg(const std::string& title, const Report& r) {
  const std::vector<ShuffleStep> steps = shuffle_steps(r.shuffles);
  const int drawn = std::min<int>(kMaxDrawn, static_cast<int>(steps.size()));
  const int W = kX0 + 32 * kLaneW + 20, H = kTop + kRowH + drawn * kStepH + 50;
  const std::uint32_t warp = r.shuffles.empty() ? 0 : r.shuffles.front().warp;
  const std::uint64_t group = r.shuffles.empty() ? 0 : r.shuffles.front().group;
  std::string note = trf("pic.shuffle.note", {fmt3(double(r.counters.shfl)), std::to_string(warp), std::to_string(group),
                                              std::to_string(r.shuffles_total), std::to_string(steps.size())});
  if (drawn < static_cast<int>(steps.size()) || r.shuffles_total > r.shuffles.size())
    note += trf("pic.shuffle.cut", {std::to_string(drawn)});
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H
    << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  s << "<text x='20' y='28' font-size='17' font-weight='bold'>" << internal::xml_escape(title) << "</text>\n";
  s << "<text x='20' y='50' font-size='12' fill='#444'>" << internal::xml_escape(note) << "</text>\n";
  s << "<defs><marker id='sh' markerWidth='8' markerHeight='8' refX='6' refY='3' orient='auto'>"
    << "<path d='M0,0 L6,3 L0,6 z' fill='#d95f02'/></marker></defs>\n";
  s << "<text x='20' y='" << kTop + 15 << "' font-size='12'>" << internal::xml_escape(tr("svg.lanes")) << "</text>\n";
  lane_row(s, kTop, nullptr);
  for (int k = 1; k <= drawn; ++k) {
    const int y_prev = kTop + (k - 1) * kStepH, y = kTop + k * kStepH;
    step_arrows(s, k, y_prev + kRowH, y - 4, steps[k - 1]);
    lane_row(s, y, &steps[k - 1].first());
  }
  s << "<text x='20' y='" << H - 14 << "' font-size='12'>" << internal::xml_escape(tr("svg.shuffle.end")) << "</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace tgsim::cli
