// out[i] = k * in[i] for the threads of a dispatchThreads grid (the last group's extra threads do not run).
#include <metal_stdlib>
using namespace metal;

kernel void scale(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                  constant float& k [[buffer(2)]], uint i [[thread_position_in_grid]]) {
  out[i] = k * in[i];
}
