// A program that launches a faulty kernel 50 times (tests/CMakeLists.txt checks the output):
// its barrier divergence is printed once, at the first launch, and once more at exit with its
// total over the 50 launches; a second kernel's different finding is printed on its own.
#include <cstdio>

__global__ void half_barrier(float* x) {
  if (threadIdx.x < 16) __syncthreads();  // the other 16 lanes exit without arriving
  x[threadIdx.x] += 1.0f;
}

__global__ void other_site(float* x) {
  x[threadIdx.x + 1] = 0.0f;  // thread 31 writes x[32], past the end
}

int main() {
  float* x;
  cudaMallocManaged(&x, 32 * sizeof(float));
  for (int i = 0; i < 50; ++i) half_barrier<<<1, 32>>>(x);
  other_site<<<1, 32>>>(x);
  cudaDeviceSynchronize();
  std::printf("x[0] = %.1f after 50 launches\n", x[0]);
  cudaFree(x);
  return 0;
}
