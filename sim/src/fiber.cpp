// Fiber (fiber.hpp) on boost::context::fiber, and the per-worker stack pool.
#include "fiber.hpp"
#include "guard.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <new>
#include <vector>

namespace tgsim::detail {

namespace {

// Stacks for fibers: mmap'd once per worker with a PROT_NONE guard region below, reused.
// The guard is 64 KiB (address space only), so a frame smaller than that cannot jump over it
// into a neighbouring mapping; guard.cpp turns a fault in it into a clear error. (tgsim's
// CMake also adds -fstack-clash-protection, which probes larger frames page by page.)
class StackPool {
 public:
  ~StackPool() {
    for (void* base : free_) unmap(base, size_);
  }
  boost::context::stack_context get(std::size_t size) {
    if (size != size_) {
      for (void* base : free_) unmap(base, size_);
      free_.clear();
      size_ = size;
    }
    void* base;
    if (!free_.empty()) {
      base = free_.back();
      free_.pop_back();
    } else {
      base = ::mmap(nullptr, size + guard(), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED) throw std::bad_alloc();
      ::mprotect(base, guard(), PROT_NONE);
      note_guard(base, guard(), size);
    }
    boost::context::stack_context sc;
    sc.size = size;
    sc.sp = static_cast<char*>(base) + guard() + size;
    return sc;
  }
  void put(boost::context::stack_context& sc) noexcept {
    void* base = static_cast<char*>(sc.sp) - sc.size - guard();
    if (sc.size == size_)
      free_.push_back(base);
    else
      unmap(base, sc.size);
  }

 private:
  static void unmap(void* base, std::size_t size) {
    forget_guard(base);
    ::munmap(base, size + guard());
  }
  static std::size_t guard() {
    static const std::size_t g = [] {
      std::size_t p = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
      return (64 * 1024 + p - 1) / p * p;
    }();
    return g;
  }
  std::vector<void*> free_;
  std::size_t size_ = 0;
};

thread_local StackPool stack_pool;

struct PooledStack {
  std::size_t size;
  boost::context::stack_context allocate() { return stack_pool.get(size); }
  void deallocate(boost::context::stack_context& sc) noexcept { stack_pool.put(sc); }
};

}  // namespace

void Fiber::resume(std::size_t stack_bytes, Body body, void* arg) {
  if (!fiber_) {
    body_ = body;
    arg_ = arg;
    fiber_ = boost::context::fiber(std::allocator_arg, PooledStack{stack_bytes},
                                   [this](boost::context::fiber&& back) {
                                     back_ = std::move(back);
                                     body_(arg_);
                                     finished_ = true;
                                     return std::move(back_);
                                   });
  }
  fiber_ = std::move(fiber_).resume();
  // A finished fiber's stack goes back to this worker's pool now. (fcontext already did so
  // and left fiber_ empty; the ucontext back end of the sanitizer build keeps the record
  // until the fiber object dies, which would otherwise be in ~GroupRun on the launching thread.)
  if (finished_) {
    fiber_ = boost::context::fiber();
    finished_ = false;
    hint_ = nullptr;
  }
}

void Fiber::suspend() {
  char here;
  hint_ = &here;
  back_ = std::move(back_).resume();
}

}  // namespace tgsim::detail
