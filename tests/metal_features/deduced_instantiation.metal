// A kernel template instantiated without template arguments, as MLX's conv.metal writes it:
// `template [[host_name("x")]] [[kernel]] void f(<parameters>);` deduces T and N from the
// parameters (position attributes and all), one host name per instantiation.
#include <metal_stdlib>
using namespace metal;

template <int N> struct dims_t { int at[N]; };

template <typename T, int N>
[[kernel]] void gather_sum(const device T* in [[buffer(0)]], device T* out [[buffer(1)]],
                           const constant dims_t<N>* d [[buffer(2)]], const constant int& base [[buffer(3)]],
                           uint i [[thread_position_in_grid]]) {
  T s = T(base);
  for (int k = 0; k < N; ++k) s += in[d->at[k] + i];
  out[i] = s;
}

#define instantiate_gather_sum(name, type, n)                                                    \
  template [[host_name("gather_sum_" #name "_" #n)]] [[kernel]] void gather_sum(                \
      const device type* in [[buffer(0)]], device type* out [[buffer(1)]],                        \
      const constant dims_t<n>* d [[buffer(2)]], const constant int& base [[buffer(3)]],          \
      uint i [[thread_position_in_grid]]);

instantiate_gather_sum(float, float, 2)
instantiate_gather_sum(int, int, 3)
