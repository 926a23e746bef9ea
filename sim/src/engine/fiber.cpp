// Fiber (fiber.hpp) on Boost.Context's fcontext functions (or, in the sanitizer build, on
// boost::context::fiber), and the per-worker stack pool (last freed, first reused).
#include "engine/fiber.hpp"
#include "engine/guard.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

namespace tgsim::detail {

namespace {

// Stacks for fibers: mmap'd once per worker with a PROT_NONE guard region below, reused.
// The guard is 64 KiB (address space only), so a frame smaller than that cannot jump over it
// into a neighbouring mapping; guard.cpp turns a fault in it into a clear error. (tgsim's
// CMake also adds -fstack-clash-protection, which probes larger frames page by page.)
// Every stack top sits at the same offset modulo 64 KiB. Offsetting the tops by different
// multiples of a few cache lines (so that the hot frames of a group's 256 stacks fall in
// different L2 sets) removed the L2 misses in callgrind's cache model but measured no faster
// (tgsim bench, engine row, ABAB runs); the prefetch in switch_out covers them.
class StackPool {

 public:
  ~StackPool() {
    for (void* base : free_) unmap(base, size_);
  }
  void* get(std::size_t size) {
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
    return static_cast<char*>(base) + guard() + size;
  }
  // (The stack may be the one running now, whose fiber ends: it is never unmapped here. A pool
  // of another size gives its idle stacks back first; a pool not used yet takes this size.)
  void put(void* top, std::size_t size) noexcept {
    void* base = static_cast<char*>(top) - size - guard();
    if (size != size_) [[unlikely]] take_size(size);
    free_.push_back(base);
  }
  static std::size_t guard_bytes() { return guard(); }

 private:
  [[gnu::noinline, gnu::cold]] void take_size(std::size_t size) noexcept {
    for (void* b : free_) unmap(b, size_);
    free_.clear();
    size_ = size;
  }

 public:

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

}  // namespace

void* take_stack(std::size_t bytes) { return stack_pool.get(bytes); }
void adopt_stack(void* top, std::size_t bytes) {
  const std::size_t g = StackPool::guard_bytes();
  note_guard_once(static_cast<char*>(top) - bytes - g, g, bytes);
}
void give_stack(void* top, std::size_t bytes) noexcept { stack_pool.put(top, bytes); }

#if defined(TGSIM_FIBER_SWITCH)

// The switch: the six callee-saved general registers go on the running stack, its stack
// pointer into *save (rdi), and the other context's registers come off its stack (rsi). The
// SSE and x87 control words are not switched: simulated threads do not change them. A fresh
// context (start()) returns into tgsim_fiber_trampoline with the fiber in rbx and entry() in
// r12; its return address is marked undefined so that an unwinder stops there.
asm(R"(
  .pushsection .text
  .globl tgsim_fiber_switch
  .type tgsim_fiber_switch, @function
  .p2align 4
tgsim_fiber_switch:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size tgsim_fiber_switch, .-tgsim_fiber_switch

  .type tgsim_fiber_trampoline, @function
  .p2align 4
tgsim_fiber_trampoline:
  .cfi_startproc
  .cfi_undefined rip
  movq %rbx, %rdi
  callq *%r12
  ud2
  .cfi_endproc
  .size tgsim_fiber_trampoline, .-tgsim_fiber_trampoline
  .popsection
)");
extern "C" void tgsim_fiber_trampoline();

Fiber::~Fiber() {
  if (ctx_ && stack_ && !fixed_) give_stack(stack_, stack_bytes_);  // suspended: its frames are abandoned
}

// A suspended fiber's frames: from its stack pointer (the registers tgsim_fiber_switch pushed
// included) to the top. Nothing below the stack pointer is live while it is suspended.
void Fiber::park(std::vector<unsigned char>& out) const {
  if (!ctx_ || !stack_) return out.clear();
  out.assign(static_cast<const unsigned char*>(ctx_), static_cast<const unsigned char*>(stack_));
}

void Fiber::unpark(const std::vector<unsigned char>& in) const {
  if (ctx_ && stack_ && !in.empty()) std::memcpy(static_cast<unsigned char*>(stack_) - in.size(), in.data(), in.size());
}

// The fresh stack holds what tgsim_fiber_switch pops (r15, r14, r13, r12 = entry, rbx = this,
// rbp) and the trampoline as its return address, placed so that the trampoline's call finds
// the stack 16-byte aligned.
void Fiber::start() {
  stack_ = fixed_ ? fixed_ : take_stack(stack_bytes_);
  const std::uintptr_t top = reinterpret_cast<std::uintptr_t>(stack_) & ~std::uintptr_t(15);
  void** sp = reinterpret_cast<void**>(top - 72);
  sp[0] = sp[1] = sp[2] = nullptr;
  sp[3] = reinterpret_cast<void*>(&Fiber::entry);
  sp[4] = this;
  sp[5] = nullptr;
  sp[6] = reinterpret_cast<void*>(&tgsim_fiber_trampoline);
  ctx_ = sp;
}

// The body on the fresh stack. When it returns, the stack goes back to the pool before the
// last switch away from it: nothing takes a stack between the two.
void Fiber::entry(Fiber* self) {
  self->body_(self->arg_);
  if (!self->fixed_) give_stack(self->stack_, self->stack_bytes_);
  self->stack_ = nullptr;
  self->ctx_ = nullptr;
  void* dead;
  tgsim_fiber_switch(&dead, self->exit_to_->ctx_);
  __builtin_unreachable();
}

#elif !defined(BOOST_USE_UCONTEXT)

namespace ctx = boost::context::detail;

Fiber::~Fiber() {
  if (ctx_ && stack_) give_stack(stack_, stack_bytes_);  // suspended: its frames are abandoned
}

void* Fiber::start(Fiber& from) {
  stack_ = take_stack(stack_bytes_);
  ctx_ = ctx::make_fcontext(stack_, stack_bytes_, &Fiber::entry);
  starter_ = &from;
  return this;
}

// The first code on a fresh context: `t.data` is the fiber itself (start()), the starter's
// record takes its suspended context. When the body returns, the stack goes back to the pool
// before the last jump away from it: nothing takes a stack between the two.
void Fiber::entry(ctx::transfer_t t) {
  Fiber* self = static_cast<Fiber*>(t.data);
  self->starter_->ctx_ = t.fctx;
  self->body_(self->arg_);
  give_stack(self->stack_, self->stack_bytes_);
  self->stack_ = nullptr;
  self->ctx_ = nullptr;
  ctx::jump_fcontext(self->exit_to_->ctx_, nullptr);
  __builtin_unreachable();
}

#else  // the sanitizer build: boost::context::fiber with its ucontext back end

namespace {

struct PooledStack {
  std::size_t size;
  boost::context::stack_context allocate() {
    boost::context::stack_context sc;
    sc.size = size;
    sc.sp = take_stack(size);
    return sc;
  }
  void deallocate(boost::context::stack_context& sc) noexcept { give_stack(sc.sp, sc.size); }
};

// The context that jumped away last: the one whose continuation the resumed side stores.
thread_local Fiber* leaving = nullptr;

}  // namespace

Fiber::~Fiber() = default;

// Runs first in every context that continues after a switch: `back` is the context that
// switched to it (a finished record with the ucontext back end, when it returned).
void Fiber::land(boost::context::fiber&& back) {
  Fiber* f = leaving;
  f->fiber_ = std::move(back);
  // A finished fiber's stack goes back to this worker's pool now (the ucontext back end keeps
  // the record until the fiber object dies, which would otherwise be in ~GroupRun on the
  // launching thread).
  if (f->finished_) {
    f->fiber_ = boost::context::fiber();
    f->finished_ = false;
  }
}

void Fiber::jump(Fiber& from, Fiber& to) {
  if (!to.fiber_) {
    Fiber* self = &to;
    to.fiber_ = boost::context::fiber(std::allocator_arg, PooledStack{to.stack_bytes_},
                                      [self](boost::context::fiber&& back) {
                                        land(std::move(back));
                                        self->body_(self->arg_);
                                        self->finished_ = true;
                                        leaving = self;
                                        return std::move(self->exit_to_->fiber_);
                                      });
  }
  leaving = &from;
  land(std::move(to.fiber_).resume());
}

#endif

}  // namespace tgsim::detail
