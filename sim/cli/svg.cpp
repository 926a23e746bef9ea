#include "svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include <tgsim/models.hpp>

#include "i18n.hpp"
#include <tgsim/internal/text.hpp>

namespace tgsim::cli {

namespace {

const char* kWaveColours[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02",
                              "#a6761d", "#666666"};

bool is_shared(SiteKind k) {
  return k == SiteKind::kSharedLoad || k == SiteKind::kSharedStore || k == SiteKind::kSharedAtomic;
}

}  // namespace

std::string fmt3(double v) {
  char b[64];
  const double a = v < 0 ? -v : v;
  if (a >= 1e9) std::snprintf(b, sizeof b, "%.3gG", v / 1e9);
  else if (a >= 1e6) std::snprintf(b, sizeof b, "%.3gM", v / 1e6);
  else if (a >= 1e4) std::snprintf(b, sizeof b, "%.3gk", v / 1e3);
  else if (v == double(long(v))) std::snprintf(b, sizeof b, "%ld", long(v));
  else if (a >= 100) std::snprintf(b, sizeof b, "%.0f", v);
  else if (a >= 10) std::snprintf(b, sizeof b, "%.1f", v);
  else if (a >= 1) std::snprintf(b, sizeof b, "%.2f", v);
  else if (a >= 0.001) {
    // three significant digits after the leading zeros: 0.0213, 0.00512
    const int dec = 2 - static_cast<int>(std::floor(std::log10(a)));
    std::snprintf(b, sizeof b, "%.*f", dec, v);
  } else std::snprintf(b, sizeof b, "%.2e", v);
  return b;
}

BankView bank_view(const CapturedInstruction& c, const DeviceProfile& p) {
  BankView v;
  std::fill(std::begin(v.bank), std::end(v.bank), -1);
  std::fill(std::begin(v.wave), std::end(v.wave), 0);
  const std::uint32_t banks = p.shared_banks, bb = p.bank_bytes;
  // Phases as docs/hardware-model.md 2.2 (without the load pair merge (2.3): drawn per default phase).
  const std::uint32_t lanes_per_phase = c.width <= 4 ? 32 : c.width == 8 ? 16 : 8;
  for (std::uint32_t ph = 0; ph < 32; ph += lanes_per_phase) {
    std::map<std::uint32_t, std::vector<std::uint64_t>> words;  // bank -> distinct words in order
    for (std::uint32_t l = ph; l < ph + lanes_per_phase; ++l) {
      if (!((c.mask >> l) & 1u)) continue;
      std::uint64_t w = c.addr[l] / bb;
      std::uint32_t b = static_cast<std::uint32_t>(w % banks);
      auto& list = words[b];
      auto it = std::find(list.begin(), list.end(), w);
      int idx = static_cast<int>(it - list.begin());
      if (it == list.end()) list.push_back(w);
      v.bank[l] = static_cast<int>(b);
      v.wave[l] = idx;
    }
    for (auto& [b, list] : words) v.words_in_bank[b] = std::max<int>(v.words_in_bank[b], int(list.size()));
  }
  model::WarpAccess a{c.mask, c.width, c.addr};
  model::Wavefronts wf = model::shared_wavefronts(a, c.kind == SiteKind::kSharedLoad);
  v.wavefronts = static_cast<int>(wf.wavefronts);
  v.ideal = static_cast<int>(wf.ideal);
  return v;
}

// One picture drawn top to bottom (lanes, their addresses, the banks or sectors they reach, the
// legend): kept in one function so the coordinates it shares stay in one place.
std::string instruction_svg(const CapturedInstruction& c, const DeviceProfile& p, const std::string& title) {
  const int W = 1200, lane_w = 34, x0 = 56, top = 90;
  std::ostringstream s;
  const bool shared = is_shared(c.kind);
  // Targets: banks (shared) or the distinct sectors (global), in address order.
  std::vector<std::uint64_t> sectors;
  if (!shared) {
    std::set<std::uint64_t> set;
    for (int l = 0; l < 32; ++l)
      if ((c.mask >> l) & 1u)
        for (std::uint64_t b = c.addr[l] / p.sector_bytes; b <= (c.addr[l] + c.width - 1) / p.sector_bytes; ++b)
          set.insert(b);
    sectors.assign(set.begin(), set.end());
  }
  BankView v = shared ? bank_view(c, p) : BankView{};
  const int ntargets = shared ? int(p.shared_banks) : int(sectors.size());
  const int tw = std::max(8, std::min(lane_w, (W - 2 * x0) / std::max(ntargets, 1)));
  const int max_stack = shared ? *std::max_element(std::begin(v.words_in_bank), std::end(v.words_in_bank)) : 1;
  const int cell = 14;
  const int bank_y = top + 230;
  const int H = bank_y + 40 + std::max(1, max_stack) * cell + 90;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H
    << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  s << "<text x='" << x0 << "' y='28' font-size='17' font-weight='bold'>" << internal::xml_escape(title) << "</text>\n";
  const std::string active = std::to_string(__builtin_popcount(c.mask)), width = std::to_string(c.width);
  const std::string sub =
      shared ? trf("svg.sub.shared",
                   {active, width, tr(c.kind == SiteKind::kSharedLoad ? "svg.load" : "svg.store"),
                    std::to_string(v.wavefronts), tr(v.wavefronts == 1 ? "svg.wavefront" : "svg.wavefronts"),
                    std::to_string(v.ideal), std::to_string(v.wavefronts - v.ideal),
                    p.bank_layout_assumed ? tr("svg.assumed") : ""})
             : trf("svg.sub.global", {active, width, std::to_string(sectors.size()),
                                      tr(sectors.size() == 1 ? "svg.sector" : "svg.sectors"),
                                      std::to_string(p.sector_bytes)});
  s << "<text x='" << x0 << "' y='50' font-size='13'>" << internal::xml_escape(sub) << "</text>\n";
  s << "<text x='" << x0 << "' y='70' font-size='11' fill='#555'>"
    << internal::xml_escape(trf("svg.where", {std::to_string(c.group), std::to_string(c.warp), p.name})) << "</text>\n";
  // Lanes.
  s << "<text x='8' y='" << top + 16 << "'>" << tr("svg.lanes") << "</text>\n";
  for (int l = 0; l < 32; ++l) {
    const int x = x0 + l * lane_w;
    const bool on = (c.mask >> l) & 1u;
    s << "<rect x='" << x << "' y='" << top << "' width='" << lane_w - 4 << "' height='24' fill='"
      << (on ? "#dde8f5" : "#f2f2f2") << "' stroke='#335'/>\n";
    s << "<text x='" << x + (lane_w - 4) / 2 << "' y='" << top + 16 << "' text-anchor='middle'>" << l << "</text>\n";
  }
  s << "<text x='8' y='" << bank_y + 16 << "'>" << tr(shared ? "svg.banks" : "svg.sectors") << "</text>\n";
  for (int t = 0; t < ntargets; ++t) {
    const int x = x0 + t * tw;
    s << "<rect x='" << x << "' y='" << bank_y << "' width='" << tw - 3 << "' height='24' fill='#fff4dc' stroke='#553'/>\n";
    if (tw >= 20 || t % 4 == 0)
      s << "<text x='" << x + (tw - 3) / 2 << "' y='" << bank_y + 16 << "' text-anchor='middle' font-size='"
        << (tw >= 20 ? 12 : 9) << "'>" << (shared ? t : int(sectors[t] - sectors[0])) << "</text>\n";
  }
  // Arrows from each active lane to its bank / first sector, coloured by wavefront.
  for (int l = 0; l < 32; ++l) {
    if (!((c.mask >> l) & 1u)) continue;
    int t = 0, wave = 0;
    if (shared) {
      t = v.bank[l];
      wave = v.wave[l];
    } else {
      t = int(std::lower_bound(sectors.begin(), sectors.end(), c.addr[l] / p.sector_bytes) - sectors.begin());
    }
    const int x1 = x0 + l * lane_w + (lane_w - 4) / 2, y1 = top + 24;
    const int x2 = x0 + t * tw + (tw - 3) / 2, y2 = bank_y;
    s << "<line x1='" << x1 << "' y1='" << y1 << "' x2='" << x2 << "' y2='" << y2 - 4 << "' stroke='"
      << kWaveColours[wave % 8] << "' stroke-width='1.4' marker-end='url(#a" << wave % 8 << ")'/>\n";
  }
  s << "<defs>";
  for (int i = 0; i < 8; ++i)
    s << "<marker id='a" << i << "' markerWidth='8' markerHeight='8' refX='6' refY='3' orient='auto'>"
      << "<path d='M0,0 L6,3 L0,6 z' fill='" << kWaveColours[i] << "'/></marker>";
  s << "</defs>\n";
  // Stacks under the banks: one cell per distinct word = one wavefront.
  if (shared) {
    s << "<text x='8' y='" << bank_y + 52 << "' font-size='11'>" << tr("svg.words") << "</text>\n";
    for (int b = 0; b < int(p.shared_banks); ++b)
      for (int k = 0; k < v.words_in_bank[b]; ++k)
        s << "<rect x='" << x0 + b * tw + 2 << "' y='" << bank_y + 30 + k * cell << "' width='" << tw - 7
          << "' height='" << cell - 2 << "' fill='" << kWaveColours[k % 8] << "'/>\n";
    const int ly = bank_y + 40 + max_stack * cell + 20;
    s << "<text x='" << x0 << "' y='" << ly << "' font-size='12'>"
      << internal::xml_escape(trf("svg.legend.words", {std::to_string(max_stack)})) << "</text>\n";
    s << "<text x='" << x0 << "' y='" << ly + 18 << "' font-size='12'>" << internal::xml_escape(tr("svg.legend.arrows")) << "</text>\n";
  } else {
    const int ly = bank_y + 60;
    s << "<text x='" << x0 << "' y='" << ly << "' font-size='12'>"
      << internal::xml_escape(trf("svg.legend.sectors", {std::to_string(p.sector_bytes)})) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

// Bars are as wide as their widest value label (about 6.5 px per character at 11 px), so
// labels never overlap; measured values are black bars beside the predicted ones, on the
// same scale.
std::string bars_svg(const std::string& title, const std::vector<std::string>& variants,
                     const std::vector<Bar>& bars) {
  std::size_t widest = 4;
  for (const Bar& b : bars) {
    for (double v : b.values) widest = std::max(widest, fmt3(v).size());
    for (double v : b.measured)
      if (v == v) widest = std::max(widest, fmt3(v).size());
  }
  const int bw = std::max(40, int(widest) * 7 + 6), x0 = 30, base = 350, hmax = 240;
  const int gw = int(variants.size()) * (bw + 8) + 40;  // one group of bars per metric
  bool wide_group = false;  // a group with measured values holds two bars per variant
  for (const Bar& b : bars) wide_group = wide_group || !b.measured.empty();
  std::size_t longest = 0;
  for (const auto& v : variants) longest = std::max(longest, v.size());
  const int legend_w = int(longest) * 8 + 40;
  const int pair_gw = int(variants.size()) * (2 * bw + 12) + 40;
  const int W = std::max({x0 * 2 + int(bars.size()) * gw + (wide_group ? pair_gw - gw : 0),
                          x0 * 2 + int(variants.size() + 1) * legend_w, 700});
  const int H = 470;
  const char* colours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948"};
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H
    << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  s << "<text x='" << x0 << "' y='28' font-size='17' font-weight='bold'>" << internal::xml_escape(title) << "</text>\n";
  s << "<text x='" << x0 << "' y='48' font-size='12' fill='#555'>" << internal::xml_escape(tr("svg.bars.scaled")) << "</text>\n";
  bool any_measured = false;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const int lx = x0 + int(v) * legend_w;
    s << "<rect x='" << lx << "' y='" << H - 34 << "' width='14' height='14' fill='" << colours[v % 6] << "'/>"
      << "<text x='" << lx + 20 << "' y='" << H - 22 << "'>" << internal::xml_escape(variants[v]) << "</text>\n";
  }
  int next_gx = x0;
  for (std::size_t g = 0; g < bars.size(); ++g) {
    const Bar& b = bars[g];
    const int this_gw = b.measured.empty() ? gw : pair_gw;
    double mx = 1e-30;
    for (double v : b.values) mx = std::max(mx, v);
    for (double v : b.measured)
      if (v == v) mx = std::max(mx, v);
    const int gx = next_gx;
    next_gx += this_gw;
    // With measured values each variant gets a pair: predicted (its colour), measured (black).
    const bool paired = !b.measured.empty();
    const int slot = paired ? 2 * bw + 12 : bw + 8, pbw = paired ? (slot - 10) / 2 : bw;
    for (std::size_t v = 0; v < b.values.size(); ++v) {
      const int h = int(hmax * b.values[v] / mx);
      const int x = gx + 12 + int(v) * slot;
      s << "<rect x='" << x << "' y='" << base - h << "' width='" << pbw << "' height='" << h << "' fill='"
        << colours[v % 6] << "'/>\n";
      s << "<text x='" << x + pbw / 2 << "' y='" << base - h - 4 << "' text-anchor='middle' font-size='11'>"
        << fmt3(b.values[v]) << "</text>\n";
      if (v < b.measured.size() && b.measured[v] == b.measured[v]) {
        any_measured = true;
        const int mh = int(hmax * b.measured[v] / mx), mxp = x + pbw + 2;
        s << "<rect class='measured' x='" << mxp << "' y='" << base - mh << "' width='" << pbw << "' height='" << mh
          << "' fill='#222'/>\n";
        s << "<text x='" << mxp + pbw / 2 << "' y='" << base - mh - 4 << "' text-anchor='middle' font-size='11' "
          << "font-weight='bold'>" << fmt3(b.measured[v]) << "</text>\n";
      }
    }
    s << "<line x1='" << gx + 4 << "' y1='" << base << "' x2='" << gx + this_gw - 12 << "' y2='" << base
      << "' stroke='#333'/>\n";
    s << "<text x='" << gx + (this_gw - 8) / 2 << "' y='" << base + 20 << "' text-anchor='middle'>" << internal::xml_escape(b.metric)
      << "</text>\n";
  }
  if (any_measured) {
    std::string label = tr("svg.measured");
    for (const Bar& b : bars)
      if (!b.measured_label.empty()) label = b.measured_label;
    s << "<rect x='" << x0 << "' y='" << H - 66 << "' width='14' height='14' fill='#222'/><text x='" << x0 + 20
      << "' y='" << H - 54 << "'>" << internal::xml_escape(label) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

namespace {

std::string bank_fill(int bank) {  // a light hue per bank: stripes and diagonals show
  char b[48];
  std::snprintf(b, sizeof b, "hsl(%d,55%%,88%%)", (bank * 360 / 32 * 7) % 360);
  return b;
}

// One tile panel at (px, top); returns the text lines below it.
void tile_panel(std::ostringstream& s, const TilePanel& t, const DeviceProfile& p, int px, int top, int cell) {
  const BankView v = bank_view(t.c, p);
  std::vector<int> lane_at(std::size_t(t.rows * t.cols), -1);
  for (int l = 0; l < 32; ++l) {
    if (!((t.c.mask >> l) & 1u) || t.c.addr[l] < t.base) continue;
    const std::uint64_t word = (t.c.addr[l] - t.base) / 4;
    if (word < lane_at.size() && lane_at[word] < 0) lane_at[word] = l;
  }
  s << "<text x='" << px << "' y='" << top - 30 << "' font-size='14' font-weight='bold'>" << internal::xml_escape(t.label) << "</text>\n";
  for (int c = 0; c < t.cols; c += 4)
    s << "<text x='" << px + c * cell + cell / 2 << "' y='" << top - 6 << "' text-anchor='middle' font-size='9' "
      << "fill='#555'>" << c << "</text>\n";
  for (int r = 0; r < t.rows; ++r) {
    if (r % 4 == 0)
      s << "<text x='" << px - 4 << "' y='" << top + r * cell + cell - 5 << "' text-anchor='end' font-size='9' "
        << "fill='#555'>" << r << "</text>\n";
    for (int c = 0; c < t.cols; ++c) {
      const int word = r * t.cols + c, bank = word % int(p.shared_banks), lane = lane_at[std::size_t(word)];
      const int x = px + c * cell, y = top + r * cell;
      s << "<rect x='" << x << "' y='" << y << "' width='" << cell << "' height='" << cell << "' fill='"
        << (lane >= 0 ? kWaveColours[v.wave[lane] % 8] : bank_fill(bank)) << "' stroke='white' stroke-width='0.5'/>";
      if (lane >= 0)
        s << "<text x='" << x + cell / 2 << "' y='" << y + cell - 5 << "' text-anchor='middle' font-size='9' "
          << "fill='white' font-weight='bold'>" << lane << "</text>";
      s << "\n";
    }
  }
  int y = top + t.rows * cell + 20;
  const int conflicts = v.wavefronts - v.ideal;
  s << "<text x='" << px << "' y='" << y << "' font-size='13'>"
    << internal::xml_escape(trf("svg.tile.bank", {t.array, std::to_string(t.cols), std::to_string(p.shared_banks)})) << "</text>\n";
  y += 18;
  for (int l = 0; l < 32 && y < top + t.rows * cell + 20 + 18 * 4; ++l) {
    if (!((t.c.mask >> l) & 1u) || t.c.addr[l] < t.base) continue;
    const std::uint64_t word = (t.c.addr[l] - t.base) / 4;
    const std::uint64_t r = word / std::uint64_t(t.cols), c = word % std::uint64_t(t.cols);
    s << "<text x='" << px << "' y='" << y << "' font-size='12' font-family='monospace'>" << internal::xml_escape(trf("svg.tile.lane", {std::to_string(l)}))
      << internal::xml_escape(t.array) << "[" << r << "][" << c << "]  (" << r << "*" << t.cols << " + " << c << ") mod "
      << p.shared_banks << " = " << word % p.shared_banks << "</text>\n";
    y += 18;
  }
  std::set<int> banks;
  for (int l = 0; l < 32; ++l)
    if ((t.c.mask >> l) & 1u) banks.insert(v.bank[l]);
  s << "<text x='" << px << "' y='" << y + 4 << "' font-size='13' font-weight='bold'>"
    << internal::xml_escape(trf("svg.tile.summary",
               {std::to_string(banks.size()), tr(banks.size() == 1 ? "svg.bank" : "svg.banks"),
                std::to_string(__builtin_popcount(t.c.mask)), std::to_string(v.wavefronts),
                tr(v.wavefronts == 1 ? "svg.wavefront" : "svg.wavefronts"), std::to_string(conflicts)}))
    << "</text>\n";
}

}  // namespace

std::string tile_svg(const std::vector<TilePanel>& panels, const DeviceProfile& p, const std::string& title) {
  const int cell = 17, gap = 70, x0 = 40, top = 120;
  int W = x0, rows = 0;
  for (const TilePanel& t : panels) {
    W += t.cols * cell + gap;
    rows = std::max(rows, t.rows);
  }
  W = std::max(W, 700);
  const int H = top + rows * cell + 140;
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H
    << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  s << "<text x='" << x0 << "' y='28' font-size='17' font-weight='bold'>" << internal::xml_escape(title) << "</text>\n";
  s << "<text x='" << x0 << "' y='50' font-size='12' fill='#444'>"
    << internal::xml_escape(trf("svg.tile.note", {std::to_string(panels.empty() ? 0 : panels[0].c.warp)})) << "</text>\n";
  int px = x0;
  for (const TilePanel& t : panels) {
    tile_panel(s, t, p, px, top, cell);
    px += t.cols * cell + gap;
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace tgsim::cli
