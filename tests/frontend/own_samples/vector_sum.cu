// Written for tgsim (issue 33 item 6): an element-wise sum over a grid-stride loop. With 50,000
// elements and 196 groups of 256 the last group is partly idle and its fourth warp only partly
// active (50,000 = 195 x 256 + 80): the masked-lane idiom of every "one thread per element" kernel.
// Run by tests/frontend_own_samples_test.cpp and, under Nsight Compute, by
// tests/hardware/own_samples_driver.cu.
__global__ void own_vector_sum(const float* lhs, const float* rhs, float* total, int count) {
  const int stride = int(gridDim.x * blockDim.x);
  for (int at = int(blockIdx.x * blockDim.x + threadIdx.x); at < count; at += stride) total[at] = lhs[at] + rhs[at];
}
