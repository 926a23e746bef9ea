// The library side of the kernel faults the pass guards (sim/pass/faults.cpp, abi.h): each is
// a finding at the pass's site, naming the thread and its block, and never a signal or a hang.
// A division fault lets the thread go on with the GPU's value; a failed assert or a trap ends
// the thread (the GPU ends the launch; tgsim runs the other threads to their end, so the report
// does not depend on the schedule) and the launch counts as failed (cudaErrorAssert,
// cudaErrorLaunchFailure: cuda_host.cpp); a loop over its budget ends the group, as the access
// watchdog does.
#include <algorithm>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tgsim/kernel/abi.h>

#include "frontend/bridge.hpp"
#include "engine/group.hpp"
#include "engine/group_internal.hpp"

using namespace tgsim;
using namespace tgsim::detail;

namespace {

ThreadCtx& running() {
  ThreadCtx* t = current;
  if (!t) no_current_thread();
  return *t;
}

}  // namespace

extern "C" {

void __tgsim_int_fault(const void* site, int what) {
  ThreadCtx& t = running();
  t.group_->add_finding(t, FindingKind::kIntegerDivision, loc_of(site),
                        std::string(what == 0 ? "integer division by zero" : "integer division of INT_MIN by -1") +
                            " (undefined in C++; the GPU gives an unspecified value and goes on: "
                            "tgsim gives " +
                            (what == 0 ? "all ones for x / 0 and x for x % 0" : "INT_MIN, and 0 for the remainder") +
                            ")");
}

// An inner dimension's index outside its dimension (the pass checks the subscripts: dims.cpp).
// An element past the whole array is the runtime's to report (it checks every access against
// the array's extent); one inside it is reported here, and the access goes on.
void __tgsim_index_out_of_range(const void* site, const char* name, const char* shape, unsigned dim,
                                unsigned rank, ...) {
  ThreadCtx& t = running();
  std::vector<long long> extents;  // from the shape "[32][33]"
  for (const char* p = shape; (p = std::strchr(p, '[')) != nullptr; ++p) extents.push_back(std::atoll(p + 1));
  std::va_list ap;
  va_start(ap, rank);
  long long all = 1;  // elements of the whole array
  for (long long e : extents) all *= std::max(e, 1LL);
  std::string at = name;
  long long index = 0, element = 0, stride = all;  // element: where the indices given so far lead
  for (unsigned d = 0; d < rank; ++d) {
    const long long i = va_arg(ap, long long);
    at += "[" + std::to_string(i) + "]";
    if (d == dim) index = i;
    stride /= d < extents.size() ? std::max(extents[d], 1LL) : 1;
    element += i * stride;
  }
  va_end(ap);
  // An extern array ([0][33]: sized at launch) has no whole extent here.
  if (element < 0 || (!extents.empty() && extents[0] > 0 && element >= all)) return;
  t.group_->add_finding(t, FindingKind::kOutOfBounds, loc_of(site),
                        "shared index " + std::to_string(index) + " in dimension " + std::to_string(dim + 1) +
                            " of '" + name + shape + "' is outside [0, " +
                            std::to_string(dim < extents.size() ? extents[dim] : 0) + "): " + at +
                            " (inside the array's memory, so the access went on)");
}

void __tgsim_assert_fail(const void* site, const char* expr, const char*, unsigned, const char* function) {
  ThreadCtx& t = running();
  t.group_->add_finding(t, FindingKind::kAssert, loc_of(site),
                        "Assertion `" + std::string(expr ? expr : "") + "` failed in " +
                            (function ? function : "?") +
                            "; the thread ended and the launch failed (cudaErrorAssert on the GPU)");
  throw AbortGroup{};  // ends this thread only (GroupRun::thread_main)
}

void __tgsim_trap(const void* site, int what) {
  static const char* const names[] = {
      "__trap()", "asm(\"trap;\")", "__brkpt()", "abort()", "__builtin_trap()", "__builtin_debugtrap()",
      // (6: an `unreachable` of the optimiser, sim/pass/faults.cpp)
      "undefined behaviour the compiler found on this path (a store or load through a null "
      "pointer, an access past the end of a local array, a non-void function without a return, "
      "__builtin_unreachable()) and deleted, leaving an `unreachable` that the GPU executes as a trap"};
  ThreadCtx& t = running();
  t.group_->add_finding(t, FindingKind::kTrap, loc_of(site),
                        std::string(names[what >= 0 && what < 7 ? what : 0]) +
                            "; the thread ended and the launch failed (cudaErrorLaunchFailure on the GPU)");
  throw AbortGroup{};
}

void __tgsim_constant_store(const void* site, const char* name) {
  ThreadCtx& t = running();
  t.group_->add_finding(t, FindingKind::kConstantWrite, loc_of(site),
                        std::string("store to __constant__ '") + (name ? name : "?") + "'" +
                            ": __constant__ data is read-only in kernels; nvcc makes the store a trap, "
                            "so the thread ended and the launch failed (cudaErrorLaunchFailure on the GPU)");
  throw AbortGroup{};
}

// A Metal texture read or written at coordinates outside it (metal/metal_texture): undefined
// in Metal; the read gave 0, the write was skipped, and the thread goes on.
void __tgsim_texture_out_of_range(const void* site, const char* name, int write, long long x, long long y,
                                  long long z, int width, int height, int depth) {
  ThreadCtx& t = running();
  t.group_->add_finding(t, FindingKind::kOutOfBounds, loc_of(site),
                        std::string(write ? "texture write" : "texture read") + " of '" + (name ? name : "?") +
                            "' at (" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) +
                            ") outside its " + std::to_string(width) + "x" + std::to_string(height) + "x" +
                            std::to_string(depth) + " texels: undefined in Metal (tgsim " +
                            (write ? "skipped the write" : "returned 0") + ")");
}

// A local array (the thread's stack) accessed outside its bytes: the GPU would read or write
// other local memory of the thread and go on; on the CPU that memory is tgsim's own stack.
void __tgsim_local_out_of_bounds(const void* site, const char* name, long long offset, unsigned long long bytes,
                                 unsigned long long extent) {
  ThreadCtx& t = running();
  const std::string array = name && *name ? "local array '" + std::string(name) + "'" : std::string("a local array");
  const bool before = offset < 0;
  t.group_->add_finding(t, FindingKind::kOutOfBounds, loc_of(site),
                        "local access of " + std::to_string(bytes) + " bytes at byte offset " + std::to_string(offset) +
                            " of " + array + " (" + std::to_string(extent) + " bytes, on the thread's stack), " +
                            (before ? "before its start" : "past its end") +
                            ": a stack overrun (on the GPU it reads or writes other local memory of the thread and "
                            "goes on; memcheck sees it only outside the thread's local memory); tgsim ended the "
                            "thread rather than touch its own stack");
  throw AbortGroup{};
}

void __tgsim_loop_budget(const void* site, unsigned long long iterations) {
  ThreadCtx& t = running();
  t.group_->add_finding(t, FindingKind::kWatchdog, loc_of(site),
                        "thread " + t.thread_idx.str() + " (warp " + std::to_string(t.warp) + ", lane " +
                            std::to_string(t.lane) + ") ran " + std::to_string(iterations) +
                            " iterations of one loop without leaving it: a loop that never exits? "
                            "The group was ended");
  t.group_->end_group();
  throw AbortGroup{};
}

// memset (src null: `value`'s byte) or memmove of a length the compiler does not know: both
// ranges checked (GroupRun::memop_in_bounds), the bytes moved, and each range recorded as its
// naturally aligned pieces of at most 16 bytes (the loads before the move, the stores after it),
// as the pass records a memcpy of a known length.
void __tgsim_memop(const void* site, void* dst, const void* src, int value, unsigned long long n) {
  ThreadCtx& t = running();
  if (n == 0) return;
  const std::source_location loc = loc_of(site);
  const auto d = reinterpret_cast<std::uint64_t>(dst), s = reinterpret_cast<std::uint64_t>(src);
  const char* what = src ? "memcpy" : "memset";
  if ((src && !t.group_->memop_in_bounds(t, loc, "memcpy from", s, n)) ||
      !t.group_->memop_in_bounds(t, loc, what, d, n))
    throw AbortGroup{};  // ends this thread only
  auto pieces = [&](std::uint64_t a, AccessKind kind) {
    for (std::uint64_t at = a, end = a + n; at < end;) {
      std::uint32_t w = 16;
      while (w > 1 && ((at & (w - 1)) || at + w > end)) w >>= 1;
      if (kind == AccessKind::kStore) record_store(&t, loc, kind, at, w, reinterpret_cast<const void*>(at));
      else record_access(&t, loc, kind, at, w);
      at += w;
    }
  };
  if (src) {
    pieces(s, AccessKind::kLoad);
    std::memmove(dst, src, n);
  } else {
    std::memset(dst, value, n);
  }
  pieces(d, AccessKind::kStore);
}

}  // extern "C"
