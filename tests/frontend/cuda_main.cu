// A CUDA program as a tutorial writes it, built by tgsim_add_cuda_executable: cudaMalloc,
// cudaMemcpy, a <<<...>>> launch (rewritten by the front end), cudaGetLastError,
// cudaDeviceSynchronize. CTest runs it and checks its output (tests/CMakeLists.txt).
#include <cstdio>
#include <vector>

__global__ void vectorAddMain(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1000;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) a[i] = float(i), b[i] = float(2 * i);
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  const int threads = 256, blocks = (n + threads - 1) / threads;
  vectorAddMain<<<blocks, threads>>>(da, db, dc, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::printf("launch failed: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaDeviceSynchronize();
  cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += c[i] != 3.0f * i;
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  std::printf("vectorAddMain: %d blocks of %d, %d wrong, c[999] = %.1f\n", blocks, threads, bad, c[999]);
  return bad ? 1 : 0;
}
