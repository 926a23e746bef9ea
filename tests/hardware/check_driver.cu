// CUDA driver for the buggy kernels (kernels/buggy.cu): launches one of them once so that
// compute-sanitizer can say on a real GPU what `tgsim check` says on the CPU.
//
//   nvcc -std=c++20 -arch=sm_90 -lineinfo -I kernels -I sim/include \
//        tests/hardware/check_driver.cu -o check_driver
//   compute-sanitizer --tool racecheck --racecheck-report analysis ./check_driver matmul_tiled16_nobarrier1
//   compute-sanitizer --tool synccheck ./check_driver divergent_barrier
//   compute-sanitizer --tool memcheck ./check_driver transpose_oob
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "buggy.cu"

namespace {

template <class T>
T* device(std::size_t n) {
  T* p = nullptr;
  cudaMalloc(&p, n * sizeof(T));
  std::vector<T> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = T(int(i % 13) - 6);
  cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: check_driver KERNEL\n");
    return 2;
  }
  const char* k = argv[1];
  if (!std::strcmp(k, "matmul_tiled16_nobarrier1") || !std::strcmp(k, "matmul_tiled16_nobarrier2")) {
    const int n = 256;
    float *A = device<float>(n * n), *B = device<float>(n * n), *C = device<float>(n * n);
    auto fn = k[24] == '1' ? matmul_tiled16_nobarrier1 : matmul_tiled16_nobarrier2;
    fn<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n);
  } else if (!std::strcmp(k, "neighbor_nobarrier")) {
    const int n = 1024;
    neighbor_nobarrier<<<n / 256, 256>>>(device<float>(n), device<float>(n), n);
  } else if (!std::strcmp(k, "divergent_barrier")) {
    const int n = 1024;
    divergent_barrier<<<n / 64, 64>>>(device<float>(n), device<float>(n), n);
  } else if (!std::strcmp(k, "transpose_oob")) {
    const int n = 1024;
    transpose_oob<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(device<int>(n * n), device<int>(n * n), n);
  } else if (!std::strcmp(k, "warp_reduce_nosync")) {
    const int n = 4096;
    warp_reduce_nosync<<<n / 64, 64>>>(device<float>(n), device<float>(n / 64), n);
  } else {
    std::fprintf(stderr, "unknown kernel %s\n", k);
    return 2;
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%s: %s\n", k, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
