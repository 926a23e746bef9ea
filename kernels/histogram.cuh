// A 256-bin histogram of bytes: each group counts its grid-stride share into shared-memory bins
// with shared atomics, then merges its bins into the global histogram with global atomics.
#pragma once
#include <tgsim/cuda.hpp>

TG_KERNEL void histogram256(TG_GLOBAL(const unsigned char) data, int n, TG_GLOBAL(unsigned) hist) {
  TG_SHARED(unsigned, bins, [256]);
  unsigned tid = threadIdx.x;
  bins[tid] = 0;  // blockDim.x == 256
  __syncthreads();
  TG_NO_UNROLL
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
    unsigned char b = data[i];
    atomicAdd(&bins[b], 1u);
  }
  __syncthreads();
  unsigned count = bins[tid];
  if (count) atomicAdd(&hist[tid], count);
}
