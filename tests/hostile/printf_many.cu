// Kernels that print: a lot (streamed, in group order), and around a barrier (by interval).
#include <cstdio>

__global__ void many(int lines) {
  for (int i = 0; i < lines; ++i)
    printf("block %4d thread %3d line %3d of the printf stream\n", blockIdx.x, threadIdx.x, i);
}

__global__ void phases(int* out) {
  printf("block %d before the barrier: thread %d\n", blockIdx.x, threadIdx.x);
  __syncthreads();
  printf("block %d after the barrier: thread %d\n", blockIdx.x, threadIdx.x);
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
