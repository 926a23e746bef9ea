// A vertex function with a run of comment lines (the preprocessor writes a line marker for it),
// then a kernel (tests/metal_textures.sh): the kernel's lines keep their numbers.
#include <metal_stdlib>
using namespace metal;

vertex float4 vs(uint v [[vertex_id]]) {
  // one
  // two
  // three
  // four
  // five
  // six
  // seven
  // eight
  // nine
  // ten
  return float4(0.0f);
}

kernel void after_vertex(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  a[i] = 1.0f;
}
