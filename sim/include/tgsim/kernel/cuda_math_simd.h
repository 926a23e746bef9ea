/* CUDA's SIMD-within-a-word intrinsics and dot products, for kernels tgsim compiles as plain C++.
 *
 * Models the CUDA 13 Math API's __v*2 (two 16-bit lanes) and __v*4 (four 8-bit lanes) family
 * lane by lane: __vabs, __vabsss, __vabsdiffs/u, __vadd, __vaddss/us, __vavgs/u, __vhaddu,
 * __vcmp{eq,ne,ges,geu,gts,gtu,les,leu,lts,ltu} (all ones per true lane), __vset{...} (1 per true
 * lane), __vmaxs/u, __vmins/u, __vneg, __vnegss, __vsads/u (the sum over lanes), __vsub,
 * __vsubss/us; and __dp4a, __dp2a_lo, __dp2a_hi. A lane's result is truncated to the lane, as on
 * the GPU; the averages round half up ((a + b + 1) >> 1, PTX's vavrg), __vhaddu truncates. */
#ifndef TGSIM_KERNEL_CUDA_MATH_SIMD_H
#define TGSIM_KERNEL_CUDA_MATH_SIMD_H

namespace tgsim_cuda {

/* Lane i of x (Bits wide), sign-extended when Signed. */
template <int Bits, bool Signed>
inline constexpr int simd_lane(unsigned x, int i) {
  const unsigned v = (x >> (i * Bits)) & ((1u << Bits) - 1u);
  if (Signed && (v >> (Bits - 1))) return static_cast<int>(v) - (1 << Bits);
  return static_cast<int>(v);
}

/* f applied lane by lane to a and b, each result truncated to its lane. */
template <int Bits, bool Signed, class F>
inline constexpr unsigned simd(unsigned a, unsigned b, F f) {
  unsigned r = 0;
  for (int i = 0; i < 32 / Bits; ++i)
    r |= (static_cast<unsigned>(f(simd_lane<Bits, Signed>(a, i), simd_lane<Bits, Signed>(b, i))) &
          ((1u << Bits) - 1u))
         << (i * Bits);
  return r;
}

/* Saturation to a lane's range. */
template <int Bits, bool Signed>
inline constexpr int simd_sat(int v) {
  const int lo = Signed ? -(1 << (Bits - 1)) : 0, hi = Signed ? (1 << (Bits - 1)) - 1 : (1 << Bits) - 1;
  return v < lo ? lo : v > hi ? hi : v;
}

/* The sum over lanes of |a - b|. */
template <int Bits, bool Signed>
inline constexpr unsigned simd_sad(unsigned a, unsigned b) {
  unsigned s = 0;
  for (int i = 0; i < 32 / Bits; ++i) {
    const int d = simd_lane<Bits, Signed>(a, i) - simd_lane<Bits, Signed>(b, i);
    s += static_cast<unsigned>(d < 0 ? -d : d);
  }
  return s;
}

}  // namespace tgsim_cuda

#define TGSIM_SIMD_PAIR(name, bits, sgn, expr)                                          \
  inline constexpr unsigned name(unsigned a, unsigned b) {                                \
    return tgsim_cuda::simd<bits, sgn>(a, b, [](int x, int y) constexpr { return expr; }); \
  }
#define TGSIM_SIMD_BOTH(stem, sgn, expr)  \
  TGSIM_SIMD_PAIR(stem##2, 16, sgn, expr) \
  TGSIM_SIMD_PAIR(stem##4, 8, sgn, expr)

TGSIM_SIMD_BOTH(__vadd, false, x + y)
TGSIM_SIMD_BOTH(__vsub, false, x - y)
TGSIM_SIMD_PAIR(__vaddss2, 16, true, (tgsim_cuda::simd_sat<16, true>(x + y)))
TGSIM_SIMD_PAIR(__vaddss4, 8, true, (tgsim_cuda::simd_sat<8, true>(x + y)))
TGSIM_SIMD_PAIR(__vaddus2, 16, false, (tgsim_cuda::simd_sat<16, false>(x + y)))
TGSIM_SIMD_PAIR(__vaddus4, 8, false, (tgsim_cuda::simd_sat<8, false>(x + y)))
TGSIM_SIMD_PAIR(__vsubss2, 16, true, (tgsim_cuda::simd_sat<16, true>(x - y)))
TGSIM_SIMD_PAIR(__vsubss4, 8, true, (tgsim_cuda::simd_sat<8, true>(x - y)))
TGSIM_SIMD_PAIR(__vsubus2, 16, false, (tgsim_cuda::simd_sat<16, false>(x - y)))
TGSIM_SIMD_PAIR(__vsubus4, 8, false, (tgsim_cuda::simd_sat<8, false>(x - y)))
TGSIM_SIMD_BOTH(__vavgs, true, (x + y + 1) >> 1)
TGSIM_SIMD_BOTH(__vavgu, false, (x + y + 1) >> 1)
TGSIM_SIMD_BOTH(__vhaddu, false, (x + y) >> 1)
TGSIM_SIMD_BOTH(__vabsdiffs, true, x > y ? x - y : y - x)
TGSIM_SIMD_BOTH(__vabsdiffu, false, x > y ? x - y : y - x)
TGSIM_SIMD_BOTH(__vmaxs, true, x > y ? x : y)
TGSIM_SIMD_BOTH(__vmaxu, false, x > y ? x : y)
TGSIM_SIMD_BOTH(__vmins, true, x < y ? x : y)
TGSIM_SIMD_BOTH(__vminu, false, x < y ? x : y)
TGSIM_SIMD_BOTH(__vcmpeq, false, x == y ? -1 : 0)
TGSIM_SIMD_BOTH(__vcmpne, false, x != y ? -1 : 0)
TGSIM_SIMD_BOTH(__vcmpges, true, x >= y ? -1 : 0)
TGSIM_SIMD_BOTH(__vcmpgeu, false, x >= y ? -1 : 0)
TGSIM_SIMD_BOTH(__vcmpgts, true, x > y ? -1 : 0)
TGSIM_SIMD_BOTH(__vcmpgtu, false, x > y ? -1 : 0)
TGSIM_SIMD_BOTH(__vcmples, true, x <= y ? -1 : 0)
TGSIM_SIMD_BOTH(__vcmpleu, false, x <= y ? -1 : 0)
TGSIM_SIMD_BOTH(__vcmplts, true, x < y ? -1 : 0)
TGSIM_SIMD_BOTH(__vcmpltu, false, x < y ? -1 : 0)
TGSIM_SIMD_BOTH(__vseteq, false, x == y)
TGSIM_SIMD_BOTH(__vsetne, false, x != y)
TGSIM_SIMD_BOTH(__vsetges, true, x >= y)
TGSIM_SIMD_BOTH(__vsetgeu, false, x >= y)
TGSIM_SIMD_BOTH(__vsetgts, true, x > y)
TGSIM_SIMD_BOTH(__vsetgtu, false, x > y)
TGSIM_SIMD_BOTH(__vsetles, true, x <= y)
TGSIM_SIMD_BOTH(__vsetleu, false, x <= y)
TGSIM_SIMD_BOTH(__vsetlts, true, x < y)
TGSIM_SIMD_BOTH(__vsetltu, false, x < y)

#undef TGSIM_SIMD_BOTH
#undef TGSIM_SIMD_PAIR

inline constexpr unsigned __vabs2(unsigned a) { return __vabsdiffs2(a, 0u); }
inline constexpr unsigned __vabs4(unsigned a) { return __vabsdiffs4(a, 0u); }
inline constexpr unsigned __vneg2(unsigned a) { return __vsub2(0u, a); }
inline constexpr unsigned __vneg4(unsigned a) { return __vsub4(0u, a); }
inline constexpr unsigned __vnegss2(unsigned a) { return __vsubss2(0u, a); }
inline constexpr unsigned __vnegss4(unsigned a) { return __vsubss4(0u, a); }
inline constexpr unsigned __vabsss2(unsigned a) { return __vmaxs2(a, __vnegss2(a)); }  /* -32768 -> 32767 */
inline constexpr unsigned __vabsss4(unsigned a) { return __vmaxs4(a, __vnegss4(a)); }  /* -128 -> 127 */
inline constexpr unsigned __vsads2(unsigned a, unsigned b) { return tgsim_cuda::simd_sad<16, true>(a, b); }
inline constexpr unsigned __vsads4(unsigned a, unsigned b) { return tgsim_cuda::simd_sad<8, true>(a, b); }
inline constexpr unsigned __vsadu2(unsigned a, unsigned b) { return tgsim_cuda::simd_sad<16, false>(a, b); }
inline constexpr unsigned __vsadu4(unsigned a, unsigned b) { return tgsim_cuda::simd_sad<8, false>(a, b); }

namespace tgsim_cuda {

/* c plus the products of a's lanes (Lanes of 32/Lanes bits) with b's bytes from byte `first` on. */
template <int Lanes, bool Signed, class T>
inline constexpr T dot(T a, T b, T c, int first) {
  for (int i = 0; i < Lanes; ++i)
    c += static_cast<T>(simd_lane<32 / Lanes, Signed>(static_cast<unsigned>(a), i) *
                        simd_lane<8, Signed>(static_cast<unsigned>(b), first + i));
  return c;
}

}  // namespace tgsim_cuda

/* Dot products of bytes, and of 16-bit halves with the low (_lo) or high (_hi) bytes of b,
 * accumulated into c. */
inline constexpr int __dp4a(int a, int b, int c) { return tgsim_cuda::dot<4, true>(a, b, c, 0); }
inline constexpr unsigned __dp4a(unsigned a, unsigned b, unsigned c) { return tgsim_cuda::dot<4, false>(a, b, c, 0); }
inline constexpr int __dp2a_lo(int a, int b, int c) { return tgsim_cuda::dot<2, true>(a, b, c, 0); }
inline constexpr int __dp2a_hi(int a, int b, int c) { return tgsim_cuda::dot<2, true>(a, b, c, 2); }
inline constexpr unsigned __dp2a_lo(unsigned a, unsigned b, unsigned c) { return tgsim_cuda::dot<2, false>(a, b, c, 0); }
inline constexpr unsigned __dp2a_hi(unsigned a, unsigned b, unsigned c) { return tgsim_cuda::dot<2, false>(a, b, c, 2); }

#endif /* TGSIM_KERNEL_CUDA_MATH_SIMD_H */
