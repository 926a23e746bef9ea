// A kernel file that includes Apple's tensor library (as MLX's *_nax.metal do through their
// nax.h): tgsim does not model it, and says so in one line that names it.
#include <metal_stdlib>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;

[[kernel]] void copy_one(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 1.0f; }
