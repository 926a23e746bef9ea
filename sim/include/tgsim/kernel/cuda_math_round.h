/* CUDA's rounding-mode arithmetic and conversion intrinsics, for kernels tgsim compiles as C++.
 *
 * Models, bit for bit, CUDA 13's __fadd/__fsub/__fmul/__fdiv/__fmaf/__frcp/__fsqrt_{rn,rz,ru,rd},
 * __frsqrt_rn, the double __dadd/__dsub/__dmul/__ddiv/__fma/__drcp/__dsqrt_{rn,rz,ru,rd}, the
 * float/double to integer conversions (__float2int_rn, __double2ull_rd, ...: round as named,
 * saturate out-of-range values to the destination's range; NaN gives 0 from float to 32-bit,
 * 0x80000000 from double to 32-bit, 0x8000000000000000 to 64-bit, signed or not, as an H100
 * gives), integer to float/double (__int2float_rz,
 * __ull2double_ru, ...), __double2float_{rn,rz,ru,rd}, and the bit casts (__float_as_int,
 * __double_as_longlong, __double2hiint, __hiloint2double, ...).
 *
 * How: the CPU stays in round-to-nearest; each directed result is the nearest result moved one
 * ulp when the sign of the exact error says so. The error's sign is exact for all float
 * operations (worked in double), for double add/sub (TwoSum) and for double mul/div/sqrt/rcp
 * (an fma residual) unless that residual underflows below the smallest subnormal;
 * double __fma_r{z,u,d} use __float128 where the compiler has it (else round to nearest).
 * Simplification: CUDA's float intrinsics flush nothing (no -ftz), matching nvcc's default;
 * integer to float conversions use long double to compare exactly (x86-64, AArch64). */
#ifndef TGSIM_KERNEL_CUDA_MATH_ROUND_H
#define TGSIM_KERNEL_CUDA_MATH_ROUND_H

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tgsim_cuda_detail {
enum Round { kRn, kRz, kRu, kRd };
/* r is the nearest result; sign is the sign of (exact - r). */
template <class F>
inline F directed(F r, int sign, Round mode) {
  if (sign == 0 || mode == kRn || std::isnan(r)) return r;
  if (mode == kRu) return sign > 0 ? std::nextafter(r, std::numeric_limits<F>::infinity()) : r;
  if (mode == kRd) return sign < 0 ? std::nextafter(r, -std::numeric_limits<F>::infinity()) : r;
  return ((sign < 0 && r > 0) || (sign > 0 && r < 0)) ? std::nextafter(r, F(0)) : r;
}
template <class F>
inline int sgn(F v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }
/* Exact sign of (s + e) - r, where s + e is exact and r a rounding of it. */
inline int sign_sum(double s, double e, double r) {
  if (std::isinf(r) && std::isfinite(s)) return r > 0 ? -1 : 1;
  return sgn((s - r) + e);
}
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}
inline float fadd(float a, float b, Round m) {
  const float r = a + b;
  if (!std::isfinite(a) || !std::isfinite(b)) return r;
  double s, e;
  two_sum(a, b, s, e);
  return directed(r, sign_sum(s, e, r), m);
}
inline float fmul(float a, float b, Round m) {
  const float r = a * b;
  if (!std::isfinite(a) || !std::isfinite(b)) return r;
  return directed(r, sign_sum(static_cast<double>(a) * b, 0.0, r), m);
}
inline float ffma(float a, float b, float c, Round m) {
  const float r = std::fma(a, b, c);
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c)) return r;
  double s, e;
  two_sum(static_cast<double>(a) * b, c, s, e);
  return directed(r, sign_sum(s, e, r), m);
}
inline float fdiv(float a, float b, Round m) {
  const float q = a / b;
  if (!std::isfinite(a) || !std::isfinite(b) || b == 0 || !std::isfinite(q)) {
    if (std::isinf(q) && std::isfinite(a) && b != 0) return directed(q, q > 0 ? -1 : 1, m);
    return q;
  }
  /* a/b - q has the sign of (a - q b) * sign(b); q b is exact in double. */
  return directed(q, sgn(static_cast<double>(a) - static_cast<double>(q) * b) * sgn(b), m);
}
inline float fsqrt(float a, Round m) {
  const float q = std::sqrt(a);
  if (!(a > 0) || std::isinf(a)) return q;
  return directed(q, sgn(static_cast<double>(a) - static_cast<double>(q) * q), m);
}
inline double dadd(double a, double b, Round m) {
  const double r = a + b;
  if (!std::isfinite(a) || !std::isfinite(b)) return r;
  double s, e;
  two_sum(a, b, s, e);
  if (std::isinf(s)) return directed(r, r > 0 ? -1 : 1, m);
  return directed(r, sgn(e), m);
}
inline double dmul(double a, double b, Round m) {
  const double r = a * b;
  if (!std::isfinite(a) || !std::isfinite(b)) return r;
  if (std::isinf(r)) return directed(r, r > 0 ? -1 : 1, m);
  return directed(r, sgn(std::fma(a, b, -r)), m);
}
inline double ddiv(double a, double b, Round m) {
  const double q = a / b;
  if (!std::isfinite(a) || !std::isfinite(b) || b == 0) return q;
  if (std::isinf(q)) return directed(q, q > 0 ? -1 : 1, m);
  return directed(q, sgn(std::fma(-q, b, a)) * sgn(b), m);
}
inline double dsqrt(double a, Round m) {
  const double q = std::sqrt(a);
  if (!(a > 0) || std::isinf(a)) return q;
  return directed(q, sgn(std::fma(-q, q, a)), m);
}
inline double dfma(double a, double b, double c, Round m) {
  const double r = std::fma(a, b, c);
#if defined(__SIZEOF_FLOAT128__)
  if (m == kRn || !std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c)) return r;
  if (std::isinf(r)) return directed(r, r > 0 ? -1 : 1, m);
  const __float128 exact = static_cast<__float128>(a) * b + c;  /* a*b exact; one rounding */
  const __float128 d = exact - static_cast<__float128>(r);
  return directed(r, d > 0 ? 1 : (d < 0 ? -1 : 0), m);
#else
  (void)m;
  return r;
#endif
}
inline float double2float(double x, Round m) {
  const float r = static_cast<float>(x);
  if (!std::isfinite(x)) return r;
  return directed(r, sgn(x - static_cast<double>(r)), m);
}
/* float/double to integer: round as m, saturate, NaN to nan_value. */
template <class I, class F>
inline I to_int(F x, Round m, I nan_value) {
  if (std::isnan(x)) return nan_value;
  F t = m == kRn ? std::nearbyint(x) : m == kRz ? std::trunc(x) : m == kRu ? std::ceil(x) : std::floor(x);
  if (m == kRn && std::fabs(x - std::trunc(x)) == F(0.5))  /* ties to even, whatever the mode */
    t = F(2) * std::nearbyint(x / F(2));
  constexpr long double lo = static_cast<long double>(std::numeric_limits<I>::min());
  constexpr long double hi = static_cast<long double>(std::numeric_limits<I>::max());
  if (static_cast<long double>(t) <= lo) return std::numeric_limits<I>::min();
  if (static_cast<long double>(t) >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(t);
}
/* integer to float/double, rounded as m (long double holds every 64-bit integer exactly). */
template <class F, class I>
inline F from_int(I v, Round m) {
  const F r = static_cast<F>(v);
  const long double d = static_cast<long double>(v) - static_cast<long double>(r);
  return directed(r, d > 0 ? 1 : (d < 0 ? -1 : 0), m);
}
}  // namespace tgsim_cuda_detail

/* Each family, one macro per signature: PREFIX<mode>(params) = impl(args..., mode). */
#define TGSIM_MODES(RET, PREFIX, PARAMS, ARGS, IMPL)                                          \
  inline RET PREFIX##rn PARAMS { return tgsim_cuda_detail::IMPL(ARGS tgsim_cuda_detail::kRn); } \
  inline RET PREFIX##rz PARAMS { return tgsim_cuda_detail::IMPL(ARGS tgsim_cuda_detail::kRz); } \
  inline RET PREFIX##ru PARAMS { return tgsim_cuda_detail::IMPL(ARGS tgsim_cuda_detail::kRu); } \
  inline RET PREFIX##rd PARAMS { return tgsim_cuda_detail::IMPL(ARGS tgsim_cuda_detail::kRd); }
#define TGSIM_COMMA ,
TGSIM_MODES(float, __fadd_, (float x, float y), x TGSIM_COMMA y TGSIM_COMMA, fadd)
TGSIM_MODES(float, __fmul_, (float x, float y), x TGSIM_COMMA y TGSIM_COMMA, fmul)
TGSIM_MODES(float, __fdiv_, (float x, float y), x TGSIM_COMMA y TGSIM_COMMA, fdiv)
TGSIM_MODES(double, __dadd_, (double x, double y), x TGSIM_COMMA y TGSIM_COMMA, dadd)
TGSIM_MODES(double, __dmul_, (double x, double y), x TGSIM_COMMA y TGSIM_COMMA, dmul)
TGSIM_MODES(double, __ddiv_, (double x, double y), x TGSIM_COMMA y TGSIM_COMMA, ddiv)
TGSIM_MODES(float, __fsub_, (float x, float y), x TGSIM_COMMA -y TGSIM_COMMA, fadd)
TGSIM_MODES(double, __dsub_, (double x, double y), x TGSIM_COMMA -y TGSIM_COMMA, dadd)
TGSIM_MODES(float, __fmaf_, (float x, float y, float z), x TGSIM_COMMA y TGSIM_COMMA z TGSIM_COMMA, ffma)
TGSIM_MODES(float, __fmaf_ieee_, (float x, float y, float z), x TGSIM_COMMA y TGSIM_COMMA z TGSIM_COMMA, ffma)
TGSIM_MODES(double, __fma_, (double x, double y, double z), x TGSIM_COMMA y TGSIM_COMMA z TGSIM_COMMA, dfma)
TGSIM_MODES(float, __frcp_, (float x), 1.0f TGSIM_COMMA x TGSIM_COMMA, fdiv)
TGSIM_MODES(double, __drcp_, (double x), 1.0 TGSIM_COMMA x TGSIM_COMMA, ddiv)
TGSIM_MODES(float, __fsqrt_, (float x), x TGSIM_COMMA, fsqrt)
TGSIM_MODES(double, __dsqrt_, (double x), x TGSIM_COMMA, dsqrt)
inline float __frsqrt_rn(float x) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x))); }

/* float/double to integer. */
#define TGSIM_TO_INT(PREFIX, FT, IT, NANV)                                                     \
  inline IT PREFIX##rn(FT x) { return tgsim_cuda_detail::to_int<IT>(x, tgsim_cuda_detail::kRn, NANV); } \
  inline IT PREFIX##rz(FT x) { return tgsim_cuda_detail::to_int<IT>(x, tgsim_cuda_detail::kRz, NANV); } \
  inline IT PREFIX##ru(FT x) { return tgsim_cuda_detail::to_int<IT>(x, tgsim_cuda_detail::kRu, NANV); } \
  inline IT PREFIX##rd(FT x) { return tgsim_cuda_detail::to_int<IT>(x, tgsim_cuda_detail::kRd, NANV); }
TGSIM_TO_INT(__float2int_, float, int, 0)
TGSIM_TO_INT(__float2uint_, float, unsigned int, 0u)
TGSIM_TO_INT(__float2ll_, float, long long, static_cast<long long>(0x8000000000000000ull))
TGSIM_TO_INT(__float2ull_, float, unsigned long long, 0x8000000000000000ull)
TGSIM_TO_INT(__double2int_, double, int, INT32_MIN)  /* from double, NaN gives 0x80000000 */
TGSIM_TO_INT(__double2uint_, double, unsigned int, 0x80000000u)
TGSIM_TO_INT(__double2ll_, double, long long, static_cast<long long>(0x8000000000000000ull))
TGSIM_TO_INT(__double2ull_, double, unsigned long long, 0x8000000000000000ull)
#undef TGSIM_TO_INT

/* integer to float/double. */
#define TGSIM_FROM_INT(PREFIX, IT, FT)                                                            \
  inline FT PREFIX##rn(IT x) { return tgsim_cuda_detail::from_int<FT>(x, tgsim_cuda_detail::kRn); } \
  inline FT PREFIX##rz(IT x) { return tgsim_cuda_detail::from_int<FT>(x, tgsim_cuda_detail::kRz); } \
  inline FT PREFIX##ru(IT x) { return tgsim_cuda_detail::from_int<FT>(x, tgsim_cuda_detail::kRu); } \
  inline FT PREFIX##rd(IT x) { return tgsim_cuda_detail::from_int<FT>(x, tgsim_cuda_detail::kRd); }
TGSIM_FROM_INT(__int2float_, int, float)
TGSIM_FROM_INT(__uint2float_, unsigned int, float)
TGSIM_FROM_INT(__ll2float_, long long, float)
TGSIM_FROM_INT(__ull2float_, unsigned long long, float)
TGSIM_FROM_INT(__ll2double_, long long, double)
TGSIM_FROM_INT(__ull2double_, unsigned long long, double)
#undef TGSIM_FROM_INT
inline double __int2double_rn(int x) { return x; }
inline double __uint2double_rn(unsigned int x) { return x; }

/* double to float; d - (double)r is exact. */
TGSIM_MODES(float, __double2float_, (double x), x TGSIM_COMMA, double2float)
#undef TGSIM_MODES
#undef TGSIM_COMMA

/* Bit casts. */
inline constexpr int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline constexpr float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline constexpr unsigned int __float_as_uint(float x) { return std::bit_cast<unsigned int>(x); }
inline constexpr float __uint_as_float(unsigned int x) { return std::bit_cast<float>(x); }
inline constexpr long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline constexpr double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline constexpr int __double2hiint(double x) {
  return static_cast<int>(static_cast<uint64_t>(std::bit_cast<long long>(x)) >> 32);
}
inline constexpr int __double2loint(double x) {
  return static_cast<int>(static_cast<uint32_t>(std::bit_cast<unsigned long long>(x)));
}
inline constexpr double __hiloint2double(int hi, int lo) {
  return std::bit_cast<double>((static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) |
                               static_cast<unsigned>(lo));
}

#endif /* TGSIM_KERNEL_CUDA_MATH_ROUND_H */
