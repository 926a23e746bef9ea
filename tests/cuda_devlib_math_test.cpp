// The CUDA device library's floating-point side (tgsim/kernel/cuda_math.h): the math functions
// libm lacks, the fast intrinsics, rounding-mode arithmetic, conversions and bit casts, each on
// representative values against hand-computed results. Part of cuda_devlib_test.
#include "tgsim/kernel/cuda_vector_types.h"
#include "tgsim/kernel/cuda_math.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <climits>
#include <cmath>

namespace {

const float kUp1 = std::nextafter(1.0f, 2.0f);    // 1 + 2^-23
const float kDown1 = std::nextafter(1.0f, 0.0f);  // 1 - 2^-24
const float kThird = 1.0f / 3.0f;  // 0x1.555556p-2: rounds up (the bits after the 24th are 1010..)
const float kThirdDown = std::nextafter(kThird, 0.0f);
const double kUp1d = std::nextafter(1.0, 2.0);
const double kDown1d = std::nextafter(1.0, 0.0);

TEST(CudaMathFloat, CmathIsVisibleGlobally) {
  EXPECT_EQ(sqrtf(4.0f), 2.0f);
  EXPECT_EQ(fmaf(2.0f, 3.0f, 1.0f), 7.0f);
  EXPECT_EQ(fminf(1.0f, 2.0f), 1.0f);
  EXPECT_FLOAT_EQ(expf(1.0f), 2.7182817f);
  EXPECT_EQ(exp10f(2.0f), 100.0f);
  EXPECT_DOUBLE_EQ(exp10(3.0), 1000.0);
  float s, c;
  sincosf(0.0f, &s, &c);
  EXPECT_EQ(s, 0.0f);
  EXPECT_EQ(c, 1.0f);
  double sd, cd;
  sincos(0.0, &sd, &cd);
  EXPECT_EQ(cd, 1.0);
}

TEST(CudaMathFloat, Reciprocals) {
  EXPECT_EQ(rsqrtf(4.0f), 0.5f);
  EXPECT_EQ(rsqrtf(0.0f), INFINITY);
  EXPECT_TRUE(std::isnan(rsqrtf(-1.0f)));
  EXPECT_EQ(rsqrt(16.0), 0.25);
  EXPECT_EQ(rcbrtf(8.0f), 0.5f);
  EXPECT_DOUBLE_EQ(rcbrt(-27.0), -1.0 / 3.0);  // glibc cbrt(27) is within an ulp of 3
  EXPECT_EQ(__frsqrt_rn(0.25f), 2.0f);
}

TEST(CudaMathFloat, Division) {
  EXPECT_EQ(fdividef(1.0f, 4.0f), 0.25f);
  EXPECT_EQ(fdivide(1.0, 8.0), 0.125);
  EXPECT_EQ(__fdividef(3.0f, 2.0f), 1.5f);
  EXPECT_EQ(__fdividef(1e30f, 0x1p127f), 0.0f);  // CUDA: 0 for 2^126 < |y| < 2^128
  EXPECT_TRUE(std::isnan(__fdividef(INFINITY, 0x1p127f)));
  EXPECT_EQ(__fdividef(1.0f, 0x1p125f), 0x1p-125f);
}

TEST(CudaMathFloat, SinCosPi) {
  EXPECT_EQ(sinpif(1.0f), 0.0f);
  EXPECT_FALSE(std::signbit(sinpif(3.0f)));
  EXPECT_TRUE(std::signbit(sinpif(-2.0f)));
  EXPECT_EQ(sinpif(0.5f), 1.0f);
  EXPECT_EQ(sinpif(-0.5f), -1.0f);
  EXPECT_EQ(sinpif(1.5f), -1.0f);
  EXPECT_FLOAT_EQ(sinpif(0.25f), 0.70710678f);
  EXPECT_FLOAT_EQ(sinpif(1e6f + 0.25f), 0.70710678f);  // no large-argument error
  EXPECT_EQ(cospif(0.5f), 0.0f);
  EXPECT_EQ(cospif(1.0f), -1.0f);
  EXPECT_EQ(cospif(-2.0f), 1.0f);
  EXPECT_FLOAT_EQ(cospif(1.0f / 3.0f), 0.5f);
  EXPECT_TRUE(std::isnan(cospif(INFINITY)));
  EXPECT_EQ(sinpi(2.5), 1.0);
  EXPECT_DOUBLE_EQ(cospi(0.75), -0.70710678118654752);
  float s, c;
  sincospif(1.0f / 6.0f, &s, &c);
  EXPECT_FLOAT_EQ(s, 0.5f);
  EXPECT_FLOAT_EQ(c, 0.8660254f);
  double sd, cd;
  sincospi(1.0, &sd, &cd);
  EXPECT_EQ(sd, 0.0);
  EXPECT_EQ(cd, -1.0);
}

TEST(CudaMathFloat, Norms) {
  EXPECT_EQ(norm3df(2, 3, 6), 7.0f);
  EXPECT_EQ(rnorm3df(2, 3, 6), 1.0f / 7.0f);
  EXPECT_EQ(norm3df(3e30f, 4e30f, 0), 5e30f);  // no intermediate overflow
  EXPECT_EQ(norm4df(1, 1, 1, 1), 2.0f);
  EXPECT_EQ(rnorm4df(1, 1, 1, 1), 0.5f);
  const float v[4] = {2, 4, 5, 6};
  EXPECT_EQ(normf(4, v), 9.0f);
  EXPECT_FLOAT_EQ(rnormf(4, v), 1.0f / 9.0f);
  EXPECT_EQ(rhypotf(3, 4), 0.2f);
  EXPECT_EQ(norm3d(2, 3, 6), 7.0);
  EXPECT_DOUBLE_EQ(rnorm3d(2, 3, 6), 1.0 / 7.0);
  EXPECT_EQ(norm4d(1, 1, 1, 1), 2.0);
  EXPECT_EQ(rnorm4d(2, 2, 2, 2), 0.25);
  const double w[3] = {2, 3, 6};
  EXPECT_DOUBLE_EQ(norm(3, w), 7.0);
  EXPECT_DOUBLE_EQ(rnorm(3, w), 1.0 / 7.0);
  EXPECT_DOUBLE_EQ(rhypot(6, 8), 0.1);
}

TEST(CudaMathFloat, ErrorFunctionsAndNormalDistribution) {
  for (double x : {-0.999, -0.5, -1e-5, 0.1, 0.5, 0.9, 0.999999})
    EXPECT_NEAR(erf(erfinv(x)), x, 1e-15) << x;
  EXPECT_EQ(erfinv(1.0), INFINITY);
  EXPECT_EQ(erfinv(-1.0), -INFINITY);
  EXPECT_TRUE(std::isnan(erfinv(1.5)));
  for (double y : {1e-300, 1e-20, 0.01, 0.5, 1.0, 1.5, 1.99})
    EXPECT_NEAR(erfc(erfcinv(y)) / y, 1.0, 1e-13) << y;
  EXPECT_EQ(erfcinv(0.0), INFINITY);
  EXPECT_EQ(erfcinv(2.0), -INFINITY);
  EXPECT_TRUE(std::isnan(erfcinv(-0.1)));
  EXPECT_EQ(erfcinv(1.0), 0.0);
  EXPECT_FLOAT_EQ(erfinvf(0.5f), 0.47693628f);
  EXPECT_FLOAT_EQ(erfcinvf(0.5f), 0.47693628f);
  EXPECT_FLOAT_EQ(erfcinvf(1e-10f), 4.5728249f);
  EXPECT_DOUBLE_EQ(erfcx(0.0), 1.0);
  EXPECT_NEAR(erfcx(30.0), 0.018795888861416751, 1e-17);  // asymptotic branch
  // 1/(24 sqrt(pi)) (1 - 1/1152 + 3/1327104) = 0.02348750...
  EXPECT_NEAR(erfcx(24.0), 0.0234875, 1e-7);
  EXPECT_FLOAT_EQ(erfcxf(1.0f), 0.42758358f);
  EXPECT_EQ(normcdff(0.0f), 0.5f);
  EXPECT_FLOAT_EQ(normcdff(1.0f), 0.84134475f);
  EXPECT_FLOAT_EQ(normcdff(-3.0f), 0.0013498980f);
  EXPECT_DOUBLE_EQ(normcdf(1.96), 0.97500210485177952);
  EXPECT_NEAR(normcdfinv(0.975), 1.959963984540054, 1e-14);
  EXPECT_FLOAT_EQ(normcdfinvf(0.5f), 0.0f);
  EXPECT_FLOAT_EQ(normcdfinvf(0.84134475f), 1.0f);
}

TEST(CudaMathFloat, SaturateAndFastIntrinsics) {
  EXPECT_EQ(__saturatef(-1.0f), 0.0f);
  EXPECT_EQ(__saturatef(2.0f), 1.0f);
  EXPECT_EQ(__saturatef(0.25f), 0.25f);
  EXPECT_EQ(__saturatef(NAN), 0.0f);
  EXPECT_FALSE(std::signbit(__saturatef(-0.0f)));
  EXPECT_FLOAT_EQ(__expf(1.0f), 2.7182817f);
  EXPECT_FLOAT_EQ(__exp10f(-1.0f), 0.1f);
  EXPECT_EQ(__logf(1.0f), 0.0f);
  EXPECT_EQ(__log2f(8.0f), 3.0f);
  EXPECT_EQ(__log10f(1000.0f), 3.0f);
  EXPECT_FLOAT_EQ(__sinf(1.0f), 0.84147098f);
  EXPECT_FLOAT_EQ(__cosf(1.0f), 0.54030231f);
  EXPECT_FLOAT_EQ(__tanf(1.0f), 1.5574077f);
  EXPECT_FLOAT_EQ(__tanhf(1.0f), 0.76159416f);
  float s, c;
  __sincosf(0.5f, &s, &c);
  EXPECT_FLOAT_EQ(s, 0.47942554f);
  EXPECT_FLOAT_EQ(c, 0.87758256f);
  EXPECT_EQ(__powf(2.0f, 10.0f), 1024.0f);
}

TEST(CudaMathRound, FloatArithmetic) {
  const float tiny = 0x1p-30f;  // 1 + tiny is not a float: rn/rz/rd give 1, ru the next one
  EXPECT_EQ(__fadd_rn(1.0f, tiny), 1.0f);
  EXPECT_EQ(__fadd_rz(1.0f, tiny), 1.0f);
  EXPECT_EQ(__fadd_ru(1.0f, tiny), kUp1);
  EXPECT_EQ(__fadd_rd(1.0f, tiny), 1.0f);
  EXPECT_EQ(__fadd_rz(-1.0f, -tiny), -1.0f);
  EXPECT_EQ(__fadd_rd(-1.0f, -tiny), -kUp1);
  EXPECT_EQ(__fadd_rz(FLT_MAX, FLT_MAX), FLT_MAX);  // overflow: rz and rd stay finite
  EXPECT_EQ(__fadd_rn(FLT_MAX, FLT_MAX), INFINITY);
  EXPECT_EQ(__fadd_rd(FLT_MAX, FLT_MAX), FLT_MAX);
  EXPECT_EQ(__fadd_ru(INFINITY, 1.0f), INFINITY);
  EXPECT_EQ(__fsub_rn(1.0f, tiny), 1.0f);
  EXPECT_EQ(__fsub_rz(1.0f, tiny), kDown1);
  EXPECT_EQ(__fsub_ru(1.0f, tiny), 1.0f);
  EXPECT_EQ(__fsub_rd(1.0f, tiny), kDown1);
  const float a = kUp1;  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46
  EXPECT_EQ(__fmul_rn(a, a), 1.0f + 0x1p-22f);
  EXPECT_EQ(__fmul_rz(a, a), 1.0f + 0x1p-22f);
  EXPECT_EQ(__fmul_ru(a, a), 1.0f + 0x1p-22f + 0x1p-23f);
  EXPECT_EQ(__fmul_rd(a, a), 1.0f + 0x1p-22f);
  EXPECT_EQ(__fmul_ru(0x1p-100f, 0x1p-100f), 0x1p-149f);  // underflow: smallest subnormal
  EXPECT_EQ(__fmul_rd(0x1p-100f, 0x1p-100f), 0.0f);
  EXPECT_EQ(__fdiv_rn(1.0f, 3.0f), kThird);
  EXPECT_EQ(__fdiv_rz(1.0f, 3.0f), kThirdDown);
  EXPECT_EQ(__fdiv_ru(1.0f, 3.0f), kThird);
  EXPECT_EQ(__fdiv_rd(1.0f, 3.0f), kThirdDown);
  EXPECT_EQ(__fdiv_rd(-1.0f, 3.0f), -kThird);
  EXPECT_EQ(__fdiv_ru(-1.0f, 3.0f), -kThirdDown);
  EXPECT_EQ(__fdiv_ru(6.0f, 3.0f), 2.0f);  // exact: no step
  EXPECT_EQ(__frcp_rn(3.0f), kThird);
  EXPECT_EQ(__frcp_rz(3.0f), kThirdDown);
  EXPECT_EQ(__frcp_ru(3.0f), kThird);
  EXPECT_EQ(__frcp_rd(-3.0f), -kThird);
  const float r2 = 1.41421354f;  // sqrtf(2) rounds down (sqrt 2 = 1.4142135623...)
  EXPECT_EQ(__fsqrt_rn(2.0f), r2);
  EXPECT_EQ(__fsqrt_rz(2.0f), r2);
  EXPECT_EQ(__fsqrt_ru(2.0f), std::nextafter(r2, 2.0f));
  EXPECT_EQ(__fsqrt_rd(2.0f), r2);
  EXPECT_EQ(__fsqrt_rd(4.0f), 2.0f);
  // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46: 25 bits, a tie; rn to even, ru one ulp up.
  EXPECT_EQ(__fmaf_rn(kUp1, kUp1, -1.0f), 0x1p-22f);
  EXPECT_EQ(__fmaf_ru(kUp1, kUp1, -1.0f), 0x1p-22f + 0x1p-45f);
  EXPECT_EQ(__fmaf_rz(1.0f, 1.0f, tiny), 1.0f);
  EXPECT_EQ(__fmaf_ru(1.0f, 1.0f, tiny), kUp1);
  EXPECT_EQ(__fmaf_rd(1.0f, 1.0f, -tiny), kDown1);
  EXPECT_EQ(__fmaf_ieee_rn(2.0f, 3.0f, 1.0f), 7.0f);
  EXPECT_EQ(__fmaf_ieee_rz(1.0f, 1.0f, -tiny), kDown1);
  EXPECT_EQ(__fmaf_ieee_ru(1.0f, 1.0f, -tiny), 1.0f);
  EXPECT_EQ(__fmaf_ieee_rd(1.0f, 1.0f, tiny), 1.0f);
}

TEST(CudaMathRound, DoubleArithmetic) {
  const double tiny = 0x1p-70;
  EXPECT_EQ(__dadd_rn(1.0, tiny), 1.0);
  EXPECT_EQ(__dadd_rz(1.0, tiny), 1.0);
  EXPECT_EQ(__dadd_ru(1.0, tiny), kUp1d);
  EXPECT_EQ(__dadd_rd(1.0, -tiny), kDown1d);
  EXPECT_EQ(__dadd_rz(DBL_MAX, DBL_MAX), DBL_MAX);
  EXPECT_EQ(__dsub_rn(1.0, tiny), 1.0);
  EXPECT_EQ(__dsub_rz(1.0, tiny), kDown1d);
  EXPECT_EQ(__dsub_ru(1.0, tiny), 1.0);
  EXPECT_EQ(__dsub_rd(1.0, tiny), kDown1d);
  const double a = kUp1d;  // (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104
  EXPECT_EQ(__dmul_rn(a, a), 1.0 + 0x1p-51);
  EXPECT_EQ(__dmul_rz(a, a), 1.0 + 0x1p-51);
  EXPECT_EQ(__dmul_ru(a, a), 1.0 + 0x1p-51 + 0x1p-52);
  EXPECT_EQ(__dmul_rd(-a, a), -(1.0 + 0x1p-51 + 0x1p-52));
  EXPECT_EQ(__dmul_rz(DBL_MAX, 2.0), DBL_MAX);
  const double third = 1.0 / 3.0;  // 0x1.5555555555555p-2: rounds down (next bits 0101..)
  EXPECT_EQ(__ddiv_rn(1.0, 3.0), third);
  EXPECT_EQ(__ddiv_rz(1.0, 3.0), third);
  EXPECT_EQ(__ddiv_ru(1.0, 3.0), std::nextafter(third, 1.0));
  EXPECT_EQ(__ddiv_rd(1.0, -3.0), -std::nextafter(third, 1.0));
  EXPECT_EQ(__drcp_rn(4.0), 0.25);
  EXPECT_EQ(__drcp_rz(3.0), third);
  EXPECT_EQ(__drcp_ru(3.0), std::nextafter(third, 1.0));
  EXPECT_EQ(__drcp_rd(3.0), third);
  const double r2 = std::sqrt(2.0);  // 1.4142135623730951 rounds up
  EXPECT_EQ(__dsqrt_rn(2.0), r2);
  EXPECT_EQ(__dsqrt_rz(2.0), std::nextafter(r2, 0.0));
  EXPECT_EQ(__dsqrt_ru(2.0), r2);
  EXPECT_EQ(__dsqrt_rd(2.0), std::nextafter(r2, 0.0));
  EXPECT_EQ(__fma_rn(2.0, 3.0, 1.0), 7.0);
  EXPECT_EQ(__fma_rz(1.0, 1.0, tiny), 1.0);
  EXPECT_EQ(__fma_ru(1.0, 1.0, tiny), kUp1d);
  EXPECT_EQ(__fma_rd(1.0, 1.0, -tiny), kDown1d);
  // (1 + 2^-52)^2 - 1 = 2^-51 + 2^-104: 54 bits, a tie; rn to even, ru one ulp up.
  EXPECT_EQ(__fma_rn(a, a, -1.0), 0x1p-51);
  EXPECT_EQ(__fma_ru(a, a, -1.0), 0x1p-51 + 0x1p-103);
  EXPECT_EQ(__fma_rz(-a, a, 1.0), -0x1p-51);
}

TEST(CudaMathRound, FloatToInteger) {
  EXPECT_EQ(__float2int_rn(2.5f), 2);  // ties to even
  EXPECT_EQ(__float2int_rn(3.5f), 4);
  EXPECT_EQ(__float2int_rn(-2.5f), -2);
  EXPECT_EQ(__float2int_rz(-2.7f), -2);
  EXPECT_EQ(__float2int_ru(2.1f), 3);
  EXPECT_EQ(__float2int_rd(-2.1f), -3);
  EXPECT_EQ(__float2int_rn(3e9f), INT_MAX);  // saturates
  EXPECT_EQ(__float2int_rz(-3e9f), INT_MIN);
  EXPECT_EQ(__float2int_rn(NAN), 0);
  EXPECT_EQ(__float2uint_rn(2.5f), 2u);
  EXPECT_EQ(__float2uint_rz(-5.0f), 0u);
  EXPECT_EQ(__float2uint_ru(0.1f), 1u);
  EXPECT_EQ(__float2uint_rd(5e9f), UINT_MAX);
  EXPECT_EQ(__float2ll_rn(-0.5f), 0LL);
  EXPECT_EQ(__float2ll_rz(1e10f), 10000000000LL);
  EXPECT_EQ(__float2ll_ru(-1.5f), -1LL);
  EXPECT_EQ(__float2ll_rd(1e19f), LLONG_MAX);
  EXPECT_EQ(__float2ll_rn(NAN), LLONG_MIN);
  EXPECT_EQ(__float2ull_rn(1.5f), 2ULL);
  EXPECT_EQ(__float2ull_rz(1e19f), 9999999980506447872ULL);
  EXPECT_EQ(__float2ull_ru(-0.5f), 0ULL);
  EXPECT_EQ(__float2ull_rd(1e20f), ULLONG_MAX);
  EXPECT_EQ(__double2int_rn(-3.5), -4);
  // NaN, as an H100 converts it (checked with nvcc 13.0 on sm_90): 0 from float to 32-bit,
  // 0x80000000 from double to 32-bit, 0x8000000000000000 to 64-bit.
  EXPECT_EQ(__float2uint_rz(NAN), 0u);
  EXPECT_EQ(__double2int_rn(NAN), INT_MIN);
  EXPECT_EQ(__double2uint_rz(NAN), 0x80000000u);
  EXPECT_EQ(__float2ull_rn(NAN), 0x8000000000000000ull);
  EXPECT_EQ(__double2ll_rz(NAN), LLONG_MIN);
  EXPECT_EQ(__double2ull_rz(NAN), 0x8000000000000000ull);
  EXPECT_EQ(__double2int_rz(3.99), 3);
  EXPECT_EQ(__double2int_ru(3.01), 4);
  EXPECT_EQ(__double2int_rd(-0.01), -1);
  EXPECT_EQ(__double2uint_rn(4.5), 4u);
  EXPECT_EQ(__double2uint_rz(4294967295.9), UINT_MAX);
  EXPECT_EQ(__double2uint_ru(1e-300), 1u);
  EXPECT_EQ(__double2uint_rd(-1.0), 0u);
  EXPECT_EQ(__double2ll_rn(1e15 + 0.5), 1000000000000000LL);
  EXPECT_EQ(__double2ll_rz(-1e300), LLONG_MIN);
  EXPECT_EQ(__double2ll_ru(-2.5), -2LL);
  EXPECT_EQ(__double2ll_rd(-2.5), -3LL);
  EXPECT_EQ(__double2ull_rn(0.5), 0ULL);
  EXPECT_EQ(__double2ull_rz(18446744073709549568.0), 18446744073709549568ULL);
  EXPECT_EQ(__double2ull_ru(0.25), 1ULL);
  EXPECT_EQ(__double2ull_rd(2e19), ULLONG_MAX);
}

TEST(CudaMathRound, IntegerToFloating) {
  const int big = (1 << 24) + 1;  // not a float: between 2^24 and 2^24 + 2
  EXPECT_EQ(__int2float_rn(big), 16777216.0f);
  EXPECT_EQ(__int2float_rz(big), 16777216.0f);
  EXPECT_EQ(__int2float_ru(big), 16777218.0f);
  EXPECT_EQ(__int2float_rd(-big), -16777218.0f);
  EXPECT_EQ(__uint2float_rn(UINT_MAX), 4294967296.0f);
  EXPECT_EQ(__uint2float_rz(UINT_MAX), 4294967040.0f);
  EXPECT_EQ(__uint2float_ru(1u), 1.0f);
  EXPECT_EQ(__uint2float_rd(UINT_MAX), 4294967040.0f);
  EXPECT_EQ(__ll2float_rn(LLONG_MAX), 0x1p63f);
  EXPECT_EQ(__ll2float_rz(LLONG_MAX), std::nextafter(0x1p63f, 0.0f));
  EXPECT_EQ(__ll2float_ru(-3), -3.0f);
  EXPECT_EQ(__ll2float_rd(LLONG_MIN + 1), -0x1p63f);
  EXPECT_EQ(__ull2float_rn(ULLONG_MAX), 0x1p64f);
  EXPECT_EQ(__ull2float_rz(ULLONG_MAX), std::nextafter(0x1p64f, 0.0f));
  EXPECT_EQ(__ull2float_ru((1ULL << 40) + 1), std::nextafter(0x1p40f, INFINITY));
  EXPECT_EQ(__ull2float_rd(ULLONG_MAX), std::nextafter(0x1p64f, 0.0f));
  const long long b53 = (1LL << 53) + 1;
  EXPECT_EQ(__ll2double_rn(b53), 0x1p53);
  EXPECT_EQ(__ll2double_rz(-b53), -0x1p53);
  EXPECT_EQ(__ll2double_ru(b53), 0x1p53 + 2);
  EXPECT_EQ(__ll2double_rd(-b53), -0x1p53 - 2);
  EXPECT_EQ(__ull2double_rn(ULLONG_MAX), 0x1p64);
  EXPECT_EQ(__ull2double_rz(ULLONG_MAX), std::nextafter(0x1p64, 0.0));
  EXPECT_EQ(__ull2double_ru(ULLONG_MAX), 0x1p64);
  EXPECT_EQ(__ull2double_rd(7ULL), 7.0);
  EXPECT_EQ(__int2double_rn(INT_MIN), -2147483648.0);
  EXPECT_EQ(__uint2double_rn(UINT_MAX), 4294967295.0);
}

TEST(CudaMathRound, DoubleToFloatAndBitCasts) {
  const double x = 1.0 + 0x1p-30;
  EXPECT_EQ(__double2float_rn(x), 1.0f);
  EXPECT_EQ(__double2float_rz(x), 1.0f);
  EXPECT_EQ(__double2float_ru(x), kUp1);
  EXPECT_EQ(__double2float_rd(-x), -kUp1);
  EXPECT_EQ(__double2float_rz(1e300), FLT_MAX);
  EXPECT_EQ(__double2float_rn(1e300), INFINITY);
  static_assert(__float_as_int(1.0f) == 0x3F800000);
  static_assert(__int_as_float(0x40000000) == 2.0f);
  EXPECT_EQ(__float_as_uint(-0.0f), 0x80000000u);
  EXPECT_EQ(__uint_as_float(0x3F000000u), 0.5f);
  EXPECT_EQ(__double_as_longlong(1.0), 0x3FF0000000000000LL);
  EXPECT_EQ(__longlong_as_double(0x4000000000000000LL), 2.0);
  EXPECT_EQ(__double2hiint(-2.0), static_cast<int>(0xC0000000u));
  EXPECT_EQ(__double2loint(__longlong_as_double(0x12345678ABCDEF01LL)), static_cast<int>(0xABCDEF01u));
  EXPECT_EQ(__hiloint2double(0x3FF00000, 0), 1.0);
}

}  // namespace
