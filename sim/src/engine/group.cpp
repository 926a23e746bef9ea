// Fiber scheduling, the barrier and the shared arena of a group (GroupRun); the warp
// collectives are in warp_collective.cpp, the divergence inside a warp in group_sync.cpp.
#include "engine/group.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include "engine/group_internal.hpp"
#include "engine/guard.hpp"
#include <tgsim/hash.hpp>

namespace tgsim::detail {

constinit thread_local ThreadCtx* current = nullptr;

void address_out_of_range(const void* base) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", base);
  throw std::runtime_error(std::string("tgsim: device buffer at ") + buf +
                           " lies above the 48-bit address range the access log records");
}

void no_current_thread() {
  throw std::logic_error(
      "tgsim: a kernel-side call (threadIdx, a buffer subscript, a barrier, shared memory) was "
      "made outside a running kernel thread");
}

// ------------------------------------------------------------------ warp log

void WarpLog::LaneLog::grow(std::size_t limit, LogPool& pool, std::size_t room) {
  const std::size_t size = this->size(), cap = static_cast<std::size_t>(buf_.end - data_);
  if (size >= limit) throw WatchdogExpired{};
  const std::size_t next =
      std::max(std::min<std::size_t>(std::max<std::size_t>(2 * cap, 64), limit), size + room);
  if (!pool.empty()) {  // a buffer a flushed warp gave back (log_pool.hpp)
    if (auto [data, capacity] = pool.take(next); data) {
      if (size) std::memcpy(data, data_, size * sizeof(std::uint64_t));
      std::free(data_);
      data_ = data;
      buf_.cur = data_ + size;
      buf_.end = data_ + std::min(capacity, std::max(limit, size + room));  // the watchdog's cap
      if (cap <= LogPool::kKeep) ++pool.big_lanes;
      return;
    }
  }
  void* p = std::realloc(data_, next * sizeof(std::uint64_t));
  if (!p) throw std::bad_alloc();
  if (cap <= LogPool::kKeep && next > LogPool::kKeep) ++pool.big_lanes;
  data_ = static_cast<std::uint64_t*>(p);
  buf_.cur = data_ + size;
  buf_.end = data_ + next;
}

// ------------------------------------------------------------------ GroupRun

GroupRun::GroupRun(LaunchState& st)
    : state_(st),
      block_(st.cfg.block),
      nthreads_(static_cast<std::uint32_t>(block_.volume())),
      order_(st.cfg.schedule, st.cfg.shuffle_seed, nthreads_),
      tags_(st.sites) {
  threads_ = std::vector<Thread>(nthreads_);
  for (std::uint32_t i = 0; i < nthreads_; ++i) {
    ThreadCtx& c = threads_[i].ctx;
    c.thread_idx = unlinearise(i, block_);
    c.block_dim = block_;
    c.grid_dim = st.cfg.grid;
    c.linear_tid = i;
    c.warp = i / 32;
    c.lane = i % 32;
    c.group_ = this;
    threads_[i].group = this;
    threads_[i].fiber.prepare(st.cfg.stack_bytes, &GroupRun::thread_main, &threads_[i], &sched_);
  }
  std::uint32_t nwarps = (nthreads_ + 31) / 32;
  warps_.resize(nwarps);
  warp_pending_.resize(nwarps);
  bar_.resize(nthreads_);
  warp_div_.resize(nwarps);
  rendezvous_.resize(nwarps);
  ring_.resize(nthreads_ + 2, &end_);
  spin_at_.assign(nthreads_, kNoSpin);
  end_.state = State::kExited;
  // Front-end kernels: the bytes the kernel declared and the launch gave are valid, a red zone
  // after them catches overruns (a finding); the proxy dialect allocates up to the static limit.
  const std::size_t shared_valid = st.shared_bytes;
  arena_.resize(std::max<std::size_t>(st.profile.max_static_shared_bytes,
                                      st.frontend ? (shared_valid + 64 * 1024 + 15) / 16 * 16 : 0));
  placement_.set_shared(arena_.data(), arena_.size(), shared_valid);
  if (st.cfg.watchdog_accesses)
    for (WarpLog& w : warps_)
      w.limit = static_cast<std::size_t>(std::min<std::uint64_t>(st.cfg.watchdog_accesses, ~std::size_t(0)));
  install_stack_guard();  // this worker's alternate signal stack, for fiber stack overflows
  sinks_ = make_sinks(st, SinkEnv{arena_.data(), arena_.size(), shared_valid, nthreads_});
  counting_ = st.cfg.count;
  checking_ = st.cfg.check && counting_;
  quick_rows_ = counting_ && !sinks_want_lanes(*sinks_);
  if (quick_rows_) {  // model::one_shared_wavefront's condition, for full-warp rows
    quick_spread_ = std::uint64_t(1) << std::countr_zero(st.profile.shared_banks * st.profile.bank_bytes);
    quick_width_ = st.profile.bank_bytes;
  }
  for (std::uint32_t i = 0; i < nthreads_; ++i) {
    ThreadCtx& c = threads_[i].ctx;
    c.log_ = warps_[i / 32].lanes[i % 32].buf();
    c.tags_ = tags_.cache();
    c.checking_ = checking_;
    c.shared_base_ = arena_.data();
    c.dynamic_shared_ = arena_.data() + st.dynamic_offset;
    c.grid_threads_ = st.cfg.grid_threads;
  }
}

GroupRun::~GroupRun() = default;

void GroupRun::start(std::uint64_t g) {
  group_ = g;
  Dim3 bidx = unlinearise(g, state_.cfg.grid);
  for (Thread& th : threads_) {
    th.ctx.block_idx = bidx;
    th.ctx.clock_ = 0;
    th.state = State::kReady;
    th.reduce_round = 0;
    th.at_grid = false;
    th.stuck = false;
  }
  if (spin_sites_) std::fill(spin_at_.begin(), spin_at_.end(), kNoSpin);
  stuck_ = false;
  spin_yields_ = 0;
  last_stopped_ = ~0u;
  for (auto& s : reduce_slot_) s.clear();
  for (std::uint32_t w = 0; w < warps_.size(); ++w)
    warp_pending_[w] = std::min<std::uint32_t>(32, nthreads_ - w * 32);
  bar_.reset();
  grid_arrived_ = 0;
  at_grid_sync_ = false;
  decls_.clear();
  add_kernel_shared_decls();
  arena_used_ = placement_.shared_valid();  // zeroed at the group end, as the proxy dialect's arrays are
  aborting_ = false;
  metal_barrier_ = device_unordered_ = metal_exit_reported_ = false;
  rendezvous_.reset();
  for (std::vector<WarpDivergence>& d : warp_div_) d.clear();
  emit_group_start();
  order_.start(g);
  order_ring();
}

void GroupRun::order_ring() {
  for (std::uint32_t i = 0; i < nthreads_; ++i) ring_[i] = &threads_[order_[i]];
}

void GroupRun::resume(Thread& th) {
  th.state = State::kRunning;
  current = &th.ctx;
  Fiber::jump(sched_, th.fiber);
  current = nullptr;
}

// The running thread th stops (it waits, or yields as kReady). What the scheduler would do
// between th and the next thread of the pass is at most decrementing th's warp's pending lanes
// (an arrival at a barrier), so th hands the CPU straight to the next ready thread in the
// pass's order: one switch instead of two. It goes through the scheduler when the scheduler
// has more to do (th's warp is complete and gets flushed, on the scheduler's stack, not
// on top of the kernel's frames), when the pass ends, or when the group is being aborted.
// Exits always go through the scheduler (the lambda in fiber.cpp returns to sched_).
void GroupRun::switch_out(Thread& th, bool arrives) {
  std::uint32_t& pending = warp_pending_[th.ctx.warp];
  if (!aborting_ && (!arrives || pending > 1)) {
    for (std::size_t o = cursor_ + 1;; ++o) {
      Thread& next = *ring_[o];
      if (next.state != State::kReady) {
        if (&next == &end_) break;
        continue;
      }
      if (arrives) --pending;
      cursor_ = o;
      ring_[o + 1]->fiber.prefetch();
      __builtin_prefetch(&ring_[o + 2]->state, 1, 3);
      next.state = State::kRunning;
      current = &next.ctx;
      Fiber::jump(th.fiber, next.fiber);
      return;  // whoever resumed th set current
    }
  }
  Fiber::jump(th.fiber, sched_);
}

// The body of every fiber: the kernel for one thread; nothing escapes it.
void GroupRun::thread_main(void* arg) {
  Thread& th = *static_cast<Thread*>(arg);
  GroupRun& g = *th.group;
  try {
    g.state_.fn.call(g.state_.fn.body, th.ctx);
  } catch (const AbortGroup&) {
  } catch (const WatchdogExpired&) {
    g.watchdog_fired(th);
#if defined(BOOST_USE_UCONTEXT)
  } catch (const boost::context::detail::forced_unwind&) {
    throw;  // boost::context::fiber (sanitizer build): unwinding a fiber destroyed while suspended
#endif
  } catch (...) {
    g.aborting_ = true;
    g.state_.kernel_threw(g.group_, std::current_exception());
  }
  th.state = State::kExited;
  g.bar_.exit(th.ctx.warp, th.ctx.lane);
}

GroupRun::RunEnd GroupRun::run(std::uint64_t g) {
  start(g);
  if (can_park_) runner_ = std::this_thread::get_id();
  run_schedule();
  if (stuck_) [[unlikely]] {
    if (can_park_ && !aborting_) return RunEnd::kParked;
    end_stuck("spins on one address that no thread of its group sets, and every other thread "
              "of its group waits or spins too; the group was ended");
    return RunEnd::kEnded;
  }
  finish();
  return RunEnd::kEnded;
}

void GroupRun::run_schedule() {
  try {
    schedule();
  } catch (...) {  // from the scheduler's own work (a sink): no thread stays suspended
    aborting_ = true;
    unwind_all();
    throw;
  }
}

void GroupRun::finish() {
  if (aborting_) unwind_all();
  for (std::uint32_t w = 0; w < warps_.size(); ++w) flush_warp(w);
  end_interval(true);
  flush_printed(true);
  std::memset(arena_.data(), 0, arena_used_);
}

// Passes over the threads in the schedule's order, each running every ready thread until it
// stops; between passes, a barrier every live thread waits at is released.
void GroupRun::schedule() {
  for (;;) {
    ++passes_;
    for (cursor_ = 0; cursor_ < nthreads_; ++cursor_) {
      std::size_t o = cursor_;
      if (ring_[o]->state != State::kReady) continue;
      if (aborting_) break;
      // The next thread's stack top is cold by the time it runs (256 stacks): fetch it while
      // this one runs (measured: the switch's time is its first loads from the resumed stack).
      ring_[o + 1]->fiber.prefetch();
      __builtin_prefetch(&ring_[o + 2]->state, 1, 3);
      resume(*ring_[o]);
      // The threads it resumed in turn (switch_out) moved the cursor: the last of them is back.
      Thread& th = *ring_[cursor_];
      const std::uint32_t w = th.ctx.warp;
      if (th.state == State::kExited && rendezvous_[w].arrived) try_complete_warp(w, ~0u);
      // A lane at a __syncwarp runs again before the barrier: its warp is not done yet.
      // A lane that yielded (kReady: it spins, maybe_yield) runs again before its warp is done.
      if (th.state != State::kWarpWait && th.state != State::kMaskWait &&
          th.state != State::kReady && --warp_pending_[w] == 0)
        flush_warp(w);
    }
    if (spin_yields_) [[unlikely]] {  // threads spun: is the group stuck (spin.cpp)?
      spin_yields_ = 0;
      if (!aborting_ && group_stuck()) {
        stuck_ = true;
        break;
      }
    }
    if (aborting_) break;
    if (bar_.all_stopped()) {  // nobody is ready or in a warp collective
      if (bar_.arrived() == 0) break;
      if (bar_.one_site()) {
        if (grid_arrived_) {  // all at one grid.sync(): the group parks (run_phase)
          at_grid_sync_ = true;
          break;
        }
        release_barrier();
        continue;
      }
    }
    std::uint32_t waiting = 0, ready = 0, warp_waiting = 0, mask_waiting = 0;
    bool one_site = true;
    const Thread* first = nullptr;
    for (const Thread& th : threads_) {
      if (th.state == State::kExited) {
        // counts as arrived at any barrier
      } else if (th.state == State::kReady || th.state == State::kWarpWait ||
                 th.state == State::kMaskWait) {
        // Released by a warp collective after this pass went by them, stuck in one, or
        // waiting for __activemask() to be resolved.
        ready += th.state == State::kReady;
        warp_waiting += th.state == State::kWarpWait;
        mask_waiting += th.state == State::kMaskWait;
      } else {
        ++waiting;
        if (!first) {
          first = &th;
        } else if (!same_site(th.wait_loc, first->wait_loc)) {
          one_site = false;
        }
      }
    }
    if (ready) continue;
    if (mask_waiting && resolve_activemasks()) continue;
    if (warp_waiting) {
      report_stuck_warps();
      aborting_ = true;
      break;
    }
    if (waiting == 0) break;
    if (one_site && grid_arrived_) {  // one grid.sync() site: the group parks
      at_grid_sync_ = true;
      break;
    }
    if (one_site) {  // exited threads count as arrived
      release_barrier();
      continue;
    }
    if (grid_arrived_) {  // grid.sync() and __syncthreads() (or two grid syncs): no defined outcome
      report_grid_divergence();
      aborting_ = true;
      break;
    }
    // Warps wait at different __syncthreads() sites. On the GPU every one is barrier 0 (BAR.SYNC
    // 0): whole warps at different sites meet and go on (measured on the H100, synccheck calls
    // it "Divergent thread(s) in block": a finding, and the group goes on as there). A warp
    // whose lanes wait at different sites has no defined outcome: the group is ended.
    const bool split = bar_.warp_split_across_sites(wait_sites());
    report_divergence(!split);
    if (!split) {
      release_barrier();
      continue;
    }
    aborting_ = true;
    break;
  }
}

// Every live thread waits at the barrier: they become ready, and each warp's live lanes are
// pending again. Only the waiting lanes are visited (their masks).
void GroupRun::release_barrier() {
  if (metal_barrier_) [[unlikely]] note_metal_barrier();
  if (counting_) count_barriers_at_waits();
  last_stopped_ = ~0u;
  if (spin_sites_) [[unlikely]] std::fill(spin_at_.begin(), spin_at_.end(), kNoSpin);
  end_interval(false);
  flush_printed(false);
  bar_.release([this](std::uint32_t i) { threads_[i].state = State::kReady; },
               [this](std::uint32_t w, std::uint32_t lanes) { warp_pending_[w] = lanes; });
  if (order_.next_interval()) order_ring();  // the next interval's interleaving (shuffled)
}

// Where each thread waits (null: it exited), for the barrier's divergence (barrier.cpp).
std::vector<const std::source_location*> GroupRun::wait_sites() const {
  std::vector<const std::source_location*> at(nthreads_);
  for (std::uint32_t i = 0; i < nthreads_; ++i)
    at[i] = threads_[i].state == State::kExited ? nullptr : &threads_[i].wait_loc;
  return at;
}

// went_on: the sites' warps met as one barrier (bar.sync 0) and the group goes on (release_barrier
// counts the BARs); else the group ends here.
void GroupRun::report_divergence(bool went_on) {
  if (!went_on) count_barriers_at_waits();
  const Barrier::Divergence d = bar_.describe_divergence(wait_sites());
  const ThreadCtx& other = threads_[d.other].ctx;
  if (metal_barrier_) {  // Metal's threadgroup_barrier: its words (metal_barrier, group_sync.cpp)
    std::string message = d.message;
    const std::string cuda = "threads reached the barrier at";
    if (const std::size_t at = message.find(cuda); at != std::string::npos)
      message.replace(at, cuda.size(), "threads reached the threadgroup_barrier at");
    add_finding(other, FindingKind::kBarrierDivergence, *d.main,
                message + "; first divergent thread " + other.thread_idx.str() + " (SIMD group " +
                    std::to_string(other.warp) + ", lane " + std::to_string(other.lane) +
                    "); in Metal every thread of a threadgroup must reach the same threadgroup_barrier " +
                    (went_on ? "(undefined behaviour otherwise); tgsim let the SIMD groups go on"
                             : "(undefined behaviour otherwise); threads of one SIMD group wait at different "
                               "ones, so the threadgroup was ended"));
    return;
  }
  add_finding(other, FindingKind::kBarrierDivergence, *d.main,
              d.message + "; first divergent thread " + other.thread_idx.str() + " (warp " +
                  std::to_string(other.warp) + ", lane " + std::to_string(other.lane) +
                  (went_on ? "); on the GPU every __syncthreads() is barrier 0, so these warps met there and the group went on"
                           : "); lanes of one warp wait at different barriers, so the group was ended"));
}

void GroupRun::unwind_all() {
  for (Thread& th : threads_) {
    if (th.fiber.started()) resume(th);  // it throws AbortGroup from its wait and exits
    th.state = State::kExited;
  }
  bar_.all_exited();
}

// A thread's record from its context, with no index into threads_: ctx is the first member of
// the standard-layout Thread, so the two share one address. (On the barrier's path the index
// made a chain of three dependent loads; without it the engine row ran 3% faster, ABAB.)
GroupRun::Thread& GroupRun::thread_of(ThreadCtx& t) {
  static_assert(std::is_standard_layout_v<Thread> && offsetof(Thread, ctx) == 0);
  return *reinterpret_cast<Thread*>(&t);
}

void GroupRun::barrier(ThreadCtx& t, const std::source_location& loc) {
  Thread& th = thread_of(t);
  if (aborting_) throw AbortGroup{};
  th.state = State::kWaiting;
  th.wait_loc = loc;
  bar_.arrive(t.warp, t.lane, loc);
  switch_out(th, true);
  if (aborting_) throw AbortGroup{};
}

// A spinning thread (group_sync.cpp) goes back to the ready threads: the others run first.
void GroupRun::maybe_yield(ThreadCtx& t) {
  if (!spinning(warps_[t.warp].lanes[t.lane])) return;
  Thread& th = thread_of(t);
  if (spin_sites_) note_spin(th);  // its repeated iterations dropped; stuck or not
  ++spin_yields_;
  th.state = State::kReady;
  switch_out(th, false);
  if (aborting_) throw AbortGroup{};
}

void GroupRun::yield(ThreadCtx& t) {
  Thread& th = thread_of(t);
  th.state = State::kReady;
  switch_out(th, false);
  if (aborting_) throw AbortGroup{};
}

// A front-end kernel's shared arrays, where its layout puts them, so that findings name them
// (two extern __shared__ arrays share the dynamic offset: the first names the bytes there).
void GroupRun::add_kernel_shared_decls() {
  const tgsim_kernel_desc* k = state_.kernel;
  if (!k) return;
  for (unsigned i = 0; i < k->nshared; ++i) {
    const tgsim_shared_desc& s = k->shared[i];
    const std::size_t bytes = s.bytes ? s.bytes : state_.cfg.shared_bytes;
    if (bytes < s.elem_bytes || s.elem_bytes == 0) continue;  // an extern array with no bytes
    SharedDecl& d = decls_.emplace_back();
    d.file = s.file;
    d.line = s.line;
    d.column = 0;
    d.name = s.name;
    d.offset = static_cast<std::uint32_t>(s.offset);
    d.bytes = bytes;
    d.extents.assign(s.extents, s.extents + s.rank);
    if (!s.bytes && s.rank == 1) d.extents[0] = bytes / s.elem_bytes;
  }
}

std::byte* GroupRun::shared_storage(ThreadCtx& t, const std::source_location& loc,
                                    const char* name, std::size_t bytes, std::size_t align,
                                    std::uint32_t rank, const std::size_t* extents,
                                    std::uint32_t* offset, const SharedDecl** decl) {
  (void)t;
  for (const SharedDecl& d : decls_) {
    if (d.line == loc.line() && d.column == loc.column() &&
        (d.file == loc.file_name() || std::strcmp(d.file, loc.file_name()) == 0)) {
      *offset = d.offset;
      *decl = &d;
      return arena_.data() + d.offset;
    }
  }
  std::size_t off = (arena_used_ + align - 1) / align * align;
  const std::size_t limit = state_.profile.max_static_shared_bytes;
  if (off + bytes > limit)
    throw LaunchError("shared memory: '" + std::string(name) + "' (" + std::to_string(bytes) +
                      " bytes, declared at " + where(loc) + ") brings the threadgroup to " +
                      std::to_string(off + bytes) + " bytes, over the " + state_.profile.name +
                      " limit of " + std::to_string(limit) +
                      " bytes of static shared memory per threadgroup");
  SharedDecl& d = decls_.emplace_back();
  d.file = loc.file_name();
  d.line = loc.line();
  d.column = loc.column();
  d.name = name;
  d.offset = static_cast<std::uint32_t>(off);
  d.bytes = bytes;
  d.extents.assign(extents, extents + rank);
  arena_used_ = off + bytes;
  *offset = d.offset;
  *decl = &d;
  return arena_.data() + off;
}

// A thread made watchdog_accesses accesses in one barrier interval: a finding at the site of
// its last access, and the group ends (the threads waiting for it are unwound).
void GroupRun::watchdog_fired(Thread& th) {
  const ThreadCtx& t = th.ctx;
  const WarpLog::LaneLog& log = warps_[t.warp].lanes[t.lane];
  std::uint32_t waiting = 0;
  const Thread* first = nullptr;
  for (const Thread& o : threads_)
    if (&o != &th && o.state == State::kWaiting) {
      ++waiting;
      if (!first) first = &o;
    }
  std::string msg = "thread " + t.thread_idx.str() + " (warp " + std::to_string(t.warp) + ", lane " +
                    std::to_string(t.lane) + ") made " + std::to_string(log.size()) +
                    " memory accesses without reaching a barrier (LaunchConfig::watchdog_accesses)";
  if (waiting)
    msg += " while " + std::to_string(waiting) + " thread(s) wait at the barrier at " +
           where(first->wait_loc);
  msg += spinning(log) ? ": it spins on one address that no thread of its group sets; tgsim lets "
                         "other threadgroups run meanwhile only for a spin on volatile or atomic "
                         "reads of a kernel file (docs/checker.md), so waiting for another "
                         "threadgroup here is only guaranteed with a cooperative launch. The group "
                         "was ended"
                       : ": a runaway loop? The group was ended";
  aborting_ = true;
  if (log.empty()) {
    add_finding_at(t, FindingKind::kWatchdog, "", 0, 0, msg);
    return;
  }
  std::vector<SiteInfo> sites = state_.sites.snapshot();
  const SiteInfo& s = sites[tags_[log[log.size() - 1] >> kTagShift].site];
  add_finding_at(t, FindingKind::kWatchdog, s.file, s.line, s.column, msg);
}

void GroupRun::add_finding(const ThreadCtx& t, FindingKind kind, const std::source_location& loc,
                           const std::string& message) {
  add_finding_at(t, kind, loc.file_name(), loc.line(), loc.column(), message);
}

void GroupRun::add_finding_at(const ThreadCtx& t, FindingKind kind, const std::string& file,
                              std::uint32_t line, std::uint32_t column, const std::string& message) {
  FindingKey key{static_cast<int>(kind), file, line, column, {}, 0, 0, false};
  auto [it, inserted] = findings_.try_emplace(key);
  FindingAgg& a = it->second;
  a.finding.count += 1;
  auto order = std::make_tuple(group_, group_, t.linear_tid, t.linear_tid, std::uint64_t(0));
  if (inserted || order < a.order) {
    a.order = order;
    Finding& f = a.finding;
    f.kind = kind;
    f.file = file;
    f.line = line;
    f.column = column;
    f.block = t.block_idx;
    f.thread = t.thread_idx;
    f.warp = t.warp;
    f.lane = t.lane;
    f.message = message;
  }
}

}  // namespace tgsim::detail

namespace tgsim {
void ThreadCtx::barrier(std::source_location loc) { group_->barrier(*this, loc); }
void ThreadCtx::syncwarp(std::uint32_t mask, std::source_location loc) {
  group_->collective(*this, detail::kSyncwarpOp, mask, 0, 0, loc);
}
}  // namespace tgsim
