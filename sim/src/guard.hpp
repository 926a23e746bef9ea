// Fiber stack overflow: every fiber stack (group.cpp, StackPool) has a PROT_NONE guard region
// below it. A SIGSEGV handler, on an alternate signal stack of each worker thread, recognises
// a fault inside a guard region of that worker, prints which simulated thread of which block
// overflowed its stack, and ends the process with kStackOverflowExitStatus (errors.hpp). Any
// other fault goes on to the handler that was installed before (the default: a core dump; or
// a sanitizer's). Recovery is not attempted: the fiber's frames cannot be unwound safely.
#pragma once
#include <cstddef>
#include <cstdint>

namespace tgsim::detail {

// Installs the process handler once and this thread's alternate signal stack (if it has none).
void install_stack_guard();
// Registers / forgets the guard region [lo, lo + bytes) of a stack of `stack_bytes` on this thread.
void note_guard(void* lo, std::size_t bytes, std::size_t stack_bytes);
void forget_guard(void* lo);
// Whether `addr` lies in one of this worker's fiber stacks (a thread's local memory).
bool in_worker_stack(std::uintptr_t addr);

}  // namespace tgsim::detail
