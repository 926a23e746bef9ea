// The device heap as a CUDA program uses it: blocks malloc'd in one launch are read and freed in
// the next, cudaDeviceSetLimit(cudaLimitMallocHeapSize) bounds the heap (malloc returns NULL past
// it, as on the GPU), and a second free is a finding. Each CHECK compares with an exact value.
#include <cstdio>

#include "exact_checks.h"

__device__ int* blocks[64];

__global__ void make(int n) {
  int* p = static_cast<int*>(malloc(n * sizeof(int)));
  blocks[threadIdx.x] = p;
  if (p)
    for (int i = 0; i < n; ++i) p[i] = threadIdx.x * 100 + i;
}

__global__ void read_and_free(int* out, int n) {
  int* p = blocks[threadIdx.x];
  out[threadIdx.x] = p ? p[n - 1] : -1;
  free(p);
}

__global__ void free_again() { free(blocks[0]); }

int main() {
  int* out;
  cudaMallocManaged(&out, 64 * sizeof(int));
  make<<<1, 64>>>(10);
  read_and_free<<<1, 64>>>(out, 10);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(out[0] == 9 && out[63] == 6309);
  size_t limit = 0;
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize) == cudaSuccess && limit == (size_t(8) << 20));
  // 64 blocks of 4,000 bytes in a heap of 100,000 bytes: the first 25 fit, the others get NULL.
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 100000) == cudaSuccess);
  make<<<1, 64>>>(1000);
  read_and_free<<<1, 64>>>(out, 1000);
  cudaDeviceSynchronize();
  int got = 0;
  for (int i = 0; i < 64; ++i) got += out[i] != -1;
  CHECK(got == 25 && out[0] == 999 && out[63] == -1);
  free_again<<<1, 1>>>();  // blocks[0] was freed by read_and_free: a finding on stderr
  cudaDeviceSynchronize();
  cudaFree(out);
  std::printf("device heap: %d checks, %d failed\n", checks, failed);
  return failed != 0;
}
