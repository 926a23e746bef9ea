// tgsim check FILE: results that legitimately depend on the order of atomics. Each thread
// takes a slot from a counter and writes its index there; the last thread to swap itself into
// `winner` wins; thread 0 reads how many slots were taken when it looked and, after the
// barrier, every thread writes that count plus its index (a value handed on through shared
// memory).
__global__ void take_slots(int* count, int* slots, int* winner, int* out) {
  __shared__ int seen;
  const int slot = atomicAdd(count, 1);
  slots[slot] = threadIdx.x;
  atomicExch(winner, threadIdx.x);
  if (threadIdx.x == 0) seen = atomicAdd(count, 0);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = seen + threadIdx.x;
}
