// Template kernels for `--kernel 'name<ARGS>'` (tests/CMakeLists.txt, hostile_cli_file_template_*):
// tile_sum is instantiated only by the command line; put<3u> by the file itself.
#include <cstdio>

template <int N, class T>
__global__ void tile_sum(const T* in) {
  if (threadIdx.x == 0) {
    T s = 0;
    for (int i = 0; i < N; ++i) s += in[i];
    printf("tile_sum<%d>: %g\n", N, static_cast<double>(s));
  }
}

template <unsigned V>
__global__ void put(unsigned* out) {
  out[threadIdx.x] = V;
  if (threadIdx.x == 31) printf("put: %u\n", out[0] + out[31]);
}
template __global__ void put<3u>(unsigned*);
