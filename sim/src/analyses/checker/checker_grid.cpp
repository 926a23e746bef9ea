// The checker's grid-wide table (GridShadow): its pages, and the merge of one group's global
// words into it when the group ends (Checker::merge_grid). Per word the table keeps the two
// lowest groups that stored, loaded and updated it atomically, and per byte which groups' plain
// stores and loads met, so hazards between groups come out the same in any merge order. A group
// that was parked and resumed (engine/coresident.cpp) acquires after every group's release.
#include "analyses/checker/checker.hpp"

#include <thread>

#include <tgsim/hash.hpp>

namespace tgsim::detail {

GridShadow::Page* GridShadow::page(std::uint64_t no) {
  Shard& s = shards_[(no * kGoldenGamma) >> 58];
  std::lock_guard<std::mutex> lock(s.mu);
  std::unique_ptr<Page>& p = s.pages[no];
  if (!p) p = std::make_unique<Page>();
  return p.get();
}

namespace {

// Keeps the two lowest groups: each group offers one tuple per word and kind.
void keep_lowest(std::uint64_t (&v)[2], std::uint64_t t) {
  if ((t >> 32) < (v[0] >> 32) || v[0] == GridShadow::kEmpty) {
    v[1] = v[0];
    v[0] = t;
  } else if (v[1] == GridShadow::kEmpty || (t >> 32) < (v[1] >> 32)) {
    v[1] = t;
  }
}

}  // namespace

// A group's plain accesses of one word against the groups merged before (each merges once, so
// every pair of groups is tested when the later of the two merges: order-free). A load and a
// store of different groups meet unless the store was released and the load acquired with the
// storing group the lower (checker_release.cpp); release and acquire are told per word, the
// bytes per access kind. A plain store meets another group's atomic unless all of its group's
// stores there follow its own atomic and the other group is lower.
[[gnu::always_inline]] inline void Checker::merge_order(GridShadow::Page& p, std::uint32_t index,
                                                       const GWord& g, std::uint32_t group,
                                                       std::uint32_t acquire) {
  GridShadow::Word& w = p.words[index];
  const std::uint8_t su = g.pend, sr = static_cast<std::uint8_t>(g.pstored & ~g.pend);
  const std::uint8_t lu = g.unacq, la = static_cast<std::uint8_t>(g.loaded & ~g.unacq);
  const bool atomic = g.athread != kNoThread;
  if (!(sr | la) && !atomic && (p.orders.empty() || !p.orders.count(index))) [[likely]] {
    if ((su & w.loaded) || (lu & w.pstored)) w.rw_bytes = true;  // no release, acquire or atomic
    return;
  }
  auto [it, fresh] = p.orders.try_emplace(index);
  GridShadow::Order& o = it->second;
  if (fresh) {  // the groups merged so far had plain accesses only
    o.any_su = o.other_store = w.pstored != 0;
    o.any_lu = w.loaded != 0;
  }
  const bool after = atomic && g.pstored && !(g.pstored & ~g.explained);  // all after its atomic
  const bool rw = (su & w.loaded) || (lu & w.pstored) || (sr && o.any_lu && (sr & w.loaded)) ||
                  (la && o.any_su && (la & w.pstored)) ||
                  (sr && o.any_la && (sr & w.loaded) && o.acq_min < group) ||
                  (la && o.any_sr && (la & w.pstored) && o.rel_max > acquire + 1);
  if (rw) w.rw_bytes = true;
  bool waw = false;
  if (g.pstored) waw = after ? o.atomic_max > group + 1 : o.atomic_max != 0;
  if (atomic) waw = waw || o.other_store || o.after_min < group;
  if (waw) o.waw_atomic = true;
  if (sr) o.rel_max = std::max(o.rel_max, group + 1);
  if (la) o.acq_min = std::min(o.acq_min, acquire);
  if (atomic) o.atomic_max = std::max(o.atomic_max, group + 1);
  if (after) o.after_min = std::min(o.after_min, group);
  o.any_su = o.any_su || su;
  o.any_sr = o.any_sr || sr;
  o.any_lu = o.any_lu || lu;
  o.any_la = o.any_la || la;
  if (g.pstored && !after) o.other_store = true;
}

void Checker::merge_grid() {
  if (!st_.grid || gwords_.empty()) return;
  const std::uint64_t mask = (1u << GridShadow::kPageBits) - 1;
  if (page_cache_.empty()) page_cache_.assign(kPageCache, {~0ull, nullptr});
  // Words come in first-touch order, so runs of them share a few pages, whose locks are kept.
  HeldPages held;
  // The grid's words are mostly out of the caches (64 bytes per word of the launch): each is
  // prefetched kAhead words before it is merged, when its page is in the page cache.
  constexpr std::size_t kAhead = 8;
  for (std::size_t i = 0; i < gwords_.size(); ++i) {
    if (i + kAhead < gwords_.size()) {
      const std::uint64_t ahead = gwords_[i + kAhead].word;
      const auto& [ano, ap] = page_cache_[(ahead >> GridShadow::kPageBits) & (kPageCache - 1)];
      if (ano == ahead >> GridShadow::kPageBits) __builtin_prefetch(&ap->words[ahead & mask], 1, 0);
    }
    const GWord& g = gwords_[i];
    std::uint64_t no = g.word >> GridShadow::kPageBits;
    auto& [cached_no, p] = page_cache_[no & (kPageCache - 1)];
    if (cached_no != no) {
      cached_no = no;
      p = st_.grid->page(no);
    }
    lock_page(p, held);
    GridShadow::Word& w = p->words[g.word & mask];
    if (g.wthread != kNoThread) keep_lowest(w.w, GridShadow::pack(group_, g.wthread, g.wsite));
    if (g.rthread != kNoThread) keep_lowest(w.r, GridShadow::pack(group_, g.rthread, g.rsite));
    if (g.athread != kNoThread) keep_lowest(w.a, GridShadow::pack(group_, g.athread, g.asite));
    w.bytes = static_cast<std::uint8_t>(w.bytes | g.stored);
    // Per byte: whether two groups' plain stores, or one's loads and another's plain stores,
    // share a byte (a symmetric test against the groups merged before: order-free).
    w.waw_bytes = w.waw_bytes || (w.pstored & g.pstored);
    merge_order(*p, static_cast<std::uint32_t>(g.word & mask), g, static_cast<std::uint32_t>(group_), acquire_at_);
    w.pstored = static_cast<std::uint8_t>(w.pstored | g.pstored);
    w.loaded = static_cast<std::uint8_t>(w.loaded | g.loaded);
    w.explained = static_cast<std::uint8_t>(w.explained | g.explained);
    if (g.wwidth != 0) {
      w.mixed |= g.wmixed || (w.width != 0 && (w.value != g.wvalue || w.width != g.wwidth));
      w.value = g.wvalue, w.width = g.wwidth;
    }
  }
  for (std::size_t i = 0; i < held.n; ++i) held.p[i]->lock.clear(std::memory_order_release);
}

// Words of a few pages interleave in first-touch order (a row of A, a row of B): up to
// HeldPages::kMax page locks are kept while the merge goes on. Another lock is only waited
// for with none held, so two workers never wait for each other.
void Checker::lock_page(GridShadow::Page* p, HeldPages& h) {
  for (std::size_t i = 0; i < h.n; ++i)
    if (h.p[i] == p) return;
  if (!p->lock.test_and_set(std::memory_order_acquire)) {
    if (h.n < HeldPages::kMax) {
      h.p[h.n++] = p;
    } else {
      h.p[h.next]->lock.clear(std::memory_order_release);
      h.p[h.next] = p;
      h.next = (h.next + 1) % HeldPages::kMax;
    }
    return;
  }
  for (std::size_t i = 0; i < h.n; ++i) h.p[i]->lock.clear(std::memory_order_release);
  while (p->lock.test_and_set(std::memory_order_acquire)) std::this_thread::yield();
  h.p[0] = p;
  h.n = 1;
  h.next = 0;
}

}  // namespace tgsim::detail
