// metal_stdlib's vector types and functions (sim/include/tgsim/kernel/metal/), compiled by the
// project's compiler (GCC) and, as the metal_vector_test_clang CTest, by clang++-14.
// The barrier and SIMD-group functions are only declared (the tgsim library defines them): not
// called here.
#include <gtest/gtest.h>

#include <metal_stdlib>

using namespace metal;

namespace {

TEST(MetalVector, SizesAndAlignmentsAreMetals) {
  static_assert(sizeof(float2) == 8 && alignof(float2) == 8);
  static_assert(sizeof(float3) == 16 && alignof(float3) == 16);
  static_assert(sizeof(float4) == 16 && alignof(float4) == 16);
  static_assert(sizeof(packed_float3) == 12 && alignof(packed_float3) == 4);
  static_assert(sizeof(uchar4) == 4 && alignof(uchar4) == 4);
  static_assert(sizeof(uchar3) == 4 && sizeof(short3) == 8 && sizeof(ushort2) == 4);
  static_assert(sizeof(int3) == 16 && sizeof(uint2) == 8 && sizeof(char2) == 2 && sizeof(bool4) == 4);
  static_assert(std::is_trivially_copy_constructible_v<float4>);
  float3 a[2];
  EXPECT_EQ(reinterpret_cast<char*>(&a[1]) - reinterpret_cast<char*>(&a[0]), 16);
}

TEST(MetalVector, Constructors) {
  float4 b(2.0f);
  EXPECT_TRUE(all(b == float4(2, 2, 2, 2)));
  float4 c(float2(1, 2), 3.0f, 4);
  EXPECT_EQ(c.x, 1);
  EXPECT_EQ(c.y, 2);
  EXPECT_EQ(c.z, 3);
  EXPECT_EQ(c.w, 4);
  float4 d(1.0f, float3(2, 3, 4));
  EXPECT_TRUE(all(d == float4(1, 2, 3, 4)));
  float4 e(float2(1, 2), float2(3, 4));
  EXPECT_TRUE(all(e == d));
  float4 f = float4(0);  // the blur seed's sum
  EXPECT_TRUE(all(f == 0.0f));
  uchar4 px(10, 20, 250, 255);
  float4 g = float4(px);  // explicit conversion between element types
  EXPECT_FLOAT_EQ(g.z, 250.0f);
  uchar4 back = uchar4(g / 2.0);
  EXPECT_EQ(back.w, 127);
  EXPECT_EQ(back.x, 5);
  static_assert(!std::is_convertible_v<uchar4, float4>, "Metal: no implicit vector conversion");
  float2 h = {3.0f, 4.0f};
  EXPECT_EQ(h[1], 4.0f);
  packed_float3 p(1.0f, 2.0f, 3.0f);
  float3 q = p;
  EXPECT_EQ(q.z, 3.0f);
  p = float3(7, 8, 9);
  EXPECT_EQ(p.x, 7.0f);
  EXPECT_EQ(p[2], 9.0f);
}

TEST(MetalVector, ComponentsAndSwizzles) {
  float4 v(1, 2, 3, 4);
  EXPECT_EQ(v.r, 1);
  EXPECT_EQ(v.a, 4);
  float2 xy = v.xy;
  EXPECT_TRUE(all(xy == float2(1, 2)));
  EXPECT_TRUE(all(v.zw == float2(3, 4)));
  EXPECT_TRUE(all(v.wzyx == float4(4, 3, 2, 1)));
  EXPECT_TRUE(all(v.rgb == float3(1, 2, 3)));
  EXPECT_TRUE(all(v.xxy == float3(1, 1, 2)));
  EXPECT_EQ(v.yx[0], 2);
  v.xy = float2(10, 20);  // lvalue swizzle
  EXPECT_TRUE(all(v == float4(10, 20, 3, 4)));
  v.xy = v.yx;  // aliasing source: swapped
  EXPECT_TRUE(all(v == float4(20, 10, 3, 4)));
  v.zw += 1.0f;
  EXPECT_TRUE(all(v == float4(20, 10, 4, 5)));
  v.bgr = v.rgb;  // reversed into itself
  EXPECT_TRUE(all(v == float4(4, 10, 20, 5)));
  v.w = 0;
  EXPECT_EQ(v.a, 0);
  float4 u(1, 2, 3, 4);
  u.xy = u.zw;  // same swizzle type on both sides assigns only its components
  EXPECT_TRUE(all(u == float4(3, 4, 3, 4)));
  float2 s = u.xy + u.zw * 2.0f;  // swizzles in arithmetic
  EXPECT_TRUE(all(s == float2(9, 12)));
  uint2 g(3, 5);
  uint2 global_pos = g * uint2(16, 16) + uint2(1, 2);  // the blur seed
  EXPECT_EQ(global_pos.x, 49u);
  EXPECT_EQ(global_pos.y, 82u);
}

TEST(MetalVector, Arithmetic) {
  float4 a(1, 2, 3, 4), b(4, 3, 2, 1);
  EXPECT_TRUE(all(a + b == 5.0f));
  EXPECT_TRUE(all(a - b == float4(-3, -1, 1, 3)));
  EXPECT_TRUE(all(a * b == float4(4, 6, 6, 4)));
  EXPECT_TRUE(all(a / 2 == float4(0.5f, 1, 1.5f, 2)));
  EXPECT_TRUE(all(2.0f * a == float4(2, 4, 6, 8)));
  EXPECT_TRUE(all(-a == float4(-1, -2, -3, -4)));
  float4 sum = float4(0);
  sum += float4(uchar4(9, 18, 27, 36)) / 9.0;  // the blur seed's accumulation
  EXPECT_TRUE(all(sum == float4(1, 2, 3, 4)));
  sum *= 2;
  EXPECT_EQ(sum.w, 8);
  int3 i(7, -8, 9);
  EXPECT_TRUE(all(i % 4 == int3(3, 0, 1)));
  EXPECT_TRUE(all((i & 1) == int3(1, 0, 1)));
  EXPECT_TRUE(all((uint2(1, 2) << 3u) == uint2(8, 16)));
  EXPECT_TRUE(all(~uint2(0) == uint2(0xffffffffu)));
  uchar4 w = uchar4(250) + uchar4(10);  // wraps as in Metal
  EXPECT_EQ(w.x, 4);
}

TEST(MetalVector, ComparisonsGiveBoolVectors) {
  float3 a(1, 5, 3), b(2, 2, 3);
  bool3 lt = a < b;
  EXPECT_TRUE(lt.x);
  EXPECT_FALSE(lt.y);
  EXPECT_FALSE(lt.z);
  EXPECT_TRUE(any(a == b));
  EXPECT_FALSE(all(a == b));
  EXPECT_TRUE(all(a != b || a == b));
  EXPECT_TRUE(all(!(a > 10.0f)));
  EXPECT_TRUE(all(select(a, b, a < b) == float3(2, 5, 3)));
  EXPECT_TRUE(all(a >= 1.0f && a <= 5.0f));
}

TEST(MetalVector, Functions) {
  EXPECT_EQ(max(0.0f, -2.5f), 0.0f);  // the relu seed
  EXPECT_EQ(min(3, 7), 3);
  EXPECT_TRUE(all(max(float2(1, 5), float2(4, 2)) == float2(4, 5)));
  EXPECT_TRUE(all(clamp(float3(-1, 0.5f, 2), 0.0f, 1.0f) == float3(0, 0.5f, 1)));
  EXPECT_TRUE(all(mix(float2(0, 10), float2(10, 20), 0.5f) == float2(5, 15)));
  EXPECT_EQ(fma(2.0f, 3.0f, 1.0f), 7.0f);
  EXPECT_TRUE(all(abs(int2(-3, 4)) == int2(3, 4)));
  EXPECT_TRUE(all(abs(float2(-1.5f, 2)) == float2(1.5f, 2)));
  EXPECT_FLOAT_EQ(sqrt(16.0f), 4.0f);
  EXPECT_FLOAT_EQ(rsqrt(float2(4, 16)).y, 0.25f);
  EXPECT_FLOAT_EQ(exp(0.0f), 1.0f);
  EXPECT_FLOAT_EQ(exp2(float2(3, 0)).x, 8.0f);
  EXPECT_FLOAT_EQ(log(1.0f), 0.0f);
  EXPECT_FLOAT_EQ(log2(8.0f), 3.0f);
  EXPECT_FLOAT_EQ(pow(2.0f, 10.0f), 1024.0f);
  EXPECT_TRUE(all(floor(float4(1.5f, -1.5f, 2, -0.2f)) == float4(1, -2, 2, -1)));
  EXPECT_TRUE(all(ceil(float2(1.2f, -1.2f)) == float2(2, -1)));
  EXPECT_TRUE(all(round(float3(2.5f, -2.5f, 0.4f)) == float3(3, -3, 0)));
  EXPECT_TRUE(all(trunc(float2(1.7f, -1.7f)) == float2(1, -1)));
  EXPECT_FLOAT_EQ(fract(-1.25f), 0.75f);
  EXPECT_TRUE(all(sign(float3(-2, 0, 3)) == float3(-1, 0, 1)));
  EXPECT_TRUE(all(saturate(float3(-2, 0.25f, 3)) == float3(0, 0.25f, 1)));
  EXPECT_TRUE(all(step(1.0f, float3(0, 1, 2)) == float3(0, 1, 1)));
  EXPECT_FLOAT_EQ(smoothstep(0.0f, 2.0f, 1.0f), 0.5f);
  EXPECT_FLOAT_EQ(dot(float3(1, 2, 3), float3(4, 5, 6)), 32.0f);
  EXPECT_FLOAT_EQ(length(float2(3, 4)), 5.0f);
  EXPECT_FLOAT_EQ(distance(float2(1, 1), float2(4, 5)), 5.0f);
  EXPECT_TRUE(all(normalize(float2(0, 5)) == float2(0, 1)));
  EXPECT_TRUE(all(cross(float3(1, 0, 0), float3(0, 1, 0)) == float3(0, 0, 1)));
  float4 v(1, 2, 3, 4);
  EXPECT_FLOAT_EQ(length(v.xy * 0.0f + float2(3, 4)), 5.0f);  // swizzle operands
  EXPECT_FLOAT_EQ(fast::sqrt(9.0f), 3.0f);
  EXPECT_FLOAT_EQ(precise::length(float2(6, 8)), 10.0f);
  EXPECT_EQ(as_type<uint>(1.0f), 0x3f800000u);
  EXPECT_EQ(as_type<float>(0x40000000u), 2.0f);
  uint2 bits = as_type<uint2>(float2(1.0f, -0.0f));
  EXPECT_EQ(bits.y, 0x80000000u);
}

}  // namespace
