// The stream's events that the engine's own files emit, out of line (engine/analyses.hpp keeps
// the engine from knowing the analyses): a barrier's instructions (count_barriers_at_waits), a
// warp collective's, the start of a group, and a store's bytes (memory.hpp's note_store, abi.h's
// __tgsim_note_store, with the checker on). Each is one fold over the registration list
// (analyses/list.hpp), inlined here, where a barrier's constant fields fold the sinks' tests
// away; the per-access events (instructions, fast shared rows) are emitted in warp_flush.cpp.
#include <algorithm>
#include <cstring>

#include "analyses/list.hpp"
#include "engine/group.hpp"

namespace tgsim::detail {

void GroupRun::emit(const WarpInstruction& in) { sinks_->on_instruction(in); }

void GroupRun::emit_group_start() { sinks_->on_group_start(group_, &decls_); }

void GroupRun::emit_shuffle(std::uint32_t site, const CollectiveOp& op, const std::int64_t* arg,
                            std::uint32_t took_part, std::uint32_t w) {
  sinks_->on_shuffle(site, op, arg, took_part, group_, w);
}

void GroupRun::count_barriers_at_waits() {
  // One BAR per warp per barrier site where at least one of its lanes waits. When every
  // arrival named one source_location object (Barrier::one_site), that is one BAR per warp with
  // waiting lanes. Otherwise lanes mostly wait at one call site: its id is looked up once per
  // run of equal source_locations.
  if (bar_.one_site()) {
    const std::uint32_t id = bar_.arrived() ? tags_.site_id(bar_.first_site(), SiteKind::kBarrier) : 0;
    for (std::uint32_t w = 0; w < warps_.size(); ++w)
      if (const std::uint32_t waiting = bar_.waiting(w))
        sinks_->on_instruction(WarpInstruction{id, SiteKind::kBarrier, 0, waiting, nullptr, group_, w});
    return;
  }
  const void* last_loc = nullptr;
  std::uint32_t last_id = 0;
  for (std::uint32_t w = 0; w < warps_.size(); ++w) {
    std::uint32_t seen[32], mask[32];
    int nseen = 0;
    std::uint32_t end = std::min<std::uint32_t>(nthreads_, (w + 1) * 32);
    for (std::uint32_t i = w * 32; i < end; ++i) {
      const Thread& th = threads_[i];
      if (th.state != State::kWaiting) continue;
      const void* loc;
      std::memcpy(&loc, &th.wait_loc, sizeof loc);
      if (loc != last_loc || !last_loc) last_id = tags_.site_id(th.wait_loc, SiteKind::kBarrier), last_loc = loc;
      const std::uint32_t id = last_id;
      const std::uint32_t bit = 1u << (i - w * 32);
      if (nseen && seen[nseen - 1] == id) {  // the common case: the lanes wait at one barrier
        mask[nseen - 1] |= bit;
        continue;
      }
      const int k = static_cast<int>(std::find(seen, seen + nseen, id) - seen);
      if (k == nseen) seen[nseen] = id, mask[nseen++] = 0;
      mask[k] |= bit;
    }
    for (int k = 0; k < nseen; ++k)
      sinks_->on_instruction(WarpInstruction{seen[k], SiteKind::kBarrier, 0, mask[k], nullptr, group_, w});
  }
}

void GroupRun::group_resumed() { sinks_->on_group_resumed(); }

void GroupRun::values_dropped(std::uint32_t thread, std::size_t first, std::size_t count) {
  sinks_->on_values_dropped(thread, first, count);
}

void note_store(ThreadCtx* t, AccessKind kind, std::uint64_t addr, std::uint32_t width,
                const void* value) {
  t->group_->sinks().on_store(t->linear_tid, static_cast<SiteKind>(kind), addr, width, value);
}

}  // namespace tgsim::detail
