// GroupRun: runs threadgroups on one worker thread. Every simulated thread is a fiber
// (boost::context::fiber, stacks from a per-worker pool with a guard page); a small
// scheduler of our own resumes them in the launch's schedule order. A thread runs freely
// until it waits at a barrier or exits, so a barrier-free kernel runs each thread to its
// end on one reused stack (the fast path). When every live thread waits, the barrier is
// released, or, if some exited or wait elsewhere, reported as divergence and the group
// ends cleanly.
//
// Counting: each access is filed in its warp's log under (site, occurrence of that site
// in this lane since the warp's last flush); lanes with equal (site, occurrence) form one
// warp instruction. A warp is flushed through the models as soon as none of its lanes
// can run (all wait or exited), so the log never holds more than one barrier interval.
// __syncwarp is a warp-scoped rendezvous: a lane waits until every named lane that has not
// exited arrived (masks of different call sites merge, as on sm_70+).
// With LaunchConfig::check a Checker (checker.hpp) sees every access; without it the hot
// path pays one predictable branch.
// Why not Boost.Fiber's scheduler: a barrier needs to know the state of every thread of
// the group (divergence, deadlock), and a raw context switch costs a fraction of a
// Boost.Fiber yield (architecture.md: 13-17 ns vs 44-53 ns per arrival).
#pragma once
#include <boost/context/fiber.hpp>

#include <deque>
#include <memory>

#include <cstdint>
#include <source_location>
#include <vector>

#include "checker.hpp"
#include "launch_state.hpp"

namespace tgsim::detail {

struct SharedDecl {
  const char* file;
  std::uint32_t line, column;
  std::string name;
  std::uint32_t offset = 0;
  std::size_t bytes = 0;
  std::vector<std::size_t> extents;
};

// Accesses of one warp, grouped into warp instructions as they arrive.
struct WarpLog {
  struct Slot {
    std::uint32_t site;
    SiteKind kind;
    std::uint32_t width;
    std::uint32_t mask;
    std::uint64_t addr[32];
  };
  std::vector<Slot> slots;                       // warp instructions, in first-arrival order
  std::vector<std::vector<std::uint32_t>> by_site;  // by_site[site][occurrence] -> slot
  std::vector<std::uint32_t> occurrence;         // [site * 32 + lane]

  void add(std::uint32_t site, SiteKind kind, std::uint32_t lane, std::uint64_t addr,
           std::uint32_t width) {
    if (site >= by_site.size()) grow(site + 1);
    std::uint32_t k = occurrence[site * 32 + lane]++;
    std::vector<std::uint32_t>& v = by_site[site];
    if (k == v.size()) {
      v.push_back(static_cast<std::uint32_t>(slots.size()));
      Slot& s = slots.emplace_back();
      s.site = site;
      s.kind = kind;
      s.width = width;
      s.mask = 0;
    }
    Slot& s = slots[v[k]];
    s.mask |= 1u << lane;
    s.addr[lane] = addr;
  }
  void grow(std::size_t sites);
  void clear();
};

// Counters of one site, accumulated by one worker.
struct SiteAcc {
  AccessCounters c;
  std::uint64_t barriers = 0;
};

class GroupRun {
 public:
  explicit GroupRun(LaunchState& st);
  ~GroupRun();
  void run(std::uint64_t group_linear);

  // Called from kernel code on the running fiber.
  // With the checker off this is the old path plus one predictable branch; the checked path
  // is a separate, out-of-line tail call so the fast path keeps its registers.
  void record(ThreadCtx& t, const std::source_location& loc, SiteKind kind, std::uint64_t addr,
              std::uint32_t width, const void* value) {
    if (checking_) [[unlikely]]
      return record_checked(t, loc, kind, addr, width, value);
    warps_[t.warp].add(site_id(loc, kind), kind, t.lane, addr, width);
  }
  void record_checked(ThreadCtx& t, const std::source_location& loc, SiteKind kind,
                      std::uint64_t addr, std::uint32_t width, const void* value);
  void barrier(ThreadCtx& t, const std::source_location& loc);
  void syncwarp(ThreadCtx& t, std::uint32_t mask, const std::source_location& loc);
  std::byte* shared_storage(ThreadCtx& t, const std::source_location& loc, const char* name,
                            std::size_t bytes, std::size_t align, std::uint32_t rank,
                            const std::size_t* extents, std::uint32_t* offset,
                            const SharedDecl** decl);
  void add_finding(const ThreadCtx& t, FindingKind kind, const std::source_location& loc,
                   const std::string& message);

  const std::vector<SiteAcc>& accumulated() const { return acc_; }
  const FindingMap& findings() const { return findings_; }
  std::uint64_t warpsyncs() const { return warpsyncs_; }
  const Checker* checker() const { return checker_.get(); }

 private:
  enum class State : std::uint8_t { kReady, kRunning, kWaiting, kWarpWait, kExited };
  struct WarpSync {          // the open __syncwarp rendezvous of one warp
    std::uint32_t arrived = 0;  // lanes waiting in it
    std::uint32_t mask = 0;     // union of the masks they named
    std::source_location loc;   // the first arrival's call site
  };
  struct Thread {
    ThreadCtx ctx;
    boost::context::fiber fiber;  // the suspended thread (held by the scheduler)
    boost::context::fiber sched;  // the scheduler (held by the running thread)
    State state = State::kReady;
    std::source_location wait_loc;
  };

  std::uint32_t site_id(const std::source_location& loc, SiteKind kind) {
    std::uintptr_t h = (reinterpret_cast<std::uintptr_t>(loc.file_name()) >> 3) ^
                       (loc.line() * 0x9E3779B1u) ^ (loc.column() * 0x85EBCA77u) ^
                       static_cast<std::uint32_t>(kind);
    CacheEntry& e = cache_[h & (kCache - 1)];
    if (e.file == loc.file_name() && e.line == loc.line() && e.column == loc.column() &&
        e.kind == kind)
      return e.id;
    e = CacheEntry{loc.file_name(), loc.line(), loc.column(), kind,
                   state_.sites.id(loc, kind)};
    return e.id;
  }
  void start(std::uint64_t group_linear);
  void resume(Thread& th);
  void flush_warp(std::uint32_t w);
  void release_barrier();
  void report_divergence();
  bool try_complete_warp(std::uint32_t w, std::uint32_t caller);
  void report_stuck_warps();
  void unwind_all();
  void count_barriers_at_waits();

  LaunchState& state_;
  Dim3 block_;
  std::uint32_t nthreads_ = 0;
  std::uint64_t group_ = 0;
  std::vector<Thread> threads_;
  std::vector<std::uint32_t> order_;
  std::vector<WarpLog> warps_;
  std::vector<std::uint32_t> warp_pending_;  // lanes of the warp that may still run
  std::vector<WarpSync> wsync_;
  std::uint64_t warpsyncs_ = 0;
  std::unique_ptr<Checker> checker_;  // null unless cfg.check
  bool checking_ = false;             // checker_ != null, as a plain flag for the hot path
  std::deque<SharedDecl> decls_;  // stable addresses: handles point into it
  std::vector<std::byte> arena_;
  std::size_t arena_used_ = 0;
  bool aborting_ = false;

  std::vector<SiteAcc> acc_;
  FindingMap findings_;

  static constexpr std::size_t kCache = 256;
  struct CacheEntry {
    const char* file = nullptr;
    std::uint32_t line = 0, column = 0;
    SiteKind kind{};
    std::uint32_t id = 0;
  };
  CacheEntry cache_[kCache];
};

}  // namespace tgsim::detail
