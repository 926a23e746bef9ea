/* CUDA's floating-point device functions beyond <cmath>, for kernels tgsim compiles as C++.
 *
 * Models the CUDA 13 Math API single/double functions that libm lacks: rsqrtf / rsqrt,
 * rcbrtf / rcbrt, fdividef / __fdividef, exp10f, sincosf, sincospif / sincospi, sinpif / sinpi,
 * cospif / cospi, normf / norm, rnormf / rnorm, norm3df, rnorm3df, norm4df, rnorm4df (and the
 * double ones), rhypotf / rhypot, erfinvf / erfinv, erfcinvf / erfcinv, erfcxf / erfcx,
 * normcdff / normcdf, normcdfinvf / normcdfinv, __saturatef, and the fast intrinsics __expf,
 * __exp10f, __logf, __log2f, __log10f, __sinf, __cosf, __tanf, __tanhf, __sincosf, __powf.
 * <cmath> is included: sqrtf, expf, fmaf, fminf, ... come from it at global scope.
 *
 * Simplifications: the fast intrinsics return the precise libm result (the GPU's are
 * approximations with larger error); __fdividef keeps CUDA's documented special case (0, or NaN
 * for an infinite x, when 2^126 < |y| < 2^128) and is x / y otherwise. Float functions are
 * computed in double and rounded, so they can differ from CUDA's in the last ulp; the inverse
 * error functions use a Giles initial guess refined by Newton steps on libm's erf / erfc.
 * exp10f, exp10, sincosf and sincos are glibc's own when glibc declares them (GNU extensions, on by default
 * in C++); otherwise they are defined here with the same signatures. */
#ifndef TGSIM_KERNEL_CUDA_MATH_FLOAT_H
#define TGSIM_KERNEL_CUDA_MATH_FLOAT_H

#include <cmath>
// nvcc compiles C++17, where <math.h> puts no lerp at global scope; libstdc++'s <math.h> does in
// C++20 (`using std::lerp;`), and a program's own ::lerp (cuda-samples' helper_math.h) would
// conflict with it. Here that line re-declares std::abs instead; std::lerp itself is unchanged.
#define lerp abs
#include <math.h>
#undef lerp

#if !defined(__USE_GNU)
inline float exp10f(float x) { return static_cast<float>(pow(10.0, static_cast<double>(x))); }
inline double exp10(double x) { return pow(10.0, x); }
inline void sincosf(float x, float* s, float* c) { *s = sinf(x); *c = cosf(x); }
inline void sincos(double x, double* s, double* c) { *s = sin(x); *c = cos(x); }
#endif

/* Reciprocals. */
inline float rsqrtf(float x) { return static_cast<float>(1.0 / sqrt(static_cast<double>(x))); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return static_cast<float>(1.0 / cbrt(static_cast<double>(x))); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }

/* Division. fdividef is the ordinary division (nvcc's default -prec-div=true). */
inline float fdividef(float x, float y) { return x / y; }
inline double fdivide(double x, double y) { return x / y; }
inline float __fdividef(float x, float y) {
  const float ay = fabsf(y);
  if (ay > 0x1p126f && ay < INFINITY) return std::isinf(x) ? NAN : 0.0f * x * y;
  return x / y;
}

/* sin(pi x), cos(pi x): exact zeros and ones at (half-)integers; no large-argument error. */
inline double sinpi(double x) {
  if (std::isinf(x)) return NAN;
  const double r = fmod(x, 2.0);  /* exact, sign of x */
  if (r == trunc(r)) return copysign(0.0, x);
  if (fabs(r) == 0.5) return copysign(1.0, r);
  if (fabs(r) == 1.5) return copysign(1.0, -r);
  double a = fabs(r), s = r < 0 ? -1.0 : 1.0;
  if (a > 1.0) { a -= 1.0; s = -s; }           /* sin(pi (a + 1)) = -sin(pi a) */
  if (a > 0.5) a = 1.0 - a;                     /* sin(pi (1 - a)) = sin(pi a) */
  return s * (a <= 0.25 ? sin(M_PI * a) : cos(M_PI * (0.5 - a)));
}
inline double cospi(double x) {
  if (std::isinf(x)) return NAN;
  double a = fabs(fmod(x, 2.0));
  if (a == 0.5 || a == 1.5) return 0.0;
  double s = 1.0;
  if (a > 1.0) a = 2.0 - a;                     /* cos(pi (2 - a)) = cos(pi a) */
  if (a > 0.5) { a = 1.0 - a; s = -1.0; }       /* cos(pi (1 - a)) = -cos(pi a) */
  return s * (a <= 0.25 ? cos(M_PI * a) : sin(M_PI * (0.5 - a)));
}
inline float sinpif(float x) { return static_cast<float>(sinpi(x)); }
inline float cospif(float x) { return static_cast<float>(cospi(x)); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }

/* Euclidean norms, computed in double for float (no intermediate overflow). */
inline float norm3df(float a, float b, float c) {
  const double x = a, y = b, z = c;
  return static_cast<float>(sqrt(x * x + y * y + z * z));
}
inline float rnorm3df(float a, float b, float c) {
  const double x = a, y = b, z = c;
  return static_cast<float>(1.0 / sqrt(x * x + y * y + z * z));
}
inline float norm4df(float a, float b, float c, float d) {
  const double x = a, y = b, z = c, w = d;
  return static_cast<float>(sqrt(x * x + y * y + z * z + w * w));
}
inline float rnorm4df(float a, float b, float c, float d) {
  const double x = a, y = b, z = c, w = d;
  return static_cast<float>(1.0 / sqrt(x * x + y * y + z * z + w * w));
}
inline float normf(int dim, const float* p) {
  double s = 0;
  for (int i = 0; i < dim; ++i) s += static_cast<double>(p[i]) * p[i];
  return static_cast<float>(sqrt(s));
}
inline float rnormf(int dim, const float* p) { return 1.0f / normf(dim, p); }
inline float rhypotf(float a, float b) { return static_cast<float>(1.0 / hypot(a, b)); }
inline double norm3d(double a, double b, double c) { return std::hypot(a, b, c); }
inline double rnorm3d(double a, double b, double c) { return 1.0 / std::hypot(a, b, c); }
inline double norm4d(double a, double b, double c, double d) { return hypot(hypot(a, b), hypot(c, d)); }
inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
inline double norm(int dim, const double* p) {
  double s = 0;
  for (int i = 0; i < dim; ++i) s = hypot(s, p[i]);
  return s;
}
inline double rnorm(int dim, const double* p) { return 1.0 / norm(dim, p); }
inline double rhypot(double a, double b) { return 1.0 / hypot(a, b); }

/* Inverse error functions. */
namespace tgsim_cuda_detail {
/* Giles' approximation of erfinv from w = -log((1 - x)(1 + x)), taken as a starting point. */
inline double erfinv_guess(double w, double x) {
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w; p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;  p = -0.00125372503 + p * w; p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;    p = 1.50140941 + p * w;
  } else {
    w = sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w; p = 0.00134934322 + p * w;  p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;  p = -0.0076224613 + p * w;  p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;     p = 2.83297682 + p * w;
  }
  return p * x;
}
constexpr double two_over_sqrt_pi = 1.1283791670955126;
}  // namespace tgsim_cuda_detail

/* exp(x^2) erfc(x); an asymptotic series where erfc underflows. */
inline double erfcx(double x) {
  if (x < 25.0) return exp(x * x) * erfc(x);
  const double r = 1.0 / (2.0 * x * x);
  double term = 1.0, sum = 1.0;
  for (int k = 1; k <= 10; ++k) { term *= -(2.0 * k - 1.0) * r; sum += term; }
  return sum / (x * 1.7724538509055160273);
}
inline double erfinv(double x) {
  if (!(x >= -1.0 && x <= 1.0)) return NAN;
  if (x == 1.0) return INFINITY;
  if (x == -1.0) return -INFINITY;
  if (x == 0.0) return x;
  double t = tgsim_cuda_detail::erfinv_guess(-log((1.0 - x) * (1.0 + x)), x);
  for (int i = 0; i < 4; ++i)
    t -= (erf(t) - x) / (tgsim_cuda_detail::two_over_sqrt_pi * exp(-t * t));
  return t;
}
inline double erfcinv(double y) {
  if (!(y >= 0.0 && y <= 2.0)) return NAN;
  if (y == 0.0) return INFINITY;
  if (y == 2.0) return -INFINITY;
  if (y > 1.0) return -erfcinv(2.0 - y);  /* 2 - y is exact */
  double t;
  if (y >= 0.0625) {
    t = tgsim_cuda_detail::erfinv_guess(-log(y * (2.0 - y)), 1.0 - y);
    for (int i = 0; i < 4; ++i) t += (erfc(t) - y) / (tgsim_cuda_detail::two_over_sqrt_pi * exp(-t * t));
    return t;
  }
  /* The tail: Newton on log erfc(t) = log erfcx(t) - t^2, which is nearly quadratic in t. */
  t = sqrt(-log(y));
  const double ly = log(y);
  for (int i = 0; i < 50; ++i) {
    const double cx = erfcx(t);
    const double f = log(cx) - t * t - ly;
    const double step = f / (-tgsim_cuda_detail::two_over_sqrt_pi / cx);
    t -= step;
    if (fabs(step) <= 1e-16 * t) break;
  }
  return t;
}
inline float erfinvf(float x) { return static_cast<float>(erfinv(x)); }
inline float erfcinvf(float y) { return static_cast<float>(erfcinv(y)); }
inline float erfcxf(float x) { return static_cast<float>(erfcx(x)); }
/* The standard normal distribution: Phi(x) = erfc(-x / sqrt 2) / 2 and its inverse. */
inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
inline double normcdfinv(double p) { return -M_SQRT2 * erfcinv(2.0 * p); }
inline float normcdff(float x) { return static_cast<float>(normcdf(x)); }
inline float normcdfinvf(float p) { return static_cast<float>(normcdfinv(p)); }

/* Clamp to [+0, 1]; NaN gives +0. */
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

/* The fast intrinsics, here with the precise functions. */
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __tanhf(float x) { return tanhf(x); }
inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
inline float __powf(float x, float y) { return powf(x, y); }

#endif /* TGSIM_KERNEL_CUDA_MATH_FLOAT_H */
