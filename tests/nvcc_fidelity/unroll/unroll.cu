// Issue 36, cause 2 (unroll order): kernels of ours with loops whose trip count is known only at
// run time and differs between the lanes of a warp. NVVM unrolls such a loop 4 times (2 for a
// larger body) and, when the loop's counter starts at a value that is not a constant, runs the
// remainder iterations first: lanes with 10 and 9 trips then meet different iterations in one
// copy of the body, and the sectors of that instruction are those of two rows. Each kernel holds
// one pattern; ../record_counts.sh keeps the H100's SASS and Nsight Compute's counts for each,
// and ../compare_counts.sh checks tgsim's counts against them. Launched with 2 blocks of 256
// threads.
#define N 256

// Lanes 0-11 of each warp run 10 trips, lanes 12-31 run 9 (remainders 2 and 1): a copy of the
// body then reads parts of two rows, whose sectors are not those of one.
__global__ void uneven_loads(const float* in, float* out) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float s = 0;
  for (int j = lane; j < 32 * 9 + 12; j += 32) s += in[warp * 320 + j];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// The same trips, a store in the body.
__global__ void uneven_stores(const float* in, float* out) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int j = lane; j < 32 * 9 + 12; j += 32) out[warp * 304 + j] = in[j] * 2.0f;  // both blocks: equal values
}

// Shared memory filled by a loop whose last trip only some lanes run (1004 of 1024 elements).
__global__ void uneven_shared(const float* in, float* out) {
  __shared__ float s[1024];
  for (int j = threadIdx.x; j < 1004; j += N) s[j] = in[j];
  __syncthreads();
  float t = 0;
  for (int j = threadIdx.x; j < 1004; j += N) t += s[1003 - j];
  out[blockIdx.x * N + threadIdx.x] = t;
}

// A body of sixteen loads: unrolled twice, the remainder first.
__global__ void uneven_big_body(const float* in, float* out) {
  const int lane = threadIdx.x % 32;
  float s = 0;
  for (int j = lane; j < 32 * 5 + 12; j += 32)
#pragma unroll
    for (int k = 0; k < 16; ++k) s += in[j + 192 * k] * (k + 1);
  out[blockIdx.x * N + threadIdx.x] = s;
}

// A stride known only at run time (blockDim.x): not unrolled, source order.
__global__ void uneven_runtime_stride(const float* in, float* out) {
  const int lane = threadIdx.x % 32;
  float s = 0;
  for (int j = lane; j < 32 * 9 + 12; j += blockDim.x / 8) s += in[j];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// The counter starts at 0 (the remainder runs last): source order.
__global__ void uneven_from_zero(const float* in, float* out) {
  const int lane = threadIdx.x % 32;
  float s = 0;
  const int trips = lane < 12 ? 10 : 9;
  for (int j = 0; j < trips; ++j) s += in[lane + 32 * j];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// A bound known only at run time (blockDim.x + 44 = 300): NVVM unrolls 4 times with the
// remainder first (lanes 0-11: 10 trips, remainder 2; lanes 12-31: 9, remainder 1).
__global__ void runtime_bound_loads(const float* in, float* out) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int n = blockDim.x + 44;
  float s = 0;
  for (int j = lane; j < n; j += 32) s += in[warp * 320 + j];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// The same with many trips (lanes 0-11: 121, lanes 12-31: 120), wrapping around `in`.
__global__ void runtime_bound_long(const float* in, float* out) {
  const int lane = threadIdx.x % 32;
  const int n = blockDim.x * 15 + 12;
  float s = 0;
  for (int j = lane; j < n; j += 32) s += in[(threadIdx.x / 32 * 512 + j) & 4095];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// Stores with a run-time bound.
__global__ void runtime_bound_stores(const float* in, float* out) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int n = blockDim.x + 44;
  for (int j = lane; j < n; j += 32) out[warp * 304 + j] = in[j] * 2.0f;  // both blocks: equal values
}
