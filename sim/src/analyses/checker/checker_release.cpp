// Release and acquire between threadgroups (issue 37): the message passing of the CUDA
// Programming Guide's last-block reduction. A thread's plain global stores are released when it
// then makes a device-scope fence (__threadfence) and a global atomic after it; a plain load is
// acquired when it comes after an atomic of its group (after_atomic: the thread's own earlier in
// the interval, or any thread's in an earlier interval, a barrier between). Between groups, a
// released store and an acquired load are ordered when the storing group's atomics come first:
// under the checker, global atomics of different groups take effect in group order (a group's
// first one waits for the lower groups to end), so when the storing group is the lower one
// (GridShadow's merge, checker_grid.cpp). The synchronising atomics need not name one address:
// a thread-level over-approximation, as after_atomic is.
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
    if (g.tag != interval_) {
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

}  // namespace tgsim::detail
