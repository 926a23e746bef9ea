// One 8x8 product by one SIMD group with simdgroup_matrix; SIMD functions of half and vectors.
#include <metal_stdlib>
#include <metal_simdgroup_matrix>
using namespace metal;

kernel void mm8(device const float* A [[buffer(0)]], device const half* B [[buffer(1)]],
                device float* C [[buffer(2)]], device float* extra [[buffer(3)]],
                ushort lane [[thread_index_in_simdgroup]]) {
  simdgroup_float8x8 a;
  simdgroup_half8x8 b;
  simdgroup_float8x8 c = make_filled_simdgroup_matrix<float, 8>(1.0f);
  simdgroup_load(a, A, 8);
  simdgroup_load(b, B, 8);
  simdgroup_multiply_accumulate(c, a, b, c);
  simdgroup_store(c, C, 8);
  half h = simd_sum(half(1.0h));                             // 32
  float4 s = simd_shuffle(float4(float(lane)), ushort(5));  // lane 5's
  if (lane == 0) {
    extra[0] = float(h);
    extra[1] = s.w;
  }
}
