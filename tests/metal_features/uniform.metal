// metal::uniform<T> and make_uniform (MLX's gemv): values the same in every thread of the group,
// mixed with ordinary values in loop bounds and arithmetic.
#include <metal_stdlib>
using namespace metal;

[[kernel]] void uniform_sum(device float* out [[buffer(0)]], constant int& n [[buffer(1)]],
                            uint i [[thread_position_in_grid]]) {
  constexpr const uniform<int> stride = make_uniform(4);
  const uniform<int> size = make_uniform(n);
  const uniform<int> iters = size / stride;
  const uniform<int> leftover = size - iters * stride;
  const metal::uniform<float> scale = make_uniform(0.5f) * make_uniform(3.0f);
  float acc = 0.0f;
  for (int k = 0; k < iters; ++k) acc += float(k * stride);
  out[i] = acc * scale + leftover + i;
}
