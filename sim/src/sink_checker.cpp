// The checker sink (sink_checker.hpp): reading an interval's logs, and the merge.
#include "sink_checker.hpp"

#include "group.hpp"

namespace tgsim::detail {

CheckerSink::CheckerSink(LaunchState& st, const SinkEnv& env)
    : arena_(reinterpret_cast<std::uint64_t>(env.arena)), shared_valid_(env.shared_valid) {
  if (!st.cfg.check) return;
  checker_ = std::make_unique<Checker>(st, env.arena_bytes);
  values_.resize(env.nthreads);
}

// The checker reads the interval's accesses from the warps' logs, kept until the barrier is
// released: a record's index in its lane's log is its lockstep time (accesses since the
// barrier), the sync positions give its __syncwarp count, and stores take their bytes from the
// lane's values in order. Every access goes to the checker except plain loads of shared words
// that nobody stored in this interval (note_store marked the stored ones as they happened) and
// that are initialised: nothing to pair, analyze() would skip them after building their lists.
// Those are most accesses of a tiled kernel. The values are cleared here; the logs by GroupRun.
void CheckerSink::read_interval(const IntervalLogs& logs) {
  Checker& checker = *checker_;
  const TagInfo* tags = logs.tags.data();
  for (std::uint32_t w = 0; w < logs.warps.size(); ++w) {
    const WarpLog& wl = logs.warps[w];
    const std::size_t nsync = wl.syncs.size();
    checker.warp_syncs(w, wl.sync_masks);
    for (std::uint32_t l = 0; l < 32; ++l) {
      const WarpLog::LaneLog& log = wl.lanes[l];
      const std::size_t n = log.size();
      const std::uint32_t thread = w * 32 + l;
      const std::uint64_t* vals = thread < values_.size() ? values_[thread].data() : nullptr;
      std::size_t vi = 0, e = 0;
      std::uint32_t wsync = 0;
      for (std::size_t k = 0; k < n; ++k) {
        const std::uint64_t r = log[k];
        const TagInfo& ti = tags[r >> kTagShift];
        if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore) [[unlikely]] {
          // Front-end code: the same quick skip for a shared load of at most 4 bytes, placed by
          // its address in the arena; the rest is placed by check_placed.
          const std::uint64_t off = (r & kAddrMask) - arena_;
          if (ti.kind == SiteKind::kLoad && ti.width <= 4 && off < shared_valid_ && checker.quiet_shared_load(off))
            continue;
        } else if (ti.shared_word_load && checker.quiet_shared_load(r & kAddrMask)) {
          continue;
        }
        // wsync: the number of the last __syncwarp this lane took part in before access k.
        for (; e < nsync && (!(wl.sync_masks[e] >> l & 1u) || wl.syncs[e][l] <= k); ++e)
          if (wl.sync_masks[e] >> l & 1u) wsync = static_cast<std::uint32_t>(e + 1);
        if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore) [[unlikely]] {
          logs.group.check_placed(checker, logs.tags[r >> kTagShift], thread, static_cast<std::uint32_t>(k),
                                  wsync, r & kAddrMask, ti.kind == SiteKind::kStore ? vals[vi++] : 0);
          continue;
        }
        const std::uint64_t v = is_write(ti.kind) ? vals[vi++] : 0;
        checker.access(thread, static_cast<std::uint32_t>(k), wsync, ti.site, ti.kind,
                       r & kAddrMask, ti.width, v);
      }
    }
  }
  for (std::vector<std::uint64_t>& v : values_) v.clear();
}

void CheckerSink::Total::add(const CheckerSink& w, MergeContext&) {
  if (!w.checker_) return;
  merge_hazards(hazards, w.checker_->hazards());
  uninit.insert(uninit.end(), w.checker_->uninit_loads().begin(), w.checker_->uninit_loads().end());
}

void CheckerSink::Total::finish(MergeContext& m) {
  if (st.grid) {
    grid_hazards(*st.grid, st.buffers, st.cfg.report_same_value_waw, hazards);
    global_initcheck(uninit, *st.grid, st.buffers, hazards);
  }
  hazard_findings(hazards, m.infos, st.cfg, m.findings);
}

}  // namespace tgsim::detail
