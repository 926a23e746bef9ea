// The CUDA device library headers (sim/include/tgsim/kernel/cuda_vector_types.h, cuda_math.h):
// sizes and alignments, make_*, every math / integer / conversion intrinsic on representative
// values against hand-computed results, and the min/max overload set against nvcc's (the
// table below was produced by nvcc 13.0 with decltype/requires probes of max and min).
#include "tgsim/kernel/cuda_vector_types.h"
#include "tgsim/kernel/cuda_math.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace {

// ---- min / max overload resolution, as nvcc resolves it (void: ambiguous / no match) ----
template <class A, class B>
concept HasMax = requires(A a, B b) { max(a, b); };
template <class A, class B>
concept HasMin = requires(A a, B b) { min(a, b); };
template <class A, class B>
struct MaxOf { using type = void; };
template <class A, class B> requires HasMax<A, B>
struct MaxOf<A, B> { using type = decltype(max(std::declval<A>(), std::declval<B>())); };
template <class A, class B>
struct MinOf { using type = void; };
template <class A, class B> requires HasMin<A, B>
struct MinOf<A, B> { using type = decltype(min(std::declval<A>(), std::declval<B>())); };
#define TGSIM_OV(A, B, R)                                                     \
  static_assert(std::is_same_v<typename MaxOf<A, B>::type, R>, "max(" #A ", " #B ")"); \
  static_assert(std::is_same_v<typename MinOf<A, B>::type, R>, "min(" #A ", " #B ")")
  TGSIM_OV(int, int, int);
  TGSIM_OV(int, unsigned, unsigned);
  TGSIM_OV(int, long, void);
  TGSIM_OV(int, unsigned long, void);
  TGSIM_OV(int, long long, void);
  TGSIM_OV(int, unsigned long long, void);
  TGSIM_OV(int, float, void);
  TGSIM_OV(int, double, void);
  TGSIM_OV(int, short, int);
  TGSIM_OV(int, char, int);
  TGSIM_OV(int, unsigned char, int);
  TGSIM_OV(unsigned, int, unsigned);
  TGSIM_OV(unsigned, unsigned, unsigned);
  TGSIM_OV(unsigned, long, void);
  TGSIM_OV(unsigned, unsigned long, void);
  TGSIM_OV(unsigned, long long, void);
  TGSIM_OV(unsigned, unsigned long long, void);
  TGSIM_OV(unsigned, float, void);
  TGSIM_OV(unsigned, double, void);
  TGSIM_OV(unsigned, short, unsigned);
  TGSIM_OV(unsigned, char, unsigned);
  TGSIM_OV(unsigned, unsigned char, unsigned);
  TGSIM_OV(long, int, void);
  TGSIM_OV(long, unsigned, void);
  TGSIM_OV(long, long, long);
  TGSIM_OV(long, unsigned long, unsigned long);
  TGSIM_OV(long, long long, void);
  TGSIM_OV(long, unsigned long long, void);
  TGSIM_OV(long, float, void);
  TGSIM_OV(long, double, void);
  TGSIM_OV(long, short, void);
  TGSIM_OV(long, char, void);
  TGSIM_OV(long, unsigned char, void);
  TGSIM_OV(unsigned long, int, void);
  TGSIM_OV(unsigned long, unsigned, void);
  TGSIM_OV(unsigned long, long, unsigned long);
  TGSIM_OV(unsigned long, unsigned long, unsigned long);
  TGSIM_OV(unsigned long, long long, void);
  TGSIM_OV(unsigned long, unsigned long long, void);
  TGSIM_OV(unsigned long, float, void);
  TGSIM_OV(unsigned long, double, void);
  TGSIM_OV(unsigned long, short, void);
  TGSIM_OV(unsigned long, char, void);
  TGSIM_OV(unsigned long, unsigned char, void);
  TGSIM_OV(long long, int, void);
  TGSIM_OV(long long, unsigned, void);
  TGSIM_OV(long long, long, void);
  TGSIM_OV(long long, unsigned long, void);
  TGSIM_OV(long long, long long, long long);
  TGSIM_OV(long long, unsigned long long, unsigned long long);
  TGSIM_OV(long long, float, void);
  TGSIM_OV(long long, double, void);
  TGSIM_OV(long long, short, void);
  TGSIM_OV(long long, char, void);
  TGSIM_OV(long long, unsigned char, void);
  TGSIM_OV(unsigned long long, int, void);
  TGSIM_OV(unsigned long long, unsigned, void);
  TGSIM_OV(unsigned long long, long, void);
  TGSIM_OV(unsigned long long, unsigned long, void);
  TGSIM_OV(unsigned long long, long long, unsigned long long);
  TGSIM_OV(unsigned long long, unsigned long long, unsigned long long);
  TGSIM_OV(unsigned long long, float, void);
  TGSIM_OV(unsigned long long, double, void);
  TGSIM_OV(unsigned long long, short, void);
  TGSIM_OV(unsigned long long, char, void);
  TGSIM_OV(unsigned long long, unsigned char, void);
  TGSIM_OV(float, int, void);
  TGSIM_OV(float, unsigned, void);
  TGSIM_OV(float, long, void);
  TGSIM_OV(float, unsigned long, void);
  TGSIM_OV(float, long long, void);
  TGSIM_OV(float, unsigned long long, void);
  TGSIM_OV(float, float, float);
  TGSIM_OV(float, double, double);
  TGSIM_OV(float, short, void);
  TGSIM_OV(float, char, void);
  TGSIM_OV(float, unsigned char, void);
  TGSIM_OV(double, int, void);
  TGSIM_OV(double, unsigned, void);
  TGSIM_OV(double, long, void);
  TGSIM_OV(double, unsigned long, void);
  TGSIM_OV(double, long long, void);
  TGSIM_OV(double, unsigned long long, void);
  TGSIM_OV(double, float, double);
  TGSIM_OV(double, double, double);
  TGSIM_OV(double, short, void);
  TGSIM_OV(double, char, void);
  TGSIM_OV(double, unsigned char, void);
  TGSIM_OV(short, int, int);
  TGSIM_OV(short, unsigned, unsigned);
  TGSIM_OV(short, long, void);
  TGSIM_OV(short, unsigned long, void);
  TGSIM_OV(short, long long, void);
  TGSIM_OV(short, unsigned long long, void);
  TGSIM_OV(short, float, void);
  TGSIM_OV(short, double, void);
  TGSIM_OV(short, short, int);
  TGSIM_OV(short, char, int);
  TGSIM_OV(short, unsigned char, int);
  TGSIM_OV(char, int, int);
  TGSIM_OV(char, unsigned, unsigned);
  TGSIM_OV(char, long, void);
  TGSIM_OV(char, unsigned long, void);
  TGSIM_OV(char, long long, void);
  TGSIM_OV(char, unsigned long long, void);
  TGSIM_OV(char, float, void);
  TGSIM_OV(char, double, void);
  TGSIM_OV(char, short, int);
  TGSIM_OV(char, char, int);
  TGSIM_OV(char, unsigned char, int);
  TGSIM_OV(unsigned char, int, int);
  TGSIM_OV(unsigned char, unsigned, unsigned);
  TGSIM_OV(unsigned char, long, void);
  TGSIM_OV(unsigned char, unsigned long, void);
  TGSIM_OV(unsigned char, long long, void);
  TGSIM_OV(unsigned char, unsigned long long, void);
  TGSIM_OV(unsigned char, float, void);
  TGSIM_OV(unsigned char, double, void);
  TGSIM_OV(unsigned char, short, int);
  TGSIM_OV(unsigned char, char, int);
  TGSIM_OV(unsigned char, unsigned char, int);
#undef TGSIM_OV


TEST(CudaVectorTypes, SizesAlignmentsAndMake) {
  // (The header static_asserts every size and alignment; a few again here, and layout.)
  static_assert(alignof(char2) == 2 && alignof(uchar4) == 4 && alignof(short2) == 4 && alignof(short4) == 8);
  static_assert(alignof(int2) == 8 && alignof(float2) == 8 && sizeof(float3) == 12 && alignof(float3) == 4);
  static_assert(alignof(int4) == 16 && alignof(float4) == 16 && alignof(uint4) == 16);
  static_assert(alignof(double2) == 16 && alignof(longlong2) == 16 && alignof(long2) == 16);
  static_assert(alignof(double4_32a) == 32 && sizeof(double4_32a) == 32);
  static_assert(std::is_aggregate_v<int3> && std::is_trivially_copyable_v<double4>);
  constexpr float4 f = make_float4(1, 2, 3, 4);
  static_assert(f.x == 1 && f.w == 4);
  float4 g{5, 6, 7, 8};
  EXPECT_EQ(g.z, 7.0f);
  EXPECT_EQ(make_char1(-1).x, -1);
  EXPECT_EQ(make_char2(1, 2).y, 2);
  EXPECT_EQ(make_char3(1, 2, 3).z, 3);
  EXPECT_EQ(make_char4(1, 2, 3, -4).w, -4);
  EXPECT_EQ(make_uchar1(255).x, 255);
  EXPECT_EQ(make_uchar2(1, 2).y, 2);
  EXPECT_EQ(make_uchar3(1, 2, 3).z, 3);
  EXPECT_EQ(make_uchar4(1, 2, 3, 4).w, 4);
  EXPECT_EQ(make_short1(-7).x, -7);
  EXPECT_EQ(make_short2(1, 2).y, 2);
  EXPECT_EQ(make_short3(1, 2, 3).z, 3);
  EXPECT_EQ(make_short4(1, 2, 3, 4).w, 4);
  EXPECT_EQ(make_ushort1(65535).x, 65535);
  EXPECT_EQ(make_ushort2(1, 2).y, 2);
  EXPECT_EQ(make_ushort3(1, 2, 3).z, 3);
  EXPECT_EQ(make_ushort4(1, 2, 3, 4).w, 4);
  EXPECT_EQ(make_int1(-5).x, -5);
  EXPECT_EQ(make_int2(1, 2).y, 2);
  EXPECT_EQ(make_int3(1, 2, 3).z, 3);
  EXPECT_EQ(make_int4(1, 2, 3, 4).w, 4);
  EXPECT_EQ(make_uint1(7u).x, 7u);
  EXPECT_EQ(make_uint2(1, 2).y, 2u);
  EXPECT_EQ(make_uint3(1, 2, 3).z, 3u);
  EXPECT_EQ(make_uint4(1, 2, 3, 4).w, 4u);
  EXPECT_EQ(make_long1(-1L).x, -1L);
  EXPECT_EQ(make_long2(1, 2).y, 2L);
  EXPECT_EQ(make_long3(1, 2, 3).z, 3L);
  EXPECT_EQ(make_long4(1, 2, 3, 4).w, 4L);
  EXPECT_EQ(make_long4_16a(1, 2, 3, 4).w, 4L);
  EXPECT_EQ(make_long4_32a(1, 2, 3, 4).w, 4L);
  EXPECT_EQ(make_ulong1(1).x, 1UL);
  EXPECT_EQ(make_ulong2(1, 2).y, 2UL);
  EXPECT_EQ(make_ulong3(1, 2, 3).z, 3UL);
  EXPECT_EQ(make_ulong4(1, 2, 3, 4).w, 4UL);
  EXPECT_EQ(make_ulong4_16a(1, 2, 3, 4).w, 4UL);
  EXPECT_EQ(make_ulong4_32a(1, 2, 3, 4).w, 4UL);
  EXPECT_EQ(make_longlong1(-1).x, -1LL);
  EXPECT_EQ(make_longlong2(1, 2).y, 2LL);
  EXPECT_EQ(make_longlong3(1, 2, 3).z, 3LL);
  EXPECT_EQ(make_longlong4(1, 2, 3, 4).w, 4LL);
  EXPECT_EQ(make_longlong4_16a(1, 2, 3, 4).w, 4LL);
  EXPECT_EQ(make_longlong4_32a(1, 2, 3, 4).w, 4LL);
  EXPECT_EQ(make_ulonglong1(1).x, 1ULL);
  EXPECT_EQ(make_ulonglong2(1, 2).y, 2ULL);
  EXPECT_EQ(make_ulonglong3(1, 2, 3).z, 3ULL);
  EXPECT_EQ(make_ulonglong4(1, 2, 3, 4).w, 4ULL);
  EXPECT_EQ(make_ulonglong4_16a(1, 2, 3, 4).w, 4ULL);
  EXPECT_EQ(make_ulonglong4_32a(1, 2, 3, 4).w, 4ULL);
  EXPECT_EQ(make_float1(1.5f).x, 1.5f);
  EXPECT_EQ(make_float2(1, 2).y, 2.0f);
  EXPECT_EQ(make_float3(1, 2, 3).z, 3.0f);
  EXPECT_EQ(make_double1(0.25).x, 0.25);
  EXPECT_EQ(make_double2(1, 2).y, 2.0);
  EXPECT_EQ(make_double3(1, 2, 3).z, 3.0);
  EXPECT_EQ(make_double4(1, 2, 3, 4).w, 4.0);
  EXPECT_EQ(make_double4_16a(1, 2, 3, 4).w, 4.0);
  EXPECT_EQ(make_double4_32a(1, 2, 3, 4).w, 4.0);
}

TEST(CudaVectorTypes, Dim3) {
  constexpr dim3 a;
  static_assert(a.x == 1 && a.y == 1 && a.z == 1);
  constexpr dim3 b(16, 8);
  static_assert(b.x == 16 && b.y == 8 && b.z == 1);
  constexpr dim3 c(make_uint3(2, 3, 4));
  static_assert(c.x == 2 && c.y == 3 && c.z == 4);
  constexpr uint3 u = c;
  static_assert(u.x == 2 && u.z == 4);
  dim3 d = {4, 5};
  EXPECT_EQ(d.x * d.y * d.z, 20u);
}

TEST(CudaMathInt, BitCounts) {
  static_assert(__popc(0xF0F0u) == 8 && __popc(0u) == 0 && __popc(0xFFFFFFFFu) == 32);
  EXPECT_EQ(__popcll(0xFFFFFFFFFFFFFFFFull), 64);
  EXPECT_EQ(__popcll(0x8000000000000001ull), 2);
  EXPECT_EQ(__clz(0), 32);
  EXPECT_EQ(__clz(1), 31);
  EXPECT_EQ(__clz(-1), 0);
  EXPECT_EQ(__clzll(0), 64);
  EXPECT_EQ(__clzll(1LL << 40), 23);
  EXPECT_EQ(__ffs(0), 0);
  EXPECT_EQ(__ffs(0x18), 4);
  EXPECT_EQ(__ffs(INT_MIN), 32);
  EXPECT_EQ(__ffsll(0), 0);
  EXPECT_EQ(__ffsll(1LL << 40), 41);
  EXPECT_EQ(__brev(1u), 0x80000000u);
  EXPECT_EQ(__brev(0x12345678u), 0x1E6A2C48u);
  EXPECT_EQ(__brevll(1ull), 0x8000000000000000ull);
  EXPECT_EQ(__brevll(0x00000000000000F0ull), 0x0F00000000000000ull);
}

TEST(CudaMathInt, BytePermAndFunnelShifts) {
  static_assert(__byte_perm(0x33221100u, 0x77665544u, 0x5410u) == 0x55441100u);
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x3210u), 0x33221100u);
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x7654u), 0x77665544u);
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x0123u), 0x00112233u);  // byte swap
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x000Fu), 0x00000077u);  // selector & 7 (as an H100)
  EXPECT_EQ(__byte_perm(0x33221100u, 0x77665544u, 0x89ABu), 0x00112233u);
  EXPECT_EQ(__funnelshift_l(0x80000000u, 0x1u, 1), 0x3u);
  EXPECT_EQ(__funnelshift_l(0xFFFFFFFFu, 0x0u, 36), 0xFu);   // shift & 31 = 4
  EXPECT_EQ(__funnelshift_lc(0xFFFFFFFFu, 0x0u, 36), 0xFFFFFFFFu);  // clamped to 32: lo
  EXPECT_EQ(__funnelshift_r(0x1u, 0x3u, 1), 0x80000000u);
  EXPECT_EQ(__funnelshift_r(0x0u, 0xABu, 40), 0xAB000000u);  // shift & 31 = 8
  EXPECT_EQ(__funnelshift_rc(0x0u, 0xABu, 40), 0xABu);       // clamped to 32: hi
}

TEST(CudaMathInt, Multiplies) {
  EXPECT_EQ(__mul24(3, 4), 12);
  EXPECT_EQ(__mul24(0x00800000, 2), static_cast<int>(0xFF000000u));  // bit 23 is the sign
  EXPECT_EQ(__mul24(0x7F000005, 3), 15);                             // high 8 bits ignored
  EXPECT_EQ(__mul24(-2, 3), -6);
  EXPECT_EQ(__umul24(0xFF000002u, 3u), 6u);
  EXPECT_EQ(__umul24(0x00FFFFFFu, 0x00FFFFFFu), 0xFE000001u);  // low 32 bits of the product
  EXPECT_EQ(__mulhi(0x40000000, 8), 2);
  EXPECT_EQ(__mulhi(-1, 1), -1);
  EXPECT_EQ(__umulhi(0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFEu);
  EXPECT_EQ(__mul64hi(1LL << 62, 8), 2);
  EXPECT_EQ(__mul64hi(-1, 1), -1);
  EXPECT_EQ(__umul64hi(~0ull, ~0ull), ~0ull - 1);
}

TEST(CudaMathInt, AbsDiffAndHalvingAdds) {
  EXPECT_EQ(__sad(3, 10, 5u), 12u);
  EXPECT_EQ(__sad(INT_MIN, INT_MAX, 0u), 0xFFFFFFFFu);
  EXPECT_EQ(__usad(3u, 10u, 1u), 8u);
  EXPECT_EQ(__usad(0xFFFFFFFFu, 0u, 1u), 0u);  // wraps modulo 2^32
  EXPECT_EQ(__hadd(INT_MAX, INT_MAX), INT_MAX);
  EXPECT_EQ(__hadd(-3, 0), -2);  // floor(-1.5)
  EXPECT_EQ(__rhadd(-3, 0), -1);
  EXPECT_EQ(__rhadd(1, 2), 2);
  EXPECT_EQ(__uhadd(0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFFu);
  EXPECT_EQ(__urhadd(0xFFFFFFFFu, 0u), 0x80000000u);
  EXPECT_EQ(__uhadd(1u, 2u), 1u);
}

TEST(CudaMathMinMax, ValuesAndMixedSigns) {
  EXPECT_EQ(min(3, -4), -4);
  EXPECT_EQ(max(3, -4), 3);
  EXPECT_EQ(min(-1, 1u), 1u);  // -1 converts to 0xFFFFFFFF first, as in CUDA
  EXPECT_EQ(max(-1, 1u), 0xFFFFFFFFu);
  EXPECT_EQ(min(2u, -1), 2u);
  EXPECT_EQ(max(2u, -1), 0xFFFFFFFFu);
  EXPECT_EQ(min(5L, 6L), 5L);
  EXPECT_EQ(max(-1L, 0UL), ~0UL);
  EXPECT_EQ(min(0UL, -1L), 0UL);
  EXPECT_EQ(max(7ULL, 8ULL), 8ULL);
  EXPECT_EQ(min(-1LL, 0ULL), 0ULL);
  EXPECT_EQ(max(0ULL, -1LL), ~0ULL);
  EXPECT_EQ(max(0.0f, -2.5f), 0.0f);
  EXPECT_EQ(min(0.0f, -2.5f), -2.5f);
  EXPECT_EQ(max(NAN, 1.0f), 1.0f);  // fmaxf: the non-NaN argument
  EXPECT_EQ(min(1.0, NAN), 1.0);
  EXPECT_EQ(max(1.0f, 2.0), 2.0);
  EXPECT_EQ(min(1.0, 2.0f), 1.0);
  EXPECT_EQ(max(0.5, 0.25f), 0.5);
  EXPECT_EQ(min(0.5f, 0.25), 0.25);
  EXPECT_EQ(umin(1u, 2u), 1u);
  EXPECT_EQ(umax(1u, 2u), 2u);
  EXPECT_EQ(llmin(-5LL, 5LL), -5LL);
  EXPECT_EQ(llmax(-5LL, 5LL), 5LL);
  EXPECT_EQ(ullmin(1ULL, 2ULL), 1ULL);
  EXPECT_EQ(ullmax(1ULL, 2ULL), 2ULL);
  static_assert(max(3, 4) == 4 && min(3u, 4u) == 3u);
}

TEST(CudaMathMinMax, Ldg) {
  const float f[2] = {1.5f, 2.5f};
  EXPECT_EQ(__ldg(f + 1), 2.5f);
  const float4 v = make_float4(1, 2, 3, 4);
  EXPECT_EQ(__ldg(&v).w, 4.0f);
  int i = 7;
  EXPECT_EQ(__ldg(&i), 7);
  const uchar4 c = make_uchar4(9, 8, 7, 6);
  EXPECT_EQ(__ldg(&c).y, 8);
}

}  // namespace
