/* CUDA's integer intrinsics, for kernels tgsim compiles as plain C++.
 *
 * Models the CUDA 13 Math API integer intrinsics (crt/device_functions.h, sm_32_intrinsics.h)
 * bit for bit: __popc, __popcll, __clz, __clzll, __ffs, __ffsll, __brev, __brevll,
 * __byte_perm, __mul24, __umul24, __mulhi, __umulhi, __mul64hi, __umul64hi, __sad, __usad,
 * __hadd, __uhadd, __rhadd, __urhadd, __funnelshift_l / r / lc / rc. No simplification: each is
 * exact; all are constexpr. The SIMD-in-a-word __v* family and __dp4a / __dp2a are in
 * cuda_math_simd.h. Not modelled: __fns, __nv_* internals. */
#ifndef TGSIM_KERNEL_CUDA_MATH_INT_H
#define TGSIM_KERNEL_CUDA_MATH_INT_H

#include <cstdint>

inline constexpr int __popc(unsigned int x) { return __builtin_popcount(x); }
inline constexpr int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
/* Leading zeros; 32 (64) for 0. */
inline constexpr int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline constexpr int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
/* Position of the least significant set bit, from 1; 0 for 0. */
inline constexpr int __ffs(int x) { return x == 0 ? 0 : __builtin_ctz(static_cast<unsigned>(x)) + 1; }
inline constexpr int __ffsll(long long x) {
  return x == 0 ? 0 : __builtin_ctzll(static_cast<unsigned long long>(x)) + 1;
}
inline constexpr unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
}
inline constexpr unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
/* Byte n of the result is byte ((s >> 4n) & 7) of the 8-byte value y:x (x the low word). */
inline constexpr unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  const unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int r = 0;
  for (int n = 0; n < 4; ++n) {
    const unsigned sel = (s >> (4 * n)) & 7u;
    r |= static_cast<unsigned int>((v >> (8 * sel)) & 0xFFu) << (8 * n);
  }
  return r;
}
/* 24-bit multiplies: the low 24 bits of each operand (sign-extended for __mul24), the low 32
 * bits of the product. */
inline constexpr int __mul24(int x, int y) {
  const int64_t a = static_cast<int32_t>(static_cast<uint32_t>(x) << 8) >> 8;
  const int64_t b = static_cast<int32_t>(static_cast<uint32_t>(y) << 8) >> 8;
  return static_cast<int>(static_cast<uint32_t>(static_cast<uint64_t>(a * b)));
}
inline constexpr unsigned int __umul24(unsigned int x, unsigned int y) {
  return static_cast<unsigned>((static_cast<uint64_t>(x & 0xFFFFFFu) * (y & 0xFFFFFFu)));
}
/* The high half of the full product. */
inline constexpr int __mulhi(int x, int y) {
  return static_cast<int>((static_cast<int64_t>(x) * y) >> 32);
}
inline constexpr unsigned int __umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned>((static_cast<uint64_t>(x) * y) >> 32);
}
inline constexpr long long __mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline constexpr unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
/* |x - y| + z (modulo 2^32). */
inline constexpr unsigned int __sad(int x, int y, unsigned int z) {
  const unsigned d = x > y ? static_cast<unsigned>(x) - static_cast<unsigned>(y)
                           : static_cast<unsigned>(y) - static_cast<unsigned>(x);
  return d + z;
}
inline constexpr unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return (x > y ? x - y : y - x) + z;
}
/* Halving adds without intermediate overflow: (x + y) >> 1 and (x + y + 1) >> 1. */
inline constexpr int __hadd(int x, int y) {
  return static_cast<int>((static_cast<int64_t>(x) + y) >> 1);
}
inline constexpr int __rhadd(int x, int y) {
  return static_cast<int>((static_cast<int64_t>(x) + y + 1) >> 1);
}
inline constexpr unsigned int __uhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned>((static_cast<uint64_t>(x) + y) >> 1);
}
inline constexpr unsigned int __urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned>((static_cast<uint64_t>(x) + y + 1) >> 1);
}
/* Funnel shifts of the 64-bit value hi:lo. _l / _r take the shift modulo 32, _lc / _rc clamp
 * it to 32; _l returns the high word of the left shift, _r the low word of the right shift. */
inline constexpr unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  const uint64_t v = (static_cast<uint64_t>(hi) << 32) | lo;
  return static_cast<unsigned>((v << (shift & 31u)) >> 32);
}
inline constexpr unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const uint64_t v = (static_cast<uint64_t>(hi) << 32) | lo;
  return static_cast<unsigned>((v << (shift < 32u ? shift : 32u)) >> 32);
}
inline constexpr unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  const uint64_t v = (static_cast<uint64_t>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> (shift & 31u));
}
inline constexpr unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  const uint64_t v = (static_cast<uint64_t>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> (shift < 32u ? shift : 32u));
}

#endif /* TGSIM_KERNEL_CUDA_MATH_INT_H */
