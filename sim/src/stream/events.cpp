// The stream's events that the engine's own files emit, out of line (engine/analyses.hpp keeps
// the engine from knowing the analyses): a barrier's or warp collective's instruction, the start
// of a group, and a store's bytes (memory.hpp's note_store, abi.h's __tgsim_note_store, with the
// checker on). Each is one fold over the registration list (analyses/list.hpp), inlined here;
// the per-access events (instructions, fast shared rows) are emitted inline in warp_flush.cpp.
#include "analyses/list.hpp"
#include "engine/group.hpp"

namespace tgsim::detail {

void GroupRun::emit(const WarpInstruction& in) { sinks_->on_instruction(in); }

void GroupRun::emit_group_start() { sinks_->on_group_start(group_, &decls_); }

void note_store(ThreadCtx* t, AccessKind kind, std::uint64_t addr, std::uint32_t width,
                const void* value) {
  t->group_->sinks().on_store(t->linear_tid, static_cast<SiteKind>(kind), addr, width, value);
}

}  // namespace tgsim::detail
