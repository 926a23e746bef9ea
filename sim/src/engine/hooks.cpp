// The kernel-facing hooks of the proxy dialect and the explicit API (memory.hpp, warp.hpp,
// constant.hpp): each hands over to the running thread's group (GroupRun).
#include <string>

#include "engine/group.hpp"

namespace tgsim::detail {

// AccessKind (record.hpp) is cast to SiteKind (report.hpp) below and in group.hpp.
#define TGSIM_SAME_KIND(k) static_assert(static_cast<int>(AccessKind::k) == static_cast<int>(SiteKind::k))
TGSIM_SAME_KIND(kGlobalLoad);
TGSIM_SAME_KIND(kGlobalStore);
TGSIM_SAME_KIND(kSharedLoad);
TGSIM_SAME_KIND(kSharedStore);
TGSIM_SAME_KIND(kBarrier);
TGSIM_SAME_KIND(kGlobalAtomic);
TGSIM_SAME_KIND(kSharedAtomic);
TGSIM_SAME_KIND(kConstantLoad);
TGSIM_SAME_KIND(kLoad);
TGSIM_SAME_KIND(kStore);
#undef TGSIM_SAME_KIND

void record_access(ThreadCtx* t, std::source_location loc, AccessKind kind,
                   std::uint64_t addr, std::uint32_t width) {
  t->group_->record(*t, loc, static_cast<SiteKind>(kind), addr, width, nullptr);
}

void record_store(ThreadCtx* t, std::source_location loc, AccessKind kind,
                  std::uint64_t addr, std::uint32_t width, const void* value) {
  t->group_->record(*t, loc, static_cast<SiteKind>(kind), addr, width, value);
}

std::uint64_t warp_collective(ThreadCtx* t, const CollectiveOp& op, std::uint32_t mask,
                              std::uint64_t value, std::int64_t arg, const std::source_location& loc) {
  return t->group_->collective(*t, op, mask, value, arg, loc);
}

std::uint32_t active_lanes(ThreadCtx* t, const std::source_location& loc) {
  return t->group_->active_lanes(*t, loc);
}

void constant_write(ThreadCtx* t, const std::source_location& loc, const BufferInfo* info,
                    std::int64_t index) {
  t->group_->add_finding(*t, FindingKind::kConstantWrite, loc,
                         "store to constant memory '" + info->name + "[" + std::to_string(index) +
                             "]': __constant__ data is read-only in kernels (the store was dropped)");
}

void global_use_after_free(ThreadCtx* t, const std::source_location& loc, const BufferInfo* buf,
                           std::int64_t index) {
  // The BufferInfo of a dead Buffer is kept (buffers.cpp): reading it is safe.
  t->group_->add_finding(
      *t, FindingKind::kUseAfterFree, loc,
      "access (index " + std::to_string(index) + ") through a pointer to freed buffer '" +
          buf->name + "': the Buffer it was made from was destroyed before this launch or while "
          "it ran (the access was dropped; a load yields 0)");
}

void global_out_of_bounds(ThreadCtx* t, const std::source_location& loc, const BufferInfo* buf,
                          std::int64_t index) {
  std::string msg;
  if (!buf)
    msg = "access through a null global pointer (index " + std::to_string(index) + ")";
  else
    msg = std::string(buf->space) + " index " + std::to_string(index) + " is outside " +
          (std::strcmp(buf->space, "global") == 0 ? "buffer '" : "'") + buf->name + "' (" +
          std::to_string(buf->count) + " elements of " + std::to_string(buf->elem_size) +
          " bytes)";
  t->group_->add_finding(*t, FindingKind::kOutOfBounds, loc, msg);
}

void shared_out_of_bounds(ThreadCtx* t, const std::source_location& loc, const SharedDecl* decl,
                          std::size_t dim, std::int64_t index, std::size_t extent) {
  std::string shape;
  for (std::size_t e : decl->extents) shape += "[" + std::to_string(e) + "]";
  std::string msg = "shared index " + std::to_string(index) + " in dimension " +
                    std::to_string(dim + 1) + " of '" + decl->name + shape +
                    "' is outside [0, " + std::to_string(extent) + ")";
  t->group_->add_finding(*t, FindingKind::kOutOfBounds, loc, msg);
}

std::byte* shared_storage(ThreadCtx* t, const std::source_location& loc, const char* name,
                          std::size_t bytes, std::size_t align, std::uint32_t rank,
                          const std::size_t* extents, std::uint32_t* offset,
                          const SharedDecl** decl) {
  return t->group_->shared_storage(*t, loc, name, bytes, align, rank, extents, offset, decl);
}

}  // namespace tgsim::detail
