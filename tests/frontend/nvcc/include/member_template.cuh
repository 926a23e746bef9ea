// A member template of a dependent type called without `template`, as nvcc accepts it.
#pragma once
template <typename Dst, typename Src> struct Convert {
  template <int N> __device__ static void apply(Dst* dst, const Src* src) {
    for (int i = 0; i < N; ++i) dst[i] = static_cast<Dst>(src[i]) * 2;
  }
};
template <> struct Convert<float, int> {
  template <int N> __device__ static void apply(float* dst, const int* src) {
    for (int i = 0; i < N; ++i) dst[i] = static_cast<float>(src[i]) + 0.5f;
  }
};
template <typename Dst, typename Src, int N> __device__ void convert_in_header(Dst* dst, const Src* src) {
  Convert<Dst, Src>::apply<N>(dst, const_cast<const Src*>(src));  // Clang: an overload error
}
