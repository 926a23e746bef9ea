// Quad-group functions (MLX's quantized qmv_quad: quad_sum of partial dot products): the four
// threads of a quad reduce, scan and shuffle among themselves; the last quad is partial.
#include <metal_stdlib>
using namespace metal;

[[kernel]] void quad_ops(device float* sum [[buffer(0)]], device int* scan [[buffer(1)]],
                         device uint* shuf [[buffer(2)]], device half2* hmax [[buffer(3)]],
                         uint i [[thread_position_in_grid]], uint q [[thread_index_in_quadgroup]]) {
  if (i >= 10) return;  // threads 8 and 9 make a quad of two
  sum[i] = quad_sum(float(i) + 0.5f);
  scan[i] = quad_prefix_inclusive_sum(int(i)) * 100 + quad_prefix_exclusive_sum(int(i));
  shuf[i] = quad_shuffle_xor(i, 1) * 1000 + quad_broadcast(i, 0) * 10 + uint(quad_all(i >= 4)) +
            2 * uint(quad_any(i == 5));
  hmax[i] = quad_max(half2(half(i), half(-float(i))));
}
