// A ggml-style argument struct (constant T& args), given field by field or as bytes
// (struct_fields.sh): the kernel copies its bytes to `out`.
#include <metal_stdlib>
using namespace metal;

typedef struct {
  int32_t ne00;
  int32_t ne01;
  uint64_t nb01;
  float slope;
  bool flag;
  half h;
  float4 v;
  short a[2];
  bfloat b;
} kargs_copy;

kernel void copy_args(constant kargs_copy& args [[buffer(0)]], device uchar* out [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
  if (i < sizeof(kargs_copy)) out[i] = ((constant uchar*)&args)[i];
}
