// A .cu program as a CUDA tutorial writes it (host code, cudaMalloc, <<<...>>>), built by an
// installed tgsim with tgsim_add_cuda_executable.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1000;
  float h_a[n], h_b[n], h_c[n];
  for (int i = 0; i < n; ++i) h_a[i] = float(i), h_b[i] = 2.0f * float(i);
  float *a, *b, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  cudaMemcpy(a, h_a, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, h_b, n * sizeof(float), cudaMemcpyHostToDevice);
  vector_add<<<(n + 255) / 256, 256>>>(a, b, c, n);
  cudaError_t err = cudaGetLastError();
  cudaMemcpy(h_c, c, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += h_c[i] != 3.0f * float(i);
  std::printf("vector_add: %s, %d wrong\n", cudaGetErrorString(err), wrong);
  return err == cudaSuccess && wrong == 0 ? 0 : 1;
}
