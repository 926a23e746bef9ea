// Launches each kernel of call_sites.cu once (2 blocks of 256 threads) for ../record_counts.sh.
#include <cstdio>
#include "call_sites.cu"

int main() {
  float *in, *out;
  cudaMalloc(&in, 8192 * sizeof(float));
  cudaMalloc(&out, 8192 * sizeof(float));
  static float h[8192];
  for (int i = 0; i < 8192; ++i) h[i] = 0.25f * (i % 5);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sites_in_branches<<<2, 256>>>(in, out);
  three_sites<<<2, 256>>>(in, out);
  two_calls_in_a_row<<<2, 256>>>(in, out);
  four_sites_large_helper<<<2, 256>>>(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < 8192; ++i) sum += h[i];
  std::printf("%s, checksum %.3f\n", cudaGetErrorString(e), sum);
  return e != cudaSuccess;
}
