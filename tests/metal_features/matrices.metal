// Matrix arithmetic (tests/metal_textures.sh checks it with the textures: Apple's samples use both).
#include <metal_stdlib>
using namespace metal;
kernel void m(device float4* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  float4x4 a(float4(1, 2, 3, 4), float4(5, 6, 7, 8), float4(9, 10, 11, 12), float4(13, 14, 15, 16));
  float4 v(1, 0, 2, 1);
  out[0] = a * v;
  out[1] = v * a;
  out[2] = (a * a)[1];
  out[3] = (2.0f * a + a - a)[3];
  float c;
  const float s = sincos(0.0f, c);
  out[4] = float4(float2x2(1, 2, 3, 4) * float2(1, 1), s, c);
}
