// Placing the accesses of front-end-compiled code (kLoad/kStore records): the address says
// the space. The group's shared arena -> shared memory (counted as wavefronts, at its offset);
// a registered device allocation -> global memory (sectors); the lane's own fiber stack ->
// local memory (not counted: the GPU keeps it in registers or local memory, which the fixture
// does not compare); anything else -> a finding. A red zone hit names the buffer it overran.
// One warp instruction normally lies in one space: the interval its lanes' spread bounds them
// to (or, without a spread, the OR of their offsets) is checked against the arena and the
// cached buffer, and only a straddling instruction is placed lane by lane (then split into a
// global and a shared instruction, as a generic LD would be). flush_warp's quick_row and
// count_row place the common shared case themselves the same way.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>

#include "analyses/checker/checker.hpp"  // check_placed: the checker's view of an access
#include "engine/group.hpp"
#include "stream/placement.hpp"
#include "engine/guard.hpp"
#include "frontend/modules.hpp"

namespace tgsim::detail {

namespace {

std::string hex64(std::uint64_t a) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(a));
  return buf;
}

// Where a wild access (one past every red zone, in a page guard.cpp mapped for it) lies from
// the nearest buffer, for its finding.
std::string wild_distance(std::uint64_t addr) {
  const DeviceRange r = nearest_device_range(addr);
  if (!r.info)
    return " is in no device buffer (a wild pointer: no buffer is allocated); tgsim stood a zero "
           "page in for it";
  const bool below = addr < r.begin;
  const std::uint64_t gap = below ? r.begin - addr : addr - r.end;
  const std::uint64_t elem = r.info->elem_size ? r.info->elem_size : 1;
  return " is " + std::to_string(gap) + " bytes " + (below ? "before the start of" : "past the end of") +
         " buffer '" + r.info->name + "' (" + std::to_string(r.info->count) + " elements of " +
         std::to_string(elem) + " bytes), the nearest one, beyond its red zone; tgsim stood a zero "
         "page in for it";
}

}  // namespace

std::uint32_t GroupRun::placed_site(TagInfo& ti, bool shared) {
  std::uint32_t& id = ti.placed[shared ? 1 : 0];
  if (id == ~0u) {
    const bool store = ti.kind == SiteKind::kStore;
    const SiteKind k = shared ? (store ? SiteKind::kSharedStore : SiteKind::kSharedLoad)
                              : (store ? SiteKind::kGlobalStore : SiteKind::kGlobalLoad);
    id = state_.sites.id(ti.loc, k);
  }
  return id;
}

Placement::Space Placement::place(std::uint64_t addr, std::uint32_t width, std::uint64_t* shared_offset,
                                  const BufferInfo** bad_buffer) {
  if (addr - base_ < bytes_) {
    *shared_offset = addr - base_;
    if (addr - base_ + width > valid_) return Space::kInvalid;  // past the declared bytes
    return Space::kShared;
  }
  if (const DeviceRange* r = ranges_.find(addr)) {
    if (r->contains(addr) && addr + width <= r->end && !r->info->freed) return Space::kGlobal;
    *bad_buffer = r->info;
    return Space::kInvalid;
  }
  if (in_worker_stack(addr)) return Space::kLocal;
  return Space::kInvalid;
}

Placement::Misplaced Placement::misplaced(std::uint32_t width, std::uint64_t addr, const BufferInfo* buffer) const {
  if (addr - base_ < bytes_)
    return {FindingKind::kOutOfBounds, "shared memory offset " + std::to_string(addr - base_) + " (" +
                                           std::to_string(width) + " bytes) is outside the " + std::to_string(valid_) +
                                           " bytes of shared memory the kernel declared and the launch gave"};
  if (buffer && buffer->freed)
    return {FindingKind::kUseAfterFree,
            "access to freed buffer '" + buffer->name + "' at " + hex64(addr) + ": it was freed before this launch"};
  if (buffer) {
    DeviceRange r = find_device_range(addr);
    const std::int64_t off = static_cast<std::int64_t>(addr - r.begin);
    const std::uint64_t elem = buffer->elem_size ? buffer->elem_size : 1;
    return {FindingKind::kOutOfBounds,
            std::string(buffer->space) + " access at byte offset " + std::to_string(off) + " (index " +
                std::to_string(off >= 0 ? off / static_cast<std::int64_t>(elem)
                                        : -((-off + static_cast<std::int64_t>(elem) - 1) / static_cast<std::int64_t>(elem))) +
                ") is outside buffer '" + buffer->name + "' (" + std::to_string(buffer->count) + " elements of " +
                std::to_string(elem) + " bytes)"};
  }
  if (in_wild_page(addr)) return {FindingKind::kOutOfBounds, "global access at address " + hex64(addr) + wild_distance(addr)};
  if (auto [var, at] = zero_size_variable_near(addr, 1u << 16); !var.empty())
    return {FindingKind::kOutOfBounds,
            "global access at byte offset " + std::to_string(addr - at) + " of __device__ '" + var +
                "', which has no bytes (a zero-size array: every access to it is out of bounds; the "
                "access touched other memory and is not counted)"};
  return {FindingKind::kOutOfBounds,
          "address " + hex64(addr) +
              " is not device memory (no tgsim buffer, not the group's shared memory, not the "
              "thread's stack): a host pointer passed to the kernel? The access touched host memory "
              "and is not counted"};
}

void GroupRun::report_misplaced(const TagInfo& ti, std::uint32_t w, std::uint32_t lane,
                                std::uint64_t addr, Space space, const BufferInfo* buffer) {
  const Placement::Misplaced m = placement_.misplaced(ti.width, addr, buffer);
  (void)space;
  add_finding_at(threads_[w * 32 + lane].ctx, m.kind, ti.loc.file_name(), ti.loc.line(), ti.loc.column(), m.message);
}

// One warp instruction of front-end code: placed, then counted as global and/or shared.
// With the lanes' spread known (the uniform path of flush_warp) the interval the spread bounds
// them to inside the region places the instruction without reading the lanes (lanes_inside).
// Else (or when it is not inside) the quick test ORs the lanes' offsets from the region's
// start: when the OR (an upper bound of the largest offset) is inside the region, every lane
// is. Both tests only accept what the lane-by-lane placement would place in that one space.
// Shared addresses are counted as they are: the arena is 4 KiB aligned, so banks and lines
// equal the offsets'.
void GroupRun::count_placed(std::uint32_t tag, std::uint32_t mask, const std::uint64_t* addr,
                            std::uint32_t w, std::uint64_t spread) {
  TagInfo& ti = tags_[tag];
  const bool store = ti.kind == SiteKind::kStore;
  const std::uint64_t a0 = addr[std::countr_zero(mask)];
  auto all_below = [&](std::uint64_t from, std::uint64_t size) {
    if (lanes_inside(a0, spread, ti.width, from, size)) return true;
    std::uint64_t acc = 0;
    if (mask == 0xFFFFFFFFu) {
      for (int l = 0; l < 32; ++l) acc |= addr[l] - from;
    } else {
      for (std::uint32_t m = mask; m; m &= m - 1) acc |= addr[std::countr_zero(m)] - from;
    }
    return acc < size && acc + ti.width <= size;
  };
  const std::uint64_t base = placement_.shared_base(), valid = placement_.shared_valid();
  if (a0 - base < valid && all_below(base, valid)) {
    count_instruction(placed_site(ti, true), store ? SiteKind::kSharedStore : SiteKind::kSharedLoad,
                      ti.width, mask, addr, w, spread);
    return;
  }
  if (const DeviceRange* r = placement_.global_range(a0);
      r && r->contains(a0) && !r->info->freed && all_below(r->begin, r->end - r->begin)) {
    count_instruction(placed_site(ti, false), store ? SiteKind::kGlobalStore : SiteKind::kGlobalLoad,
                      ti.width, mask, addr, w, spread);
    return;
  }
  std::uint64_t off = 0;
  const BufferInfo* bad = nullptr;
  // Lane by lane.
  std::uint64_t g[32], sh[32];
  std::uint32_t gmask = 0, smask = 0;
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const int l = std::countr_zero(m);
    bad = nullptr;
    switch (placement_.place(addr[l], ti.width, &off, &bad)) {
      case Space::kGlobal: g[l] = addr[l], gmask |= 1u << l; break;
      case Space::kShared: sh[l] = addr[l], smask |= 1u << l; (void)off; break;
      case Space::kLocal: break;
      case Space::kInvalid: report_misplaced(ti, w, static_cast<std::uint32_t>(l), addr[l], Space::kInvalid, bad); break;
    }
  }
  if (gmask)
    count_instruction(placed_site(ti, false), store ? SiteKind::kGlobalStore : SiteKind::kGlobalLoad,
                      ti.width, gmask, g, w);
  if (smask)
    count_instruction(placed_site(ti, true), store ? SiteKind::kSharedStore : SiteKind::kSharedLoad,
                      ti.width, smask, sh, w);
}

}  // namespace tgsim::detail

namespace tgsim::detail {

// The checker's view of one front-end access (the checker sink's reading of an interval):
// placed as counted, stack and misplaced accesses left out (flush_warp reported the misplaced
// ones). True for an access placed in global memory (the sink then remembers its buffer).
bool GroupRun::check_placed(Checker& checker, TagInfo& ti, std::uint32_t thread, std::uint32_t k,
                            std::uint32_t wsync, std::uint64_t addr, std::uint64_t value) {
  std::uint64_t off = 0;
  const BufferInfo* bad = nullptr;
  const bool store = ti.kind == SiteKind::kStore;
  switch (placement_.place(addr, ti.width, &off, &bad)) {
    case Space::kShared:
      if (ti.shared_order) {  // a libcu++ atomic (CheckerSink::access_part)
        checker.ordered_shared(ti.shared_order, thread, k, wsync, placed_site(ti, true),
                               store ? SiteKind::kSharedStore : SiteKind::kSharedLoad, off, ti.width, value);
        return false;
      }
      if (!store && ti.width <= 4 && checker.quiet_shared_load(off)) return false;
      checker.access(thread, k, wsync, placed_site(ti, true),
                       store ? SiteKind::kSharedStore : SiteKind::kSharedLoad, off, ti.width, value);
      return false;
    case Space::kGlobal:  // a volatile one as an atomic (CheckerSink::access_one says why)
      checker.access(thread, k, wsync, placed_site(ti, false),
                     ti.is_volatile ? SiteKind::kGlobalAtomic : store ? SiteKind::kGlobalStore : SiteKind::kGlobalLoad,
                     addr, ti.width, value);
      return true;
    case Space::kLocal:
    case Space::kInvalid: return false;
  }
  return false;
}

}  // namespace tgsim::detail

namespace tgsim::detail {

// A memset or memcpy whose length the compiler does not know (__tgsim_memop, bridge_mem.cpp):
// [addr, addr + n) must lie in one space the thread may touch. Else a finding at the call's
// line names the address (a null pointer, a zero-size __device__ array, a buffer it overruns)
// and false: the operation is not made (on the GPU it faults and ends the launch).
bool GroupRun::memop_in_bounds(const ThreadCtx& t, const std::source_location& loc, const char* what,
                               std::uint64_t addr, std::uint64_t n) {
  std::uint64_t off = 0;
  const BufferInfo* buffer = nullptr;
  const bool wraps = addr + n < addr;
  if (!wraps && n <= 0xFFFFFFFFu && placement_.place(addr, static_cast<std::uint32_t>(n), &off, &buffer) != Space::kInvalid)
    return true;
  std::string where;
  if (addr < 4096) {
    where = "address " + hex64(addr) + ": a null pointer";
  } else if (buffer) {
    where = "address " + hex64(addr) + ", which overruns " + std::string(buffer->space) + " buffer '" +
            buffer->name + "' (" + std::to_string(buffer->count * std::max<std::uint64_t>(buffer->elem_size, 1)) +
            " bytes)" + (buffer->freed ? ", freed before this launch" : "");
  } else if (auto [var, at] = zero_size_variable_near(addr, 1u << 16); !var.empty()) {
    where = "byte offset " + std::to_string(addr - at) + " of __device__ '" + var + "', which has no bytes";
  } else {
    where = "address " + hex64(addr) + ", which is no device memory (no buffer, not the group's shared "
            "memory, not the thread's stack)";
  }
  add_finding(t, FindingKind::kOutOfBounds, loc,
              std::string(what) + " of " + std::to_string(n) + " bytes at " + where +
                  "; tgsim did not make it, and the thread ended (an illegal address on the GPU)");
  return false;
}

}  // namespace tgsim::detail
