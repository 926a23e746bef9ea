// tgsim check FILE --schedules N: a race between lanes of one warp that only some lane orders
// show. Lane 0 stores s only when lane 1's flag came before its loads and lane 2's after them,
// so under in-order (0, 1, 2) and reverse (2, 1, 0) the store never happens and the pair
// (lane 0's store, lane 3's load) is never made; a seeded shuffle of the lanes makes it, names
// the schedule, and --schedule shuffle:SEED replays it.
__global__ void lane_order(int* out) {
  __shared__ int a, b, s;
  if (threadIdx.x == 0) { a = 0; b = 0; s = 7; }
  __syncthreads();
  if (threadIdx.x == 1) atomicExch(&a, 1);
  if (threadIdx.x == 2) atomicExch(&b, 1);
  if (threadIdx.x == 0 && atomicAdd(&a, 0) == 1 && atomicAdd(&b, 0) == 0) s = 5;
  if (threadIdx.x == 3) out[0] = s;
}

// The same in warp-synchronous code: after a shuffle and a __syncwarp the lanes go on in the
// schedule's order too (reverse and some shuffles show the store).
__global__ void lane_order_syncwarp(int* out) {
  __shared__ int a, b, s;
  if (threadIdx.x == 0) { a = 0; b = 0; s = 7; }
  __syncthreads();
  const int v = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x), 0);
  __syncwarp();
  if (threadIdx.x == 1) atomicExch(&a, 1 + v);
  if (threadIdx.x == 2) atomicExch(&b, 1);
  if (threadIdx.x == 0 && atomicAdd(&a, 0) == 1 && atomicAdd(&b, 0) == 0) s = 5;
  if (threadIdx.x == 3) out[0] = s;
}
