// Race detection inside a barrier interval: each word's accesses paired with other threads'
// unordered stores (analyze), the orders that separate them (__syncwarp, release and acquire
// inside the group), uninitialised shared reads, and the hazards kept per site pair with their
// example (add_to, describe).
#include "analyses/checker/checker.hpp"

#include <algorithm>
#include <bit>

#include "memory/shared_decl.hpp"

namespace tgsim::detail {

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
