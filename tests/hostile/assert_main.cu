// A CUDA program whose kernel fails an assert() in one thread (tests/CMakeLists.txt:
// hostile_assert_main). On the GPU the launch fails with cudaErrorAssert, which the next
// synchronising call returns and which sticks until cudaDeviceReset; the other threads' stores
// before the fault are kept. tgsim reports the assertion as a finding with its block, thread and
// line, and the runtime calls return the same error.
#include <cassert>
#include <cstdio>

__global__ void check_all(int* out, int bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
  assert(i != bad);
}

int main() {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  check_all<<<2, 32>>>(d, 40);
  const cudaError_t sync = cudaDeviceSynchronize();
  int host[64] = {};
  const cudaError_t copy = cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("sync: %s, copy: %s\n", cudaGetErrorName(sync), cudaGetErrorName(copy));
  cudaDeviceReset();
  std::printf("after reset: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return sync == cudaErrorAssert ? 0 : 1;
}
