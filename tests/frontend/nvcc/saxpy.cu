// Compiled alone with `tgsim-nvcc -c ... -DSCALE=3 -I include` (tests/frontend/nvcc/nvcc.sh).
#include <vector>

#include "saxpy.h"
#include <saxpy_params.h>

__global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int run_saxpy(int n) {
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = float(i), y[i] = 1.0f;
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<(n + kSaxpyThreads - 1) / kSaxpyThreads, kSaxpyThreads>>>(SCALE, dx, dy, n);
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += y[i] != SCALE * float(i) + 1.0f;
  return wrong;
}
