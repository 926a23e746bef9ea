// What MLX's headers write: constructors and operators overloaded on address spaces, Apple's
// __metal_* builtins, metal:: math, SIMD bit reductions and shuffle-and-fill, a parameter that
// exists under a function constant, coherent(device) memory.
#include <metal_stdlib>
using namespace metal;

struct pair_t {
  float a, b;
  constexpr pair_t(float x, float y) thread : a(x), b(y) {}
  constexpr pair_t(float x, float y) threadgroup : a(x), b(y) {}
  constexpr pair_t(float x, float y) device : a(x), b(y) {}
  float sum() const thread { return a + b; }
  float sum() const device { return a + b; }
};

template <typename T> thread pair_t& operator+=(thread pair_t& p, T v) {
  p.a += v;
  return p;
}
template <typename T> device pair_t& operator+=(device pair_t& p, T v) {
  p.a += v;
  return p;
}

constant bool has_bias [[function_constant(0)]];

[[kernel]] void mlx_style(device float* out [[buffer(0)]],
                          const device float* bias [[buffer(1), function_constant(has_bias)]],
                          volatile coherent(device) device uint* flags [[buffer(2)]],
                          uint lane [[thread_index_in_simdgroup]]) {
  pair_t p(1.0f, 2.0f);
  p += 3;
  float v = p.sum() + __metal_fabs(-0.5f, __METAL_MAYBE_FAST_MATH__) + metal::copysign(1.0f, -2.0f);  // 6 + 0.5 - 1
  if (has_bias) v += bias[0];
  uint x = simd_xor(1u << (lane % 4));                       // 8 of each bit: 0
  uint o = simd_or(1u << (lane % 4));                        // 15
  float f = simd_shuffle_and_fill_down(float(lane), 100.0f + lane, ushort(4));
  out[lane] = f;                                             // lane + 4, then 100 + lane - 28
  if (lane == 0) {
    out[32] = v;
    out[33] = float(x);
    out[34] = float(o);
    flags[0] = 1;
  }
}
