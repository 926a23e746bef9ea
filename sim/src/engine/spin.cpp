// Spin-waits and stuck groups. A thread that waits for a flag another group sets (`while
// (atomicAdd(&flag, 0) == 0);`, a volatile read loop, cuda::atomic_ref::load) repeats one read
// until the value changes; how often depends on when the other group runs, on the GPU and on
// any worker count here. So the repeated iterations are dropped from the lane's log: a run of
// k >= 1 identical copies of a pattern that starts with a spin read (TagInfo::spin_read: a
// volatile or atomic load, or an atomic read-modify-write that leaves memory as it was) and
// holds only loads is cut to what follows it, when a prefix of the pattern follows (the
// iteration that saw the new value), else to one copy. A spin counts as its last iteration, so
// the counters, the cache model and the checker see the same records for any schedule.
// Collapsing runs when a spinning thread yields (its log grew: maybe_yield, group.cpp) and when
// its warp is flushed, only in groups that made a spin read's tag.
//
// Stuck: a spinning thread whose log, collapsed, ends in the same spin as at its last yield made
// no progress; a pass after which every thread that can run is such a thread, with as many
// threads waiting or exited as after the pass before, leaves the group stuck: nobody in it can
// set the value. The launch parks the group (keeps its threads) and runs other groups, and
// resumes it later (coresident.cpp); nobody left to set it is a watchdog finding.
#include <algorithm>

#include "engine/group.hpp"

namespace tgsim::detail {

namespace {

constexpr std::size_t kMaxPeriod = 16;  // records per spin iteration, at most

bool load_kind(SiteKind k) {
  return k == SiteKind::kGlobalLoad || k == SiteKind::kSharedLoad || k == SiteKind::kLoad ||
         k == SiteKind::kConstantLoad;
}

// Where old log position `pos` lies after the ranges (start, length) of `dropped` are removed.
std::uint32_t moved(const std::vector<std::uint64_t>& dropped, std::uint64_t pos) {
  std::uint64_t shift = 0;
  for (std::size_t k = 0; k < dropped.size(); k += 2) {
    if (dropped[k] >= pos) break;
    shift += std::min(dropped[k + 1], pos - dropped[k]);
  }
  return static_cast<std::uint32_t>(pos - shift);
}

}  // namespace

std::uint32_t GroupRun::collapse_lane(std::uint32_t w, std::uint32_t lane) {
  WarpLog& wl = warps_[w];
  WarpLog::LaneLog& log = wl.lanes[lane];
  const std::size_t n = log.size();
  std::uint64_t* r = log.records();
  const auto lo = reinterpret_cast<std::uint64_t>(arena_.data());
  const std::uint64_t hi = lo + arena_.size();
  auto spin = [&](std::uint64_t x) {
    const std::uint64_t a = x & kAddrMask;
    return tags_[x >> kTagShift].spin_read && (a < lo || a >= hi);  // not the group's own shared memory
  };
  auto load_like = [&](std::uint64_t x) { return load_kind(tags_[x >> kTagShift].kind) || spin(x); };
  collapse_scratch_.clear();
  std::size_t out = 0, i = 0, writes = 0;
  std::uint32_t tail = kNoSpin;
  while (i < n) {
    bool cut = false;
    if (spin(r[i])) {
      for (std::size_t p = 1; p <= kMaxPeriod && i + p <= n; ++p) {
        if (!load_like(r[i + p - 1])) break;
        std::size_t c = 1;
        while (i + (c + 1) * p <= n && std::equal(r + i, r + i + p, r + i + c * p)) ++c;
        const std::size_t rest = i + c * p;
        std::size_t pre = 0;
        while (rest + pre < n && pre < p && r[rest + pre] == r[i + pre]) ++pre;
        const std::size_t drop = pre ? c : c - 1;  // a prefix follows: the last check; else keep one
        if (drop == 0) continue;
        if (checking_) {  // the checker's stored values of the dropped writes (no-op atomics)
          std::size_t k = 0;
          for (std::size_t j = i; j < i + drop * p; ++j) k += is_write(tags_[r[j] >> kTagShift].kind);
          if (k) values_dropped(w * 32 + lane, writes, k);
        }
        collapse_scratch_.push_back(i);
        collapse_scratch_.push_back(drop * p);
        i += drop * p;
        tail = rest + pre == n ? static_cast<std::uint32_t>(out) : kNoSpin;
        cut = true;
        break;
      }
    }
    if (cut) continue;
    writes += is_write(tags_[r[i] >> kTagShift].kind);
    r[out++] = r[i++];
  }
  if (out == n) return kNoSpin;
  log.cut(out);
  // The positions the checker keeps in the log: fences and __syncwarp of this lane.
  for (std::uint64_t& f : wl.fences)
    if ((f >> 32) == lane) f = (f >> 32) << 32 | moved(collapse_scratch_, f & 0xffffffffu);
  for (std::array<std::uint32_t, 32>& s : wl.syncs) s[lane] = moved(collapse_scratch_, s[lane]);
  return tail;
}

void GroupRun::collapse_warp(std::uint32_t w) {
  for (std::uint32_t l = 0; l < 32; ++l)
    if (warps_[w].lanes[l].size() > 1) collapse_lane(w, l);
}

// A spinning thread yields (maybe_yield): its log collapsed, and stuck when it ends in the spin
// it ended in at the thread's last yield. The room left is cut so that it yields again soon.
void GroupRun::note_spin(Thread& th) {
  const std::uint32_t i = th.ctx.linear_tid;
  const std::uint32_t tail = collapse_lane(th.ctx.warp, th.ctx.lane);
  th.stuck = tail != kNoSpin && tail == spin_at_[i];
  spin_at_[i] = tail;
  if (tail != kNoSpin) warps_[th.ctx.warp].lanes[th.ctx.lane].cap_room(64);
}

// After a pass in which threads yielded while spinning: stuck when every thread that can run is
// stuck and as many threads wait or exited as at the last test.
bool GroupRun::group_stuck() {
  std::uint32_t stopped = 0;
  bool any = false;
  for (const Thread& th : threads_) {
    if (th.state == State::kReady && th.stuck) {
      any = true;
    } else if (th.state == State::kWaiting || th.state == State::kExited) {
      ++stopped;
    } else {
      last_stopped_ = ~0u;
      return false;
    }
  }
  const bool same = stopped == last_stopped_;
  last_stopped_ = stopped;
  return any && same;
}

const GroupRun::Thread* GroupRun::first_stuck() const {
  for (const Thread& th : threads_)
    if (th.state == State::kReady && th.stuck) return &th;
  return nullptr;
}

GroupRun::Resumed GroupRun::resume() {
  if (runner_ != std::this_thread::get_id()) {  // its threads' stacks came from another thread's pool
    for (const Thread& th : threads_) th.fiber.adopt();
    runner_ = std::this_thread::get_id();
  }
  stuck_ = false;
  group_resumed();
  const std::uint64_t before = passes_;
  run_schedule();
  if (stuck_ && !aborting_) return {RunEnd::kParked, passes_ - before > 1};
  if (stuck_) end_stuck("");
  else finish();
  return {RunEnd::kEnded, true};
}

void GroupRun::end_parked(const std::string& why) { end_stuck(why); }

// The finding at the first stuck thread's spin read (its log's last record), then the group
// ends: its threads are unwound.
void GroupRun::end_stuck(const std::string& why) {
  const Thread* th = first_stuck();
  if (th && !why.empty()) {
    const ThreadCtx& t = th->ctx;
    const WarpLog::LaneLog& log = warps_[t.warp].lanes[t.lane];
    const std::string msg = "thread " + t.thread_idx.str() + " (warp " + std::to_string(t.warp) + ", lane " +
                            std::to_string(t.lane) + ") of block " + t.block_idx.str() + " " + why;
    if (log.empty()) {
      add_finding_at(t, FindingKind::kWatchdog, "", 0, 0, msg);
    } else {
      const std::vector<SiteInfo> sites = state_.sites.snapshot();
      const SiteInfo& s = sites[tags_[log[log.size() - 1] >> kTagShift].site];
      add_finding_at(t, FindingKind::kWatchdog, s.file, s.line, s.column, msg);
    }
  }
  aborting_ = true;
  finish();
}

}  // namespace tgsim::detail
