// Metal's constants, METAL_FUNC, size_t, numeric_limits, type traits and matrices.
#include <metal_common>
#include <metal_math>
#include <metal_integer>
#include <metal_simdgroup>
using namespace metal;

METAL_FUNC float half_turn(float r) { return r * M_PI_F; }

template <typename T> METAL_FUNC T biggest() { return metal::numeric_limits<T>::max(); }

kernel void constants(device float* out [[buffer(0)]], device const half4x4* m [[buffer(1)]]) {
  size_t k = 0;
  out[k++] = half_turn(1.0f);
  out[k++] = isinf(INFINITY) ? 1.0f : 0.0f;
  out[k++] = isnan(NAN) ? 1.0f : 0.0f;
  out[k++] = MAXFLOAT == FLT_MAX ? 1.0f : 0.0f;
  out[k++] = float(biggest<half>());
  out[k++] = metal::is_same_v<half, float> ? 1.0f : 2.0f;
  float4x4 f = float4x4(m[0]);
  out[k++] = f[2][1];  // column 2, row 1: element 9
#pragma unroll (MIN_UNDEFINED_IN_A_PRAGMA(4))
  for (int j = 0; j < 1; ++j) out[k++] = M_SQRT2_F * M_SQRT2_F;
}
