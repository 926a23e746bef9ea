// tgsim check FILE: last_block.cu's reduction with one thing wrong each. Each must be reported
// as a race between threadgroups (checker_release.cpp orders only the correct hand-over).

// No __threadfence() between the partial sum's store and the ticket: the last block may read a
// partial that is not visible yet.
__global__ void no_fence(float* partial, unsigned int* tickets, float* total) {
  partial[blockIdx.x] = 1.0f + blockIdx.x;
  __shared__ bool last;
  if (threadIdx.x == 0) last = atomicInc(tickets, gridDim.x) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned int b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
}

// The block that draws the FIRST ticket adds the partials: the others have not stored theirs.
__global__ void first_block(float* partial, unsigned int* tickets, float* total) {
  partial[blockIdx.x] = 1.0f + blockIdx.x;
  __threadfence();
  __shared__ bool first;
  if (threadIdx.x == 0) first = atomicAdd(tickets, 1u) == 0;
  __syncthreads();
  if (first && threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned int b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
}

// Every block resets the counter after its own atomic: the reset races with the other blocks'
// atomics.
__global__ void reset_by_all(unsigned int* tickets) {
  if (threadIdx.x == 0) {
    atomicAdd(tickets, 1u);
    *tickets = 0;
  }
}
