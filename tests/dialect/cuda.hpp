// The proxy dialect of tgsim's own tests (no longer a public header: kernels are plain CUDA
// compiled by tgsim's front end, README "Quick start", docs/commands.md); the tests' kernels
// written in it over the explicit API stay.
// CUDA dialect: the words a CUDA kernel uses, for one source that builds with nvcc and with tgsim.
// Under nvcc (__CUDACC__) it only defines the few portable macros below and CUDA is itself.
// Under a host compiler it maps threadIdx, blockIdx, blockDim, gridDim, warpSize and
// __syncthreads() and __syncwarp(mask) onto tgsim's explicit API (tgsim/thread.hpp).
//
// Portable macros (the only words that differ between the two builds):
//   TG_KERNEL                 __global__ (kernel qualifier)
//   TG_DEVICE                 __device__ (helper called from a kernel)
//   TG_GLOBAL(T)              T* under nvcc, tgsim::global_ptr<T> under tgsim
//   TG_SHARED(T, name, dims)  __shared__ T name dims;  e.g. TG_SHARED(float, tile, [16][17])
//   TG_NO_UNROLL              #pragma unroll 1 under nvcc (one SASS instruction per access)
#pragma once

#if defined(__CUDACC__)

#define TG_KERNEL __global__
#define TG_DEVICE __device__ __forceinline__
#define TG_GLOBAL(T) T*
#define TG_SHARED(T, name, dims) __shared__ T name dims
#define TG_NO_UNROLL _Pragma("unroll 1")
#define TG_CONSTANT(T, name, dims) __constant__ T name dims

#else

#include <tgsim/atomic.hpp>
#include <tgsim/constant.hpp>
#include <tgsim/memory.hpp>
#include <tgsim/thread.hpp>
#include <tgsim/warp.hpp>

#define TG_KERNEL inline  // kernels live in headers included by several files
#define TG_DEVICE inline
#define TG_GLOBAL(T) ::tgsim::global_ptr<T>
#define TG_SHARED(T, name, dims) auto name = ::tgsim::shared<T dims>(#name)
#define TG_NO_UNROLL
#define TG_CONSTANT(T, name, dims) inline ::tgsim::constant_array<T dims> name{#name}

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define threadIdx (::tgsim::this_thread().thread_idx)
#define blockIdx (::tgsim::this_thread().block_idx)
#define blockDim (::tgsim::this_thread().block_dim)
#define gridDim (::tgsim::this_thread().grid_dim)
#define __syncthreads() ::tgsim::barrier()

inline void __syncwarp(unsigned mask = 0xFFFFFFFFu,
                       std::source_location loc = std::source_location::current()) {
  ::tgsim::syncwarp(mask, loc);
}

// Warp intrinsics (tgsim/warp.hpp); `width` defaults to the warp.
#define TGSIM_LOC std::source_location loc = std::source_location::current()
template <class T> T __shfl_sync(unsigned mask, T v, int src, int width = 32, TGSIM_LOC) {
  return ::tgsim::shfl_sync(mask, v, src, width, loc);
}
template <class T> T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = 32, TGSIM_LOC) {
  return ::tgsim::shfl_up_sync(mask, v, d, width, loc);
}
template <class T> T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = 32, TGSIM_LOC) {
  return ::tgsim::shfl_down_sync(mask, v, d, width, loc);
}
template <class T> T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32, TGSIM_LOC) {
  return ::tgsim::shfl_xor_sync(mask, v, lane_mask, width, loc);
}
inline unsigned __ballot_sync(unsigned mask, int pred, TGSIM_LOC) { return ::tgsim::ballot_sync(mask, pred, loc); }
inline int __any_sync(unsigned mask, int pred, TGSIM_LOC) { return ::tgsim::any_sync(mask, pred, loc); }
inline int __all_sync(unsigned mask, int pred, TGSIM_LOC) { return ::tgsim::all_sync(mask, pred, loc); }
inline unsigned __activemask(TGSIM_LOC) { return ::tgsim::activemask(loc); }

// Atomics on &buffer[i] or &shared[i] (tgsim/atomic.hpp); the operand converts to the element type.
template <class A>
using tgsim_elem = std::remove_cvref_t<decltype(*std::declval<A>().p)>;
template <class A, class T> auto atomicAdd(A a, T v, TGSIM_LOC) { return ::tgsim::atomic_add(a, tgsim_elem<A>(v), loc); }
template <class A, class T> auto atomicSub(A a, T v, TGSIM_LOC) { return ::tgsim::atomic_sub(a, tgsim_elem<A>(v), loc); }
template <class A, class T> auto atomicMax(A a, T v, TGSIM_LOC) { return ::tgsim::atomic_max(a, tgsim_elem<A>(v), loc); }
template <class A, class T> auto atomicMin(A a, T v, TGSIM_LOC) { return ::tgsim::atomic_min(a, tgsim_elem<A>(v), loc); }
template <class A, class T> auto atomicExch(A a, T v, TGSIM_LOC) { return ::tgsim::atomic_exch(a, tgsim_elem<A>(v), loc); }
template <class A, class T> auto atomicCAS(A a, T compare, T v, TGSIM_LOC) {
  return ::tgsim::atomic_cas(a, tgsim_elem<A>(compare), tgsim_elem<A>(v), loc);
}
#undef TGSIM_LOC

inline constexpr int warpSize = 32;
using dim3 = ::tgsim::Dim3;

#endif
