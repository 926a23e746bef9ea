// Launches each kernel of widening.cu once (2 blocks of 256 threads) for ../record_counts.sh.
#include <cstdio>
#include "widening.cu"

#define LAUNCH(k, shared) k<<<2, 256, shared>>>(in, out)

int main() {
  float *in, *out;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 4096 * sizeof(float));
  float h[4096];
  for (int i = 0; i < 4096; ++i) h[i] = 0.5f * (i % 7);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  LAUNCH(rows_of_8, 0);
  LAUNCH(rows_of_4, 0);
  LAUNCH(pairs, 0);
  LAUNCH(off_by_one, 0);
  LAUNCH(rows_of_33, 0);
  LAUNCH(rows_of_34, 0);
  LAUNCH(triples, 0);
  LAUNCH(gap, 0);
  LAUNCH(two_scalars, 0);
  LAUNCH(scalar_then_array, 0);
  LAUNCH(store_4, 0);
  LAUNCH(dynamic_4, 4096);
  LAUNCH(doubles_2, 0);
  LAUNCH(halves_8, 0);
  LAUNCH(bytes_4, 0);
  LAUNCH(global_4, 0);
  LAUNCH(global_4_aligned, 0);
  LAUNCH(global_float2_store, 0);
  LAUNCH(global_struct, 0);
  LAUNCH(store_between, 0);
  LAUNCH(tile_8x8, 0);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < 4096; ++i) sum += h[i];
  std::printf("%s, checksum of the last kernel's output %.3f\n", cudaGetErrorString(e), sum);
  return e != cudaSuccess;
}
