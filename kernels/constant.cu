// Constant memory (seed 003): coefficients set from the host, read-only in kernels.
// poly_eval: every lane reads coeffs[k] at once (one address: a broadcast, one access per
// warp instruction). lane_coeff: lanes read coeffs[lane % 8] (eight addresses: serialised
// into eight accesses).
#include "kernels.hpp"

__constant__ float poly_coeffs[POLY_DEGREE];

__global__ void poly_eval(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = x[i];
  float acc = 0.0f;
  #pragma unroll 1
  for (int k = POLY_DEGREE - 1; k >= 0; --k) acc = acc * xi + poly_coeffs[k];
  y[i] = acc;
}

__global__ void lane_coeff(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = poly_coeffs[threadIdx.x % POLY_DEGREE];
}

// Host code: the coefficients (POLY_DEGREE floats) into poly_coeffs, before a launch.
void upload_poly_coeffs(const float* coeffs) {
  cudaMemcpyToSymbol(poly_coeffs, coeffs, POLY_DEGREE * sizeof(float));
}
