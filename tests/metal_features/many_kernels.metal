// A file of many kernels, as MLX's are (an instantiate macro per type and operation): a command
// that names one compiles that one alone (tests/metal_select.sh).
#include <metal_stdlib>
using namespace metal;

struct Add { template <typename T> T operator()(T a, T b) { return a + b; } };
struct Mul { template <typename T> T operator()(T a, T b) { return a * b; } };
struct Max { template <typename T> T operator()(T a, T b) { return a > b ? a : b; } };

template <typename T, typename Op>
[[kernel]] void apply_op(device const T* a [[buffer(0)]], device const T* b [[buffer(1)]],
                         device T* out [[buffer(2)]], uint i [[thread_position_in_grid]]) {
  out[i] = Op()(a[i], b[i]);
}

#define instantiate_op(name, type, op) \
  template [[host_name(name)]] [[kernel]] decltype(apply_op<type, op>) apply_op<type, op>;
#define instantiate_ops(tname, type)       \
  instantiate_op("add_" tname, type, Add)  \
  instantiate_op("mul_" tname, type, Mul)  \
  instantiate_op("max_" tname, type, Max)

instantiate_ops("float32", float)
instantiate_ops("int32", int)
instantiate_ops("uint32", uint)
instantiate_ops("float16", half)

[[kernel]] void fill_seven(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  out[i] = 7;
}
