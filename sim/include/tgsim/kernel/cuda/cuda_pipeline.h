// <cuda_pipeline.h>'s primitives for tgsim's front end: __pipeline_memcpy_async(dst, src, size
// [, zfill]) is done at issue (cuda/__tgsim_async.h: the source's loads and the destination's
// stores, counted; the last zfill bytes are zeros, not read); __pipeline_commit() and
// __pipeline_wait_prior(n) are the points that order it, here with nothing left to wait for.
#ifndef TGSIM_KERNEL_CUDA_PIPELINE_H
#define TGSIM_KERNEL_CUDA_PIPELINE_H

#include <cstddef>

#include "cuda/__tgsim_async.h"

__forceinline__ void __pipeline_memcpy_async(void* dst, const void* src, std::size_t size, std::size_t zfill = 0) {
  cuda::tgsim_detail::async_copy(dst, src, size - zfill);
  unsigned char* z = static_cast<unsigned char*>(dst) + (size - zfill);
  for (std::size_t i = 0; i < zfill; ++i) z[i] = 0;
}
__forceinline__ void __pipeline_commit() {}
__forceinline__ void __pipeline_wait_prior(std::size_t) {}
__forceinline__ void __pipeline_arrive_on(void*) {}

#endif
