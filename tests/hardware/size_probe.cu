// Size probe for the time model (issue 14): the four seed matmuls at n = 256 ... 4096 and the
// three transposes at n = 1024 and 8192, one launch each, so that Nsight Compute can show how
// L2 hits and DRAM reads change with n (the L2 capacity term of sim/src/analyses/estimate.cpp).
// Run by size_probe.sh, which holds the exact ncu command. Inputs are filled but results are
// not checked: the fixture's driver (driver.cu) checks the same kernels.
//
//   nvcc -std=c++20 -arch=sm_90 -O3 -I kernels -I sim/include tests/hardware/size_probe.cu -o size_probe
//   size_probe        prints one label per launch, in launch order (ncu ID i = line i)
//   size_probe time   times matmul_naive and matmul_tiled16 at n = 1024 ... 4096 with CUDA
//                     events (median of 7 after 2 warm-ups, default clocks), one line each:
//                     "KERNEL N MS_MEDIAN MS_MIN MS_MAX"
#include <cuda_runtime.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "matmul.cu"
#include "transpose.cu"

#define CK(call)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(2);                                                                   \
    }                                                                                 \
  } while (0)

namespace {

template <class T>
T* filled(size_t elems) {
  std::vector<T> h(elems);
  for (size_t i = 0; i < elems; ++i) h[i] = static_cast<T>(static_cast<long long>(i) % 13 - 6);
  T* d = nullptr;
  CK(cudaMalloc(&d, elems * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), elems * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <int T>
void matmul(const char* name, void (*k)(const float*, const float*, float*, int), int n) {
  size_t elems = size_t(n) * n;
  float* a = filled<float>(elems);
  float* b = filled<float>(elems);
  float* c = nullptr;
  CK(cudaMalloc(&c, elems * sizeof(float)));
  k<<<dim3((n + T - 1) / T, (n + T - 1) / T), dim3(T, T)>>>(a, b, c, n);
  CK(cudaDeviceSynchronize());
  std::printf("%s %d\n", name, n);
  CK(cudaFree(a));
  CK(cudaFree(b));
  CK(cudaFree(c));
}

void transpose(const char* name, void (*k)(const int*, int*, int), int n) {
  size_t elems = size_t(n) * n;
  int* in = filled<int>(elems);
  int* out = nullptr;
  CK(cudaMalloc(&out, elems * sizeof(int)));
  k<<<dim3((n + 31) / 32, (n + 31) / 32), dim3(32, 32)>>>(in, out, n);
  CK(cudaDeviceSynchronize());
  std::printf("%s %d\n", name, n);
  CK(cudaFree(in));
  CK(cudaFree(out));
}

template <int T>
void time_matmul(const char* name, void (*k)(const float*, const float*, float*, int), int n) {
  size_t elems = size_t(n) * n;
  float* a = filled<float>(elems);
  float* b = filled<float>(elems);
  float* c = nullptr;
  CK(cudaMalloc(&c, elems * sizeof(float)));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int rep = 0; rep < 9; ++rep) {
    CK(cudaEventRecord(e0));
    k<<<dim3((n + T - 1) / T, (n + T - 1) / T), dim3(T, T)>>>(a, b, c, n);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float t = 0;
    CK(cudaEventElapsedTime(&t, e0, e1));
    if (rep >= 2) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%s %d %.4f %.4f %.4f\n", name, n, ms[ms.size() / 2], ms.front(), ms.back());
  CK(cudaFree(a));
  CK(cudaFree(b));
  CK(cudaFree(c));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "time") == 0) {
    for (int n : {1024, 1536, 2048, 2560, 3072, 3584, 4096}) {
      time_matmul<16>("matmul_naive", matmul_naive, n);
      time_matmul<16>("matmul_tiled16", matmul_tiled<16>, n);
    }
    return 0;
  }
  for (int n : {256, 512, 1024, 2048, 4096}) {
    matmul<16>("matmul_naive", matmul_naive, n);
    matmul<8>("matmul_tiled8", matmul_tiled<8>, n);
    matmul<16>("matmul_tiled16", matmul_tiled<16>, n);
    matmul<32>("matmul_tiled32", matmul_tiled<32>, n);
  }
  for (int n : {1024, 8192}) {
    transpose("transpose_naive", transpose_naive, n);
    transpose("transpose_shared", transpose_shared, n);
    transpose("transpose_padded", transpose_padded, n);
  }
  return 0;
}
