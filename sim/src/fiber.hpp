// Fiber: the execution context of one simulated thread, a boost::context::fiber, or the
// record of a context that is not a fiber (the scheduler on the worker's own stack). jump()
// switches from the running context to any suspended or not yet started one, so a thread can
// hand the CPU straight to the next thread (GroupRun::switch_out) instead of through the
// scheduler. Stacks come from a per-worker pool with a guard region below each (guard.cpp),
// reused last-freed first so a barrier-free kernel runs every thread on one warm stack. The
// body must not throw (GroupRun's catches everything); when it returns, the fiber continues
// the context named at prepare() (the scheduler), and a fiber is not destroyed while suspended
// (GroupRun unwinds every thread before a group ends).
// Cost (perf, matmul_tiled16): a switch costs about as much as a cache miss on the resumed
// fiber's stack, so prefetch() asks for the next fiber's stack top while the current one runs
// (~15 % fewer samples of a tiled run). Boost's fcontext is used as is: it also saves MXCSR and
// the x87 control word, a few percent of a switch, and keeps one implementation for the
// sanitizer build's ucontext back end.
#pragma once
#include <cstddef>

#include <boost/context/fiber.hpp>

namespace tgsim::detail {

class Fiber {
 public:
  using Body = void (*)(void* arg);

  // What the fiber runs on its first jump(): body(arg) on a pooled stack of `stack_bytes`;
  // when body returns the stack goes back to the pool and `exit_to` continues.
  void prepare(std::size_t stack_bytes, Body body, void* arg, Fiber* exit_to) {
    stack_bytes_ = stack_bytes, body_ = body, arg_ = arg, exit_to_ = exit_to;
  }
  // From the running context, whose record is `from`, to `to` (started on its first jump);
  // returns when some context jumps back to `from`.
  static void jump(Fiber& from, Fiber& to);
  // Suspended at a jump() (not running, not finished, not yet started).
  bool started() const { return static_cast<bool>(fiber_); }
  // Asks the cache for the lines around where the suspended fiber's stack pointer stood.
  void prefetch() const {
    if (!hint_) return;
    for (int off = -256; off < 512; off += 64) __builtin_prefetch(hint_ + off, 1, 3);
  }

 private:
  static void land(boost::context::fiber&& back);
  boost::context::fiber fiber_;  // this context while suspended
  Body body_ = nullptr;
  void* arg_ = nullptr;
  std::size_t stack_bytes_ = 0;
  Fiber* exit_to_ = nullptr;
  bool finished_ = false;  // the body returned (whoever continues releases the record)
  const char* hint_ = nullptr;  // near the stack pointer at the last jump() away
};

}  // namespace tgsim::detail
