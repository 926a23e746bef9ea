// Launches each kernel of unroll.cu once (2 blocks of 256 threads) for ../record_counts.sh.
#include <cstdio>
#include "unroll.cu"

#define LAUNCH(k, shared) k<<<2, 256, shared>>>(in, out)

int main() {
  float *in, *out;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 4096 * sizeof(float));
  float h[4096];
  for (int i = 0; i < 4096; ++i) h[i] = 0.5f * (i % 7);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  LAUNCH(uneven_loads, 0);
  LAUNCH(uneven_stores, 0);
  LAUNCH(uneven_shared, 0);
  LAUNCH(uneven_big_body, 0);
  LAUNCH(uneven_runtime_stride, 0);
  LAUNCH(uneven_from_zero, 0);
  LAUNCH(runtime_bound_loads, 0);
  LAUNCH(runtime_bound_long, 0);
  LAUNCH(runtime_bound_stores, 0);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < 4096; ++i) sum += h[i];
  std::printf("%s, checksum of the last kernel's output %.3f\n", cudaGetErrorString(e), sum);
  return e != cudaSuccess;
}
