// Seed 000's first example, correct version: each thread adds its right neighbour's value
// (wrapping inside the group) read through a 256-float shared array, with the barrier.

__global__ void neighbour_sum(const float* input, float* output) {
  __shared__ float shared_data[256];
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned local_id = threadIdx.x;
  unsigned group_size = blockDim.x;
  shared_data[local_id] = input[id];
  __syncthreads();
  float result = shared_data[local_id] + shared_data[(local_id + 1) % group_size];
  __syncthreads();
  output[id] = result;
}
