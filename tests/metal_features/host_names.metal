// [[host_name]] kernels as MLX and ggml write them: an instantiate macro (names made of string
// pieces), the typedef form, a plain kernel with a host name; attributes where Apple accepts them.
#include <metal_stdlib>
using namespace metal;

#define make_kernel(name, func, ...) \
  template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

// Attributes on a helper's parameters: Apple's compiler accepts and ignores them.
template <typename T> T times(T v, int k [[maybe_unused]], uint lane [[thread_index_in_simdgroup]]) {
  return v * T(k) + T(0 * lane);
}

template <typename T, int K>
[[kernel, max_total_threads_per_threadgroup(64)]] void scale(device const T* in [[buffer(0)]],
                                                             device T* out [[buffer(1)]],
                                                             uint i [[thread_position_in_grid]]) {
  out[i] = times(in[i], K, 0);
}

make_kernel("scale_int" "_3", scale, int, 3)
make_kernel("scale_float_2", scale, float, 2)

typedef decltype(scale<int, 5>) scale_t;
template [[host_name("scale_int_5")]] kernel scale_t scale<int, 5>;

[[host_name("copy_first")]] kernel void copy_impl(device const int* a, device int* b,
                                                  uint i [[thread_position_in_grid]]) {
  b[i] = a[0];
}
