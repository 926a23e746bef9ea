// Seed 004: int matrix product C = A x B (n x n) with NT x NT = 32 x 32 threads per block and
// a 1-D grid of ceil(n / NT) blocks. threadIdx.x walks rows i (a warp = 32 rows), threadIdx.y
// strides over columns j. The shared version stages NT x NT tiles as the seed does: a[] is
// indexed NT * i_local + k (32 words apart across a warp: a 32-way bank conflict) and b[] by
// NT * k + j_local (one word per warp: broadcast).
#include "kernels.hpp"

__global__ void int_matmul_global(int* c_dev, const int* a_dev, const int* b_dev, int n) {
  const int NT = INT_MATMUL_NT;
  int i_global = blockIdx.x * blockDim.x + threadIdx.x;
  int j_global = threadIdx.y;
  if (i_global < n) {
    #pragma unroll 1
    for (int j = j_global; j < n; j += NT) {
      int c_ij = 0;
      #pragma unroll 1
      for (int k = 0; k < n; k++) c_ij += a_dev[i_global * n + k] * b_dev[k * n + j];
      c_dev[i_global * n + j] = c_ij;
    }
  }
}

__global__ void int_matmul_shared(int* c_dev, const int* a_dev, const int* b_dev, int n) {
  const int NT = INT_MATMUL_NT;
  int i_block = blockIdx.x * blockDim.x;
  int i_local = threadIdx.x;
  int i_global = i_block + i_local;
  int j_local = threadIdx.y;
  __shared__ int a[INT_MATMUL_NT * INT_MATMUL_NT];
  __shared__ int b[INT_MATMUL_NT * INT_MATMUL_NT];
  #pragma unroll 1
  for (int j_block = 0; j_block < n; j_block += NT) {
    int j_global = j_block + j_local;
    int c_ij = 0;
    #pragma unroll 1
    for (int k_block = 0; k_block < n; k_block += NT) {
      int a_ij = 0;
      int b_ij = 0;
      if (i_global < n && k_block + j_local < n) a_ij = a_dev[i_global * n + k_block + j_local];
      if (j_global < n && k_block + i_local < n) b_ij = b_dev[(k_block + i_local) * n + j_global];
      a[NT * i_local + j_local] = a_ij;
      b[NT * i_local + j_local] = b_ij;
      __syncthreads();
      #pragma unroll 1
      for (int k_local = 0; k_local < NT; k_local++)
        c_ij += a[NT * i_local + k_local] * b[NT * k_local + j_local];
      __syncthreads();
    }
    if (i_global < n && j_global < n) c_dev[i_global * n + j_global] = c_ij;
  }
}
