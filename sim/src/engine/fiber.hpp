// Fiber: the execution context of one simulated thread, or the record of a context that is not
// a fiber (the scheduler on the worker's own stack). jump() switches from the running context
// to any suspended or not yet started one, so a thread can hand the CPU straight to the next
// thread (GroupRun::switch_out) instead of through the scheduler. Stacks come from a
// per-worker pool with a guard region below each (guard.cpp), reused last-freed first so a
// barrier-free kernel runs every thread on one warm stack. The body must not throw
// (GroupRun's catches everything); when it returns, the fiber's stack goes back to the pool
// and the context named at prepare() (the scheduler) continues; the next jump() to it starts
// the body again. A fiber destroyed while suspended gives its stack back without unwinding
// its frames (GroupRun unwinds every thread before a group ends, also when run() throws).
//
// The switch (x86-64): tgsim_fiber_switch (fiber.cpp, 16 instructions) pushes the six
// callee-saved registers, stores the stack pointer in the record of the context that leaves
// and pops the other context's registers; a suspended fiber's record is its stack pointer,
// which prefetch() also uses. The SSE and x87 control words are not switched (simulated
// threads do not change them). No boost::context::fiber object is moved and no thread_local
// is read. Elsewhere (or with TGSIM_FIBER_FCONTEXT) Boost.Context's jump_fcontext does the
// switch with the same protocol plus one store: the context that continues stores the
// jumper's suspended context in the record the jumper passed (null when a body ended).
// The sanitizer build (BOOST_USE_UCONTEXT, boost_ucontext.cpp) switches through
// boost::context::fiber instead, whose ucontext back end tells AddressSanitizer about each
// stack switch; the interface is the same.
// Measured (callgrind, matmul_tiled16 at n = 128, counting off): a thread's arrival at a
// barrier, from __tgsim_barrier to the next thread running, is about 98 instructions (the
// prefetches 17, the switch 16), with the release and the scheduler's share about 114;
// through boost::context::fiber and the former bookkeeping it was about 218. The prefetch of
// the next-but-one fiber's stack (GroupRun::switch_out) pays: without it the engine ran
// slower in each of three back-to-back bench runs.
#pragma once
#include <cstddef>
#include <vector>

#if defined(BOOST_USE_UCONTEXT)
#include <boost/context/fiber.hpp>
#elif defined(__x86_64__) && !defined(TGSIM_FIBER_FCONTEXT)
#define TGSIM_FIBER_SWITCH 1
#else
#include <boost/context/detail/fcontext.hpp>
#endif

#if defined(TGSIM_FIBER_SWITCH)
// fiber.cpp: pushes the callee-saved registers, stores the stack pointer in *save, continues
// the context whose stack pointer is `to`.
extern "C" void tgsim_fiber_switch(void** save, void* to);
#endif

namespace tgsim::detail {

// A pooled stack of `bytes` for this worker (its top, 16-byte aligned), and its return.
void* take_stack(std::size_t bytes);
void give_stack(void* top, std::size_t bytes) noexcept;
// A pooled stack that another thread took (a parked group resumed here): this thread's guard
// table learns it (guard.hpp: its overflow and its locals are known here too).
void adopt_stack(void* top, std::size_t bytes);

class Fiber {
 public:
  using Body = void (*)(void* arg);

  Fiber() = default;
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;
  ~Fiber();

  // What the fiber runs on its first jump(): body(arg) on a pooled stack of `stack_bytes`;
  // when body returns the stack goes back to the pool and `exit_to` continues.
  void prepare(std::size_t stack_bytes, Body body, void* arg, Fiber* exit_to) {
    stack_bytes_ = stack_bytes, body_ = body, arg_ = arg, exit_to_ = exit_to;
  }
  // A cooperative launch's groups take turns on one set of stacks (cooperative.cpp): this fiber
  // always runs on the stack whose top is `top` (from take_stack, owned by the caller), and
  // park() copies a suspended fiber's frames out so that another group's thread may use the
  // stack until unpark() copies them back to the same addresses. Without the x86-64 switch
  // (the sanitizer and Boost.Context builds) the fiber keeps a pooled stack of its own and
  // park/unpark do nothing.
#if defined(TGSIM_FIBER_SWITCH)
  void use_stack(void* top) { fixed_ = top; }
  void adopt() const {
    if (ctx_ && stack_ && !fixed_) adopt_stack(stack_, stack_bytes_);
  }
  void park(std::vector<unsigned char>& out) const;
  void unpark(const std::vector<unsigned char>& in) const;
#else
  void use_stack(void*) {}
#if defined(BOOST_USE_UCONTEXT)
  void adopt() const {}  // (the sanitizer build: boost::context::fiber keeps the stack)
#else
  void adopt() const {
    if (ctx_ && stack_) adopt_stack(stack_, stack_bytes_);
  }
#endif
  void park(std::vector<unsigned char>& out) const { out.clear(); }
  void unpark(const std::vector<unsigned char>&) const {}
#endif
  // From the running context, whose record is `from`, to `to` (started on its first jump);
  // returns when some context jumps back to `from`.
#if defined(BOOST_USE_UCONTEXT)
  static void jump(Fiber& from, Fiber& to);
  bool started() const { return static_cast<bool>(fiber_); }
  void prefetch() const {}
#else
#if defined(TGSIM_FIBER_SWITCH)
  static void jump(Fiber& from, Fiber& to) {
    if (!to.ctx_) [[unlikely]] to.start();
    tgsim_fiber_switch(&from.ctx_, to.ctx_);
  }
#else
  static void jump(Fiber& from, Fiber& to) {
    void* data = &from;
    if (!to.ctx_) [[unlikely]] data = to.start(from);
    const boost::context::detail::transfer_t t = boost::context::detail::jump_fcontext(to.ctx_, data);
    if (t.data) [[likely]] static_cast<Fiber*>(t.data)->ctx_ = t.fctx;
  }
#endif
  // Suspended at a jump() (not running, not finished, not yet started). (While the fiber
  // runs, ctx_ keeps its last suspended context; nobody asks then.)
  bool started() const { return ctx_ != nullptr; }
  // Asks the cache for the lines around where the suspended fiber's stack pointer stood.
  void prefetch() const {
    const char* sp = static_cast<const char*>(ctx_);
    if (!sp) return;
    for (int off = -256; off < 512; off += 64) __builtin_prefetch(sp + off, 1, 3);
  }
#endif

 private:
  Body body_ = nullptr;
  void* arg_ = nullptr;
  std::size_t stack_bytes_ = 0;
  Fiber* exit_to_ = nullptr;
#if defined(BOOST_USE_UCONTEXT)
  static void land(boost::context::fiber&& back);
  boost::context::fiber fiber_;  // this context while suspended
  bool finished_ = false;  // the body returned (whoever continues releases the record)
#elif defined(TGSIM_FIBER_SWITCH)
  void start();  // a stack and a fresh context whose first switch runs entry()
  [[noreturn]] static void entry(Fiber* self);
  void* ctx_ = nullptr;  // this context's stack pointer while suspended
  void* stack_ = nullptr;  // the top of the pooled stack while the body has not returned
  void* fixed_ = nullptr;  // use_stack's top, or null: a pooled stack
#else
  void* start(Fiber& from);  // a stack and a fresh context for to; returns jump's data
  [[noreturn]] static void entry(boost::context::detail::transfer_t t);
  boost::context::detail::fcontext_t ctx_ = nullptr;  // this context while suspended
  void* stack_ = nullptr;     // the top of the pooled stack while the body has not returned
  Fiber* starter_ = nullptr;  // who jumped to the fresh context (its record takes the landing)
#endif
};

}  // namespace tgsim::detail
