// Sum reductions of 256-element blocks, the classic three steps:
//  interleaved: s[2*stride*tid] += s[2*stride*tid + stride] (lanes 2*stride words apart: conflicts)
//  sequential:  s[tid] += s[tid + stride] (consecutive words: conflict-free)
//  shuffle:     __shfl_down_sync inside each warp, one shared word per warp, warp 0 finishes.
#include "kernels.hpp"

__global__ void reduce_interleaved(const int* in, int* out) {
  __shared__ int sdata[REDUCE_BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  #pragma unroll 1
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void reduce_sequential(const int* in, int* out) {
  __shared__ int sdata[REDUCE_BLOCK];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  #pragma unroll 1
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void reduce_shuffle(const int* in, int* out) {
  __shared__ int warp_sum[32];
  unsigned tid = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + tid];
  #pragma unroll 1
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  if (tid % warpSize == 0) warp_sum[tid / warpSize] = v;
  __syncthreads();
  if (tid < warpSize) {
    int w = tid < blockDim.x / warpSize ? warp_sum[tid] : 0;
    #pragma unroll 1
    for (int offset = warpSize / 2; offset > 0; offset >>= 1) w += __shfl_down_sync(0xffffffff, w, offset);
    if (tid == 0) out[blockIdx.x] = w;
  }
}
