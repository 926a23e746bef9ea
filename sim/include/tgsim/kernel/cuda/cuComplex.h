// CUDA's <cuComplex.h> for a .cu compiled by tgsim's front end (written for tgsim): single and
// double complex numbers as float2 and double2 (8- and 16-byte accesses), with the operations
// defined as CUDA's header defines them (cuCdiv and cuCabs scale to avoid overflow).
#pragma once
#include <cmath>

#include "tgsim/kernel/cuda_runtime.h"

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

#define TGSIM_CUCOMPLEX(C, R, S, SQRT, FABS)                                                                 \
  __host__ __device__ __forceinline__ R cuCreal##S(C x) { return x.x; }                                     \
  __host__ __device__ __forceinline__ R cuCimag##S(C x) { return x.y; }                                     \
  __host__ __device__ __forceinline__ C make_cu##C##_tgsim(R r, R i) { C c; c.x = r; c.y = i; return c; }  \
  __host__ __device__ __forceinline__ C cuConj##S(C x) { return make_cu##C##_tgsim(x.x, -x.y); }            \
  __host__ __device__ __forceinline__ C cuCadd##S(C a, C b) { return make_cu##C##_tgsim(a.x + b.x, a.y + b.y); } \
  __host__ __device__ __forceinline__ C cuCsub##S(C a, C b) { return make_cu##C##_tgsim(a.x - b.x, a.y - b.y); } \
  __host__ __device__ __forceinline__ C cuCmul##S(C a, C b) {                                               \
    return make_cu##C##_tgsim(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);                                \
  }                                                                                                         \
  __host__ __device__ __forceinline__ C cuCdiv##S(C a, C b) {                                               \
    const R s = FABS(b.x) + FABS(b.y), inv = R(1) / s;                                                      \
    const R ar = a.x * inv, ai = a.y * inv, br = b.x * inv, bi = b.y * inv;                                 \
    const R q = R(1) / (br * br + bi * bi);                                                                 \
    return make_cu##C##_tgsim((ar * br + ai * bi) * q, (ai * br - ar * bi) * q);                            \
  }                                                                                                         \
  __host__ __device__ __forceinline__ R cuCabs##S(C x) {                                                    \
    R a = FABS(x.x), b = FABS(x.y);                                                                         \
    const R v = a > b ? a : b, w = a > b ? b : a;                                                           \
    if (v == R(0) || v > R(1e300) || w > R(1e300)) return v + w;                                            \
    const R t = w / v;                                                                                      \
    return v * SQRT(R(1) + t * t);                                                                          \
  }                                                                                                         \
  __host__ __device__ __forceinline__ C cuCfma##S(C x, C y, C d) {                                          \
    return make_cu##C##_tgsim(x.x * y.x - x.y * y.y + d.x, x.x * y.y + x.y * y.x + d.y);                   \
  }
TGSIM_CUCOMPLEX(cuFloatComplex, float, f, sqrtf, fabsf)
TGSIM_CUCOMPLEX(cuDoubleComplex, double, , sqrt, fabs)
#undef TGSIM_CUCOMPLEX

__host__ __device__ __forceinline__ cuFloatComplex make_cuFloatComplex(float r, float i) { return make_cucuFloatComplex_tgsim(r, i); }
__host__ __device__ __forceinline__ cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  return make_cucuDoubleComplex_tgsim(r, i);
}
__host__ __device__ __forceinline__ cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
__host__ __device__ __forceinline__ cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex(c.x, c.y);
}
__host__ __device__ __forceinline__ cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex(static_cast<float>(c.x), static_cast<float>(c.y));
}
