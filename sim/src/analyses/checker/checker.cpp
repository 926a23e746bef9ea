// The checker's per-access path: each access of an interval logged on its word's list (shared
// words by arena index, global words through the group's open-addressing index), the group's
// summary per global word for the grid table, and the bookkeeping of barrier intervals and
// groups. Pairing at an interval's end: checker_pairs.cpp; findings: checker_findings.cpp;
// release and acquire: checker_release.cpp; the grid table: checker_grid.cpp.
#include "analyses/checker/checker.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "engine/tag_table.hpp"
#include <tgsim/hash.hpp>

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

}  // namespace tgsim::detail
