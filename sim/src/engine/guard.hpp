// Fiber stack overflow: every fiber stack (group.cpp, StackPool) has a PROT_NONE guard region
// below it. A SIGSEGV handler, on an alternate signal stack of each worker thread, recognises
// a fault inside a guard region of that worker, prints which simulated thread of which block
// overflowed its stack, and ends the process with kStackOverflowExitStatus (errors.hpp). Any
// other fault goes on to the handler that was installed before (the default: a core dump; or
// a sanitizer's). Recovery is not attempted: the fiber's frames cannot be unwound safely.
//
// Wild accesses: a simulated thread's load or store at an address past every red zone
// (device_memory.cpp) into unmapped memory faults too. While a fiber runs, the handler maps a
// zero page there (MAP_FIXED_NOREPLACE, so nothing mapped is ever replaced) and returns: the
// access runs again, reads zeros or writes into that page, and the warp instruction is placed
// as usual, so it becomes an out-of-bounds finding with its source line (placement.cpp asks
// in_wild_page). The pages are unmapped when the last launch running ends. What cannot be
// mapped (the null page, an address the kernel refuses, a PROT_NONE or read-only mapping, more
// than kMaxWildPages pages) ends the process with kWildAccessExitStatus and a message naming
// the simulated thread, its block and the address.
#pragma once
#include <cstddef>
#include <cstdint>

#include <tgsim/internal/launch.hpp>  // set_fatal_errors_as_json

namespace tgsim::detail {

// Installs the process handler once and this thread's alternate signal stack (if it has none).
void install_stack_guard();
// set_fatal_errors_as_json(on): the two ends of the process above also as JSON (declared in
// the command's interface, tgsim/internal/launch.hpp).
// Registers / forgets the guard region [lo, lo + bytes) of a stack of `stack_bytes` on this thread.
void note_guard(void* lo, std::size_t bytes, std::size_t stack_bytes);
void forget_guard(void* lo);
void note_guard_once(void* lo, std::size_t bytes, std::size_t stack_bytes);
// Whether `addr` lies in one of this worker's fiber stacks (a thread's local memory).
bool in_worker_stack(std::uintptr_t addr);

// Wild pages: whether `addr` lies in a page the handler mapped for a wild access of a launch
// still running; and the launches' bracket (the last one to end unmaps the pages).
inline constexpr std::size_t kMaxWildPages = 4096;
bool in_wild_page(std::uintptr_t addr);
void begin_wild_launch();
void end_wild_launch() noexcept;
struct WildLaunch {
  WildLaunch() { begin_wild_launch(); }
  ~WildLaunch() { end_wild_launch(); }
  WildLaunch(const WildLaunch&) = delete;
  WildLaunch& operator=(const WildLaunch&) = delete;
};

}  // namespace tgsim::detail
