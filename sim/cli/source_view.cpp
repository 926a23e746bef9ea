#include "source_view.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#include "i18n.hpp"
#include "rules.hpp"
#include <tgsim/internal/text.hpp>

namespace tgsim::cli {

using internal::fixed;

using internal::with_commas;

namespace {

bool is_global(SiteKind k) {
  return k == SiteKind::kGlobalLoad || k == SiteKind::kGlobalStore || k == SiteKind::kGlobalAtomic;
}
bool is_shared(SiteKind k) {
  return k == SiteKind::kSharedLoad || k == SiteKind::kSharedStore || k == SiteKind::kSharedAtomic;
}

std::string pct(double share) { return fixed(100.0 * share, 1) + "%"; }

// "kind" words of a line's sites: "ld.global st.shared".
std::string kinds(const LineCost& l) {
  std::string s;
  for (const SiteCounters& x : l.sites) {
    std::string k = to_string(x.kind);
    if (s.find(k) == std::string::npos) s += (s.empty() ? "" : " ") + k;
  }
  return s;
}

}  // namespace

double site_cost(const SiteCounters& s, const std::string& unit) {
  const AccessCounters& c = s.counters;
  if (unit == "latency") return s.kind == SiteKind::kGlobalLoad ? double(c.instructions) : 0.0;
  if (unit == "l2" || unit == "dram") {
    if (s.kind == SiteKind::kGlobalLoad) return double(c.sectors - std::min(c.sectors, c.l1_hit_sectors));
    return is_global(s.kind) ? double(c.sectors) : 0.0;
  }
  // l1: what estimate.cpp counts as L1 wavefronts.
  if (is_global(s.kind)) return double(c.sectors);
  if (s.kind == SiteKind::kSharedAtomic) return double(c.instructions);
  if (is_shared(s.kind)) return double(c.wavefronts);
  return 0.0;
}

SourceView source_view(const Report& r, int n, const std::string& profile, const Estimate& e) {
  SourceView v;
  v.kernel = r.kernel;
  v.n = n;
  v.profile = profile;
  v.est = e;
  v.unit = e.bound == "fp32" ? "l1" : e.bound;
  std::map<std::pair<std::string, std::uint32_t>, LineCost> by_line;
  double total = 0, total_l1 = 0;
  for (const SiteCounters& s : r.sites) {
    LineCost& l = by_line[{s.file, s.line}];
    l.file = s.file;
    l.line = s.line;
    l.sites.push_back(s);
    const AccessCounters& c = s.counters;
    if (is_global(s.kind)) {
      l.requests += c.instructions;
      l.sectors += c.sectors;
    } else if (is_shared(s.kind)) {
      l.shared_inst += c.instructions;
      l.wavefronts += s.kind == SiteKind::kSharedAtomic ? c.instructions : c.wavefronts;
      l.conflicts += c.bank_conflicts();
    } else {
      l.other += s.kind == SiteKind::kBarrier ? s.barriers : s.kind == SiteKind::kConstantLoad ? c.instructions
                                                                                                : s.warp_ops;
    }
    const double cost = site_cost(s, v.unit), l1 = site_cost(s, "l1");
    l.cost += cost;
    total += cost;
    l.l1_share += l1;  // divided by the total below
    total_l1 += l1;
  }
  for (auto& [key, l] : by_line) {
    l.share = total > 0 ? l.cost / total : 0.0;
    l.l1_share = total_l1 > 0 ? l.l1_share / total_l1 : 0.0;
    v.lines.push_back(std::move(l));
  }
  std::stable_sort(v.lines.begin(), v.lines.end(),
                   [](const LineCost& a, const LineCost& b) { return a.share > b.share; });
  return v;
}

std::vector<std::string> read_lines(const std::string& file) {
  std::vector<std::string> out;
  std::ifstream f(file);
  for (std::string l; std::getline(f, l);) out.push_back(l);
  return out;
}

std::vector<Range> ranges(const SourceView& v, const std::vector<std::string>& files) {
  std::vector<Range> out;
  for (const std::string& file : files) {
    const std::vector<std::string> text = read_lines(file);
    if (text.empty()) continue;
    std::vector<std::uint32_t> lines;
    for (const LineCost& l : v.lines)
      if (l.file == file && l.line >= 1 && l.line <= text.size()) lines.push_back(l.line);
    std::sort(lines.begin(), lines.end());
    std::vector<Range> mine;
    for (std::uint32_t ln : lines) {
      if (!mine.empty() && ln <= mine.back().last) continue;
      // Up to the function head (at most 30 lines), down to the closing brace in column 0.
      std::uint32_t first = ln, last = ln;
      for (std::uint32_t k = ln; k >= 1 && ln - k <= 30; --k) {
        const std::string& t = text[k - 1];
        first = k;
        if (t.find("TG_KERNEL") != std::string::npos || t.find("TG_DEVICE") != std::string::npos ||
            t.find("__global__") != std::string::npos || t.find("kernel void") != std::string::npos)
          break;
      }
      for (std::uint32_t k = ln; k <= text.size() && k - ln <= 40; ++k) {
        last = k;
        if (!text[k - 1].empty() && text[k - 1][0] == '}') break;
      }
      if (!mine.empty() && first <= mine.back().last + 1) mine.back().last = std::max(mine.back().last, last);
      else mine.push_back({file, first, last});
    }
    out.insert(out.end(), mine.begin(), mine.end());
  }
  return out;
}

namespace {

std::vector<std::string> files_of(const SourceView& v) {
  std::vector<std::string> f;
  for (const LineCost& l : v.lines)
    if (std::find(f.begin(), f.end(), l.file) == f.end()) f.push_back(l.file);
  std::sort(f.begin(), f.end());
  return f;
}

const LineCost* line_at(const SourceView& v, const std::string& file, std::uint32_t line) {
  for (const LineCost& l : v.lines)
    if (l.file == file && l.line == line) return &l;
  return nullptr;
}

// The counter cells of one line: requests, sectors/request, wavefronts, conflicts.
std::vector<std::string> cells(const LineCost& l) {
  return {l.requests ? with_commas(l.requests) : "", l.requests ? fixed(l.sectors_per_request(), 1) : "",
          l.shared_inst ? with_commas(l.wavefronts) : "", l.shared_inst ? with_commas(l.conflicts) : ""};
}

std::string heat_bar(double share) {  // 0..5 '#' characters
  const int k = static_cast<int>(std::lround(share * 5));
  return std::string(static_cast<std::size_t>(k), '#') + std::string(static_cast<std::size_t>(5 - k), '.');
}

// The listing's counter columns: at least as wide as they always were (line 5, share 7, heat 6,
// requests 10, sectors/request 8, wavefronts 10, conflicts 13), wider where a header or a cell
// needs it, every cell right-aligned with a space before it.
struct ListingColumns {
  std::vector<std::size_t> w = {5, 7, 6, 10, 8, 10, 13};
  std::size_t total() const {
    std::size_t t = 0;
    for (std::size_t x : w) t += x;
    return t;
  }
  std::string row(const std::vector<std::string>& c) const {
    std::string out;
    for (std::size_t i = 0; i < c.size(); ++i)
      out += i == 2 ? " " + pad_right(c[i], w[i] - 1) : pad_left(c[i], w[i]);
    return out;
  }
};

// The listing's header: one row, or two where a header is split over two ("ウェーブ" over
// "フロント": the message's "\n"), so that the code keeps its room.
std::vector<std::vector<std::string>> listing_head() {
  std::vector<std::string> top, bottom;
  bool two = false;
  for (const char* key : {"col.line", "col.share", "col.heat", "col.req", "col.spr.short", "col.wavefronts.short",
                          "col.conflicts.short"}) {
    const std::string& h = tr(key);
    const std::size_t nl = h.find('\n');
    two = two || nl != std::string::npos;
    top.push_back(nl == std::string::npos ? "" : h.substr(0, nl));
    bottom.push_back(nl == std::string::npos ? h : h.substr(nl + 1));
  }
  if (!two) return {bottom};
  return {top, bottom};
}

std::vector<std::string> listing_cells(std::uint32_t ln, const LineCost* l) {
  if (!l) return {std::to_string(ln)};
  const auto c = cells(*l);
  return {std::to_string(ln), pct(l->share), heat_bar(l->share), c[0], c[1], c[2], c[3]};
}

ListingColumns listing_columns(const SourceView& v, const std::vector<Range>& shown) {
  ListingColumns cols;
  auto fit = [&](const std::vector<std::string>& c) {
    for (std::size_t i = 0; i < c.size(); ++i) cols.w[i] = std::max(cols.w[i], display_width(c[i]) + 1);
  };
  for (const std::vector<std::string>& head : listing_head()) fit(head);
  for (const Range& r : shown)
    for (std::uint32_t ln = r.first; ln <= r.last; ++ln) fit(listing_cells(ln, line_at(v, r.file, ln)));
  return cols;
}

// Takes the first `w` display columns of `rest` (at least one character) off it.
std::string take_width(std::string& rest, std::size_t w) {
  std::string piece = rest;
  if (display_width(rest) > w) {
    piece = clip(rest, w + 1);  // w columns, then "~"
    piece.pop_back();
    if (piece.empty()) piece = rest.substr(0, 1);
  }
  rest = rest.substr(piece.size());
  return piece;
}

}  // namespace

// Tabs to spaces, to the next multiple of 8 columns (as a terminal and a browser show them).
std::string expand_tabs(const std::string& s) {
  std::string out;
  std::size_t col = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\t') {
      const std::size_t n = 8 - col % 8;
      out.append(n, ' ');
      col += n;
      continue;
    }
    out += s[i];
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) col += 1;  // a UTF-8 character's first byte
  }
  return out;
}

void print_source(std::ostream& os, const SourceView& v, const std::vector<Advice>& advice, std::size_t width) {
  os << wrap(trf(v.n ? "src.header" : "src.header.file", {v.kernel, std::to_string(v.n), v.profile, fixed(v.est.time_ms(), 4),
                                bound_name(v.est.bound)}),
             width)
     << "\n";
  os << wrap(tr("src.share." + v.unit) + (v.est.bound == "fp32" ? " " + tr("src.fp32") : ""), width, 2) << "\n\n";
  // Worst lines.
  os << tr("src.worst") << "\n";
  // Columns as wide as their widest cell: a site's file name and line, and every counter, whole.
  std::vector<std::size_t> w = {4, 7, 22, 11, 12, 11, 13};
  const std::vector<std::string> head = {"#", tr("col.share"), tr("col.site"), tr("col.requests"),
                                         tr("col.spr"), tr("col.wavefronts"), tr("col.conflicts")};
  std::vector<std::vector<std::string>> rows;
  for (const LineCost& l : v.lines) {
    if (rows.size() == 8 || (!rows.empty() && l.share < 0.005)) break;
    const auto c = cells(l);
    rows.push_back({std::to_string(rows.size() + 1), pct(l.share),
                    internal::basename_of(relative_path(l.file)) + ":" + std::to_string(l.line), c[0], c[1], c[2], c[3]});
  }
  for (std::size_t i = 0; i < w.size(); ++i) {
    w[i] = std::max(w[i], display_width(head[i]) + (i == 2 ? 3 : 1));
    for (const auto& r : rows) w[i] = std::max(w[i], display_width(r[i]) + (i == 2 ? 3 : 1));
  }
  if (w[2] > 22) {  // a long site: as wide as it needs if the table still fits, else the sites go last
    std::size_t t = 0;
    for (std::size_t x : w) t += x;
    if (t > width) w[2] = 0;
  }
  rows.insert(rows.begin(), head);
  // Too wide for the page with the sites in the third column: the sites go last, each on the
  // line under its counters where it does not fit beside them.
  const bool site_last = w[2] == 0;
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (i == 2 && site_last) continue;
      line += i == 2 ? "  " + pad_right(r[i], w[i] - 2) : pad_left(r[i], w[i]);
    }
    if (site_last)
      line += display_width(line) + 2 + display_width(r[2]) <= width ? "  " + r[2] : "\n" + std::string(w[0] + 2, ' ') + r[2];
    os << line << "\n";
  }
  // Rules.
  if (!advice.empty()) os << "\n" << tr("src.rules") << "\n";
  for (std::size_t i = 0; i < advice.size(); ++i) {
    const Advice& a = advice[i];
    const LineCost* l = line_at(v, a.file, a.line);
    if (!l) continue;
    os << wrap(std::to_string(i + 1) + ". " + internal::basename_of(a.file) + ":" + std::to_string(a.line) + "  " + rule_title(a),
               width, 3)
       << "\n";
    os << wrap("   " + rule_text(a, *l), width, 3) << "\n";
  }
  // The listing.
  const std::vector<std::string> files = files_of(v);
  const std::vector<Range> shown = ranges(v, files);
  const ListingColumns cols = listing_columns(v, shown);
  const std::size_t left_w = cols.total() + 1;
  // Counter columns (60 wide unless a cell needs more), then the code, wrapped, its tabs expanded
  // and its indentation kept; a word wider than the code column goes on over lines.
  const std::size_t code_w = width > left_w + 20 ? width - left_w : 20;
  for (const Range& r : shown) {
    const std::vector<std::string> text = read_lines(r.file);
    os << "\n" << relative_path(r.file) << ":" << r.first << "-" << r.last << "\n";
    const std::vector<std::vector<std::string>> head = listing_head();
    for (std::size_t k = 0; k < head.size(); ++k)
      os << cols.row(head[k]) << (k + 1 == head.size() ? "  " + tr("col.source") : "") << "\n";
    for (std::uint32_t ln = r.first; ln <= r.last; ++ln) {
      const LineCost* l = line_at(v, r.file, ln);
      const std::string left = pad_right(cols.row(listing_cells(ln, l)), left_w);
      const std::string src = expand_tabs(text[ln - 1]);
      const std::size_t first_char = std::min(src.find_first_not_of(' '), src.size());
      const std::size_t lead = std::min(first_char, code_w / 2);
      const std::string code = wrap(src.substr(first_char), code_w - lead, 4);
      std::istringstream parts(code);
      bool first = true;
      for (std::string part; std::getline(parts, part);) {
        // A word wider than the column goes on over lines, 4 columns in as wrap indents.
        for (bool head = true; head || !part.empty(); head = false) {
          const std::string piece = head ? take_width(part, code_w - lead) : "    " + take_width(part, code_w - lead - 4);
          os << (first ? left : std::string(left_w, ' ')) << std::string(lead, ' ') << piece << "\n";
          first = false;
        }
      }
      if (first) os << left << "\n";
    }
  }
}

std::string source_html(const SourceView& v, const std::vector<Advice>& advice, const std::vector<std::string>& svgs) {
  std::ostringstream h;
  const char* lang = cli::lang() == Lang::kJa ? "ja" : "en";
  double max_share = 1e-9;
  for (const LineCost& l : v.lines) max_share = std::max(max_share, l.share);
  h << "<!DOCTYPE html>\n<html lang='" << lang << "'>\n<head>\n<meta charset='utf-8'>\n<title>tgsim explain "
    << internal::xml_escape(v.kernel) << "</title>\n<style>\n"
    << "body{font-family:sans-serif;margin:24px;color:#222;max-width:1300px}\n"
    << "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;font-size:13px}\n"
    << "th{border-bottom:1px solid #888}td.code{text-align:left;font-family:monospace;white-space:pre}\n"
    << "td.site{text-align:left;font-family:monospace}.rule{border-left:4px solid #c33;padding:4px 12px;"
    << "margin:12px 0;background:#fff6f4}.ok{color:#161}.bad{color:#a11}figure{margin:16px 0}\n"
    << "</style>\n</head>\n<body>\n";
  h << "<h1>tgsim explain " << internal::xml_escape(v.kernel) << "</h1>\n<p id='summary'>"
    << internal::xml_escape(trf(v.n ? "src.header" : "src.header.file", {v.kernel, std::to_string(v.n), v.profile, fixed(v.est.time_ms(), 4),
                                      bound_name(v.est.bound)}))
    << "</p>\n<p>" << internal::xml_escape(tr("src.share." + v.unit)) << "</p>\n";
  h << "<h2>" << internal::xml_escape(tr("src.worst")) << "</h2>\n<table id='worst'>\n<tr><th>#</th><th>"
    << internal::xml_escape(tr("col.share")) << "</th><th>" << internal::xml_escape(tr("col.site")) << "</th><th>"
    << internal::xml_escape(tr("col.requests")) << "</th><th>" << internal::xml_escape(tr("col.spr")) << "</th><th>"
    << internal::xml_escape(tr("col.wavefronts")) << "</th><th>" << internal::xml_escape(tr("col.conflicts")) << "</th><th>"
    << internal::xml_escape(tr("col.kind")) << "</th></tr>\n";
  std::size_t rank = 0;
  for (const LineCost& l : v.lines) {
    if (rank == 8 || (rank > 0 && l.share < 0.005)) break;
    const auto c = cells(l);
    h << "<tr><td>" << ++rank << "</td><td>" << pct(l.share) << "</td><td class='site'>"
      << internal::xml_escape(internal::basename_of(l.file) + ":" + std::to_string(l.line)) << "</td><td>" << c[0] << "</td><td>" << c[1]
      << "</td><td>" << c[2] << "</td><td>" << c[3] << "</td><td class='site'>" << kinds(l) << "</td></tr>\n";
  }
  h << "</table>\n";
  if (!advice.empty()) h << "<h2>" << internal::xml_escape(tr("src.rules")) << "</h2>\n";
  for (const Advice& a : advice) {
    const LineCost* l = line_at(v, a.file, a.line);
    if (!l) continue;
    h << "<div class='rule' id='rule-" << a.rule << "'><h3>" << internal::xml_escape(internal::basename_of(a.file) + ":" + std::to_string(a.line))
      << " &mdash; " << internal::xml_escape(rule_title(a)) << "</h3>\n<p>" << internal::xml_escape(rule_text(a, *l)) << "</p></div>\n";
  }
  for (const Range& r : ranges(v, files_of(v))) {
    const std::vector<std::string> text = read_lines(r.file);
    h << "<h2>" << internal::xml_escape(relative_path(r.file)) << ":" << r.first << "-" << r.last
      << "</h2>\n<table class='source'>\n<tr><th>" << internal::xml_escape(tr("col.line")) << "</th><th>"
      << internal::xml_escape(tr("col.share")) << "</th><th>" << internal::xml_escape(tr("col.req")) << "</th><th>"
      << internal::xml_escape(tr("col.spr")) << "</th><th>" << internal::xml_escape(tr("col.wavefronts")) << "</th><th>"
      << internal::xml_escape(tr("col.conflicts")) << "</th><th style='text-align:left'>" << internal::xml_escape(tr("col.source"))
      << "</th></tr>\n";
    for (std::uint32_t ln = r.first; ln <= r.last; ++ln) {
      const LineCost* l = line_at(v, r.file, ln);
      h << "<tr id='L" << ln << "'";
      if (l && l->share > 0)
        h << " style='background:rgba(220,60,30," << fixed(0.08 + 0.62 * l->share / max_share, 2) << ")'";
      h << "><td>" << ln << "</td>";
      if (l) {
        const auto c = cells(*l);
        h << "<td>" << pct(l->share) << "</td><td>" << c[0] << "</td><td>" << c[1] << "</td><td>" << c[2]
          << "</td><td>" << c[3] << "</td>";
      } else {
        h << "<td></td><td></td><td></td><td></td><td></td>";
      }
      h << "<td class='code'>" << internal::xml_escape(expand_tabs(text[ln - 1])) << "</td></tr>\n";
    }
    h << "</table>\n";
  }
  if (!svgs.empty()) h << "<h2>" << internal::xml_escape(tr("src.pictures")) << "</h2>\n";
  for (const std::string& s : svgs) {
    // The SVGs are inlined: drop their XML prologue if any.
    h << "<figure>" << s << "</figure>\n";
  }
  h << "<p style='color:#666;font-size:12px'>tgsim " << version() << "</p>\n</body>\n</html>\n";
  return h.str();
}

}  // namespace tgsim::cli
