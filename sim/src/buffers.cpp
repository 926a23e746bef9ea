// The BufferInfo pool behind use-after-free findings: a BufferInfo is never returned to the
// allocator, only recycled for a later Buffer, so a global_ptr that outlived its Buffer still
// reads a valid object and sees that its generation moved on (memory.hpp, global_ptr).
#include <mutex>
#include <vector>

#include <tgsim/memory.hpp>

namespace tgsim::detail {

namespace {
struct Pool {
  std::mutex mu;
  std::vector<BufferInfo*> free;
};
// Leaked on purpose (reachable from this pointer, so LeakSanitizer is quiet): BufferInfos
// must outlive every global_ptr, including those in static objects.
Pool& pool() {
  static Pool* p = new Pool;
  return *p;
}
}  // namespace

BufferInfo* acquire_buffer_info() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mu);
  BufferInfo* info;
  if (p.free.empty()) {
    info = new BufferInfo;
  } else {
    info = p.free.back();
    p.free.pop_back();
  }
  info->generation += 1;  // pointers into the freed holder now differ by at least 2
  info->space = "global";
  return info;
}

void release_buffer_info(BufferInfo* info) noexcept {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mu);
  info->generation += 1;  // every global_ptr made from the dying Buffer is now stale
  try {
    p.free.push_back(info);
  } catch (...) {
    // Out of memory for the free list: keep the object alive anyway (never delete it).
  }
}

}  // namespace tgsim::detail
