// A tile staged through shared memory whose sum is never stored: the compiler removes the
// shared-memory work, and tgsim says so instead of showing an unexplained 0.
__global__ void dead_tile(const float* in, float* out, int n) {
  __shared__ float tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  float sum = tile[threadIdx.x] + tile[(threadIdx.x + 1) % 64];
  (void)sum;  // never stored
  if (i < n) out[i] = 1.0f;
}

// The same tile whose sum is stored: its shared accesses stay.
__global__ void live_tile(const float* in, float* out, int n) {
  __shared__ float tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = tile[threadIdx.x] + tile[(threadIdx.x + 1) % 64];
}
