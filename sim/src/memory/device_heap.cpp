// The device heap: malloc/free and new/delete in kernel code (the pass turns their calls into
// __tgsim_device_malloc/_free, sim/pass/faults.cpp). As CUDA's: blocks live until freed (across
// launches), the heap holds at most cudaLimitMallocHeapSize bytes (8 MiB unless
// cudaDeviceSetLimit says otherwise) and malloc returns NULL past it. Each block is registered as
// device memory named by its call site, so its accesses are counted and checked as a buffer's
// (an index past it is out of bounds, naming the malloc). Freeing a pointer the heap did not
// return, or twice, is a finding. A freed block leaves the heap's count at once but stays
// mapped until no launch runs: its accesses are placed when the warp is counted, after the
// thread ran on (a block read and freed in one kernel is read inside its bounds).
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <tgsim/kernel/abi.h>

#include "frontend/bridge.hpp"
#include "memory/device_memory.hpp"
#include "engine/group.hpp"
#include "engine/group_internal.hpp"

using namespace tgsim;
using namespace tgsim::detail;

namespace {

constexpr std::size_t kRedZone = 64;

struct Heap {
  std::mutex mu;
  std::unordered_map<const void*, std::pair<std::size_t, BufferInfo*>> blocks;
  std::vector<void*> freed;  // released when no launch runs
  std::vector<BufferInfo*> retired;  // freed blocks' names, kept: a stale pointer's lookup may name one
  std::size_t used = 0, limit = std::size_t(8) << 20;
  int launches = 0;  // in flight
};

Heap& heap() {
  static Heap* h = new Heap;  // outlives every launch and static destructor
  return *h;
}

std::string where(const void* site) {
  const std::source_location loc = loc_of(site);
  std::string f = loc.file_name();
  if (auto p = f.rfind('/'); p != std::string::npos) f = f.substr(p + 1);
  return f + ":" + std::to_string(loc.line());
}

}  // namespace

namespace tgsim::detail {

std::size_t device_heap_limit() {
  std::lock_guard lock(heap().mu);
  return heap().limit;
}

void set_device_heap_limit(std::size_t bytes) {
  std::lock_guard lock(heap().mu);
  heap().limit = bytes;
}

DeviceHeapLaunch::DeviceHeapLaunch() {
  std::lock_guard lock(heap().mu);
  ++heap().launches;
}

DeviceHeapLaunch::~DeviceHeapLaunch() {
  Heap& h = heap();
  std::lock_guard lock(h.mu);
  if (--h.launches > 0) return;
  for (void* p : h.freed) {
    unregister_device_range(p);
    std::free(p);
  }
  h.freed.clear();
}

}  // namespace tgsim::detail

extern "C" {

void* __tgsim_device_malloc(const void* site, unsigned long long bytes) {
  Heap& h = heap();
  if (bytes == 0) return nullptr;
  std::lock_guard lock(h.mu);
  if (bytes > h.limit - std::min(h.limit, h.used)) return nullptr;  // the heap is full: NULL, as CUDA
  // The block, then a red zone of its own: an index a little past the block is out of its bounds
  // (named by its malloc), not in the next block.
  const std::size_t rounded = (bytes + 15) / 16 * 16 + kRedZone;
  void* p = std::aligned_alloc(16, rounded);
  if (!p) return nullptr;
  auto* info = new BufferInfo;  // kept after free: a stale pointer's lookups may name it
  info->name = "malloc(" + std::to_string(bytes) + ") at " + where(site);
  info->count = bytes;
  info->elem_size = 1;
  info->assume_init = true;  // device malloc's bytes are undefined on the GPU; not checked here
  h.blocks[p] = {bytes, info};
  h.used += bytes;
  register_device_range(p, bytes, info, rounded - bytes);
  return p;
}

void __tgsim_device_free(const void* site, void* p) {
  if (!p) return;
  Heap& h = heap();
  {
    std::lock_guard lock(h.mu);
    auto it = h.blocks.find(p);
    if (it != h.blocks.end()) {
      h.used -= it->second.first;
      h.freed.push_back(p);
      h.retired.push_back(it->second.second);
      h.blocks.erase(it);
      return;
    }
  }
  ThreadCtx* t = current;
  if (!t) return;
  char addr[32];
  std::snprintf(addr, sizeof addr, "%p", p);
  t->group_->add_finding(*t, FindingKind::kOutOfBounds, loc_of(site),
                         std::string("free of ") + addr +
                             ", which device malloc/new did not return or which was already freed "
                             "(the GPU's heap is then corrupt); ignored");
}

}  // extern "C"
