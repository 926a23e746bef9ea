/* CUDA's global min/max overload set and __ldg, for kernels tgsim compiles as plain C++.
 *
 * Models CUDA 13's crt/math_functions.h: min and max for (int, int), (unsigned, unsigned),
 * (int, unsigned), (unsigned, int), the same four for long / unsigned long and for long long /
 * unsigned long long, (float, float), (double, double), (float, double), (double, float); the
 * mixed signed/unsigned ones convert the signed argument to unsigned first (so min(-1, 1u) is
 * 1u), the floating ones behave as fminf/fmin (a NaN argument yields the other one). As with
 * nvcc, calls that mix an integer and a floating argument (max(x, 0) with float x) or two
 * integer widths (min(1L, 2)) are ambiguous and do not compile; umin, umax, llmin, llmax,
 * ullmin, ullmax are provided too.
 * __ldg(p) is a plain load (*p) for any T; CUDA's read-only cache path is not modelled here; so are
 * the other cache-hint loads and stores (__ldca ... __stwt). */
#ifndef TGSIM_KERNEL_CUDA_MATH_MINMAX_H
#define TGSIM_KERNEL_CUDA_MATH_MINMAX_H

#include <cmath>

#define TGSIM_MINMAX_SAME(T)                                          \
  inline constexpr T min(const T a, const T b) { return a < b ? a : b; } \
  inline constexpr T max(const T a, const T b) { return a > b ? a : b; }
#define TGSIM_MINMAX_MIXED(S, U)                                                              \
  inline constexpr U min(const S a, const U b) { return min(static_cast<U>(a), b); }          \
  inline constexpr U min(const U a, const S b) { return min(a, static_cast<U>(b)); }          \
  inline constexpr U max(const S a, const U b) { return max(static_cast<U>(a), b); }          \
  inline constexpr U max(const U a, const S b) { return max(a, static_cast<U>(b)); }

TGSIM_MINMAX_SAME(int)
TGSIM_MINMAX_SAME(unsigned int)
TGSIM_MINMAX_SAME(long)
TGSIM_MINMAX_SAME(unsigned long)
TGSIM_MINMAX_SAME(long long)
TGSIM_MINMAX_SAME(unsigned long long)
TGSIM_MINMAX_MIXED(int, unsigned int)
TGSIM_MINMAX_MIXED(long, unsigned long)
TGSIM_MINMAX_MIXED(long long, unsigned long long)
#undef TGSIM_MINMAX_SAME
#undef TGSIM_MINMAX_MIXED

inline float min(const float a, const float b) { return fminf(a, b); }
inline float max(const float a, const float b) { return fmaxf(a, b); }
inline double min(const double a, const double b) { return fmin(a, b); }
inline double max(const double a, const double b) { return fmax(a, b); }
inline double min(const float a, const double b) { return fmin(static_cast<double>(a), b); }
inline double min(const double a, const float b) { return fmin(a, static_cast<double>(b)); }
inline double max(const float a, const double b) { return fmax(static_cast<double>(a), b); }
inline double max(const double a, const float b) { return fmax(a, static_cast<double>(b)); }

/* nvcc declares these for device code only, so host code (a .cpp nvcc compiles with the host
 * compiler) may define its own, `static uint umin(uint, uint)` as cuda-samples do: here they are
 * templates, which a program's function of the same name and signature overloads and wins over. */
template <class = void> inline constexpr unsigned int umin(const unsigned int a, const unsigned int b) {
  return min(a, b);
}
template <class = void> inline constexpr unsigned int umax(const unsigned int a, const unsigned int b) {
  return max(a, b);
}
template <class = void> inline constexpr long long llmin(const long long a, const long long b) { return min(a, b); }
template <class = void> inline constexpr long long llmax(const long long a, const long long b) { return max(a, b); }
template <class = void>
inline constexpr unsigned long long ullmin(const unsigned long long a, const unsigned long long b) {
  return min(a, b);
}
template <class = void>
inline constexpr unsigned long long ullmax(const unsigned long long a, const unsigned long long b) {
  return max(a, b);
}

/* __ldg: load through the read-only data cache on a GPU; here a plain load. The other cache-hint
 * loads (__ldca: cache at all levels, __ldcg: L2 only, __ldcs: streaming, __ldlu: last use,
 * __ldcv: volatile) and stores (__stwb: write back, __stcg: L2 only, __stcs: streaming, __stwt:
 * write through) are counted as the plain access of their width, for every type. */
template <class T>
inline T __ldg(const T* p) {
  return *p;
}
template <class T>
inline T __ldca(const T* p) {
  return *p;
}
template <class T>
inline T __ldcg(const T* p) {
  return *p;
}
template <class T>
inline T __ldcs(const T* p) {
  return *p;
}
template <class T>
inline T __ldlu(const T* p) {
  return *p;
}
template <class T>
inline T __ldcv(const T* p) {
  return *const_cast<const volatile T*>(p);
}
template <class T>
inline void __stwb(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stcg(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stcs(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stwt(T* p, T v) {
  *p = v;
}

#endif /* TGSIM_KERNEL_CUDA_MATH_MINMAX_H */
