// GroupRun: runs threadgroups on one worker thread. Every simulated thread is a fiber
// (fiber.hpp: stacks from a per-worker pool with a guard region); a small scheduler of our own
// resumes them in the launch's schedule order, and a thread that stops at a barrier or a warp
// rendezvous resumes the next ready thread of that order itself. A thread runs freely
// until it waits at a barrier or exits, so a barrier-free kernel runs each thread to its
// end on one reused stack (the fast path). When every live thread waits at one barrier, the
// barrier is released: exited threads count as arrived (PTX: exited threads do not hold up
// bar.sync), so `if (i >= n) return;` before a barrier is correct. Live threads waiting at
// different barriers are reported as divergence and the group ends cleanly; lanes that skip
// a barrier their warp's other lanes wait at and run on past it to exit are reported as
// divergence in the warp (group_sync.cpp) and the group goes on.
//
// Counting: each access is filed in its lane's log (record.hpp); lanes with equal (tag,
// occurrence of that tag in the lane since the warp's last flush) form one warp instruction.
// A warp is flushed as soon as none of its lanes can run (all wait or exited), so the log
// never holds more than one barrier interval. Its warp instructions, and the ends of
// intervals and groups, go to the analyses as one stream (analyses/sinks.hpp): counters and
// models, the cache model, the capture for pictures and the checker. GroupRun holds them as
// one opaque list (engine/analyses.hpp); the stream's files hand them the events. GroupRun
// keeps the scheduler and the shared arena; the barrier (barrier.hpp), the warp rendezvous
// (warp_rendezvous.hpp), the schedule's order (schedule_order.hpp), the placement of front-end
// accesses (stream/placement.hpp) and the record tags (tag_table.hpp) are types of their own.
// __syncwarp is a warp-scoped rendezvous: a lane waits until every named lane that has not
// exited arrived (masks of different call sites merge, as on sm_70+).
// With LaunchConfig::check the checker sink reads the group's logs when a barrier is released
// (end_interval); without it a store pays one predictable branch, a load none.
// Why not Boost.Fiber's scheduler: a barrier needs to know the state of every thread of
// the group (divergence, deadlock), and a raw context switch costs a fraction of a
// Boost.Fiber yield (per thread arrival at a barrier, measured on 2 cores with groups of 64
// and 256 threads: 13-17 ns vs 44-53 ns; docs/performance.md, docs/design.md).
// Bookkeeping per arrival: the barrier (barrier.hpp) keeps, as threads arrive at it and exit,
// per warp the masks of waiting and exited lanes, the numbers of both, and whether every arrival
// named one call site (one source_location object). So the end of a pass, the release (BAR
// counting and making the waiting threads ready) and the warp flush's divergence test need
// no scan of the group's threads when every live thread waits at one barrier; the scans stay
// for everything else (warp collectives, __activemask, divergent barriers). The schedule's
// order is a ring of thread pointers ending in a sentinel thread that never runs. Measured
// (callgrind, matmul_tiled16 at n = 128, one worker): about 114 instructions per thread per
// barrier with the release and the scheduler's share (fiber.hpp), about 218 before.
#pragma once
#include "engine/fiber.hpp"

#include <array>
#include <deque>
#include <unordered_map>
#include <memory>
#include <optional>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <source_location>
#include <thread>
#include <vector>

#include "memory/device_memory.hpp"
#include "engine/analyses.hpp"
#include "engine/barrier.hpp"
#include "engine/launch_state.hpp"
#include "engine/log_pool.hpp"
#include "memory/shared_decl.hpp"
#include "engine/schedule_order.hpp"
#include "engine/tag_table.hpp"
#include "engine/warp_rendezvous.hpp"
#include "stream/placement.hpp"
#include "stream/warp_instruction.hpp"
#include <tgsim/memory.hpp>
#include <tgsim/warp.hpp>

namespace tgsim::detail {

// Accesses of one warp, appended per lane as they happen: one 8-byte record per access,
// tag << 48 | address (record.hpp), written by the inline fast path through the lane's LaneBuf.
// At a flush, lanes with equal (tag, occurrence) form one warp instruction: when every lane's
// tag sequence is a prefix of the longest lane's (uniform control flow, early exits), record
// k of each lane belongs to instruction k; otherwise the grouper matches occurrences.
struct WarpLog {
  // One lane's records: a raw growable array whose append cursor (LaneBuf) ThreadCtx points
  // at, so the append on the hot path is a compare and a store, with the growth out of line.
  class LaneLog {
   public:
    LaneLog() = default;
    LaneLog(LaneLog&& o) noexcept : buf_(o.buf_), data_(o.data_) { o.buf_ = {}, o.data_ = nullptr; }
    LaneLog(const LaneLog&) = delete;
    LaneLog& operator=(const LaneLog&) = delete;
    ~LaneLog() { std::free(data_); }
    // Throws WatchdogExpired when the lane already holds `limit` records (the watchdog).
    // `pool`: the worker's big buffers (log_pool.hpp), taken before malloc.
    void push(std::uint64_t r, std::size_t limit, LogPool& pool) {
      if (buf_.cur == buf_.end) [[unlikely]] grow(limit, pool);
      *buf_.cur++ = r;
    }
    // Room for n more records (a region's capacity check failed, __tgsim_reserve). Throws
    // WatchdogExpired when the lane already holds `limit` records; otherwise the log may pass
    // `limit` by fewer than n records, and the next check throws.
    void reserve(std::size_t n, std::size_t limit, LogPool& pool) {
      if (static_cast<std::size_t>(buf_.end - buf_.cur) < n) grow(limit, pool, n);
    }
    LaneBuf* buf() { return &buf_; }
    const std::uint64_t* data() const { return data_; }
    std::size_t size() const { return static_cast<std::size_t>(buf_.cur - data_); }
    bool empty() const { return buf_.cur == data_; }
    bool full() const { return buf_.cur == buf_.end; }
    std::uint64_t operator[](std::size_t i) const { return data_[i]; }
    const std::uint64_t* begin() const { return data_; }
    const std::uint64_t* end() const { return buf_.cur; }
    void clear() { buf_.cur = data_; }
    // Emptied, its buffer given to the pool when it holds room for more than LogPool::kKeep.
    void recycle(LogPool& pool) {
      if (static_cast<std::size_t>(buf_.end - data_) > LogPool::kKeep) {
        pool.give(data_, static_cast<std::size_t>(buf_.end - data_));
        if (pool.big_lanes) --pool.big_lanes;
        data_ = nullptr;
        buf_ = {};
      }
      clear();
    }
    // Spin collapse (spin.cpp): the records in place, the size cut to n, and the free room
    // cut so that the next `room` appends reach the out-of-line path (a yield) again.
    std::uint64_t* records() { return data_; }
    void cut(std::size_t n) { buf_.cur = data_ + n; }
    void cap_room(std::size_t room) {
      if (static_cast<std::size_t>(buf_.end - buf_.cur) > room) buf_.end = buf_.cur + room;
    }

   private:
    [[gnu::noinline, gnu::cold]] void grow(std::size_t limit, LogPool& pool, std::size_t room = 1);
    LaneBuf buf_;
    std::uint64_t* data_ = nullptr;
  };
  LaneLog lanes[32];
  // With the checker on: the lanes' log sizes at every completed __syncwarp of the interval
  // with the lanes that took part (shuffles and votes order no memory: they are not recorded).
  std::vector<std::array<std::uint32_t, 32>> syncs;
  std::vector<std::uint32_t> sync_masks;
  // With the checker on: the device-scope fences (__threadfence) of the interval, as
  // lane << 32 | the lane's log size at the fence (accesses before it have a smaller index).
  std::vector<std::uint64_t> fences;
  bool counted = false;  // with the checker: flushed into the counters in this interval
  // The watchdog (LaunchConfig::watchdog_accesses): a lane's log never grows past `limit`
  // records; the capacity check the append makes anyway is the only test on the hot path.
  std::size_t limit = ~std::size_t(0);
};
struct WatchdogExpired {};

// The group's shared memory: zero-filled and aligned to 4 KiB, so a raw address and its offset
// in the arena fall in the same bank and the same 128-byte line (the bank model can take either).
class Arena {
 public:
  static constexpr std::size_t kAlign = 4096;
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() { std::free(data_); }
  void resize(std::size_t bytes) {
    std::free(data_);
    size_ = bytes;
    data_ = static_cast<std::byte*>(std::aligned_alloc(kAlign, (bytes + kAlign - 1) / kAlign * kAlign + kAlign));
    if (!data_) throw std::bad_alloc();
    std::memset(data_, 0, size_);
  }
  std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

// One kernel printf of the current barrier interval: its thread and its text in print_text_.
struct PrintedLine {
  std::uint32_t thread;
  std::uint32_t length;
  std::uint64_t offset;
};

// The general grouping, for warps whose lanes took different paths through the sites.
struct WarpGrouper {
  struct Slot {
    std::uint32_t tag;
    std::uint32_t mask;
    std::uint64_t addr[32];
  };
  std::vector<Slot> slots;                         // warp instructions, in first-arrival order
  std::vector<std::vector<std::uint32_t>> by_tag;  // by_tag[tag][occurrence] -> slot
  std::vector<std::uint32_t> occurrence;           // [tag * 32 + lane]

  void add(std::uint64_t record, std::uint32_t lane);
  void clear();
};

class GroupRun;
class Checker;

// The logs of one barrier interval, as the sinks see them when it ends (sinks.hpp).
struct IntervalLogs {
  const std::vector<WarpLog>& warps;
  std::vector<TagInfo>& tags;
  GroupRun& group;  // placement of front-end accesses (check_placed)
  // false: the barrier that ended it orders threadgroup memory only (Metal's
  // threadgroup_barrier(mem_flags::mem_threadgroup)), so device memory stays unordered across it.
  bool device_ordered = true;
};

class GroupRun {
 public:
  explicit GroupRun(LaunchState& st);
  ~GroupRun();
  // Runs group `group_linear` to its end, or, with parking allowed (allow_parking), until it is
  // stuck: every thread that could run spins on a read that returns the same value again
  // (spin.cpp), waiting for another group. A parked group keeps its threads suspended; the
  // launch (coresident.cpp) resumes it once other groups ran, or ends it (end_parked).
  enum class RunEnd { kEnded, kParked };
  RunEnd run(std::uint64_t group_linear);
  void allow_parking(bool on) { can_park_ = on; }
  struct Resumed {
    RunEnd end;
    bool progressed;  // it ended, or ran past a spin before it was stuck again
  };
  Resumed resume();
  // A parked group nobody will release: a watchdog finding at its first stuck thread's spin
  // read (the message, `why`, follows the thread), and the group ends.
  void end_parked(const std::string& why);
  std::uint64_t group() const { return group_; }

  // A cooperative launch (cooperative.cpp) runs each group in phases: a phase ends when the
  // group ends or when every live thread waits at grid.sync(), where the group is parked (its
  // threads' frames copied off the launch's shared stacks, Fiber::park) until every group has
  // arrived. The first phase starts the group; a later one releases the grid.sync() (counted
  // as the two BARs per warp of nvcc's grid sync) and runs on to the next.
  enum class PhaseEnd { kEnded, kAtGridSync };
  PhaseEnd run_phase(std::uint64_t group_linear, bool first);
  void use_stacks(const std::vector<void*>& tops);  // thread i runs on tops[i]
  // A parked group whose grid.sync() is never released (another group ended without it): its
  // threads are unwound and the group ends. `why` (if not empty) is the finding, at the sync.
  void end_at_grid_sync(const std::string& why);
  // grid.sync() (cooperative_groups::grid_group::sync, __tgsim_grid_sync): a barrier that
  // parks the group; outside a cooperative launch a finding, and the group ends.
  void grid_barrier(ThreadCtx& t, const std::source_location& loc);
  bool cooperative() const { return state_.cfg.cooperative; }

  // Called from kernel code on the running fiber: the out-of-line path of record.hpp's inline
  // append (tag-cache miss, full lane log, atomics, constant loads).
  void record(ThreadCtx& t, const std::source_location& loc, SiteKind kind, std::uint64_t addr,
              std::uint32_t width, const void* value) {
    if (kind == SiteKind::kGlobalAtomic && state_.atomic_order) [[unlikely]]  // (before the atomic acts)
      state_.atomic_order->wait_turn(group_, state_.stop_after);
    append(t, tags_.tag(loc, kind, width), kind, addr, width, value);
  }
  // A global atomic read-modify-write of a kernel file (bridge_warp.cpp): record() that also
  // tells its site whether it left memory as it was (`noop`: a spin read, spin.cpp). An atomic
  // that changed memory is noted only once the group has spin reads (one test otherwise).
  void record_rmw(ThreadCtx& t, const std::source_location& loc, std::uint64_t addr, std::uint32_t width,
                  const void* value, bool noop) {
    if (state_.atomic_order) [[unlikely]]
      state_.atomic_order->wait_turn(group_, state_.stop_after);
    const std::uint64_t tag = tags_.tag(loc, SiteKind::kGlobalAtomic, width);
    if (noop || spin_sites_) [[unlikely]] {
      const TagInfo& ti = tags_[tag >> kTagShift];
      if (noop ? !ti.spin_read && !ti.rmw_effect : !ti.rmw_effect) mark_spin_atomic(tag, noop);
    }
    append(t, tag, SiteKind::kGlobalAtomic, addr, width, value);
  }
  void append(ThreadCtx& t, std::uint64_t tag, SiteKind kind, std::uint64_t addr, std::uint32_t width,
              const void* value) {
    WarpLog& w = warps_[t.warp];
    const bool full = w.lanes[t.lane].full();
    w.lanes[t.lane].push(tag | addr, w.limit, log_pool_);
    if (checking_ && is_write(kind)) note_store(&t, static_cast<AccessKind>(kind), addr, width, value);
    if (full) [[unlikely]] maybe_yield(t);  // the log grew: a spinning thread lets others run
  }
  // Room for n more records in the lane's log (__tgsim_reserve: a region of the pass's records
  // found too little); like a record's full log, a spinning thread lets others run.
  void reserve(ThreadCtx& t, std::uint32_t n) {
    WarpLog& w = warps_[t.warp];
    w.lanes[t.lane].reserve(n, w.limit, log_pool_);
    maybe_yield(t);
  }
  // A global atomic the pass marked as one that nvcc aggregates to one lane: its site says so
  // to the counters (SiteInfo::warp_aggregated), once per worker and site.
  void mark_warp_aggregated(const std::source_location& loc, std::uint32_t width) {
    TagInfo& ti = tags_[tags_.tag(loc, SiteKind::kGlobalAtomic, width) >> kTagShift];
    if (!ti.warp_aggregated) {
      ti.warp_aggregated = true;
      state_.sites.mark_warp_aggregated(ti.site);
    }
  }
  // The tag of (site, kind, width) without a record (__tgsim_resolve_tags).
  std::uint64_t tag(const std::source_location& loc, SiteKind kind, std::uint32_t width) {
    return tags_.tag(loc, kind, width);
  }
  // The access of a tag (pre-shifted) is volatile (its pass site says so).
  // A volatile load is also a read a spin-wait may repeat (spin.cpp).
  void mark_volatile(std::uint64_t tag) {
    TagInfo& ti = tags_[tag >> kTagShift];
    ti.is_volatile = true;
    if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kGlobalLoad) ti.spin_read = spin_sites_ = true;
  }
  // The load of a tag (pre-shifted) reads three of the four 4-byte elements of its 16 bytes:
  // 1 + the one it does not (TGSIM_SITE_GAP_MASK), which the checker leaves out.
  void mark_gap(std::uint64_t tag, unsigned gap) { tags_[tag >> kTagShift].gap = static_cast<std::uint8_t>(gap); }
  // An atomic load, or an atomic read-modify-write that leaves memory as it was (`noop`:
  // atomicAdd(&flag, 0)), is a read a spin-wait may repeat, unless the site also changed memory.
  void mark_spin_atomic(std::uint64_t tag, bool noop) {
    TagInfo& ti = tags_[tag >> kTagShift];
    if (!noop) {
      ti.rmw_effect = true;
      ti.spin_read = false;
    } else if (!ti.rmw_effect) {
      ti.spin_read = spin_sites_ = true;
    }
  }
  // The store of a tag (pre-shifted) stores a constant of the program or not (its pass site
  // says so): told to the launch's SiteTable once per worker and tag (SiteInfo::store_value).
  void mark_store_value(std::uint64_t tag, bool constant) {
    TagInfo& ti = tags_[tag >> kTagShift];
    const std::uint8_t bit = constant ? SiteInfo::kConstantValue : SiteInfo::kDataValue;
    if (ti.store_value & bit) return;
    ti.store_value |= bit;
    state_.sites.mark_store_value(ti.site, bit);
  }
  // The global atomic of a tag is of block scope (Checker::block_scope_atomic).
  void mark_block_scope(std::uint64_t tag) { tags_[tag >> kTagShift].block_scope = true; }
  // The atomic of a tag does not acquire: a store, or a relaxed or release order (libcu++'s,
  // Checker::relaxed_atomic_next).
  void mark_no_acquire(std::uint64_t tag) { tags_[tag >> kTagShift].no_acquire = true; }
  // The tag is a libcu++ atomic when it names shared memory: TagInfo::kSharedOrder* bits.
  void mark_shared_order(std::uint64_t tag, std::uint8_t bits) { tags_[tag >> kTagShift].shared_order |= bits; }
  void barrier(ThreadCtx& t, const std::source_location& loc);
  // Metal's threadgroup_barrier(flags) (abi.h, __tgsim_metal_barrier): barrier() ordering the
  // memory its flags name; threads that returned before it are a finding (group_sync.cpp).
  void metal_barrier(ThreadCtx& t, const std::source_location& loc, unsigned flags);
  // The thread's last recorded access of this interval (its address and source line), for the
  // wild-access message (guard.cpp): reads only, so a signal handler may call it. False if none.
  bool last_access(const ThreadCtx& t, std::uint64_t* addr, const char** file, std::uint32_t* line) const {
    if (t.warp >= warps_.size()) return false;
    const WarpLog::LaneLog& l = warps_[t.warp].lanes[t.lane];
    if (l.empty()) return false;
    const std::uint64_t r = l.data()[l.size() - 1];
    if ((r >> kTagShift) >= tags_.size()) return false;
    const TagInfo& ti = tags_[r >> kTagShift];
    *addr = r & kAddrMask;
    *file = ti.loc.file_name();
    *line = ti.loc.line();
    return *file && **file && *line;
  }
  // A warp instruction of `width` bytes per lane with a lane whose address is not a multiple
  // of it: a misaligned-access finding (warp_flush.cpp). `site` is its site id.
  [[gnu::cold]] void note_misaligned(std::uint32_t site, SiteKind kind, std::uint32_t width, std::uint32_t mask,
                                     const std::uint64_t* addr, std::uint32_t w);
  // __threadfence() and wider (scope >= 1): noted for the checker (release of the thread's
  // earlier global stores by its next atomic); threads of a group take turns on one worker, so
  // accesses need no fence of their own.
  // On several workers a device-scope fence also waits its turn as a global atomic does
  // (AtomicOrder): the flag store a fence releases comes after the lower groups ended or parked,
  // so whether a lower group waiting for the flag parked first is the same for any worker count.
  void fence(ThreadCtx& t, int scope) {
    if (!checking_ || scope < 1) return;
    if (state_.atomic_order) [[unlikely]] state_.atomic_order->wait_turn(group_, state_.stop_after);
    WarpLog& wl = warps_[t.warp];
    wl.fences.push_back(std::uint64_t(t.lane) << 32 | wl.lanes[t.lane].size());
  }
  std::uint64_t collective(ThreadCtx& t, const CollectiveOp& op, std::uint32_t mask,
                           std::uint64_t value, std::int64_t arg, const std::source_location& loc);
  std::uint32_t active_lanes(ThreadCtx& t, const std::source_location& loc);
  // __nanosleep: the thread goes back to the ready threads, so the others run first (a wait).
  void yield(ThreadCtx& t);
  // Front-end kernels (frontend_hooks.cpp): __syncthreads_count/_and/_or (op 0/1/2), an atomic's
  // space (its bytes as shared memory: the offset; global: 0; else a finding and false), printf.
  int barrier_reduce(ThreadCtx& t, const std::source_location& loc, int op, int pred);
  bool atomic_target(ThreadCtx& t, const std::source_location& loc, std::uint64_t addr,
                     std::uint32_t width, bool* shared, std::uint64_t* offset);
  void print(const ThreadCtx& t, std::string text);
  std::byte* dynamic_shared() { return arena_.data() + state_.dynamic_offset; }
  // The interval's printf lines, by thread then call, to the launch's PrintStream.
  void flush_printed(bool group_ended);
  void add_kernel_shared_decls();  // a front-end kernel's shared arrays, for findings
  std::byte* shared_storage(ThreadCtx& t, const std::source_location& loc, const char* name,
                            std::size_t bytes, std::size_t align, std::uint32_t rank,
                            const std::size_t* extents, std::uint32_t* offset,
                            const SharedDecl** decl);
  void add_finding(const ThreadCtx& t, FindingKind kind, const std::source_location& loc,
                   const std::string& message);
  // memset/memcpy of a length known at run time (placement.cpp): false, with a finding, when
  // [addr, addr + n) lies in no memory the thread may touch.
  bool memop_in_bounds(const ThreadCtx& t, const std::source_location& loc, const char* what,
                       std::uint64_t addr, std::uint64_t n);
  void add_finding_at(const ThreadCtx& t, FindingKind kind, const std::string& file,
                      std::uint32_t line, std::uint32_t column, const std::string& message);

  // The running thread ended its group (a kernel fault, faults.cpp): the others are unwound.
  void end_group() { aborting_ = true; }

  const FindingMap& findings() const { return findings_; }
  Sinks& sinks() { return *sinks_; }
  const Sinks& sinks() const { return *sinks_; }
  // The checker's view of one front-end access (a kLoad/kStore record): placed as counted.
  // True when it was placed in global memory.
  bool check_placed(Checker& checker, TagInfo& ti, std::uint32_t thread, std::uint32_t k,
                    std::uint32_t wsync, std::uint64_t addr, std::uint64_t value);

 private:
  // kWaiting: at a barrier; kWarpWait: in a warp collective; kMaskWait: in __activemask().
  enum class State : std::uint8_t { kReady, kRunning, kWaiting, kWarpWait, kMaskWait, kExited };
  struct Thread {
    // (Laid out so that the record stays 232 bytes, with `state` where it always was.)
    ThreadCtx ctx;
    GroupRun* group = nullptr;
    Fiber fiber;
    State state = State::kReady;
    bool at_grid = false;            // waits at grid.sync() (group_grid.cpp)
    bool stuck = false;              // its last two spin yields ended at one spin (spin.cpp)
    std::uint32_t reduce_round = 0;  // barrier_reduce calls made (its slot parity and stamp)
    std::source_location wait_loc;
    std::uint64_t result = 0;  // this lane's result of its last warp collective
  };
  static Thread& thread_of(ThreadCtx& t);  // the record whose ctx t is (group.cpp)

  void start(std::uint64_t group_linear);
  static void thread_main(void* thread);
  void resume(Thread& th);     // from the scheduler
  void switch_out(Thread& th, bool arrives = false);  // from th's fiber: to the next ready thread
                                                      // or the scheduler; arrives: th waits at a barrier
  Fiber sched_;                 // the scheduler's context while a thread runs
  std::size_t cursor_ = 0;      // the running thread's place in ring_ in this pass
  // The threads in the schedule's order (order_), then twice end_: a thread that never runs
  // (kExited, no context), so the scans and prefetches ahead of the cursor need no bounds.
  std::vector<Thread*> ring_;
  Thread end_;
  void schedule();              // run()'s passes until the group ends or aborts
  void run_schedule();          // schedule(), every thread unwound if the scheduler's own work throws
  // The arrivals at the barrier (kWaiting) and the exits (kExited), kept as they happen.
  Barrier bar_;
  void flush_warp(std::uint32_t w);
  // A warp's logs emptied after its flush: in place, or, while some lane holds a big buffer,
  // each lane's big buffer given to the pool (log_pool.hpp; recycle_logs, out of line).
  void empty_logs(WarpLog::LaneLog* lanes) {
    if (log_pool_.big_lanes) [[unlikely]] return recycle_logs(lanes);
    for (std::uint32_t l = 0; l < 32; ++l) lanes[l].clear();
  }
  [[gnu::noinline, gnu::cold]] void recycle_logs(WarpLog::LaneLog* lanes);
  bool uniform_spreads(const WarpLog::LaneLog* lanes, std::size_t len, const std::uint64_t** data);
  const std::uint64_t* row(const std::uint64_t* const* data, std::size_t k, std::size_t len);
  void count_row(const std::uint64_t* const* data, std::size_t k, std::size_t len, std::uint32_t w);
  std::vector<std::uint64_t> rows_;  // flush_warp's transposed records: [instruction][lane]
  std::size_t rows_done_ = 0;         // rows_ holds rows below this one of the warp being flushed
  std::vector<std::uint64_t> spread_;  // per row: OR of its records ^ lane 0's (tags included)
  // Front-end accesses (kLoad/kStore): where an address lies (stream/placement.hpp).
  using Space = Placement::Space;
  Placement placement_;
  void count_placed(std::uint32_t tag, std::uint32_t mask, const std::uint64_t* addr, std::uint32_t w,
                    std::uint64_t spread = model::kUnknownSpread);
  void report_misplaced(const TagInfo& ti, std::uint32_t w, std::uint32_t lane, std::uint64_t addr,
                        Space space, const BufferInfo* buffer);
  std::uint32_t placed_site(TagInfo& ti, bool shared);
  // A barrier was released (group_end false) or the group ended: the sinks read the interval's
  // logs, which are then emptied.
  void end_interval(bool group_end);
  // The stream's events from the engine's own files, out of line (stream/events.cpp): a warp
  // collective's instruction, and the start of a group.
  void emit(const WarpInstruction& in);
  void emit_group_start();
  // A completed shuffle of warp w, for the capture (explain's shuffle picture): its lanes' args.
  void emit_shuffle(std::uint32_t site, const CollectiveOp& op, const std::int64_t* arg, std::uint32_t took_part,
                    std::uint32_t w);
  // One warp instruction of warp w, to the sinks (one call; the sinks are inlined into it).
  // `spread`: the lanes' spread when known (WarpInstruction::spread).
  void count_instruction(std::uint32_t site, SiteKind kind, std::uint32_t width,
                         std::uint32_t mask, const std::uint64_t* addr, std::uint32_t w,
                         std::uint64_t spread = model::kUnknownSpread);
  void release_barrier();
  void note_metal_barrier();  // at a release: Metal's rules (group_sync.cpp)
  void report_divergence(bool went_on);
  std::vector<const std::source_location*> wait_sites() const;  // per thread; null: exited
  void note_warp_divergence(std::uint32_t w);
  bool spinning(const WarpLog::LaneLog& log) const;
  void maybe_yield(ThreadCtx& t);
  bool try_complete_warp(std::uint32_t w, std::uint32_t caller);
  bool resolve_activemasks();
  void report_stuck_warps();
  void unwind_all();
  void count_barriers_at_waits();  // the waiting lanes' BARs, to the sinks (stream/events.cpp)
  void watchdog_fired(Thread& th);
  // Spin-waits (spin.cpp): the repeated iterations of a spin on a read that returns the same
  // value are dropped from the lane's log (their number depends on timing, on the GPU too), so
  // counts and findings are those of one iteration for any schedule and worker count.
  static constexpr std::uint32_t kNoSpin = ~0u;
  std::uint32_t collapse_lane(std::uint32_t w, std::uint32_t lane);  // the tail spin's start, or kNoSpin
  void collapse_warp(std::uint32_t w);
  void note_spin(Thread& th);
  bool group_stuck();
  const Thread* first_stuck() const;
  void end_stuck(const std::string& why);
  // The checker's stored values of `count` dropped writes of `thread`, from its write `first`
  // (stream/events.cpp).
  void values_dropped(std::uint32_t thread, std::size_t first, std::size_t count);
  void group_resumed();  // the sinks learn that a parked group runs on (the checker's acquires)
  std::thread::id runner_;   // the thread that ran the group last (resume adopts its stacks)
  bool spin_sites_ = false;  // a spin read's tag was made (mark_volatile, mark_spin_atomic)
  bool can_park_ = false;
  bool stuck_ = false;       // schedule() stopped: the group is stuck (group_stuck)
  std::uint32_t spin_yields_ = 0;       // spinning threads that yielded in this pass
  std::uint32_t last_stopped_ = ~0u;    // threads waiting or exited at the last stuck test
  std::uint64_t passes_ = 0;            // schedule()'s passes
  std::vector<std::uint32_t> spin_at_;  // per thread: where its tail spin started, or kNoSpin
  std::vector<std::uint64_t> collapse_scratch_;  // collapse_lane's dropped ranges

  void report_grid_divergence();  // threads wait at grid.sync() and at a block barrier
  void finish();  // the end of a group: its last interval to the sinks, its shared memory zeroed
  std::uint32_t grid_arrived_ = 0;  // threads of this interval waiting at grid.sync()
  bool at_grid_sync_ = false;       // schedule() stopped: every live thread waits at grid.sync()
  std::vector<std::vector<unsigned char>> parked_;  // per thread, its frames while parked

  LaunchState& state_;
  Dim3 block_;
  std::uint32_t nthreads_ = 0;
  std::uint64_t group_ = 0;
  std::vector<Thread> threads_;
  ScheduleOrder order_;  // the threads' order in each interval (schedule_order.hpp)
  void order_ring();     // ring_ from order_
  LogPool log_pool_;  // big lane-log buffers between warps (log_pool.hpp)
  std::vector<WarpLog> warps_;
  WarpGrouper grouper_;
  std::vector<std::uint32_t> warp_pending_;  // lanes of the warp that may still run
  // Divergence in a warp (group_sync.cpp): lanes exited after accesses at sites no waiting lane
  // of their warp had reached; a finding once a waiting lane reaches one of those sites after
  // the barrier (the skipping lanes had run on past it), dropped if none ever does.
  struct WarpDivergence {
    std::source_location at;  // the barrier the waiting lanes waited at
    std::uint32_t lane = 0, ran = 0, waiting = 0;  // lowest skipping lane, skipping, waiting lanes
    std::vector<std::uint32_t> sites;  // site ids the skipping lanes ran that the waiters had not
  };
  std::vector<std::vector<WarpDivergence>> warp_div_;  // per warp, pending
  std::vector<std::uint32_t> tag_stamp_;  // scratch of note_warp_divergence, per tag
  std::uint32_t stamp_ = 0;
  WarpRendezvous rendezvous_;  // each warp's open warp collective (warp_rendezvous.hpp)
  bool checking_ = false;  // cfg.check (and counting), as a plain flag for the hot path
  bool counting_ = true;   // LaunchConfig::count: off, flush_warp drops the logs
  bool quick_rows_ = false;  // no capture: one-wavefront shared rows are counted per tag
  // The uniform path's quick rows (quick_row): a front-end shared access no wider than a bank
  // (quick_width_) whose spread is below quick_spread_ (one wavefront line; 0 without
  // quick_rows_) is only tallied per tag, and handed to the sinks per tag after the warp.
  std::uint64_t quick_spread_ = 0;
  std::uint32_t quick_width_ = 0;
  std::vector<std::uint32_t> quick_count_;  // per tag: quick rows of the warp being flushed
  std::vector<std::uint32_t> quick_tags_;   // the tags with a count, in first-seen order
  bool quick_row(std::uint64_t record, std::uint64_t spread);
  void count_quick_rows(std::uint32_t w);
  std::deque<SharedDecl> decls_;  // stable addresses: handles point into it
  Arena arena_;
  std::size_t arena_used_ = 0;
  bool aborting_ = false;
  // The barrier being released was reached through Metal's threadgroup_barrier; one of its
  // arrivals named no mem_device (device memory stays unordered); the group's finding for
  // threads that returned before a threadgroup_barrier was made.
  bool metal_barrier_ = false, device_unordered_ = false, metal_exit_reported_ = false;

  FindingMap findings_;
  SinksPtr sinks_;  // made once the arena is (SinkEnv)

  // barrier_reduce: per parity, per thread, round << 1 | predicate.
  std::vector<std::uint64_t> reduce_slot_[2];
  std::vector<PrintedLine> printed_;  // this barrier interval's
  std::string print_text_;
  TagTable tags_;  // this worker's record tags (ThreadCtx::tags_ points at its cache)
};

}  // namespace tgsim::detail
