// shard_test's kernel file: doubles x[i] with no bounds check, so the threads of the last
// groups beyond n write out of bounds (findings that `tgsim merge` must count as the whole
// launch does), and prints one line from group 0 and one from the last group.
#include <cstdio>

__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = x[i] * 2.0f;
  if (threadIdx.x == 0 && (blockIdx.x == 0 || blockIdx.x + 1 == gridDim.x)) printf("group %d\n", blockIdx.x);
}
