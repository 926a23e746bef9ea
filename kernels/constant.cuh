// Constant memory (seed 003): coefficients set from the host, read-only in kernels.
// poly_eval: every lane reads coeffs[k] at once (one address: a broadcast, one access per
// warp instruction). lane_coeff: lanes read coeffs[lane % 8] (eight addresses: serialised
// into eight accesses).
#pragma once
#include <tgsim/cuda.hpp>

#define POLY_DEGREE 8
TG_CONSTANT(float, poly_coeffs, [POLY_DEGREE]);

TG_KERNEL void poly_eval(TG_GLOBAL(const float) x, TG_GLOBAL(float) y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = x[i];
  float acc = 0.0f;
  TG_NO_UNROLL
  for (int k = POLY_DEGREE - 1; k >= 0; --k) acc = acc * xi + poly_coeffs[k];
  y[i] = acc;
}

TG_KERNEL void lane_coeff(TG_GLOBAL(float) y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = poly_coeffs[threadIdx.x % POLY_DEGREE];
}
