// Launches each kernel of reuse.cu once (2 blocks of 256 threads) for ../record_counts.sh.
#include <cstdio>
#include "reuse.cu"

#define LAUNCH(k, shared) k<<<2, 256, shared>>>(in, out)

int main() {
  float *in, *out;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 4096 * sizeof(float));
  float h[4096];
  for (int i = 0; i < 4096; ++i) h[i] = 0.5f * (i % 7);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  LAUNCH(tile_2d, 0);
  LAUNCH(tile_2d_loop, 0);
  LAUNCH(scalar_after_store, 0);
  LAUNCH(scalar_after_stores_unrolled, 0);
  LAUNCH(global_after_shared_store, 0);
  LAUNCH(shared_after_both, 0);
  LAUNCH(uneven_trips, 0);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < 4096; ++i) sum += h[i];
  std::printf("%s, checksum of the last kernel's output %.3f\n", cudaGetErrorString(e), sum);
  return e != cudaSuccess;
}
