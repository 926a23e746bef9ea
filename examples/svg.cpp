#include "svg.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include <tgsim/models.hpp>

namespace tgsim::cli {

namespace {

const char* kWaveColours[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02",
                              "#a6761d", "#666666"};

std::string esc(const std::string& s) {
  std::string o;
  for (char ch : s) {
    if (ch == '<') o += "&lt;";
    else if (ch == '>') o += "&gt;";
    else if (ch == '&') o += "&amp;";
    else o += ch;
  }
  return o;
}

std::string fmt(double v) {
  char b[64];
  if (v >= 1e9) std::snprintf(b, sizeof b, "%.2fG", v / 1e9);
  else if (v >= 1e6) std::snprintf(b, sizeof b, "%.2fM", v / 1e6);
  else if (v >= 1e4) std::snprintf(b, sizeof b, "%.1fk", v / 1e3);
  else if (v == double(long(v))) std::snprintf(b, sizeof b, "%ld", long(v));
  else std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

bool is_shared(SiteKind k) {
  return k == SiteKind::kSharedLoad || k == SiteKind::kSharedStore || k == SiteKind::kSharedAtomic;
}

}  // namespace

BankView bank_view(const CapturedInstruction& c, const DeviceProfile& p) {
  BankView v;
  std::fill(std::begin(v.bank), std::end(v.bank), -1);
  std::fill(std::begin(v.wave), std::end(v.wave), 0);
  const std::uint32_t banks = p.shared_banks, bb = p.bank_bytes;
  // Phases as hardware-model.md 1.2 (without the load pair merge: drawn per default phase).
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
  s << "<text x='" << x0 << "' y='28' font-size='17' font-weight='bold'>" << esc(title) << "</text>\n";
  std::ostringstream sub;
  const int active = __builtin_popcount(c.mask);
  if (shared) {
    sub << active << " active lanes, " << c.width << "-byte " << (c.kind == SiteKind::kSharedLoad ? "load" : "store")
        << ": " << v.wavefronts << " wavefront" << (v.wavefronts == 1 ? "" : "s") << " (ideal " << v.ideal
        << ", " << (v.wavefronts - v.ideal) << " bank conflicts)"
        << (p.bank_layout_assumed ? "  [bank layout assumed]" : "");
  } else {
    sub << active << " active lanes, " << c.width << "-byte global access: 1 request, " << sectors.size()
        << " sector" << (sectors.size() == 1 ? "" : "s") << " of " << p.sector_bytes << " bytes";
  }
  s << "<text x='" << x0 << "' y='50' font-size='13'>" << esc(sub.str()) << "</text>\n";
  s << "<text x='" << x0 << "' y='70' font-size='11' fill='#555'>block " << c.group << " (linear), warp "
    << c.warp << "; profile " << esc(p.name) << "</text>\n";
  // Lanes.
  s << "<text x='8' y='" << top + 16 << "'>lanes</text>\n";
  for (int l = 0; l < 32; ++l) {
    const int x = x0 + l * lane_w;
    const bool on = (c.mask >> l) & 1u;
    s << "<rect x='" << x << "' y='" << top << "' width='" << lane_w - 4 << "' height='24' fill='"
      << (on ? "#dde8f5" : "#f2f2f2") << "' stroke='#335'/>\n";
    s << "<text x='" << x + (lane_w - 4) / 2 << "' y='" << top + 16 << "' text-anchor='middle'>" << l << "</text>\n";
  }
  s << "<text x='8' y='" << bank_y + 16 << "'>" << (shared ? "banks" : "sectors") << "</text>\n";
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
    s << "<text x='8' y='" << bank_y + 52 << "' font-size='11'>words</text>\n";
    for (int b = 0; b < int(p.shared_banks); ++b)
      for (int k = 0; k < v.words_in_bank[b]; ++k)
        s << "<rect x='" << x0 + b * tw + 2 << "' y='" << bank_y + 30 + k * cell << "' width='" << tw - 7
          << "' height='" << cell - 2 << "' fill='" << kWaveColours[k % 8] << "'/>\n";
    const int ly = bank_y + 40 + max_stack * cell + 20;
    s << "<text x='" << x0 << "' y='" << ly << "' font-size='12'>Each coloured cell under a bank is one distinct "
      << "4-byte word that bank must serve; a bank serves one word per wavefront, so the tallest stack ("
      << max_stack << ") sets the wavefronts of this phase.</text>\n";
    s << "<text x='" << x0 << "' y='" << ly + 18 << "' font-size='12'>Arrow colour = the wavefront that "
      << "serves the lane (lanes reading the same word share it: broadcast).</text>\n";
  } else {
    const int ly = bank_y + 60;
    s << "<text x='" << x0 << "' y='" << ly << "' font-size='12'>Sectors are numbered from the first one touched ("
      << p.sector_bytes << "-byte units; 4 sectors = one 128-byte line). Every distinct sector is one "
      << "L1 tag lookup and, on a miss, one L2 sector read.</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

std::string bars_svg(const std::string& title, const std::vector<std::string>& variants,
                     const std::vector<Bar>& bars) {
  const int bw = 40, x0 = 30, base = 330, hmax = 240;
  const int gw = int(variants.size()) * (bw + 6) + 34;  // one group of bars per metric
  const int W = std::max(x0 * 2 + int(bars.size()) * gw, x0 * 2 + int(variants.size()) * 150), H = 430;
  const char* colours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948"};
  std::ostringstream s;
  s << "<svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H
    << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
  s << "<text x='" << x0 << "' y='28' font-size='17' font-weight='bold'>" << esc(title) << "</text>\n";
  s << "<text x='" << x0 << "' y='48' font-size='12' fill='#555'>each group of bars is scaled to its largest value</text>\n";
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const int lx = x0 + int(v) * 150;
    s << "<rect x='" << lx << "' y='" << H - 30 << "' width='14' height='14' fill='" << colours[v % 6] << "'/>"
      << "<text x='" << lx + 20 << "' y='" << H - 18 << "'>" << esc(variants[v]) << "</text>\n";
  }
  for (std::size_t g = 0; g < bars.size(); ++g) {
    const Bar& b = bars[g];
    const double mx = std::max(1e-30, *std::max_element(b.values.begin(), b.values.end()));
    const int gx = x0 + int(g) * gw;
    for (std::size_t v = 0; v < b.values.size(); ++v) {
      const int h = int(hmax * b.values[v] / mx);
      const int x = gx + 10 + int(v) * (bw + 6);
      s << "<rect x='" << x << "' y='" << base - h << "' width='" << bw << "' height='" << h << "' fill='"
        << colours[v % 6] << "'/>\n";
      s << "<text x='" << x + bw / 2 << "' y='" << base - h - 4 << "' text-anchor='middle' font-size='10'>"
        << fmt(b.values[v]) << "</text>\n";
    }
    s << "<line x1='" << gx + 4 << "' y1='" << base << "' x2='" << gx + gw - 12 << "' y2='" << base
      << "' stroke='#333'/>\n";
    s << "<text x='" << gx + (gw - 8) / 2 << "' y='" << base + 20 << "' text-anchor='middle'>" << esc(b.metric)
      << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace tgsim::cli
