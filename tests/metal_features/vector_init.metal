// A vector initialised from fewer scalars than it has components (MLX's random.metal:
// `uint4 ks = {key.x, key.y, key.x ^ key.y ^ 0x1BD11BDA};`): the rest are 0.
#include <metal_stdlib>
using namespace metal;

[[kernel]] void vector_init(device uint4* out [[buffer(0)]], device float3* f [[buffer(1)]],
                            uint i [[thread_position_in_grid]]) {
  uint4 ks = {i, i + 1, i ^ 0xF0u};
  float3 v = {1.5f, float(i)};
  out[i] = ks;
  f[i] = v;
}
