// tgsim check FILE: one launch sums n floats. Every block reduces its slice into
// partial[block]; its thread 0 then fences and takes a ticket from an atomic counter, and the
// block that draws the last ticket adds the partial sums and resets the counter (the
// __threadfence() + atomic ticket pattern of the CUDA Programming Guide). Which block is last
// depends on the order of the atomics between blocks: the report must not. It is correct: no
// finding (tests/check_files/last_block_bugs.cu: the same with one thing wrong each).
__global__ void last_block_sum(const float* in, float* partial, unsigned int* tickets, float* total, int n) {
  __shared__ float s[128];
  __shared__ bool last;
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int step = blockDim.x / 2; step > 0; step /= 2) {
    if (tid < step) s[tid] += s[tid + step];
    __syncthreads();
  }
  if (tid == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    const unsigned int ticket = atomicInc(tickets, gridDim.x);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last && tid == 0) {
    float sum = 0.0f;
    for (unsigned int b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
    *tickets = 0;
  }
}
