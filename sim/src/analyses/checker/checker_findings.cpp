// Reporting: the hazards the checker found as Findings and notes (their messages, one example
// each), the hazards between groups read from the launch-wide GridShadow once every group has
// run (filled by checker_grid.cpp), and the bytes atomics explain.
#include "analyses/checker/checker.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

#include "report/util.hpp"

namespace tgsim::detail {

void same_value_note(const SameValuePairs& pairs, const std::vector<SiteInfo>& sites,
                     const LaunchConfig& cfg, std::vector<std::string>& notes) {
  if (pairs.empty()) return;
  // What the pass said of each source location's stores (a store's site ids differ by kind).
  using Loc = std::tuple<std::string, std::uint32_t, std::uint32_t>;
  std::map<Loc, std::uint8_t> value_of;
  for (const SiteInfo& s : sites)
    if (s.store_value) value_of[Loc{s.file, s.line, s.column}] |= s.store_value;
  auto loc = [&](std::uint32_t id) { return id < sites.size() ? Loc{sites[id].file, sites[id].line, sites[id].column} : Loc{}; };
  auto marks = [&](std::uint32_t id) {
    auto it = value_of.find(loc(id));
    return it == value_of.end() ? std::uint8_t(0) : it->second;
  };
  // Per pair of source locations (site ids follow the workers' first-use order): the pairs,
  // the example with the smallest order, and whether a value is known not to be a constant.
  struct Pair {
    std::uint64_t count = 0;
    const HazardAgg* example = nullptr;
    bool grid = false, data = false;
  };
  std::map<std::pair<Loc, Loc>, Pair> by_loc;
  for (const auto& [key, agg] : pairs) {
    const std::uint8_t m1 = marks(key.site1), m2 = marks(key.site2);
    if (m1 == SiteInfo::kConstantValue && m2 == SiteInfo::kConstantValue) continue;  // equal in every run
    Pair& p = by_loc[{loc(key.site1), loc(key.site2)}];
    p.count += agg.count;
    p.data |= ((m1 | m2) & SiteInfo::kDataValue) != 0;
    if (!p.example || agg.order < p.example->order) p.example = &agg, p.grid = key.grid;
  }
  constexpr std::size_t kShown = 3;
  std::size_t shown = 0;
  for (const auto& [locs, p] : by_loc) {
    if (shown++ == kShown) {
      notes.push_back("and " + std::to_string(by_loc.size() - kShown) +
                      " more pair(s) of source lines whose unordered stores wrote equal bytes");
      break;
    }
    const auto& [g1, g2, t1, t2, word] = p.example->order;
    auto at = [](const Loc& l) { return basename_of(std::get<0>(l)) + ":" + std::to_string(std::get<1>(l)); };
    auto who = [&](std::uint64_t g, std::uint32_t t) {
      return (p.grid ? "block " + unlinearise(g, cfg.grid).str() + " " : std::string()) + "thread " +
             unlinearise(t, cfg.block).str();
    };
    std::string where = p.grid ? std::string() : " of block " + unlinearise(g1, cfg.grid).str();
    std::string text = "equal values stored by two threads without order (information, not a finding): " +
                       who(g1, t1) + " and " + who(g2, t2) + where + " store the same bytes to " +
                       (p.example->shared ? "shared " : "global ") + p.example->element + " at " +
                       at(locs.first) + " and " + at(locs.second) + " (" + std::to_string(p.count) +
                       " pair(s)); ";
    text += p.data ? "a stored value is not a constant of the program, so they are equal in this run only "
                     "if the data it was computed from is"
                   : "tgsim cannot tell whether the stored values are constants of the program (only the "
                     "plain stores of a kernel file say); if they come from data, they are equal in this "
                     "run only if that data is";
    notes.push_back(text + ": with other data this is a write-after-write race (--same-value-waw "
                    "or LaunchConfig::report_same_value_waw reports it as one)");
  }
}

void hazard_findings(const HazardMap& h, const std::vector<SiteInfo>& sites,
                     const LaunchConfig& cfg, FindingMap& out) {
  for (const auto& [key, agg] : h) {
    const SiteInfo& s1 = sites[key.site1];
    const auto& [g1, g2, t1, t2, word] = agg.order;
    Finding f;
    f.kind = key.kind;
    f.file = s1.file;
    f.line = s1.line;
    f.column = s1.column;
    f.block = unlinearise(g1, cfg.grid);
    f.thread = unlinearise(t1, cfg.block);
    f.warp = t1 / 32;
    f.lane = t1 % 32;
    f.object = agg.object;
    f.index = agg.index;
    f.count = agg.count;
    const std::string mem = std::string(agg.shared ? "shared " : "global ") + agg.element;
    auto at = [](const SiteInfo& s) { return basename_of(s.file) + ":" + std::to_string(s.line) + also_line(s.column); };
    auto who = [&](std::uint64_t g, std::uint32_t t) {
      std::string b = key.grid ? "block " + unlinearise(g, cfg.grid).str() + " " : "";
      return b + "thread " + unlinearise(t, cfg.block).str();
    };
    if (key.kind == FindingKind::kUnsupported) {
      f.message = who(g1, t1) + " stores to " + mem + " at " + at(s1) +
                  ", a buffer the kernel was given as a pointer to const: its loads were not "
                  "checked for hazards, so hazards on it may be missing";
    } else if (key.kind == FindingKind::kUninitialized) {
      f.message = who(g1, t1) + " loads " + mem + " at " + at(s1) +
                  (agg.shared ? " before any thread of the group stored to it"
                              : ", bytes that neither the host nor a kernel wrote before");
    } else {
      const SiteInfo& s2 = sites[key.site2];
      f.file2 = s2.file;
      f.line2 = s2.line;
      f.column2 = s2.column;
      f.block2 = unlinearise(g2, cfg.grid);
      f.thread2 = unlinearise(t2, cfg.block);
      const char* sep = key.grid ? "threadgroups of one launch are unordered"
                        : agg.across_threadgroup_barrier
                            ? "the threadgroup_barrier between them orders no device memory (its "
                              "flags lack mem_flags::mem_device)"
                        : is_hazard(key.kind) && key.kind >= FindingKind::kWarpRaw
                            ? "no __syncwarp between them: lanes of a warp are unordered "
                              "(independent thread scheduling)"
                            : "no barrier between them";
      switch (key.kind) {
        case FindingKind::kRaw:
        case FindingKind::kWarpRaw:
          f.message = "read-after-write on " + mem + ": " + who(g1, t1) + " stores at " +
                      at(s1) + ", " + who(g2, t2) + " loads at " + at(s2) + "; " + sep;
          break;
        case FindingKind::kWar:
        case FindingKind::kWarpWar:
          f.message = "write-after-read on " + mem + ": " + who(g1, t1) + " loads at " + at(s1) +
                      ", " + who(g2, t2) + " stores at " + at(s2) + "; " + sep;
          break;
        default:
          f.message = "write-after-write on " + mem + ": " + who(g1, t1) + " stores at " +
                      at(s1) + ", " + who(g2, t2) + " stores at " + at(s2) + "; " + sep;
          break;
      }
    }
    FindingKey fk{static_cast<int>(f.kind), f.file, f.line, f.column, f.file2, f.line2,
                  f.column2, key.grid};
    auto [it, inserted] = out.try_emplace(fk);
    if (inserted || agg.order < it->second.order) {
      std::uint64_t count = inserted ? 0 : it->second.finding.count;
      it->second.finding = f;
      it->second.finding.count = count + agg.count;
      it->second.order = agg.order;
    } else {
      it->second.finding.count += agg.count;
    }
  }
}

static_assert(sizeof(GridShadow::Word) == 64, "a grid word stays one cache line");

void describe_global(HazardAgg& h, const std::vector<BufferSpan>& buffers, std::uint64_t word) {
  std::uint64_t addr = word << 2;
  h.shared = false;
  for (const BufferSpan& b : buffers) {
    if (addr < b.begin || addr >= b.end) continue;
    h.object = b.info->name;
    h.index = static_cast<std::int64_t>((addr - b.begin) / b.info->elem_size);
    h.element = h.object + "[" + std::to_string(h.index) + "]";
    return;
  }
  h.object.clear();
  h.index = -1;
  h.element = "word at 0x" + [&] {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(addr));
    return std::string(buf);
  }();
}

void grid_hazards(const GridShadow& g, const std::vector<BufferSpan>& buffers, bool same_value_waw,
                  SameValuePairs& same_value, HazardMap& out) {
  auto add_to = [&](HazardMap& map, FindingKind kind, std::uint64_t a, std::uint64_t b, std::uint64_t word) {
    std::uint32_t site_a = a & 0x3FFFFF, site_b = b & 0x3FFFFF;
    std::uint32_t ta = (a >> 22) & 0x3FF, tb = (b >> 22) & 0x3FF;
    HazardKey key{kind, true, site_a, site_b};
    auto [it, inserted] = map.try_emplace(key);
    HazardAgg& h = it->second;
    h.count += 1;
    auto order = std::make_tuple(a >> 32, b >> 32, ta, tb, word);
    if (inserted || order < h.order) {
      h.order = order;
      describe_global(h, buffers, word);
    }
  };
  auto add = [&](FindingKind kind, std::uint64_t a, std::uint64_t b, std::uint64_t word) {
    add_to(out, kind, a, b, word);
  };
  using G = GridShadow;
  // A plain access against an atomic of another group (lower group first).
  auto against_atomic = [&](FindingKind kind, const std::uint64_t (&plain)[2],
                            const std::uint64_t (&at)[2], std::uint64_t word) {
    if (plain[0] == G::kEmpty || at[0] == G::kEmpty) return;
    std::uint64_t p = plain[0], a = at[0];
    if ((p >> 32) == (a >> 32)) {  // the same group: take the next one of either
      if (at[1] != G::kEmpty && (plain[1] == G::kEmpty || (at[1] >> 32) <= (plain[1] >> 32)))
        a = at[1];
      else if (plain[1] != G::kEmpty)
        p = plain[1];
      else
        return;
    }
    if (kind == FindingKind::kWaw || (a >> 32) < (p >> 32))
      add(kind == FindingKind::kWaw ? kind : FindingKind::kRaw, std::min(a, p), std::max(a, p), word);
    else
      add(FindingKind::kWar, p, a, word);
  };
  g.for_each([&](std::uint64_t word, const GridShadow::Word& w) {
    if (w.a[0] != G::kEmpty && w.w[0] != G::kEmpty) {
      const GridShadow::Order* o = g.order(word);
      if (o && o->waw_atomic) against_atomic(FindingKind::kWaw, w.w, w.a, word);
    }
    against_atomic(FindingKind::kRaw, w.r, w.a, word);
    if (w.w[0] == G::kEmpty) return;  // only loaded (or atomics only): harmless
    if (w.w[1] != G::kEmpty && w.waw_bytes && (w.mixed || same_value_waw))
      add(FindingKind::kWaw, w.w[0], w.w[1], word);
    else if (w.w[1] != G::kEmpty && w.waw_bytes)
      add_to(same_value, FindingKind::kWaw, w.w[0], w.w[1], word);
    if (w.r[0] == G::kEmpty || !w.rw_bytes) return;
    std::uint64_t st = G::kEmpty, ld = G::kEmpty;
    if ((w.r[0] >> 32) != (w.w[0] >> 32)) {
      st = w.w[0], ld = w.r[0];
    } else if (w.w[1] != G::kEmpty) {
      st = w.w[1], ld = w.r[0];
    } else if (w.r[1] != G::kEmpty) {
      st = w.w[0], ld = w.r[1];
    }
    if (st == G::kEmpty) return;
    // No order between groups: the lower group's access is taken as the first.
    if ((st >> 32) < (ld >> 32))
      add(FindingKind::kRaw, st, ld, word);
    else
      add(FindingKind::kWar, ld, st, word);
  });
}

std::vector<AtomicBytes> atomic_bytes(const GridShadow& g, const std::vector<BufferSpan>& buffers) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;  // [begin, end) addresses
  g.for_each([&](std::uint64_t word, const GridShadow::Word& w) {
    for (std::uint8_t m = w.explained; m;) {  // each run of set bits
      const int lo = std::countr_zero(m);
      const int n = std::countr_one(static_cast<std::uint8_t>(m >> lo));
      spans.emplace_back((word << 2) + lo, (word << 2) + lo + n);
      m = static_cast<std::uint8_t>(m & ~(((1u << n) - 1) << lo));
    }
  });
  std::sort(spans.begin(), spans.end());
  std::vector<AtomicBytes> out;
  const BufferSpan* last = nullptr;
  for (const auto& [b, e] : spans) {
    const BufferSpan* in = nullptr;
    for (const BufferSpan& s : buffers)
      if (b >= s.begin && b < s.end) in = &s;
    if (!in) continue;
    const std::uint64_t lo = b - in->begin, hi = std::min(e, in->end) - in->begin;
    if (last == in && !out.empty() && out.back().end >= lo)
      out.back().end = std::max(out.back().end, hi);
    else
      out.push_back(AtomicBytes{in->info->name, lo, hi});
    last = in;
  }
  return out;
}

}  // namespace tgsim::detail
