// Release and acquire between threadgroups (issue 37): the message passing of the CUDA
// Programming Guide's last-block reduction. A thread's plain global stores are released when it
// then makes a device-scope fence (__threadfence) and a global atomic after it; a plain load is
// acquired when it comes after an atomic of its group (after_atomic: the thread's own earlier in
// the interval, or any thread's in an earlier interval, a barrier between). Between groups, a
// released store and an acquired load are ordered when the storing group's atomics come first:
// under the checker, global atomics of different groups take effect in group order (a group's
// first one waits for the lower groups to end), so when the storing group is the lower one
// (GridShadow's merge, checker_grid.cpp), or when the loading group waited (spun until it was
// parked) for the others and was resumed after them (engine/coresident.cpp: its atomics come
// after theirs, since a group's atomics wait only for lower groups that run, not parked ones).
// The synchronising atomics need not name one address: a thread-level over-approximation, as
// after_atomic is.
#include "analyses/checker/checker.hpp"

namespace tgsim::detail {

// A global atomic of `thread` at lockstep time `seq`: the thread's latest fence before it, if
// any in this interval, releases the stores before that fence.
void Checker::note_release(std::uint32_t thread, std::uint32_t seq) {
  std::uint64_t best = ~0ull;
  for (std::uint64_t f : fences_)
    if ((f >> 32) == thread && static_cast<std::uint32_t>(f) <= seq && (best == ~0ull || f > best)) best = f;
  if (best == ~0ull) return;
  for (std::uint64_t r : releases_)
    if (r == best) return;
  releases_.push_back(best);
}

// The interval made releases: the stores of earlier intervals are released (a barrier came
// between them and the release), and of this interval's plain stores those whose thread released
// after them. What is left stays pending (GWord::pend) until a later release.
void Checker::release_stores() {
  for (GWord& g : gwords_) {
    if (g.tag != g_epoch_) {
      g.pend = 0;
      continue;
    }
    std::uint8_t pend = 0;
    for (std::uint32_t k = g.head; k != kNone; k = log_[k].next) {
      const Access& a = log_[k];
      if (!a.write || a.atomic) continue;
      bool released = false;
      for (std::uint64_t r : releases_)
        released = released || ((r >> 32) == a.thread && a.seq < static_cast<std::uint32_t>(r));
      if (!released) pend = static_cast<std::uint8_t>(pend | a.bytes);
    }
    g.pend = pend;
  }
  releases_.clear();
}

// Block scope: the PTX memory model makes an atomic atomic only towards threads of its scope, so
// two groups' block-scope atomics of one word race, as do they and other groups' accesses; one
// orders nothing between groups (no release, no acquire). Inside the group it is an atomic.
void Checker::block_scope_atomic(std::uint32_t thread, std::uint32_t seq, std::uint32_t wsync,
                                 std::uint32_t site, std::uint64_t addr, std::uint32_t width) {
  for (std::uint64_t w = addr >> 2, last = (addr + width - 1) >> 2; w <= last; ++w) {
    GWord& g = touch_global_word(w);
    const auto bytes = static_cast<std::uint8_t>(word_bytes(addr, width, w));
    if (thread < g.wthread) g.wthread = static_cast<std::uint16_t>(thread), g.wsite = site;
    if (thread < g.rthread) g.rthread = static_cast<std::uint16_t>(thread), g.rsite = site;
    if (g.wwidth == 0) g.wwidth = static_cast<std::uint8_t>(width);
    g.wmixed = true;  // a read-modify-write: no equal-value store
    g.pstored |= bytes;
    g.pend |= bytes;
    g.loaded |= bytes;
    g.unacq |= bytes;
    g.stored |= bytes;
    g.explained |= bytes;
    g.wtag = g_epoch_;
    Access& d = log_[log_.append()];
    d = Access{g.head, seq + seq_base_, site, wsync, static_cast<std::uint16_t>(thread), true, true,
               static_cast<std::uint16_t>(width), bytes, 0};
    g.head = log_.size() - 1;
  }
}

}  // namespace tgsim::detail
