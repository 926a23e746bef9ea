// Host code with OpenMP beside a kernel (-Xcompiler -fopenmp, as HeCBench's Makefiles pass it):
// the host loop runs on OMP_NUM_THREADS threads and sums what the kernel wrote.
#include <cstdio>
#include <omp.h>

__global__ void fill(int* out) { out[threadIdx.x] = threadIdx.x; }

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  fill<<<1, 64>>>(d);
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  long sum = 0;
  int team = 0;
#pragma omp parallel for reduction(+ : sum) reduction(max : team)
  for (int i = 0; i < 64; ++i) {
    sum += h[i];
    team = omp_get_num_threads();
  }
  std::printf("openmp: sum %ld, team %d\n", sum, team);
  cudaFree(d);
  return 0;
}
