// BufferInfo lifetime, behind use-after-free findings: a BufferInfo is never freed nor reused.
// When its Buffer dies, count drops to 0 and `freed` is set, so a global_ptr that outlived its
// Buffer fails the bounds check of every subscript (memory.hpp, global_ptr::operator[]) and
// never touches the freed memory. Cost: one small object (~100 bytes) kept per Buffer ever
// allocated, in exchange for no extra test on the per-access hot path.
#include <mutex>
#include <vector>

#include <tgsim/errors.hpp>
#include <tgsim/memory.hpp>

namespace tgsim::detail {

namespace {
// Retired BufferInfos stay reachable from here (LeakSanitizer stays quiet).
struct Graveyard {
  std::mutex mu;
  std::vector<BufferInfo*> retired;
};
Graveyard& graveyard() {
  static Graveyard* g = new Graveyard;
  return *g;
}
}  // namespace

BufferInfo* acquire_buffer_info() { return new BufferInfo; }

std::size_t buffer_bytes(std::size_t count, std::size_t elem_size, const std::string& name) {
  const std::size_t max = ~std::size_t(0) - 255;
  if (elem_size != 0 && count > max / elem_size)
    throw LaunchError("alloc of '" + name + "': " + std::to_string(count) + " elements of " +
                      std::to_string(elem_size) + " bytes do not fit in the address space (over " +
                      std::to_string(max) + " bytes)");
  return (count * elem_size + 255) / 256 * 256;
}

void release_buffer_info(BufferInfo* info) noexcept {
  info->count = 0;  // every later subscript through an old global_ptr is out of range...
  info->freed = true;  // ...and reported as use after free
  Graveyard& g = graveyard();
  std::lock_guard<std::mutex> lock(g.mu);
  try {
    g.retired.push_back(info);
  } catch (...) {
    // Out of memory for the list: the object is kept anyway (never deleted).
  }
}

}  // namespace tgsim::detail
