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

#else

#include <tgsim/thread.hpp>
#include <tgsim/memory.hpp>

#define TG_KERNEL inline  // kernels live in headers included by several files
#define TG_DEVICE inline
#define TG_GLOBAL(T) ::tgsim::global_ptr<T>
#define TG_SHARED(T, name, dims) auto name = ::tgsim::shared<T dims>(#name)
#define TG_NO_UNROLL

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

inline constexpr int warpSize = 32;
using dim3 = ::tgsim::Dim3;

#endif
