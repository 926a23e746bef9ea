// The main of each suite's driver.cu (record_counts.sh builds it with nvcc): `in` and `out` of
// FIDELITY_FLOATS floats, `in` filled with FIDELITY_FILL(i), the suite's launch_all(in, out)
// (LAUNCH: 2 blocks of 256 threads), then the error state and the checksum of `out`.
#pragma once
#include <cstdio>

#ifndef FIDELITY_FLOATS
#define FIDELITY_FLOATS 4096
#endif
#ifndef FIDELITY_FILL
#define FIDELITY_FILL(i) (0.5f * ((i) % 7))
#endif
#define LAUNCH(k, shared) k<<<2, 256, shared>>>(in, out)

void launch_all(const float* in, float* out);

int main() {
  float *in, *out;
  cudaMalloc(&in, FIDELITY_FLOATS * sizeof(float));
  cudaMalloc(&out, FIDELITY_FLOATS * sizeof(float));
  static float h[FIDELITY_FLOATS];
  for (int i = 0; i < FIDELITY_FLOATS; ++i) h[i] = FIDELITY_FILL(i);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  launch_all(in, out);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < FIDELITY_FLOATS; ++i) sum += h[i];
  std::printf("%s, checksum of the output %.3f\n", cudaGetErrorString(e), sum);
  return e != cudaSuccess;
}
