// Metal scalars of the types MLX and ggml declare (arg_types.sh): half, bfloat, int64_t, size_t.
#include <metal_stdlib>
using namespace metal;

kernel void metal_scalars(device float* out [[buffer(0)]], constant half& h [[buffer(1)]],
                          constant int64_t& n [[buffer(2)]], constant bfloat& b [[buffer(3)]],
                          constant size_t& s [[buffer(4)]], uint i [[thread_position_in_grid]]) {
  if (i == 0) {
    out[0] = float(h);
    out[1] = float(n);
    out[2] = float(b);
    out[3] = float(s);
  }
}
