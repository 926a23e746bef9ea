// Fiber: the execution context of one simulated thread, a boost::context::fiber. resume()
// runs it until it calls suspend() or its body returns; stacks come from a per-worker pool
// with a guard region below each (guard.cpp). The body must not throw (GroupRun's catches
// everything), and a fiber is not destroyed while suspended (GroupRun unwinds every thread
// before a group ends).
// Measured (perf, matmul_tiled16): a switch costs about as much as a cache miss on the resumed
// fiber's stack; a 6-register switch of our own instead of fcontext (which also saves MXCSR and
// the x87 control word) gained only 3-5 % and was not kept, nor was giving the 256 stacks
// different cache colours (no change). What helps is prefetch(): the scheduler asks for the
// next fiber's stack top while the current one runs (~15 % fewer samples of a tiled run).
#pragma once
#include <cstddef>

#include <boost/context/fiber.hpp>

namespace tgsim::detail {

class Fiber {
 public:
  using Body = void (*)(void* arg);

  // Starts body(arg) on a pooled stack of `stack_bytes` (first call) or continues the fiber;
  // returns when it suspends or finishes (then its stack is back in the pool).
  void resume(std::size_t stack_bytes, Body body, void* arg);
  void suspend();  // on the fiber: back to the resume() that ran it
  bool started() const { return static_cast<bool>(fiber_); }
  // Asks the cache for the lines around where the suspended fiber's stack pointer stood.
  void prefetch() const {
    if (!hint_) return;
    for (int off = -256; off < 512; off += 64) __builtin_prefetch(hint_ + off, 1, 3);
  }

 private:
  boost::context::fiber fiber_;  // the suspended fiber (held by the resumer)
  boost::context::fiber back_;   // the resumer (held by the running fiber)
  Body body_ = nullptr;
  void* arg_ = nullptr;
  bool finished_ = false;  // the body returned (the resumer releases the record)
  const char* hint_ = nullptr;  // near the stack pointer at the last suspend()
};

}  // namespace tgsim::detail
