// Matrix multiply C = A x B for square n x n float matrices (seed 000 and seed 001).
// One source for nvcc (real CUDA) and for tgsim. Each source-level access is meant to be
// one SASS instruction: TG_NO_UNROLL keeps nvcc from unrolling the k loops into wider
// LDS.64/128 or merged loads, so Nsight Compute counts what tgsim counts.
#pragma once
#include <tgsim/cuda.hpp>

// Seed 001: one thread per C element, 16x16 threadgroups, every operand from global memory.
TG_KERNEL void matmul_naive(TG_GLOBAL(const float) A, TG_GLOBAL(const float) B,
                            TG_GLOBAL(float) C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  TG_NO_UNROLL
  for (int k = 0; k < n; ++k) {
    sum += A[row * n + k] * B[k * n + col];
  }
  C[row * n + col] = sum;
}

// Seed 000: TILE x TILE threadgroups stage one tile of A and one of B in shared memory.
template <int TILE>
TG_KERNEL void matmul_tiled(TG_GLOBAL(const float) A, TG_GLOBAL(const float) B,
                            TG_GLOBAL(float) C, int n) {
  TG_SHARED(float, tileA, [TILE][TILE]);
  TG_SHARED(float, tileB, [TILE][TILE]);
  int lx = threadIdx.x;
  int ly = threadIdx.y;
  int row = blockIdx.y * TILE + ly;
  int col = blockIdx.x * TILE + lx;
  float sum = 0.0f;
  TG_NO_UNROLL
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    int aCol = t * TILE + lx;
    int bRow = t * TILE + ly;
    tileA[ly][lx] = (row < n && aCol < n) ? A[row * n + aCol] : 0.0f;
    tileB[ly][lx] = (bRow < n && col < n) ? B[bRow * n + col] : 0.0f;
    __syncthreads();
    TG_NO_UNROLL
    for (int k = 0; k < TILE; ++k) {
      sum += tileA[ly][k] * tileB[k][lx];
    }
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = sum;
}
