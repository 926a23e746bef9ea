// nvcc accepts a dependent member template called without `template`, in a header
// (include/member_template.cuh) and in the file itself: tgsim-nvcc puts the keyword in and says so.
#include <cstdio>

#include "member_template.cuh"

template <typename Dst, typename Src, int N> __device__ void convert_here(Dst* dst, const Src* src) {
  Convert<Dst, Src>::apply<N>(dst + N, src + N);
}

__global__ void convert(float* f, const int* i, double* d) {
  convert_in_header<float, int, 4>(f, i);
  convert_here<float, int, 4>(f, i);
  convert_in_header<double, int, 2>(d, i);
}

int main() {
  int* i;
  float* f;
  double* d;
  cudaMallocManaged(&i, 8 * sizeof(int));
  cudaMallocManaged(&f, 8 * sizeof(float));
  cudaMallocManaged(&d, 2 * sizeof(double));
  for (int k = 0; k < 8; ++k) i[k] = k;
  convert<<<1, 1>>>(f, i, d);
  cudaDeviceSynchronize();
  std::printf("member template: %g %g %g %g\n", f[0], f[7], d[0], d[1]);
  return 0;
}
