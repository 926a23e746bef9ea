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
// Acquire follows the PTX memory model for libcu++'s atomics, whose order the program names: one
// of acquire, consume, acq_rel or seq_cst order (not a store) acquires for its thread's later
// loads; a relaxed or release one does not, unless a device-scope fence of its thread follows it
// (__threadfence, atomic_thread_fence: PTX's acquire pattern, a read then a fence). A group's
// acquire carries over a barrier to all its threads. CUDA's own atomics (atomicAdd, atomicCAS)
// and volatile accesses are relaxed in PTX too, but keep acquiring as before: the CUDA
// Programming Guide's last-block reduction reads the partials after atomicInc with no fence
// between, and is a correct program by the guide's word.
#include "analyses/checker/checker.hpp"

#include <algorithm>

#include "engine/tag_table.hpp"

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

// An atomic of `thread` at lockstep time `seq`: it acquires, unless no_acquire_next_ says it is
// a relaxed one (then a fence after it may acquire: fence_acquired).
void Checker::note_atomic_acquire(std::uint32_t thread, std::uint32_t seq) {
  const std::uint64_t at = std::uint64_t(interval_) << 32 | seq;
  std::vector<std::uint64_t>& per_thread = no_acquire_next_ ? relaxed_seq_ : acquire_seq_;
  if (thread >= per_thread.size()) per_thread.resize(thread + 1, ~0ull);
  if ((per_thread[thread] >> 32) != interval_) per_thread[thread] = at;
  if (no_acquire_next_) relaxed_seen_ = true;
  else interval_acquire_ = true;
}

// Whether a device-scope fence of `thread` at or before lockstep time `seq` follows a relaxed
// atomic of the same thread: earlier in this interval, or in an earlier interval of the group.
// An acquire is a thread's own (PTX's acquire pattern: its read, then its fence); another
// thread's relaxed read before a barrier orders nothing for this thread's fence. What a thread
// acquired reaches the others of its group only through a barrier after its fence
// (end_interval_acquire).
bool Checker::fence_acquired(std::uint32_t thread, std::uint32_t seq) const {
  std::uint32_t after = ~0u;  // a fence later than this follows the relaxed atomic
  if (thread < relaxed_group_.size() && relaxed_group_[thread] == serial_) after = 0;
  if (thread < relaxed_seq_.size() && (relaxed_seq_[thread] >> 32) == interval_)
    after = std::min(after, static_cast<std::uint32_t>(relaxed_seq_[thread]) + 1);
  if (after == ~0u) return false;
  for (std::uint64_t f : fences_) {
    const auto at = static_cast<std::uint32_t>(f);
    if ((f >> 32) == thread && at >= after && at <= seq) return true;
  }
  return false;
}

// The interval ends: an acquire made in it (an acquiring atomic, or a fence of a thread after
// its own relaxed one) holds for the group's later intervals, past the barrier: the barrier
// orders every thread's later accesses after it (happens-before).
void Checker::end_interval_acquire() {
  if (relaxed_seen_ && !interval_acquire_) {
    for (std::uint64_t f : fences_)
      if (fence_acquired(static_cast<std::uint32_t>(f >> 32), static_cast<std::uint32_t>(f))) {
        interval_acquire_ = true;
        break;
      }
  }
  group_acquire_ |= interval_acquire_;
  interval_acquire_ = false;
  if (relaxed_seen_) {  // the threads that made a relaxed atomic in this interval, for the next ones
    for (std::uint32_t t = 0; t < relaxed_seq_.size(); ++t) {
      if ((relaxed_seq_[t] >> 32) != interval_) continue;
      if (t >= relaxed_group_.size()) relaxed_group_.resize(t + 1, 0);
      relaxed_group_[t] = serial_;
    }
  }
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

// Inside a group, libcu++ atomics of shared memory order other threads' shared accesses by their
// memory order (PTX's release and acquire patterns at block scope, the flag's own accesses being
// atomics): an access of one thread that its thread follows with a release (a store or
// read-modify-write of release, acq_rel or seq_cst order) happens before an access of another
// thread that its thread precedes with an acquire (a load or read-modify-write of acquire, acq_rel
// or seq_cst order), in the same barrier interval. As between groups, the atomics need not name
// one word (a thread-level over-approximation). A relaxed atomic orders nothing: a flag set and
// read with relaxed orders leaves the data it guards racing. Fences around relaxed shared atomics
// are not modelled (block-scope fences are not logged): such a flag is reported as a race.
void Checker::ordered_shared(std::uint8_t order, std::uint32_t thread, std::uint32_t seq, std::uint32_t wsync,
                             std::uint32_t site, SiteKind kind, std::uint64_t addr, std::uint32_t width,
                             std::uint64_t stored) {
  order_next_ = order;
  access_general(thread, seq + seq_base_, wsync, site, kind, addr, width, stored);
  order_next_ = 0;
}

void Checker::note_shared_order(std::uint32_t thread, std::uint32_t seq) {
  const std::uint64_t at = std::uint64_t(interval_) << 32 | seq;
  if (thread >= sh_acquire_at_.size()) {
    sh_acquire_at_.resize(thread + 1, ~0ull);
    sh_release_at_.resize(thread + 1, ~0ull);
  }
  if ((order_next_ & TagInfo::kSharedOrderAcquire) && (sh_acquire_at_[thread] >> 32) != interval_)
    sh_acquire_at_[thread] = at;  // the first
  if (order_next_ & TagInfo::kSharedOrderRelease) sh_release_at_[thread] = at;  // the last
  sh_orders_ = true;
}

// Whether x happens before y through a release of x's thread after x and an acquire of y's thread
// before y, both in this interval.
bool Checker::synced_before(const Access& x, const Access& y) const {
  if (x.thread == y.thread || x.thread >= sh_release_at_.size() || y.thread >= sh_acquire_at_.size())
    return false;
  const std::uint64_t rel = sh_release_at_[x.thread], acq = sh_acquire_at_[y.thread];
  return (rel >> 32) == interval_ && static_cast<std::uint32_t>(rel) > x.seq && (acq >> 32) == interval_ &&
         static_cast<std::uint32_t>(acq) < y.seq;
}

}  // namespace tgsim::detail
