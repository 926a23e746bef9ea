// CUDA's <cuda_bf16.h> for kernels compiled by tgsim's front end: __nv_bfloat16 (the top half of
// a binary32) and __nv_bfloat162 as 2- and 4-byte storage, so a load or store of one is one
// access of that width. Conversions from float round to nearest even (NaN stays NaN); the
// arithmetic rounds through float, as the sm_80+ instructions give.
#pragma once
#include "cuda_fp16.h"

namespace tgsim_cuda {
__forceinline__ unsigned short float_to_bf16_bits(float f) {
  unsigned u;
  __builtin_memcpy(&u, &f, 4);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<unsigned short>((u >> 16) | 0x40u);  // quiet NaN
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<unsigned short>(u >> 16);
}
__forceinline__ float bf16_bits_to_float(unsigned short b) {
  const unsigned u = static_cast<unsigned>(b) << 16;
  float f;
  __builtin_memcpy(&f, &u, 4);
  return f;
}
}  // namespace tgsim_cuda

struct __nv_bfloat16_raw {
  unsigned short x;
};

struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw& r) : __x(r.x) {}
  __host__ __device__ __nv_bfloat16(float f) : __x(tgsim_cuda::float_to_bf16_bits(f)) {}
  __host__ __device__ __nv_bfloat16(double d) : __nv_bfloat16(static_cast<float>(d)) {}
  __host__ __device__ __nv_bfloat16(int i) : __nv_bfloat16(static_cast<float>(i)) {}
  __host__ __device__ __nv_bfloat16(unsigned i) : __nv_bfloat16(static_cast<float>(i)) {}
  __host__ __device__ operator float() const { return tgsim_cuda::bf16_bits_to_float(__x); }
  __host__ __device__ operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
};
typedef __nv_bfloat16 nv_bfloat16;

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
};
typedef __nv_bfloat162 nv_bfloat162;

__forceinline__ __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
__forceinline__ __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
__forceinline__ float __bfloat162float(__nv_bfloat16 b) { return static_cast<float>(b); }
__forceinline__ __nv_bfloat162 __float2bfloat162_rn(float f) { return __nv_bfloat162(__nv_bfloat16(f), __nv_bfloat16(f)); }
__forceinline__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
__forceinline__ __nv_bfloat162 __float22bfloat162_rn(float2 v) {
  return __nv_bfloat162(__nv_bfloat16(v.x), __nv_bfloat16(v.y));
}
__forceinline__ float2 __bfloat1622float2(__nv_bfloat162 v) { return make_float2(float(v.x), float(v.y)); }
__forceinline__ float __low2float(__nv_bfloat162 v) { return float(v.x); }
__forceinline__ float __high2float(__nv_bfloat162 v) { return float(v.y); }
__forceinline__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
__forceinline__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.__x; }
__forceinline__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __nv_bfloat16(__nv_bfloat16_raw{u}); }

__forceinline__ __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16(float(a) + float(b)); }
__forceinline__ __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16(float(a) - float(b)); }
__forceinline__ __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16(float(a) * float(b)); }
__forceinline__ __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16(float(a) / float(b)); }
__forceinline__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __nv_bfloat16(static_cast<double>(float(a)) * float(b) + float(c));
}
__forceinline__ __nv_bfloat16 __hneg(__nv_bfloat16 a) {
  return __nv_bfloat16(__nv_bfloat16_raw{static_cast<unsigned short>(a.__x ^ 0x8000u)});
}
__forceinline__ __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) < float(b) ? b : a; }
__forceinline__ __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) { return float(b) < float(a) ? b : a; }
__forceinline__ __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__hadd(a.x, b.x), __hadd(a.y, b.y));
}
__forceinline__ __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__hmul(a.x, b.x), __hmul(a.y, b.y));
}
__forceinline__ __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}

__forceinline__ __nv_bfloat16 operator+(__nv_bfloat16 a, __nv_bfloat16 b) { return __hadd(a, b); }
__forceinline__ __nv_bfloat16 operator-(__nv_bfloat16 a, __nv_bfloat16 b) { return __hsub(a, b); }
__forceinline__ __nv_bfloat16 operator*(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }
__forceinline__ __nv_bfloat16 operator/(__nv_bfloat16 a, __nv_bfloat16 b) { return __hdiv(a, b); }
__forceinline__ __nv_bfloat16 operator-(__nv_bfloat16 a) { return __hneg(a); }
__forceinline__ __nv_bfloat16 operator+(__nv_bfloat16 a) { return a; }
__forceinline__ __nv_bfloat16& operator+=(__nv_bfloat16& a, __nv_bfloat16 b) { return a = a + b; }
__forceinline__ __nv_bfloat16& operator-=(__nv_bfloat16& a, __nv_bfloat16 b) { return a = a - b; }
__forceinline__ __nv_bfloat16& operator*=(__nv_bfloat16& a, __nv_bfloat16 b) { return a = a * b; }
__forceinline__ __nv_bfloat16& operator/=(__nv_bfloat16& a, __nv_bfloat16 b) { return a = a / b; }
__forceinline__ __nv_bfloat16& operator++(__nv_bfloat16& a) { return a = a + __nv_bfloat16(1.0f); }
__forceinline__ __nv_bfloat16& operator--(__nv_bfloat16& a) { return a = a - __nv_bfloat16(1.0f); }
__forceinline__ __nv_bfloat16 operator++(__nv_bfloat16& a, int) { const __nv_bfloat16 old = a; ++a; return old; }
__forceinline__ __nv_bfloat16 operator--(__nv_bfloat16& a, int) { const __nv_bfloat16 old = a; --a; return old; }
__forceinline__ bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) < float(b); }
__forceinline__ bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) > float(b); }
__forceinline__ bool operator<=(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) <= float(b); }
__forceinline__ bool operator>=(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) >= float(b); }
__forceinline__ bool operator==(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) == float(b); }
__forceinline__ bool operator!=(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) != float(b); }
__forceinline__ __nv_bfloat162 operator+(__nv_bfloat162 a, __nv_bfloat162 b) { return __hadd2(a, b); }
__forceinline__ __nv_bfloat162 operator*(__nv_bfloat162 a, __nv_bfloat162 b) { return __hmul2(a, b); }

// The rest of the pair arithmetic, comparisons and conversions, as for __half2 (cuda_fp16.h).
__forceinline__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
__forceinline__ __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
__forceinline__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 v) { return v.x; }
__forceinline__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 v) { return v.y; }
__forceinline__ __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
__forceinline__ __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}
__forceinline__ int __bfloat162int_rn(__nv_bfloat16 b) { return __float2int_rn(float(b)); }
__forceinline__ int __bfloat162int_rz(__nv_bfloat16 b) { return static_cast<int>(float(b)); }
__forceinline__ __nv_bfloat16 __int2bfloat16_rn(int i) { return __nv_bfloat16(i); }
__forceinline__ short __bfloat16_as_short(__nv_bfloat16 b) { return static_cast<short>(b.__x); }
__forceinline__ __nv_bfloat16 __short_as_bfloat16(short s) {
  return __nv_bfloat16(__nv_bfloat16_raw{static_cast<unsigned short>(s)});
}
__forceinline__ __nv_bfloat16 __habs(__nv_bfloat16 a) {
  return __nv_bfloat16(__nv_bfloat16_raw{static_cast<unsigned short>(a.__x & 0x7FFFu)});
}
__forceinline__ __nv_bfloat162 __hsub2(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__hsub(a.x, b.x), __hsub(a.y, b.y));
}
__forceinline__ __nv_bfloat162 __h2div(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__hdiv(a.x, b.x), __hdiv(a.y, b.y));
}
__forceinline__ __nv_bfloat162 __hneg2(__nv_bfloat162 a) { return __nv_bfloat162(__hneg(a.x), __hneg(a.y)); }
__forceinline__ __nv_bfloat162 __habs2(__nv_bfloat162 a) { return __nv_bfloat162(__habs(a.x), __habs(a.y)); }
__forceinline__ __nv_bfloat162 __hmax2(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__hmax(a.x, b.x), __hmax(a.y, b.y));
}
__forceinline__ __nv_bfloat162 __hmin2(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(__hmin(a.x, b.x), __hmin(a.y, b.y));
}
__forceinline__ bool __heq(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) == float(b); }
__forceinline__ bool __hne(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) != float(b); }
__forceinline__ bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) < float(b); }
__forceinline__ bool __hle(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) <= float(b); }
__forceinline__ bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) > float(b); }
__forceinline__ bool __hge(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) >= float(b); }
__forceinline__ __nv_bfloat16 hsqrt(__nv_bfloat16 a) { return __nv_bfloat16(sqrtf(float(a))); }
__forceinline__ __nv_bfloat16 hrsqrt(__nv_bfloat16 a) { return __nv_bfloat16(1.0f / sqrtf(float(a))); }
__forceinline__ __nv_bfloat16 hexp(__nv_bfloat16 a) { return __nv_bfloat16(expf(float(a))); }
__forceinline__ __nv_bfloat16 hexp2(__nv_bfloat16 a) { return __nv_bfloat16(exp2f(float(a))); }
__forceinline__ __nv_bfloat16 hlog(__nv_bfloat16 a) { return __nv_bfloat16(logf(float(a))); }
__forceinline__ __nv_bfloat16 htanh(__nv_bfloat16 a) { return __nv_bfloat16(tanhf(float(a))); }
__forceinline__ __nv_bfloat16 htanh_approx(__nv_bfloat16 a) { return htanh(a); }
__forceinline__ __nv_bfloat162 h2tanh(__nv_bfloat162 a) { return __nv_bfloat162(htanh(a.x), htanh(a.y)); }
__forceinline__ __nv_bfloat162 h2tanh_approx(__nv_bfloat162 a) { return h2tanh(a); }
__forceinline__ __nv_bfloat162 h2exp(__nv_bfloat162 a) { return __nv_bfloat162(hexp(a.x), hexp(a.y)); }
__forceinline__ __nv_bfloat162 h2exp2(__nv_bfloat162 a) { return __nv_bfloat162(hexp2(a.x), hexp2(a.y)); }
__forceinline__ __nv_bfloat162 h2sqrt(__nv_bfloat162 a) { return __nv_bfloat162(hsqrt(a.x), hsqrt(a.y)); }
__forceinline__ __nv_bfloat162 operator-(__nv_bfloat162 a, __nv_bfloat162 b) { return __hsub2(a, b); }
__forceinline__ __nv_bfloat162 operator/(__nv_bfloat162 a, __nv_bfloat162 b) { return __h2div(a, b); }
__forceinline__ __nv_bfloat162 operator-(__nv_bfloat162 a) { return __hneg2(a); }
__forceinline__ __nv_bfloat162 operator+(__nv_bfloat162 a) { return a; }
__forceinline__ __nv_bfloat162& operator/=(__nv_bfloat162& a, __nv_bfloat162 b) { return a = a / b; }
__forceinline__ __nv_bfloat162& operator+=(__nv_bfloat162& a, __nv_bfloat162 b) { return a = a + b; }
__forceinline__ __nv_bfloat162& operator-=(__nv_bfloat162& a, __nv_bfloat162 b) { return a = a - b; }
__forceinline__ __nv_bfloat162& operator*=(__nv_bfloat162& a, __nv_bfloat162 b) { return a = a * b; }

// atomicAdd on bfloat16 pairs and values, as on __half2 and __half (cuda_fp16.h).
__forceinline__ __nv_bfloat162 atomicAdd(__nv_bfloat162* p, __nv_bfloat162 v) {
  unsigned bits;
  __builtin_memcpy(&bits, &v, 4);
  bits = tgsim_cuda::pair_atomic_add(p, bits, TGSIM_BF16X2);
  __nv_bfloat162 old;
  __builtin_memcpy(&old, &bits, 4);
  return old;
}
__forceinline__ __nv_bfloat16 atomicAdd(__nv_bfloat16* p, __nv_bfloat16 v) {
  return __ushort_as_bfloat16(tgsim_cuda::half_atomic_add(p, v.__x, TGSIM_BF16X2));
}
