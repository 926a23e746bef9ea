// ThreadCtx: one simulated GPU thread, the explicit API every dialect maps onto.
// Each ThreadCtx runs as a fiber of its threadgroup; `this_thread()` returns the thread
// whose fiber is running on this worker (set by the group's scheduler on every resume).
// barrier() is the threadgroup barrier (__syncthreads / threadgroup_barrier); syncwarp()
// is the warp-scoped one (__syncwarp): a rendezvous of the lanes named in the mask.
#pragma once
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <stdexcept>

#include <tgsim/dim.hpp>
#include <tgsim/record.hpp>

namespace tgsim {

class ThreadCtx;
template <class T> class shared_array;

namespace detail {
class GroupRun;
extern constinit thread_local ThreadCtx* current;
[[noreturn]] void no_current_thread();
}  // namespace detail

class ThreadCtx {
 public:
  Dim3 thread_idx;  // threadIdx / thread_position_in_threadgroup
  Dim3 block_idx;   // blockIdx / threadgroup_position_in_grid
  Dim3 block_dim;   // blockDim / threads_per_threadgroup
  Dim3 grid_dim;    // gridDim (in threadgroups)
  std::uint32_t linear_tid = 0;  // x-fastest index inside the group
  std::uint32_t warp = 0;        // linear_tid / 32
  std::uint32_t lane = 0;        // linear_tid % 32

  // thread_position_in_grid: block_idx * block_dim + thread_idx.
  Dim3 thread_id() const {
    return Dim3(block_idx.x * block_dim.x + thread_idx.x, block_idx.y * block_dim.y + thread_idx.y,
                block_idx.z * block_dim.z + thread_idx.z);
  }
  Dim3 group_id() const { return block_idx; }

  // Threadgroup barrier: waits until every thread of the group arrives. A thread that
  // exits or waits elsewhere meanwhile is a barrier-divergence finding, never a hang.
  void barrier(std::source_location loc = std::source_location::current());

  // __syncwarp(mask): the lanes of this thread's warp named in `mask` wait for each other
  // (lanes that exited are not waited for: a finding). Orders their memory accesses for the
  // checker. The caller's own lane always takes part.
  void syncwarp(std::uint32_t mask = 0xFFFFFFFFu,
                std::source_location loc = std::source_location::current());

  // The group's shared array declared at `loc` (one object per group, any rank: float[16][17]).
  template <class T>
  shared_array<T> shared(const char* name = "shared",
                         std::source_location loc = std::source_location::current());

  detail::GroupRun* group_ = nullptr;  // internal: the threadgroup this thread belongs to
  detail::LaneBuf* log_ = nullptr;     // internal: this thread's lane log (record.hpp)
  const detail::TagSlot* tags_ = nullptr;  // internal: the worker's tag cache (record.hpp)
  bool checking_ = false;                  // internal: the checker sees every access
  std::byte* shared_base_ = nullptr;       // internal: the group's shared arena
  Dim3 grid_origin_{0, 0, 0};              // internal: first thread of a Metal grid
  Dim3 grid_threads_{0, 0, 0};             // internal: Metal threads per grid (0: whole grid)
  std::byte* dynamic_shared_ = nullptr;    // internal: where the kernel's extern __shared__ starts
  std::uint64_t clock_ = 0;                // internal: clock()/clock64() reads so far in this block
};
// Kernels compiled by tgsim's front end read these fields at fixed offsets
// (tgsim/kernel/abi.h); sim/src/frontend/bridge.cpp checks the layout.

inline ThreadCtx& this_thread() {
  ThreadCtx* t = detail::current;
  if (!t) detail::no_current_thread();
  return *t;
}

inline void barrier(std::source_location loc = std::source_location::current()) {
  this_thread().barrier(loc);
}

inline void syncwarp(std::uint32_t mask = 0xFFFFFFFFu,
                     std::source_location loc = std::source_location::current()) {
  this_thread().syncwarp(mask, loc);
}

}  // namespace tgsim
