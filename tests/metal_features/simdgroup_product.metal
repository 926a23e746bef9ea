// The product of two simdgroup matrices written a * b (MLX's conv.metal Winograd transform:
// (G * g) * Gt): each of the group's 32 threads stores its own two elements of A * B * I.
#include <metal_stdlib>
using namespace metal;

[[kernel]] void simdgroup_product(const device float* a [[buffer(0)]], const device float* b [[buffer(1)]],
                                  device float* c [[buffer(2)]]) {
  simdgroup_float8x8 ma, mb;
  simdgroup_load(ma, a);
  simdgroup_load(mb, b);
  const simdgroup_float8x8 id(1.0f);
  simdgroup_float8x8 mc = (ma * mb) * id;
  simdgroup_store(mc, c);
}
