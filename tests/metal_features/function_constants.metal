// [[function_constant(n)]] values from the command line (--constant NAME=VALUE).
#include <metal_stdlib>
using namespace metal;

constant int FC_FACTOR [[function_constant(0)]];
constant bool FC_ADD_ONE [[function_constant(1)]];

kernel void fc_scale(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  int v = int(i) * (is_function_constant_defined(FC_FACTOR) ? FC_FACTOR : -1);
  if (FC_ADD_ONE) v += 1;
  out[i] = v;
}
