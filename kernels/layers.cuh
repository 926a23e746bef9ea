// Seed 001's neural-network layer ReLU(W x + b), built from three kernels as the seed builds it:
// a matrix-vector product (one thread per output row), add_bias and relu (one thread per element).
#pragma once
#include <tgsim/cuda.hpp>

// y[row] = sum_k W[row][k] * x[k]; W is rows x cols, row-major.
TG_KERNEL void matvec(TG_GLOBAL(const float) W, TG_GLOBAL(const float) x, TG_GLOBAL(float) y,
                      int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  TG_NO_UNROLL
  for (int k = 0; k < cols; ++k) sum += W[row * cols + k] * x[k];
  y[row] = sum;
}

// matrix (total elements, n columns) += bias[column].
TG_KERNEL void add_bias(TG_GLOBAL(float) matrix, TG_GLOBAL(const float) bias, int n, int total) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= total) return;
  int col = id % n;
  matrix[id] += bias[col];
}

TG_KERNEL void relu(TG_GLOBAL(float) data, int total) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= total) return;
  float v = data[id];
  data[id] = v > 0.0f ? v : 0.0f;
}
