// The library side of tgsim/kernel/abi.h: what front-end-compiled kernels call. Each entry
// point finds the running thread and hands over to GroupRun; a site pointer is a tgsim_site,
// laid out as libstdc++'s std::source_location::__impl, so it is used as a source_location.
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <tgsim/kernel/abi.h>

#include "frontend/bridge.hpp"
#include "engine/group.hpp"

namespace tgsim::detail {

static_assert(offsetof(ThreadCtx, thread_idx) == TGSIM_OFF_THREAD_IDX);
static_assert(offsetof(ThreadCtx, block_idx) == TGSIM_OFF_BLOCK_IDX);
static_assert(offsetof(ThreadCtx, block_dim) == TGSIM_OFF_BLOCK_DIM);
static_assert(offsetof(ThreadCtx, grid_dim) == TGSIM_OFF_GRID_DIM);
static_assert(offsetof(ThreadCtx, linear_tid) == TGSIM_OFF_LINEAR_TID);
static_assert(offsetof(ThreadCtx, log_) == TGSIM_OFF_LOG);
static_assert(offsetof(ThreadCtx, tags_) == TGSIM_OFF_TAGS);
static_assert(offsetof(ThreadCtx, checking_) == TGSIM_OFF_CHECKING);
static_assert(offsetof(ThreadCtx, shared_base_) == TGSIM_OFF_SHARED);
static_assert(offsetof(ThreadCtx, grid_origin_) == TGSIM_OFF_GRID_ORIGIN);
static_assert(offsetof(ThreadCtx, grid_threads_) == TGSIM_OFF_GRID_SIZE);
static_assert(offsetof(ThreadCtx, dynamic_shared_) == TGSIM_OFF_DYNAMIC_SHARED);
static_assert(sizeof(Dim3) == 12 && sizeof(LaneBuf) == 16 && sizeof(TagSlot) == 16);
static_assert(sizeof(std::source_location) == sizeof(void*));
static_assert(static_cast<int>(AccessKind::kLoad) == TGSIM_KIND_LOAD &&
              static_cast<int>(AccessKind::kStore) == TGSIM_KIND_STORE &&
              static_cast<int>(AccessKind::kConstantLoad) == TGSIM_KIND_CONSTANT_LOAD);

namespace {

ThreadCtx& running() {
  ThreadCtx* t = current;
  if (!t) no_current_thread();
  return *t;
}

}  // namespace

}  // namespace tgsim::detail

using namespace tgsim;
using namespace tgsim::detail;

extern "C" {

void* __tgsim_thread(void) { return &running(); }

void __tgsim_access(void* thread, const void* site, unsigned kind, unsigned long long addr,
                    unsigned width) {
  auto* t = static_cast<ThreadCtx*>(thread);
  const unsigned flags = static_cast<const tgsim_site*>(site)->flags;
  if (flags & TGSIM_SITE_VOLATILE) [[unlikely]]
    t->group_->mark_volatile(t->group_->tag(loc_of(site), static_cast<SiteKind>(kind), width));
  if (kind == TGSIM_KIND_STORE) {
    // (the slow path: a full log; the fast path's tags are marked in __tgsim_resolve_tags)
    t->group_->mark_store_value(t->group_->tag(loc_of(site), SiteKind::kStore, width),
                                flags & TGSIM_SITE_CONSTANT_VALUE);
    record_store(t, loc_of(site), AccessKind::kStore, addr, width, reinterpret_cast<const void*>(addr));
  } else
    record_access(t, loc_of(site), static_cast<AccessKind>(kind), addr, width);
}

void __tgsim_resolve_tags(void* thread, unsigned long long* keys, unsigned n) {
  auto* t = static_cast<ThreadCtx*>(thread);
  for (unsigned i = 0; i < n; ++i) {
    const std::uint64_t key = keys[i];
    const void* site = reinterpret_cast<const void*>(key & TGSIM_KEY_SITE_MASK);
    const auto kind = static_cast<SiteKind>(key & TGSIM_KEY_KIND_MASK);
    keys[i] = t->group_->tag(loc_of(site), kind, 1u << (key >> TGSIM_KEY_WIDTH_SHIFT));
    const unsigned flags = static_cast<const tgsim_site*>(site)->flags;
    if (flags & TGSIM_SITE_VOLATILE) [[unlikely]]
      t->group_->mark_volatile(keys[i]);
    if (flags & TGSIM_SITE_GAP_MASK) [[unlikely]]
      t->group_->mark_gap(keys[i], (flags & TGSIM_SITE_GAP_MASK) >> TGSIM_SITE_GAP_SHIFT);
    if (kind == SiteKind::kStore) t->group_->mark_store_value(keys[i], flags & TGSIM_SITE_CONSTANT_VALUE);
  }
}

// A function with many sites (more than fast_path.cpp's kTagsInRegisters) reads its tags here at
// entry, from the worker's tag cache, and has all of them resolved when one is missing: one
// loop instead of inline code that grows with the function (issue 40: compile time).
void __tgsim_load_tags(void* thread, const unsigned long long* keys, unsigned long long* tags, unsigned n) {
  const TagSlot* cache = static_cast<ThreadCtx*>(thread)->tags_;
  bool miss = false;
  for (unsigned i = 0; i < n; ++i) {
    const TagSlot& s = cache[tag_slot(keys[i])];
    miss |= s.key != keys[i];
    tags[i] = s.tag;
  }
  if (!miss) return;
  std::memcpy(tags, keys, std::size_t(n) * sizeof *tags);
  __tgsim_resolve_tags(thread, tags, n);
}

void __tgsim_reserve(void* thread, unsigned n) {
  auto* t = static_cast<ThreadCtx*>(thread);
  t->group_->reserve(*t, n);
}

void __tgsim_note_store(void* thread, unsigned long long addr, unsigned width) {
  note_store(static_cast<ThreadCtx*>(thread), AccessKind::kStore, addr, width,
             reinterpret_cast<const void*>(addr));
}

void __tgsim_barrier(const void* site) {
  ThreadCtx& t = running();
  t.barrier(loc_of(site));
}

void __tgsim_metal_barrier(const void* site, unsigned flags) {
  ThreadCtx& t = running();
  t.group_->metal_barrier(t, loc_of(site), flags);
}

void __tgsim_grid_sync(const void* site) {
  ThreadCtx& t = running();
  t.group_->grid_barrier(t, loc_of(site));
}

int __tgsim_grid_is_valid(void) {
  ThreadCtx& t = running();
  return t.group_->cooperative() ? 1 : 0;
}

int __tgsim_barrier_reduce(const void* site, int op, int pred) {
  ThreadCtx& t = running();
  return t.group_->barrier_reduce(t, loc_of(site), op, pred);
}

void __tgsim_fence(const void*, int scope) {
  // Every access is performed when the thread makes it (threads of a group take turns on one
  // worker; groups on different workers see each other's stores as the CPU orders them). The
  // checker notes device-scope fences: a fence and then an atomic release the stores before it.
  ThreadCtx& t = running();
  t.group_->fence(t, scope);
}

int __tgsim_printf(const void* site, const char* format, ...) {
  ThreadCtx& t = running();
  (void)site;
  va_list ap, ap2;
  va_start(ap, format);
  va_copy(ap2, ap);
  const int n = std::vsnprintf(nullptr, 0, format, ap);
  va_end(ap);
  std::string text(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, format, ap2);
  va_end(ap2);
  t.group_->print(t, std::move(text));
  return n;
}

void* __tgsim_dynamic_shared(void) { return running().group_->dynamic_shared(); }

// clock()/clock64(): in a kernel, the thread's reads so far in its block (1, 2, ...): a
// deterministic stand-in for the SM's cycle counter. In host code, the host's clock().
unsigned long long __tgsim_clock(const void*) {
  if (ThreadCtx* t = current) return ++t->clock_;
  return static_cast<unsigned long long>(std::clock());
}

void __tgsim_yield(const void*) {
  if (ThreadCtx* t = current) t->group_->yield(*t);
}

void __tgsim_unsupported(const void* site, const char* what) {
  ThreadCtx& t = running();
  t.group_->add_finding(t, FindingKind::kUnsupported, loc_of(site),
                        std::string("not modelled by tgsim: ") + what);
}

}  // extern "C"
