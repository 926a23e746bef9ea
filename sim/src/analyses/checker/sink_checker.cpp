// The checker sink (sink_checker.hpp): reading an interval's logs, and the merge.
#include "analyses/checker/sink_checker.hpp"

#include <algorithm>

#include "memory/device_memory.hpp"
#include "engine/group.hpp"

namespace tgsim::detail {

CheckerSink::CheckerSink(LaunchState& st, const SinkEnv& env)
    : arena_(reinterpret_cast<std::uint64_t>(env.arena)), shared_valid_(env.shared_valid) {
  if (!st.cfg.check) return;
  checker_ = std::make_unique<Checker>(st, env.arena_bytes, env.shared_valid);
  values_.resize(env.nthreads);
  seen_.resize((env.nthreads + 31) / 32);
}

// The checker reads the interval's accesses from the warps' logs, kept until the barrier is
// released: a record's index in its lane's log is its lockstep time (accesses since the
// barrier), the sync positions give its __syncwarp count, and stores take their bytes from the
// lane's values in order. Every access goes to the checker except constant loads and plain
// loads of shared words that nobody stored in this interval (on_store marked the stored ones
// as they happened) and that are initialised: nothing to pair, analyze() would skip them after
// building their lists. Those are most accesses of a tiled kernel, so the scan over them is one
// loop with a byte per tag (its class) and one table load per shared word (Checker::Quiet);
// the rest goes to access_one(). The values are cleared here; the logs by GroupRun.

// The quick scan's view: per tag class the base subtracted from a record's address to get an
// arena offset and the bytes such offsets may have (0: never skipped), the quiet table, and
// the read-only buffers (Checker::read_only_loads) for the classes of loads that may be global.
struct CheckerSink::Scan {
  const std::uint8_t* cls;
  std::uint64_t base[8], limit[8];  // (classes from kSkip on: 0, never skipped as quiet)
  Checker::Quiet quiet;
  Checker::Span ro[Checker::kReadOnlyScan];  // (unused: 0 bytes)
};

namespace {

// The first record from k on that the checker must see (n when none): constant loads, quiet
// shared loads and loads inside read-only buffers are passed over. Kept free of calls, so its
// loop stays in registers.
[[gnu::always_inline]] inline std::size_t next_access(const CheckerSink::Scan& q, const std::uint64_t* rec,
                                                     std::size_t k, std::size_t n) {
  const std::uint8_t* cls = q.cls;
  const std::uint32_t* from = q.quiet.from;
  const std::uint32_t first = q.quiet.first, span = q.quiet.span;
  for (; k < n; ++k) {
    const std::uint64_t r = rec[k];
    const std::uint8_t c = cls[r >> kTagShift];
    if (c == CheckerSink::kSkip) continue;
    const std::uint64_t a = r & kAddrMask, off = a - q.base[c];
    if (off < q.limit[c] && (off & 3) == 0 && from[off >> 2] - first <= span) continue;
    if (c == CheckerSink::kFrontWord || c == CheckerSink::kLoad) {
      static_assert(Checker::kReadOnlyScan == 4);
      if ((a - q.ro[0].begin < q.ro[0].bytes) | (a - q.ro[1].begin < q.ro[1].bytes) |
          (a - q.ro[2].begin < q.ro[2].bytes) | (a - q.ro[3].begin < q.ro[3].bytes))
        continue;
    }
    return k;
  }
  return n;
}

}  // namespace

void CheckerSink::read_interval(const IntervalLogs& logs) {
  Checker& checker = *checker_;
  if (classes_.size() < logs.tags.size()) classify(logs.tags);
  const Checker::Quiet quiet = checker.quiet();
  // Shared loads name arena offsets, front-end loads addresses (placed in the arena by them);
  // indexed by the classes kSharedWord, kFrontWord, kLoad, kOther.
  Scan scan{classes_.data(),
            {0, arena_, 0, 0, 0, 0, 0, 0},
            {quiet.bytes, std::min<std::uint64_t>(shared_valid_, quiet.bytes), 0, 0, 0, 0, 0, 0},
            quiet,
            {}};
  std::copy(checker.read_only_loads().begin(), checker.read_only_loads().end(), scan.ro);
  for (std::uint32_t w = 0; w < logs.warps.size(); ++w)
    if (!logs.warps[w].fences.empty()) [[unlikely]] checker.warp_fences(w, logs.warps[w].fences);
  const bool calm = checker.calm();
  if (checker.lone_stores_possible() && only_lone_stores(logs, scan, calm)) {
    checker.lone_stores(lone_);
  } else {
    check_interval(logs, scan, calm);
  }
  for (std::vector<std::uint64_t>& v : values_) v.clear();
  std::fill(seen_.begin(), seen_.end(), WarpSeen{});
}

void CheckerSink::on_interval_end(const IntervalLogs& logs) {
  if (!checker_) return;
  read_interval(logs);
  if (logs.device_ordered) [[likely]] checker_->end_interval();
  else checker_->end_interval(false, longest_lane(logs));
}

std::uint32_t CheckerSink::longest_lane(const IntervalLogs& logs) {
  std::size_t n = 0;
  for (const WarpLog& wl : logs.warps)
    for (const WarpLog::LaneLog& l : wl.lanes) n = std::max(n, l.size());
  return static_cast<std::uint32_t>(n);
}

// Whether every access the interval's reading must see is a shared store of one word inside
// the declared bytes, by a warp with no __syncwarp (the stores of a tiled kernel's loading
// phase): their words in lone_. Stops at the first other access.
bool CheckerSink::only_lone_stores(const IntervalLogs& logs, const Scan& scan, bool calm) {
  lone_.clear();
  // What Checker::access takes inline: a front-end store inside the declared bytes (the direct
  // path of check_interval), a kernel-side shared store inside the arena's words.
  const std::uint64_t words = checker_->shared_bytes();
  const std::uint64_t front = std::min<std::uint64_t>(shared_valid_, words);
  for (std::uint32_t w = 0; w < logs.warps.size(); ++w) {
    const WarpLog& wl = logs.warps[w];
    if (calm && calm_warp(wl, w)) continue;
    if (!wl.sync_masks.empty() || !wl.syncs.empty()) return false;
    for (const WarpLog::LaneLog& log : wl.lanes) {
      const std::uint64_t* rec = log.data();
      const std::size_t n = log.size();
      for (std::size_t k = next_access(scan, rec, 0, n); k < n; k = next_access(scan, rec, k + 1, n)) {
        const std::uint64_t r = rec[k];
        const std::uint8_t c = classes_[r >> kTagShift];
        if (c < kFrontStoreWord) return false;
        const TagInfo& ti = logs.tags[r >> kTagShift];
        const bool fe = c == kFrontStoreWord;
        const std::uint64_t off = (r & kAddrMask) - (fe ? arena_ : 0);
        const std::uint32_t site = fe ? ti.placed[1] : ti.site;
        if (off >= (fe ? front : words) || (off & 3) + ti.width > 4 || site == ~0u) return false;
        lone_.push_back(static_cast<std::uint32_t>(off >> 2));
      }
    }
  }
  return true;
}

// Every access that the quick scan does not pass over, to the checker.
void CheckerSink::check_interval(const IntervalLogs& logs, const Scan& scan, bool calm) {
  Checker& checker = *checker_;
  for (std::uint32_t w = 0; w < logs.warps.size(); ++w) {
    const WarpLog& wl = logs.warps[w];
    if (calm && calm_warp(wl, w)) continue;
    if (!wl.sync_masks.empty()) checker.warp_syncs(w, wl.sync_masks);
    const bool no_syncs = wl.syncs.empty();
    for (std::uint32_t l = 0; l < 32; ++l) {
      const WarpLog::LaneLog& log = wl.lanes[l];
      const std::uint64_t* rec = log.data();
      const std::size_t n = log.size();
      Lane lane{w * 32 + l, l, 0, 0, 0};
      for (std::size_t k = next_access(scan, rec, 0, n); k < n; k = next_access(scan, rec, k + 1, n)) {
        // A store of one word inside the declared shared bytes by a warp with no __syncwarp in
        // this interval (wsync 0), straight to the checker: what access_one would do for it.
        const std::uint64_t r = rec[k];
        const std::uint8_t c = classes_[r >> kTagShift];
        if (c >= kFrontStoreWord && no_syncs) {
          const TagInfo& ti = logs.tags[r >> kTagShift];
          const std::uint64_t off = (r & kAddrMask) - (c == kFrontStoreWord ? arena_ : 0);
          const std::uint32_t site = c == kFrontStoreWord ? ti.placed[1] : ti.site;
          if (off < shared_valid_ && off + ti.width <= shared_valid_ && site != ~0u) {
            const std::uint64_t v = values_[lane.thread][lane.value++];
            checker.access(lane.thread, static_cast<std::uint32_t>(k), 0, site, SiteKind::kSharedStore,
                           off, ti.width, v);
            continue;
          }
        }
        access_one(logs, wl, lane, static_cast<std::uint32_t>(k), r);
      }
    }
  }
}

// Its warp instructions were all quiet kinds (on_instruction) and held every record of its
// logs (a stack access or a misplaced one is in no instruction: then the logs are read).
bool CheckerSink::calm_warp(const WarpLog& wl, std::uint32_t w) const {
  if (w >= seen_.size() || seen_[w].loud) return false;
  std::size_t records = 0;
  for (const WarpLog::LaneLog& l : wl.lanes) records += l.size();
  return records == seen_[w].accesses;
}

void CheckerSink::classify(const std::vector<TagInfo>& tags) {
  for (std::size_t t = classes_.size(); t < tags.size(); ++t) {
    const TagInfo& ti = tags[t];
    std::uint8_t c = kOther;
    if (ti.kind == SiteKind::kConstantLoad) c = kSkip;  // read-only: no hazard, never uninitialised
    else if (ti.shared_order) c = kOther;  // a libcu++ atomic (access_part: Checker::ordered_shared)
    else if (ti.shared_word_load) c = kSharedWord;
    else if (ti.kind == SiteKind::kLoad && ti.width <= 4) c = kFrontWord;
    else if (ti.kind == SiteKind::kStore && ti.width <= 4) c = kFrontStoreWord;
    else if (ti.kind == SiteKind::kSharedStore && ti.width <= 4) c = kSharedStoreWord;
    else if (ti.kind == SiteKind::kLoad && ti.width <= 16) c = kLoad;
    else if (ti.kind == SiteKind::kGlobalLoad && ti.width <= 16) c = kLoad;
    else if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore) c = kOther;
    classes_.push_back(c);
  }
}

void CheckerSink::note_store_general(std::vector<std::uint64_t>& vals, SiteKind kind, std::uint64_t addr,
                                     std::uint32_t width, const void* value) {
  vals.push_back(fold_store_value(value, width));
  if (kind == SiteKind::kStore && addr - arena_ < shared_valid_) {
    kind = SiteKind::kSharedStore;  // front-end code: shared memory by its address
    addr -= arena_;
  }
  if (kind == SiteKind::kSharedStore || kind == SiteKind::kSharedAtomic)
    checker_->mark_shared_store(addr, width);
}

// One access that the quick test did not skip: its __syncwarp count, then the checker (a
// front-end access: placed as counted, in a buffer this sink saw before without a lookup).
void CheckerSink::access_one(const IntervalLogs& logs, const WarpLog& wl, Lane& lane,
                             std::uint32_t k, std::uint64_t r) {
  // wsync: the number of the last __syncwarp this lane took part in before access k.
  const std::size_t nsync = wl.syncs.size();
  for (; lane.e < nsync && (!(wl.sync_masks[lane.e] >> lane.lane & 1u) || wl.syncs[lane.e][lane.lane] <= k);
       ++lane.e)
    if (wl.sync_masks[lane.e] >> lane.lane & 1u) lane.wsync = static_cast<std::uint32_t>(lane.e + 1);
  TagInfo& ti = logs.tags[r >> kTagShift];
  const std::uint64_t a = r & kAddrMask;
  if (ti.gap) [[unlikely]] {  // three elements of a 16-byte load: the two runs around the gap
    const std::uint64_t gap_at = 4 * (ti.gap - 1u);
    TagInfo part = ti;
    part.gap = 0;
    if (gap_at > 0) {
      part.width = static_cast<std::uint32_t>(gap_at);
      access_part(logs, lane, k, part, a);
    }
    if (gap_at + 4 < ti.width) {
      part.width = static_cast<std::uint32_t>(ti.width - gap_at - 4);
      access_part(logs, lane, k, part, a + gap_at + 4);
    }
    ti.placed[0] = part.placed[0];  // where the parts were placed, kept for the next access
    ti.placed[1] = part.placed[1];
    return;
  }
  if (ti.no_acquire) [[unlikely]] {  // a relaxed libcu++ atomic: Checker::acquired
    checker_->no_acquire_next(true);
    access_part(logs, lane, k, ti, a);
    checker_->no_acquire_next(false);
    return;
  }
  access_part(logs, lane, k, ti, a);
}

// An access of a front-end or library site (or one part of a load with a gap) to the checker.
void CheckerSink::access_part(const IntervalLogs& logs, Lane& lane, std::uint32_t k, TagInfo& ti,
                              std::uint64_t a) {
  const std::uint64_t* vals = lane.thread < values_.size() ? values_[lane.thread].data() : nullptr;
  if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore) {
    const bool store = ti.kind == SiteKind::kStore;
    const std::uint64_t v = store ? vals[lane.value++] : 0;
    const std::uint64_t off = a - arena_;
    if (ti.placed[1] != ~0u && off < shared_valid_ && off + ti.width <= shared_valid_) {
      const SiteKind kind = store ? SiteKind::kSharedStore : SiteKind::kSharedLoad;
      if (ti.shared_order) [[unlikely]]
        checker_->ordered_shared(ti.shared_order, lane.thread, k, lane.wsync, ti.placed[1], kind, off, ti.width, v);
      else
        checker_->access(lane.thread, k, lane.wsync, ti.placed[1], kind, off, ti.width, v);
      return;
    }
    if (ti.placed[0] != ~0u && in_known_buffer(a, ti.width)) {
      // A volatile global access is a relaxed one at system scope (PTX): like an atomic, it
      // races with no other volatile or atomic access (a flag between groups), and a fence before
      // it releases, a later load after it acquires (checker_release.cpp). Volatile shared ones
      // stay plain: racecheck reports the warp-synchronous reductions that rely on them.
      const SiteKind kind = ti.is_volatile ? SiteKind::kGlobalAtomic : store ? SiteKind::kGlobalStore : SiteKind::kGlobalLoad;
      checker_->access(lane.thread, k, lane.wsync, ti.placed[0], kind, a, ti.width, v);
      return;
    }
    if (logs.group.check_placed(*checker_, ti, lane.thread, k, lane.wsync, a, v)) learn_buffer(a);
    return;
  }
  const std::uint64_t v = is_write(ti.kind) ? vals[lane.value++] : 0;
  if (ti.block_scope) [[unlikely]] {
    checker_->block_scope_atomic(lane.thread, k, lane.wsync, ti.site, a, ti.width);
    return;
  }
  if (ti.shared_order && ti.kind == SiteKind::kSharedAtomic) [[unlikely]] {
    checker_->ordered_shared(ti.shared_order, lane.thread, k, lane.wsync, ti.site, ti.kind, a, ti.width, v);
    return;
  }
  checker_->access(lane.thread, k, lane.wsync, ti.site, ti.kind, a, ti.width, v);
}

// The valid bytes of the device allocation holding `addr`, kept when it is live: an access
// inside them is global (placement.cpp's place() decides the same).
void CheckerSink::learn_buffer(std::uint64_t addr) {
  const DeviceRange r = find_device_range(addr);
  if (!r.info || r.info->freed || !r.contains(addr)) return;
  known_[known_next_++ % kKnown] = {r.begin, r.end};
}

void CheckerSink::Total::add(const CheckerSink& w, MergeContext&) {
  if (!w.checker_) return;
  merge_hazards(hazards, w.checker_->hazards());
  merge_hazards(same_value, w.checker_->same_value_pairs());
  uninit.insert(uninit.end(), w.checker_->uninit_loads().begin(), w.checker_->uninit_loads().end());
}

void CheckerSink::Total::finish(MergeContext& m) {
  if (st.grid) {
    grid_hazards(*st.grid, st.buffers, st.cfg.report_same_value_waw, same_value, hazards);
    global_initcheck(uninit, *st.grid, st.buffers, hazards);
    m.report.atomic_bytes = atomic_bytes(*st.grid, st.buffers);
  }
  hazard_findings(hazards, m.infos, st.cfg, m.findings);
  same_value_note(same_value, m.infos, st.cfg, m.report.notes);
}

}  // namespace tgsim::detail
