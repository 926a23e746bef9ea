// CUDA's <cuda_fp16.h> for kernels compiled by tgsim's front end: __half (IEEE binary16) and
// __half2 as 2- and 4-byte storage, so a load or store of one is one access of that width. The
// arithmetic rounds through float, which gives the correctly rounded binary16 result of one
// +, -, *, / (float's 24 bits are at least 2 x 11 + 2); conversions round to nearest even.
#pragma once
#include "../cuda_runtime.h"

namespace tgsim_cuda {
__forceinline__ unsigned short soft_float_to_half_bits(float f) {
  unsigned u;
  __builtin_memcpy(&u, &f, 4);
  const unsigned sign = (u >> 16) & 0x8000u;
  const unsigned exp = (u >> 23) & 0xFFu;
  unsigned mant = u & 0x7FFFFFu;
  if (exp == 0xFF) return static_cast<unsigned short>(sign | 0x7C00u | (mant ? 0x200u | (mant >> 13) : 0));
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<unsigned short>(sign | 0x7C00u);  // overflow: infinity
  if (e <= 0) {                                                     // subnormal or zero
    if (e < -10) return static_cast<unsigned short>(sign);
    mant |= 0x800000u;
    const unsigned shift = static_cast<unsigned>(14 - e);
    unsigned h = mant >> shift;
    const unsigned rest = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (h & 1))) ++h;
    return static_cast<unsigned short>(sign | h);
  }
  unsigned h = (static_cast<unsigned>(e) << 10) | (mant >> 13);
  const unsigned rest = mant & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h;  // may carry into the exponent: right
  return static_cast<unsigned short>(sign | h);
}
__forceinline__ float soft_half_bits_to_float(unsigned short h) {
  const unsigned sign = (h & 0x8000u) << 16;
  unsigned exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu, u;
  if (exp == 0x1F) {
    u = sign | 0x7F800000u | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      u = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do { mant <<= 1; ++e; } while (!(mant & 0x400u));
      u = sign | (static_cast<unsigned>(127 - 15 - e) << 23) | ((mant & 0x3FFu) << 13);
    }
  } else {
    u = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  __builtin_memcpy(&f, &u, 4);
  return f;
}
// Conversions as one IR instruction (fpext/fptrunc of Clang's __fp16), as the GPU's are one
// instruction: a half load followed by its conversion stays in its block, so the loads of one
// thread merge into LDS.64 as ptxas merges them. x86-64 code calls the two functions below.
#if defined(__clang__)
__forceinline__ float half_bits_to_float(unsigned short h) {
  __fp16 x;
  __builtin_memcpy(&x, &h, 2);
  return static_cast<float>(x);
}
__forceinline__ unsigned short float_to_half_bits(float f) {
  const __fp16 x = static_cast<__fp16>(f);
  unsigned short h;
  __builtin_memcpy(&h, &x, 2);
  return h;
}
#else
__forceinline__ float half_bits_to_float(unsigned short h) { return soft_half_bits_to_float(h); }
__forceinline__ unsigned short float_to_half_bits(float f) { return soft_float_to_half_bits(f); }
#endif
}  // namespace tgsim_cuda

#if defined(__clang__)
// Clang's conversions of __fp16 on x86-64 call these (compiler-rt's names, which the system has
// not); weak: Metal's header defines them too.
extern "C" __attribute__((weak)) float __gnu_h2f_ieee(unsigned short h) { return tgsim_cuda::soft_half_bits_to_float(h); }
extern "C" __attribute__((weak)) unsigned short __gnu_f2h_ieee(float f) { return tgsim_cuda::soft_float_to_half_bits(f); }
#endif

struct __half_raw {
  unsigned short x;
};

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(const __half_raw& r) : __x(r.x) {}
  __host__ __device__ __half(float f) : __x(tgsim_cuda::float_to_half_bits(f)) {}
  __host__ __device__ __half(double d) : __half(static_cast<float>(d)) {}
  __host__ __device__ __half(int i) : __half(static_cast<float>(i)) {}
  __host__ __device__ __half(unsigned i) : __half(static_cast<float>(i)) {}
  __host__ __device__ operator float() const { return tgsim_cuda::half_bits_to_float(__x); }
  __host__ __device__ operator __half_raw() const { return __half_raw{__x}; }
};
typedef __half half;

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
};
typedef __half2 half2;

__forceinline__ __half __float2half(float f) { return __half(f); }
__forceinline__ __half __float2half_rn(float f) { return __half(f); }
__forceinline__ __half __double2half(double d) { return __half(d); }
__forceinline__ __half __int2half_rn(int i) { return __half(i); }
__forceinline__ float __half2float(__half h) { return static_cast<float>(h); }
__forceinline__ int __half2int_rz(__half h) { return static_cast<int>(static_cast<float>(h)); }
__forceinline__ __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
__forceinline__ __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
__forceinline__ __half2 __float22half2_rn(float2 v) { return __half2(__half(v.x), __half(v.y)); }
__forceinline__ float2 __half22float2(__half2 v) { return make_float2(float(v.x), float(v.y)); }
__forceinline__ float __low2float(__half2 v) { return float(v.x); }
__forceinline__ float __high2float(__half2 v) { return float(v.y); }
__forceinline__ __half __low2half(__half2 v) { return v.x; }
__forceinline__ __half __high2half(__half2 v) { return v.y; }
__forceinline__ __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
__forceinline__ __half2 __half2half2(__half a) { return __half2(a, a); }
__forceinline__ __half2 make_half2(__half a, __half b) { return __half2(a, b); }
__forceinline__ __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__forceinline__ __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
__forceinline__ unsigned short __half_as_ushort(__half h) { return h.__x; }
__forceinline__ __half __ushort_as_half(unsigned short u) { return __half(__half_raw{u}); }
__forceinline__ short __half_as_short(__half h) { return static_cast<short>(h.__x); }
__forceinline__ __half __short_as_half(short s) { return __half(__half_raw{static_cast<unsigned short>(s)}); }

__forceinline__ __half __hadd(__half a, __half b) { return __half(float(a) + float(b)); }
__forceinline__ __half __hsub(__half a, __half b) { return __half(float(a) - float(b)); }
__forceinline__ __half __hmul(__half a, __half b) { return __half(float(a) * float(b)); }
__forceinline__ __half __hdiv(__half a, __half b) { return __half(float(a) / float(b)); }
__forceinline__ __half __hneg(__half a) { return __half(__half_raw{static_cast<unsigned short>(a.__x ^ 0x8000u)}); }
__forceinline__ __half __habs(__half a) { return __half(__half_raw{static_cast<unsigned short>(a.__x & 0x7FFFu)}); }
// fma: the product of two halves is exact in double, the sum rounds there, then to binary16.
__forceinline__ __half __hfma(__half a, __half b, __half c) {
  return __half(static_cast<double>(float(a)) * float(b) + float(c));
}
__forceinline__ __half __hmax(__half a, __half b) { return float(a) < float(b) ? b : a; }
__forceinline__ __half __hmin(__half a, __half b) { return float(b) < float(a) ? b : a; }
__forceinline__ bool __heq(__half a, __half b) { return float(a) == float(b); }
__forceinline__ bool __hne(__half a, __half b) { return float(a) != float(b); }
__forceinline__ bool __hlt(__half a, __half b) { return float(a) < float(b); }
__forceinline__ bool __hle(__half a, __half b) { return float(a) <= float(b); }
__forceinline__ bool __hgt(__half a, __half b) { return float(a) > float(b); }
__forceinline__ bool __hge(__half a, __half b) { return float(a) >= float(b); }
__forceinline__ bool __hisnan(__half a) { return (a.__x & 0x7FFFu) > 0x7C00u; }
__forceinline__ bool __hisinf(__half a) { return (a.__x & 0x7FFFu) == 0x7C00u; }
__forceinline__ __half hsqrt(__half a) { return __half(sqrtf(float(a))); }
__forceinline__ __half hexp(__half a) { return __half(expf(float(a))); }
__forceinline__ __half hlog(__half a) { return __half(logf(float(a))); }
__forceinline__ __half hrsqrt(__half a) { return __half(1.0f / sqrtf(float(a))); }

__forceinline__ __half2 __hadd2(__half2 a, __half2 b) { return __half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
__forceinline__ __half2 __hsub2(__half2 a, __half2 b) { return __half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
__forceinline__ __half2 __hmul2(__half2 a, __half2 b) { return __half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
__forceinline__ __half2 __h2div(__half2 a, __half2 b) { return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
__forceinline__ __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__forceinline__ __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
__forceinline__ __half2 __hmax2(__half2 a, __half2 b) { return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
__forceinline__ __half2 __hmin2(__half2 a, __half2 b) { return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }

__forceinline__ __half operator+(__half a, __half b) { return __hadd(a, b); }
__forceinline__ __half operator-(__half a, __half b) { return __hsub(a, b); }
__forceinline__ __half operator*(__half a, __half b) { return __hmul(a, b); }
__forceinline__ __half operator/(__half a, __half b) { return __hdiv(a, b); }
__forceinline__ __half operator-(__half a) { return __hneg(a); }
// Unary plus and the increments, as cuda_fp16.hpp has them (without unary plus, `+h * x` would
// convert h to float and meet operator*(__half, __half) as an equal candidate: ambiguous).
__forceinline__ __half operator+(__half a) { return a; }
__forceinline__ __half& operator++(__half& a) { return a = __hadd(a, __half(1.0f)); }
__forceinline__ __half& operator--(__half& a) { return a = __hsub(a, __half(1.0f)); }
__forceinline__ __half operator++(__half& a, int) { const __half old = a; ++a; return old; }
__forceinline__ __half operator--(__half& a, int) { const __half old = a; --a; return old; }
__forceinline__ __half& operator+=(__half& a, __half b) { return a = a + b; }
__forceinline__ __half& operator-=(__half& a, __half b) { return a = a - b; }
__forceinline__ __half& operator*=(__half& a, __half b) { return a = a * b; }
__forceinline__ __half& operator/=(__half& a, __half b) { return a = a / b; }
__forceinline__ bool operator==(__half a, __half b) { return __heq(a, b); }
__forceinline__ bool operator!=(__half a, __half b) { return __hne(a, b); }
__forceinline__ bool operator<(__half a, __half b) { return __hlt(a, b); }
__forceinline__ bool operator<=(__half a, __half b) { return __hle(a, b); }
__forceinline__ bool operator>(__half a, __half b) { return __hgt(a, b); }
__forceinline__ bool operator>=(__half a, __half b) { return __hge(a, b); }
__forceinline__ __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
__forceinline__ __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
__forceinline__ __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
__forceinline__ __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
__forceinline__ __half2& operator+=(__half2& a, __half2 b) { return a = a + b; }
__forceinline__ __half2& operator*=(__half2& a, __half2 b) { return a = a * b; }

// Conversions with a rounding mode, comparisons of pairs (1.0 or 0.0 per half; __hb*2: both),
// and the half-precision math functions, each rounded once from float's result.
__forceinline__ int __half2int_rn(__half h) { return __float2int_rn(float(h)); }
__forceinline__ int __half2int_rd(__half h) { return __float2int_rd(float(h)); }
__forceinline__ int __half2int_ru(__half h) { return __float2int_ru(float(h)); }
__forceinline__ unsigned __half2uint_rn(__half h) { return __float2uint_rn(float(h)); }
__forceinline__ unsigned __half2uint_rz(__half h) { return __float2uint_rz(float(h)); }
__forceinline__ __half __uint2half_rn(unsigned i) { return __half(i); }
#define TGSIM_HALF2_COMPARE(name, op)                                                      \
  __forceinline__ __half2 __h##name##2(__half2 a, __half2 b) {                              \
    return __half2(__half(float(a.x) op float(b.x) ? 1.0f : 0.0f),                          \
                   __half(float(a.y) op float(b.y) ? 1.0f : 0.0f));                         \
  }                                                                                         \
  __forceinline__ bool __hb##name##2(__half2 a, __half2 b) {                                \
    return float(a.x) op float(b.x) && float(a.y) op float(b.y);                            \
  }
TGSIM_HALF2_COMPARE(eq, ==)
TGSIM_HALF2_COMPARE(ne, !=)
TGSIM_HALF2_COMPARE(lt, <)
TGSIM_HALF2_COMPARE(le, <=)
TGSIM_HALF2_COMPARE(gt, >)
TGSIM_HALF2_COMPARE(ge, >=)
#undef TGSIM_HALF2_COMPARE
#define TGSIM_HALF_MATH(name, expr)                                                 \
  __forceinline__ __half h##name(__half a) { float x = float(a); return __half(expr); } \
  __forceinline__ __half2 h2##name(__half2 a) { return __half2(h##name(a.x), h##name(a.y)); }
TGSIM_HALF_MATH(exp2, exp2f(x))
TGSIM_HALF_MATH(exp10, exp10f(x))
TGSIM_HALF_MATH(log2, log2f(x))
TGSIM_HALF_MATH(log10, log10f(x))
TGSIM_HALF_MATH(sin, sinf(x))
TGSIM_HALF_MATH(cos, cosf(x))
TGSIM_HALF_MATH(floor, floorf(x))
TGSIM_HALF_MATH(ceil, ceilf(x))
TGSIM_HALF_MATH(trunc, truncf(x))
TGSIM_HALF_MATH(rint, rintf(x))
TGSIM_HALF_MATH(rcp, 1.0f / x)
TGSIM_HALF_MATH(tanh, tanhf(x))
TGSIM_HALF_MATH(tanh_approx, tanhf(x))
#undef TGSIM_HALF_MATH
__forceinline__ __half2 h2exp(__half2 a) { return __half2(hexp(a.x), hexp(a.y)); }
__forceinline__ __half2 h2log(__half2 a) { return __half2(hlog(a.x), hlog(a.y)); }
__forceinline__ __half2 h2sqrt(__half2 a) { return __half2(hsqrt(a.x), hsqrt(a.y)); }
__forceinline__ __half2 h2rsqrt(__half2 a) { return __half2(hrsqrt(a.x), hrsqrt(a.y)); }
__forceinline__ __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
__forceinline__ __half2 operator-(__half2 a) { return __hneg2(a); }
__forceinline__ __half2 operator+(__half2 a) { return a; }
__forceinline__ __half2& operator-=(__half2& a, __half2 b) { return a = a - b; }
__forceinline__ __half2& operator/=(__half2& a, __half2 b) { return a = a / b; }

// atomicAdd on a pair: one 4-byte atomic adding lane by lane (each sum rounded once). On one
// half: the 4-byte atomic of the word holding it, adding -0.0 (which changes nothing) to the
// other half; counted as a 4-byte atomic there.
namespace tgsim_cuda {
__forceinline__ unsigned pair_atomic_add(void* p, unsigned v, int type) {
  return static_cast<unsigned>(__tgsim_atomic(0, TGSIM_ATOMIC_ADD, type, p, v, 0));
}
__forceinline__ unsigned short half_atomic_add(void* p, unsigned short v, int type) {
  const auto a = reinterpret_cast<unsigned long long>(p);
  const unsigned shift = (a & 2) ? 16u : 0u, other = 0x8000u << (16u - shift);
  const unsigned old = pair_atomic_add(reinterpret_cast<void*>(a & ~3ull), (unsigned(v) << shift) | other, type);
  return static_cast<unsigned short>(old >> shift);
}
}  // namespace tgsim_cuda
__forceinline__ __half2 atomicAdd(__half2* p, __half2 v) {
  unsigned bits;
  __builtin_memcpy(&bits, &v, 4);
  bits = tgsim_cuda::pair_atomic_add(p, bits, TGSIM_F16X2);
  __half2 old;
  __builtin_memcpy(&old, &bits, 4);
  return old;
}
__forceinline__ __half atomicAdd(__half* p, __half v) {
  return __ushort_as_half(tgsim_cuda::half_atomic_add(p, v.__x, TGSIM_F16X2));
}
