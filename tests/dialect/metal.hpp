// The proxy dialect of tgsim's own tests (no longer a public header; Metal files go through the
// front end). Metal dialect: Metal Shading Language words over tgsim's explicit API, for the Metal seeds.
// Metal passes ids as [[attribute]] parameters; here they are read from the running thread:
//   uint id = thread_position_in_grid;  uint2 pos = thread_position_in_grid;
//   TG_THREADGROUP(float, shared_data, [256]);          // threadgroup float shared_data[256];
//   threadgroup_barrier(mem_flags::mem_threadgroup);
//   device_ptr<const float> for `device const float*` parameters.
// Simplified: all barriers order both threadgroup and device memory (as the CUDA barrier).
#pragma once
#include <cstdint>
#include <source_location>

#include <tgsim/atomic.hpp>
#include <tgsim/memory.hpp>
#include <tgsim/thread.hpp>
#include <tgsim/warp.hpp>

namespace tgsim::metal {

using uint = unsigned int;
using ushort = unsigned short;
struct uint2 {
  uint x = 0, y = 0;
};
struct uint3 {
  uint x = 0, y = 0, z = 0;
};
// An id as Metal declares it: usable as uint (x), uint2 or uint3.
struct position {
  uint x, y, z;
  operator uint() const { return x; }
  operator uint2() const { return {x, y}; }
  operator uint3() const { return {x, y, z}; }
};
inline position to_position(const Dim3& d) { return {d.x, d.y, d.z}; }

enum class mem_flags { mem_none, mem_device, mem_threadgroup, mem_texture };

inline void threadgroup_barrier(mem_flags, std::source_location loc = std::source_location::current()) {
  this_thread().barrier(loc);
}

template <class T>
using device_ptr = global_ptr<T>;

// SIMD-group functions (tgsim/warp.hpp): all lanes of the SIMD group that have not exited.
template <class T> T simd_shuffle(T v, ushort lane, std::source_location loc = std::source_location::current()) {
  return shfl_sync(activemask(loc), v, lane, 32, loc);
}
template <class T> T simd_shuffle_down(T v, ushort delta, std::source_location loc = std::source_location::current()) {
  return shfl_down_sync(activemask(loc), v, delta, 32, loc);
}
template <class T> T simd_shuffle_up(T v, ushort delta, std::source_location loc = std::source_location::current()) {
  return shfl_up_sync(activemask(loc), v, delta, 32, loc);
}
template <class T> T simd_shuffle_xor(T v, ushort mask, std::source_location loc = std::source_location::current()) {
  return shfl_xor_sync(activemask(loc), v, mask, 32, loc);
}
inline std::uint64_t simd_ballot(bool pred, std::source_location loc = std::source_location::current()) {
  return ballot_sync(activemask(loc), pred, loc);
}
using ::tgsim::simd_max;
using ::tgsim::simd_sum;
inline void simdgroup_barrier(mem_flags, std::source_location loc = std::source_location::current()) {
  this_thread().syncwarp(activemask(loc), loc);
}

// device / threadgroup atomics: atomic_fetch_add_explicit(&bins[b], 1u, memory_order_relaxed).
enum memory_order { memory_order_relaxed };
using atomic_uint = unsigned int;
using atomic_int = int;
template <template <class> class A, class T, class V>
T atomic_fetch_add_explicit(A<T> a, V v, memory_order, std::source_location loc = std::source_location::current()) {
  return atomic_add(a, T(v), loc);
}

}  // namespace tgsim::metal

using tgsim::metal::atomic_fetch_add_explicit;
using tgsim::metal::atomic_int;
using tgsim::metal::atomic_uint;
using tgsim::metal::device_ptr;
using tgsim::metal::memory_order_relaxed;
using tgsim::metal::simd_ballot;
using tgsim::metal::simd_max;
using tgsim::metal::simd_shuffle;
using tgsim::metal::simd_shuffle_down;
using tgsim::metal::simd_shuffle_up;
using tgsim::metal::simd_shuffle_xor;
using tgsim::metal::simd_sum;
using tgsim::metal::simdgroup_barrier;
using tgsim::metal::mem_flags;
using tgsim::metal::threadgroup_barrier;
using tgsim::metal::uint2;
using tgsim::metal::uint3;
using uint = unsigned int;

#define thread_position_in_grid (::tgsim::metal::to_position(::tgsim::this_thread().thread_id()))
#define thread_position_in_threadgroup (::tgsim::metal::to_position(::tgsim::this_thread().thread_idx))
#define threadgroup_position_in_grid (::tgsim::metal::to_position(::tgsim::this_thread().block_idx))
#define threads_per_threadgroup (::tgsim::metal::to_position(::tgsim::this_thread().block_dim))
#define threadgroups_per_grid (::tgsim::metal::to_position(::tgsim::this_thread().grid_dim))
#define TG_THREADGROUP(T, name, dims) auto name = ::tgsim::shared<T dims>(#name)
