// CUDA's <cuda_fp8.h> for a .cu compiled by tgsim's front end (written for tgsim): the 8-bit
// floats E4M3 (bias 7, max 448, no infinity, NaN 0x7F) and E5M2 (bias 15, max 57344, IEEE-like)
// as 1-byte storage (2 and 4 bytes for the x2 and x4 vectors), so their loads and stores are
// accesses of that width. Conversions to fp8 round to nearest even; __NV_SATFINITE clamps to
// the largest finite value, __NV_NOSAT overflows to NaN (E4M3) or infinity (E5M2), as the GPU's
// cvt instructions do. fp8 to half or float is exact.
#pragma once
#include <cmath>

#include "cuda_bf16.h"
#include "cuda_fp16.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

namespace tgsim_fp8 {
// The format's mantissa bits, bias, largest finite value and its NaN code.
struct Format {
  int mant, bias;
  double max;
  unsigned char nan, inf;  // inf == 0: none (E4M3)
};
__host__ __device__ inline Format format(__nv_fp8_interpretation_t t) {
  return t == __NV_E4M3 ? Format{3, 7, 448.0, 0x7F, 0} : Format{2, 15, 57344.0, 0x7F, 0x7C};
}
__host__ __device__ inline __nv_fp8_storage_t from_double(double x, __nv_saturation_t sat, __nv_fp8_interpretation_t t) {
  const Format f = format(t);
  const unsigned char sign = std::signbit(x) ? 0x80 : 0;
  if (std::isnan(x)) return static_cast<__nv_fp8_storage_t>(sign | f.nan);
  const double a = std::fabs(x);
  const int min_exp = 1 - f.bias;  // the smallest normal exponent
  int e;
  std::frexp(a, &e);               // a = m 2^e, m in [0.5, 1): exponent e - 1
  const int ex = a == 0 ? min_exp : std::max(e - 1, min_exp);
  const double quantum = std::ldexp(1.0, ex - f.mant);
  const double v = std::nearbyint(a / quantum) * quantum;  // round to nearest even
  if (v > f.max || std::isinf(a)) {
    if (sat == __NV_SATFINITE) return from_double(sign ? -f.max : f.max, __NV_NOSAT, t);
    return static_cast<__nv_fp8_storage_t>(sign | (f.inf ? f.inf : f.nan));
  }
  if (v == 0) return sign;
  int ve;
  std::frexp(v, &ve);
  if (ve - 1 < min_exp)  // subnormal
    return static_cast<__nv_fp8_storage_t>(sign | static_cast<int>(v / std::ldexp(1.0, min_exp - f.mant)));
  const int mant = static_cast<int>(v / std::ldexp(1.0, ve - 1 - f.mant)) - (1 << f.mant);
  return static_cast<__nv_fp8_storage_t>(sign | ((ve - 1 + f.bias) << f.mant) | mant);
}
__host__ __device__ inline float to_float(__nv_fp8_storage_t b, __nv_fp8_interpretation_t t) {
  const Format f = format(t);
  const bool neg = b & 0x80;
  const int mag = b & 0x7F, exp = mag >> f.mant, mant = mag & ((1 << f.mant) - 1);
  float v;
  if (t == __NV_E4M3 && mag == 0x7F) v = __builtin_nanf("");
  else if (t == __NV_E5M2 && exp == 0x1F) v = mant ? __builtin_nanf("") : __builtin_inff();
  else if (exp == 0) v = std::ldexp(static_cast<float>(mant), 1 - f.bias - f.mant);
  else v = std::ldexp(static_cast<float>(mant + (1 << f.mant)), exp - f.bias - f.mant);
  return neg ? -v : v;
}
}  // namespace tgsim_fp8

__host__ __device__ inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t s, __nv_fp8_interpretation_t t) {
  return tgsim_fp8::from_double(x, s, t);
}
__host__ __device__ inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(double x, __nv_saturation_t s, __nv_fp8_interpretation_t t) {
  return tgsim_fp8::from_double(x, s, t);
}
__host__ __device__ inline __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t s,
                                                                         __nv_fp8_interpretation_t t) {
  return static_cast<__nv_fp8x2_storage_t>(tgsim_fp8::from_double(x.x, s, t) | tgsim_fp8::from_double(x.y, s, t) << 8);
}
__host__ __device__ inline __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(__half_raw x, __nv_saturation_t s,
                                                                      __nv_fp8_interpretation_t t) {
  return tgsim_fp8::from_double(float(__half(x)), s, t);
}
__host__ __device__ inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw x, __nv_saturation_t s,
                                                                          __nv_fp8_interpretation_t t) {
  return tgsim_fp8::from_double(float(__nv_bfloat16(x)), s, t);
}
__host__ __device__ inline __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x, __nv_fp8_interpretation_t t) {
  return __half_raw{tgsim_cuda::float_to_half_bits(tgsim_fp8::to_float(x, t))};
}

#define TGSIM_FP8_TYPE(NAME, INTERP)                                                                          \
  struct __align__(1) NAME {                                                                                  \
    __nv_fp8_storage_t __x;                                                                                   \
    NAME() = default;                                                                                         \
    __host__ __device__ explicit NAME(float f) : __x(tgsim_fp8::from_double(f, __NV_SATFINITE, INTERP)) {}     \
    __host__ __device__ explicit NAME(double f) : __x(tgsim_fp8::from_double(f, __NV_SATFINITE, INTERP)) {}    \
    __host__ __device__ explicit NAME(__half h) : NAME(float(h)) {}                                            \
    __host__ __device__ explicit NAME(__nv_bfloat16 h) : NAME(float(h)) {}                                     \
    __host__ __device__ explicit NAME(int i) : NAME(static_cast<float>(i)) {}                                  \
    __host__ __device__ explicit operator float() const { return tgsim_fp8::to_float(__x, INTERP); }           \
    __host__ __device__ explicit operator double() const { return tgsim_fp8::to_float(__x, INTERP); }          \
    __host__ __device__ explicit operator __half() const { return __half(tgsim_fp8::to_float(__x, INTERP)); }  \
    __host__ __device__ explicit operator __nv_bfloat16() const { return __nv_bfloat16(tgsim_fp8::to_float(__x, INTERP)); } \
  };                                                                                                          \
  struct __align__(2) NAME##x2 {                                                                              \
    __nv_fp8x2_storage_t __x;                                                                                 \
    NAME##x2() = default;                                                                                     \
    __host__ __device__ explicit NAME##x2(float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, INTERP)) {} \
    __host__ __device__ explicit operator float2() const {                                                    \
      return make_float2(tgsim_fp8::to_float(__x & 0xFF, INTERP), tgsim_fp8::to_float(__x >> 8, INTERP));     \
    }                                                                                                         \
  };                                                                                                          \
  struct __align__(4) NAME##x4 {                                                                              \
    __nv_fp8x4_storage_t __x;                                                                                 \
    NAME##x4() = default;                                                                                     \
    __host__ __device__ explicit NAME##x4(float4 f) : __x(pack(f.x, f.y, f.z, f.w)) {}                        \
    __host__ __device__ NAME##x4(__nv_bfloat162 a, __nv_bfloat162 b)                                          \
        : __x(pack(float(a.x), float(a.y), float(b.x), float(b.y))) {}                                        \
    __host__ __device__ NAME##x4(__half2 a, __half2 b) : __x(pack(float(a.x), float(a.y), float(b.x), float(b.y))) {} \
    __host__ __device__ explicit operator float4() const {                                                    \
      return make_float4(tgsim_fp8::to_float(__x & 0xFF, INTERP), tgsim_fp8::to_float((__x >> 8) & 0xFF, INTERP), \
                         tgsim_fp8::to_float((__x >> 16) & 0xFF, INTERP), tgsim_fp8::to_float(__x >> 24, INTERP)); \
    }                                                                                                         \
    __host__ __device__ static __nv_fp8x4_storage_t pack(float a, float b, float c, float d) {                \
      return tgsim_fp8::from_double(a, __NV_SATFINITE, INTERP) | tgsim_fp8::from_double(b, __NV_SATFINITE, INTERP) << 8 | \
             tgsim_fp8::from_double(c, __NV_SATFINITE, INTERP) << 16 |                                       \
             static_cast<__nv_fp8x4_storage_t>(tgsim_fp8::from_double(d, __NV_SATFINITE, INTERP)) << 24;     \
    }                                                                                                         \
  };
TGSIM_FP8_TYPE(__nv_fp8_e4m3, __NV_E4M3)
TGSIM_FP8_TYPE(__nv_fp8_e5m2, __NV_E5M2)
#undef TGSIM_FP8_TYPE
typedef __nv_fp8_e4m3x2 __nv_fp8x2_e4m3;
typedef __nv_fp8_e4m3x4 __nv_fp8x4_e4m3;
typedef __nv_fp8_e5m2x2 __nv_fp8x2_e5m2;
typedef __nv_fp8_e5m2x4 __nv_fp8x4_e5m2;
