// The checker: logging per word, pairing at the end of each barrier interval, the hazards
// between groups read from the grid-wide table (filled by checker_grid.cpp), and the Findings
// built from them.
#include "analyses/checker/checker.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "engine/tag_table.hpp"
#include "memory/shared_decl.hpp"
#include <tgsim/hash.hpp>
#include "report/util.hpp"

namespace tgsim::detail {

std::uint64_t fold_other_width(const void* value, std::uint32_t width) {
  std::uint64_t v = 0;
  if (width < 8) {
    std::memcpy(&v, value, width);
  } else {
    std::uint64_t lo, hi;
    std::memcpy(&lo, value, 8);
    std::memcpy(&hi, static_cast<const char*>(value) + 8, 8);
    v = lo ^ (hi * kGoldenGamma);
  }
  return v;
}

namespace {

// Past this many pairs per word and interval the rest of the word is skipped: a thousand
// threads storing to one flag would otherwise cost a million pairs per barrier.
constexpr std::uint32_t kPairBudget = 1u << 16;

FindingKind warp_kind(FindingKind k) {
  switch (k) {
    case FindingKind::kRaw: return FindingKind::kWarpRaw;
    case FindingKind::kWar: return FindingKind::kWarpWar;
    case FindingKind::kWaw: return FindingKind::kWarpWaw;
    default: return k;
  }
}

}  // namespace

// ------------------------------------------------------------------ merging and findings

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

// ------------------------------------------------------------------ GridShadow (merge: checker_grid.cpp)

static_assert(sizeof(GridShadow::Word) == 64, "a grid word stays one cache line");

namespace {

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

}  // namespace

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

// ------------------------------------------------------------------ Checker

Checker::Checker(LaunchState& st, std::size_t arena_bytes, std::size_t valid_bytes) : st_(st) {
  // A buffer is read-only for this launch when every argument that names it is a pointer to
  // const of the kernel function: its loads can take part in no hazard and are not logged.
  // Buffers with bytes nobody wrote yet are checked for uninitialised loads, so their loads are
  // logged even when the launch cannot store to them.
  for (const BufferSpan& b : st.buffers) {
    if (b.info->assume_init) continue;
    std::size_t bytes = b.end - b.begin, full = 0;
    for (std::uint64_t x : b.info->written) full += static_cast<std::size_t>(std::popcount(x));
    if (full < bytes) uninit_spans_.push_back(UninitSpan{b.begin, b.end, b.info});
  }
  for (const BufferSpan& b : st.buffers) {
    bool ro = true;
    for (const BufferSpan& o : st.buffers) ro = ro && (o.info != b.info || o.read_only);
    for (const UninitSpan& u : uninit_spans_) ro = ro && u.info != b.info;
    if (ro) read_only_.emplace_back(b.begin, b.end);
    // (the quick scan tests at most 4: global_plain tests the rest)
    if (ro && b.end - b.begin > 15 && read_only_loads_.size() < kReadOnlyScan)
      read_only_loads_.push_back(Span{b.begin, b.end - b.begin - 15});
  }
  std::size_t words = (arena_bytes + 3) / 4;
  sh_head_.assign(words, kNone);
  sh_tag_.assign(words, kNone);
  sh_bytes_ = std::uint64_t(words) * 4;
  sh_wtag_.assign(words, kNone);
  sh_init_.assign(words, 0);
  sh_quiet_.assign(words, 0);
  valid_words_ = static_cast<std::uint32_t>(std::min(words, (valid_bytes + 3) / 4));
  gindex_.assign(1024, 0);
}

void Checker::start_group(std::uint64_t group, const std::deque<SharedDecl>* decls) {
  group_ = group;
  acquire_at_ = static_cast<std::uint32_t>(std::min<std::uint64_t>(group, kLateAcquire - 1));
  decls_ = decls;
  ++serial_;  // marks from earlier groups no longer count as initialised
  ++interval_;
  group_interval_ = g_epoch_ = interval_;
  seq_base_ = carried_ = 0;
  unordered_at_.clear();
  init_valid_ = 0;
  interval_atomic_ = group_atomic_ = false;
  interval_acquire_ = group_acquire_ = relaxed_seen_ = no_acquire_next_ = false;
  fences_.clear();
  releases_.clear();
  // Only the slots this worker's previous group filled (a full clear of the index cost a
  // memset of its whole size per group, which grows with N).
  if (gwords_.size() * 8 < gindex_.size()) {
    const std::size_t m = gindex_.size() - 1;
    for (const GWord& g : gwords_) {
      std::size_t k = home_slot(g.word);
      while (gindex_[k & m] != 0) {
        gindex_[k & m] = 0;  // its probe run: every slot in it is this group's
        ++k;
      }
    }
  } else {
    std::fill(gindex_.begin(), gindex_.end(), 0u);
  }
  gwords_.clear();
}

std::uint32_t Checker::new_global_word(std::uint64_t word, std::size_t slot) {
  const auto idx = static_cast<std::uint32_t>(gwords_.size());
  GWord g;
  g.word = word;
  if (!uninit_spans_.empty()) g.pre = static_cast<std::uint8_t>(unwritten_before_launch(word));
  gwords_.push_back(g);
  gindex_[slot] = idx + 1;
  if (gwords_.size() * 2 > gindex_.size()) {  // grow: rebuild the index only
    gindex_.assign(gindex_.size() * 2, 0);
    const std::size_t m = gindex_.size() - 1;
    for (std::uint32_t i = 0; i < gwords_.size(); ++i) {
      std::size_t k = home_slot(gwords_[i].word);
      while (gindex_[k & m]) ++k;
      gindex_[k & m] = i + 1;
    }
  }
  return idx;
}

void Checker::global_plain(std::uint32_t thread, std::uint32_t seq, std::uint32_t wsync,
                           std::uint32_t site, bool write, std::uint64_t addr, std::uint32_t width,
                           std::uint64_t stored) {
  if (!write && !read_only_.empty() && in_read_only_buffer(addr)) return;
  const std::uint32_t i = global_word(addr >> 2);
  GWord& g = gwords_[i];
  if (g.tag != g_epoch_) {
    g.tag = g_epoch_;
    g.head = kNone;
    g_touched_.push_back(i);
  }
  // The group's summary for the grid table, as access_general keeps it.
  const std::uint32_t bytes = ((1u << width) - 1) << (addr & 3);
  if (write) {
    if (!read_only_.empty() && in_read_only_buffer(addr)) [[unlikely]]
      store_to_read_only(thread, seq, site, addr >> 2);
    if (thread < g.wthread) g.wthread = static_cast<std::uint16_t>(thread), g.wsite = site;
    if (g.wwidth == 0) g.wvalue = stored, g.wwidth = static_cast<std::uint8_t>(width);
    else g.wmixed |= g.wvalue != stored || g.wwidth != width;
    g.pstored |= bytes;
    g.pend |= bytes;
    g.wtag = g_epoch_;
    g.stored |= bytes;
    if (after_atomic(thread, seq)) [[unlikely]] g.explained |= bytes;
  } else {
    if (thread < g.rthread) g.rthread = static_cast<std::uint16_t>(thread), g.rsite = site;
    g.loaded |= bytes;
    if (!acquired(thread, seq)) g.unacq |= bytes;
  }
  const std::uint32_t idx = log_.append();
  log_[idx] = Access{g.head, seq, site, wsync, static_cast<std::uint16_t>(thread), write, false,
                     static_cast<std::uint16_t>(width), static_cast<std::uint16_t>(bytes),
                     write ? stored : 0};
  g.head = idx;
}

void Checker::AccessLog::grow() {
  const std::size_t next = std::max<std::size_t>(std::size_t(cap_) * 2, 1024);
  if (next > 0xFFFFFFF0u) throw std::length_error("tgsim checker: over 2^32 accesses in one barrier interval");
  void* p = std::realloc(data_, next * sizeof(Access));
  if (!p) throw std::bad_alloc();
  data_ = static_cast<Access*>(p);
  cap_ = static_cast<std::uint32_t>(next);
}

void Checker::access_general(std::uint32_t thread, std::uint32_t seq, std::uint32_t wsync,
                             std::uint32_t site, SiteKind kind, std::uint64_t addr,
                             std::uint32_t width, std::uint64_t stored) {
  if (kind == SiteKind::kConstantLoad) return;  // read-only: no hazard, never uninitialised
  if (kind == SiteKind::kGlobalLoad && !read_only_.empty() && in_read_only_buffer(addr)) return;
  const bool atomic = kind == SiteKind::kSharedAtomic || kind == SiteKind::kGlobalAtomic || order_next_;
  const bool write = is_write(kind);
  const bool explained = atomic || (write && after_atomic(thread, seq));
  if (atomic) {  // after_atomic: the thread's first atomic of the interval
    if (thread >= atomic_at_.size()) atomic_at_.resize(thread + 1, ~0ull);
    if ((atomic_at_[thread] >> 32) != interval_) atomic_at_[thread] = std::uint64_t(interval_) << 32 | seq;
    interval_atomic_ = true;
    // A shared word is of the group's own memory: reading it cannot observe another group's
    // release, so a shared atomic, relaxed or not, acquires nothing (checker_release.cpp).
    if (kind == SiteKind::kGlobalAtomic) {
      note_atomic_acquire(thread, seq);
      if (!fences_.empty()) [[unlikely]] note_release(thread, seq);
    }
  }
  // Each field is stored straight into the log: an Access assembled on the stack and copied
  // cost a store-forwarding stall per access (measured: over half of this function's time).
  auto append = [&](std::uint32_t next, std::uint64_t w) {
    Access& d = log_[log_.append()];
    d.next = next;
    d.seq = seq;
    d.site = site;
    d.wsync = wsync;
    d.thread = static_cast<std::uint16_t>(thread);
    d.write = write;
    d.atomic = atomic;
    d.width = static_cast<std::uint16_t>(width);
    const std::uint64_t lo = std::max(addr, w << 2) - (w << 2);
    const std::uint64_t hi = std::min(addr + width, (w << 2) + 4) - (w << 2);
    d.bytes = static_cast<std::uint16_t>(((1u << (hi - lo)) - 1) << lo);
    d.value = write ? stored : 0;
  };
  const std::uint64_t first = addr >> 2, last = (addr + width - 1) >> 2;
  if (kind == SiteKind::kSharedLoad || kind == SiteKind::kSharedStore || kind == SiteKind::kSharedAtomic) {
    if (order_next_ > TagInfo::kSharedOrderAtomic) [[unlikely]] note_shared_order(thread, seq);
    for (std::uint64_t w = first; w <= last && w < sh_head_.size(); ++w) {
      if (sh_tag_[w] != interval_) {
        sh_tag_[w] = interval_;
        sh_head_[w] = kNone;
        sh_touched_.push_back(static_cast<std::uint32_t>(w));
      }
      if (write) sh_wtag_[w] = interval_;
      const std::uint32_t next = sh_head_[w];
      sh_head_[w] = log_.size();
      append(next, w);
    }
    return;
  }
  if (write && !read_only_.empty() && in_read_only_buffer(addr)) [[unlikely]]
    store_to_read_only(thread, seq, site, first);
  for (std::uint64_t w = first; w <= last; ++w) {
    GWord& g = touch_global_word(w);
    // The group's summary for the grid table: its lowest thread (its first access there) per
    // plain store, plain load and atomic; atomics of different groups never race with each
    // other, a plain access against another group's atomic does.
    const std::uint32_t bytes = word_bytes(addr, width, w);
    if (atomic) {
      if (thread < g.athread) g.athread = static_cast<std::uint16_t>(thread), g.asite = site;
    } else if (write) {
      if (thread < g.wthread) g.wthread = static_cast<std::uint16_t>(thread), g.wsite = site;
      if (g.wwidth == 0) g.wvalue = stored, g.wwidth = static_cast<std::uint8_t>(width);
      else g.wmixed |= g.wvalue != stored || g.wwidth != width;
      g.pstored |= bytes;
      g.pend |= bytes;
    } else {
      if (thread < g.rthread) g.rthread = static_cast<std::uint16_t>(thread), g.rsite = site;
      g.loaded |= bytes;
      if (!acquired(thread, seq)) g.unacq |= bytes;
    }
    if (write) {
      g.wtag = g_epoch_;
      g.stored |= bytes;
    }
    if (explained) g.explained |= bytes;
    const std::uint32_t next = g.head;
    g.head = log_.size();
    append(next, w);
  }
}

// A store (through a cast) to a buffer the kernel was passed as a pointer to const: the
// buffer's loads were not logged (read_only_), so hazards on it may be missed. Said, not hidden.
void Checker::store_to_read_only(std::uint32_t thread, std::uint32_t seq, std::uint32_t site,
                                 std::uint64_t word) {
  Access a{};
  a.seq = seq;
  a.site = site;
  a.thread = static_cast<std::uint16_t>(thread);
  a.write = true;
  add(FindingKind::kUnsupported, false, word, a, nullptr);
}

void Checker::end_interval(bool device_ordered, std::uint32_t longest_lane) {
  // A word only loaded in this interval has nothing to pair; a shared one is analysed anyway
  // while its group has not stored it yet (uninitialised reads). analyze() decides the same,
  // but only after walking the word's list.
  for (std::uint32_t w : sh_touched_) {
    const bool was_init = sh_init_[w] == serial_;
    if (sh_wtag_[w] != interval_ && was_init) continue;
    const Access& only = log_[sh_head_[w]];
    if (only.next == kNone && only.write) {  // one store, nothing else: it only initialises
      sh_init_[w] = serial_;
    } else {
      analyze(true, w, sh_head_[w], &sh_init_[w]);
    }
    if (sh_init_[w] == serial_) initialised(w, was_init);
  }
  sh_marks_ = 0;
  sh_restored_ = false;
  sh_orders_ = false;
  if (device_ordered) {
    for (std::uint32_t i : g_touched_) {
      GWord& g = gwords_[i];
      if (g.wtag == g_epoch_) analyze(false, g.word, g.head, nullptr);
      if (g.pre & ~g.init_bytes) global_init(g);
      g.init_bytes = g.stored;
    }
  }
  if (!releases_.empty()) [[unlikely]] release_stores();
  end_interval_acquire();
  fences_.clear();
  sh_touched_.clear();
  for (std::vector<std::uint32_t>& m : sync_masks_) m.clear();
  ++interval_;
  if (device_ordered) {
    g_touched_.clear();
    log_.clear();
    g_epoch_ = interval_;
    seq_base_ = carried_ = 0;
    unordered_at_.clear();
  } else {  // the global lists go on into the next interval (end_interval's comment, checker.hpp)
    carried_ = log_.size();
    seq_base_ += longest_lane + 1;
    unordered_at_.push_back(seq_base_);
  }
  group_atomic_ |= interval_atomic_;
  interval_atomic_ = false;
}

void Checker::end_group() {
  end_interval();
  merge_grid();
}

void Checker::analyze(bool shared, std::uint64_t word, std::uint32_t head, std::uint32_t* init) {
  word_acc_.clear();
  word_store_.clear();
  for (std::uint32_t i = head; i != kNone; i = log_[i].next) {
    word_acc_.push_back(&log_[i]);
    if (log_[i].write) word_store_.push_back(&log_[i]);
  }
  const std::size_t n = word_acc_.size(), nw = word_store_.size();
  if (nw == 0 && (!init || *init == serial_)) return;  // only loads of a stored word
  if (!init && n > 64) {  // a global word of one thread only (a long list across Metal barriers
    bool one = true;      // that order no device memory: its own accumulator): no pair to look at
    for (std::size_t i = 1; i < n && one; ++i) one = word_acc_[i]->thread == word_acc_[0]->thread;
    if (one) return;
  }
  // Each access is paired with its nearest conflicting access of another, unordered thread
  // on each side in lockstep order, as a shadow that remembers the last access would see it:
  // a load with the store before it (RAW) and the store after it (WAR), a store with the
  // store before it (WAW). Order is (seq, thread); an equal seq counts the store as first.
  bool any_write = false;
  std::uint32_t budget = kPairBudget;
  auto key = [](const Access& x) { return std::make_pair(x.seq, std::uint32_t(x.thread)); };
  for (std::size_t i = 0; i < n && budget; ++i) {
    const Access& a = *word_acc_[i];
    any_write |= a.write;
    const Access *before = nullptr, *after = nullptr;
    for (std::size_t j = 0; j < nw && budget; ++j) {
      const Access& b = *word_store_[j];
      if (b.thread == a.thread) continue;
      if (a.atomic && b.atomic) continue;  // atomics never race with each other
      if (!(a.bytes & b.bytes)) continue;  // different bytes of the word
      --budget;
      if (a.thread / 32 == b.thread / 32 && warp_ordered(a, b)) continue;  // __syncwarp
      if (sh_orders_ && shared && (synced_before(a, b) || synced_before(b, a))) [[unlikely]] continue;
      bool first = a.write ? key(b) < key(a) : b.seq <= a.seq;
      if (first) {
        if (!before || key(*before) < key(b)) before = &b;
      } else if (!a.write) {
        if (!after || key(b) < key(*after)) after = &b;
      }
    }
    // Lanes of one warp are unordered without a __syncwarp; across a threadgroup_barrier that
    // orders no device memory the barrier is what is missing (a plain hazard).
    auto kind = [&](FindingKind k, const Access& b) {
      return a.thread / 32 == b.thread / 32 && (unordered_at_.empty() || !across_unordered(a, b)) ? warp_kind(k) : k;
    };
    if (a.write) {
      if (before && (!same_bytes(*before, a) || st_.cfg.report_same_value_waw))
        add(kind(FindingKind::kWaw, *before), shared, word, *before, &a);
      else if (before) [[unlikely]]
        add_to(same_value_, same_last_, FindingKind::kWaw, shared, word, *before, &a);
    } else {
      if (before) add(kind(FindingKind::kRaw, *before), shared, word, *before, &a);
      if (after) add(kind(FindingKind::kWar, *after), shared, word, a, after);
    }
  }
  if (!init) return;
  if (*init != serial_) {
    // A load is uninitialised when nothing stored to the word before it: not in an earlier
    // interval, not its own thread earlier, not a lane of its warp before a __syncwarp. A
    // store by another, unordered thread makes it a hazard instead (reported above).
    for (std::size_t i = 0; i < n; ++i) {
      const Access& r = *word_acc_[i];
      if (r.write) continue;
      bool stored_before = false, racing = false;
      for (std::size_t j = 0; j < nw; ++j) {
        const Access& w = *word_store_[j];
        if (!(w.bytes & r.bytes)) continue;  // another byte of the word
        if (w.thread == r.thread) {
          stored_before |= w.seq < r.seq;
        } else if (w.thread / 32 == r.thread / 32 && warp_ordered(w, r)) {
          stored_before |= w.wsync < r.wsync;
        } else if (sh_orders_ && synced_before(w, r)) {
          stored_before = true;
        } else {
          racing = true;
        }
      }
      if (!stored_before && !racing) add(FindingKind::kUninitialized, true, word, r, nullptr);
    }
  }
  if (any_write) *init = serial_;
}

// Whether two stores to one word leave the bytes they share equal: the same width and value, or
// (a byte and a half-word, say) both inside the word and equal on every shared byte. A store
// wider than the word is compared whole (its bytes' place in the value is not kept).
bool Checker::same_bytes(const Access& a, const Access& b) {
  if (a.width == b.width && a.value == b.value) return true;
  auto inside = [](const Access& x) {
    return x.width <= 4 && std::popcount(static_cast<unsigned>(x.bytes)) == x.width;
  };
  if (!inside(a) || !inside(b)) return false;
  const int lo_a = std::countr_zero(static_cast<unsigned>(a.bytes));
  const int lo_b = std::countr_zero(static_cast<unsigned>(b.bytes));
  for (unsigned m = a.bytes & b.bytes; m; m &= m - 1) {
    const int p = std::countr_zero(m);
    if (((a.value >> (8 * (p - lo_a))) & 0xFF) != ((b.value >> (8 * (p - lo_b))) & 0xFF)) return false;
  }
  return true;
}

bool Checker::warp_ordered(const Access& a, const Access& b) const {
  if (a.wsync == b.wsync) return false;
  // An access of an earlier interval (a barrier that orders no device memory between): its
  // __syncwarp numbers are of that interval's masks, no longer kept; taken as unordered.
  if (static_cast<std::uint32_t>(&a - &log_[0]) < carried_ || static_cast<std::uint32_t>(&b - &log_[0]) < carried_)
    return false;
  const std::vector<std::uint32_t>& m = sync_masks_[a.thread / 32];
  const std::uint32_t both = 1u << (a.thread % 32) | 1u << (b.thread % 32);
  // A sync numbered in (lo, hi] both lanes took part in: the later access is after it.
  for (std::uint32_t e = std::min(a.wsync, b.wsync); e < std::max(a.wsync, b.wsync); ++e)
    if ((m[e] & both) == both) return true;
  return false;
}

void Checker::add_to(HazardMap& map, HazardMap::iterator& last, FindingKind kind, bool shared,
                     std::uint64_t word, const Access& a, const Access* b) {
  HazardKey key{kind, false, a.site, b ? b->site : kNone};
  if (last == map.end() || !(last->first == key)) {
    last = map.try_emplace(key).first;
    if (last->second.count == 0) last->second.order = {~0ull, 0, 0, 0, 0};
  }
  HazardAgg& h = last->second;
  h.count += 1;
  auto order = std::make_tuple(group_, group_, std::uint32_t(a.thread),
                               std::uint32_t(b ? b->thread : a.thread), word);
  if (order < h.order) {
    h.order = order;
    describe(h, shared, word);
    h.across_threadgroup_barrier = b && !unordered_at_.empty() && across_unordered(a, *b);
  }
}

void Checker::describe(HazardAgg& h, bool shared, std::uint64_t word) {
  if (!shared) {
    describe_global(h, st_.buffers, word);
    return;
  }
  h.shared = true;
  std::uint64_t byte = word << 2;
  for (const SharedDecl& d : *decls_) {
    if (byte < d.offset || byte >= d.offset + d.bytes) continue;
    std::size_t elems = 1;
    for (std::size_t e : d.extents) elems *= e;
    std::size_t elem = d.bytes / elems;
    std::size_t idx = (byte - d.offset) / elem;
    h.object = d.name;
    h.index = static_cast<std::int64_t>(idx);
    std::string sub;
    for (std::size_t k = d.extents.size(); k-- > 0;) {
      sub = "[" + std::to_string(idx % d.extents[k]) + "]" + sub;
      idx /= d.extents[k];
    }
    h.element = d.name + sub;
    return;
  }
  h.object.clear();
  h.index = -1;
  h.element = "byte " + std::to_string(byte);
}

}  // namespace tgsim::detail
