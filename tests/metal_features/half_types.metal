// half and bfloat: arithmetic, conversions, as_type, half literals and vectors; 2-byte accesses.
#include <metal_stdlib>
using namespace metal;

kernel void half_math(device const half* a [[buffer(0)]], device half* b [[buffer(1)]],
                      device ushort* bits [[buffer(2)]], device float* f [[buffer(3)]],
                      uint i [[thread_position_in_grid]]) {
  half x = a[i] * 2.0h + half(0.25f);     // (i + 0.5) * 2 + 0.25
  b[i] = x;
  bits[i] = as_type<ushort>(half(1.0h / 3.0h));
  bfloat y = bfloat(float(x)) * bfloat(3);
  f[i] = float(y) + (i < 2 ? x : 1.0f);    // a half and a float in one conditional
}

kernel void half4_sum(device const half4* v [[buffer(0)]], device float* out [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
  half4 q = v[i] + half4(1);
  out[i] = dot(float4(q), float4(1.0f));
}
