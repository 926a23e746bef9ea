// Kernels whose instrumented IR tests/pass_fast_path_ir.sh reads: loops over global and shared
// memory with no call in the loop body (the lane's cursor must stay in a register there), a
// barrier and a device function call (the cursor is written back and reloaded around them).
__device__ __attribute__((noinline)) float twice(const float* p, int i) { return 2.0f * p[i]; }

__global__ void row_sums(const float* a, float* out, int n) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += a[threadIdx.x * n + k];
  out[threadIdx.x] = s;
}

__global__ void tile_dot(const float* a, float* out, int n) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = a[threadIdx.y * n + threadIdx.x];
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < 16; ++k) s += t[threadIdx.y][k] * t[k][threadIdx.x];
  out[threadIdx.y * n + threadIdx.x] = s + twice(a, threadIdx.x);
}

// A call that may throw, with a destructor that stores: the call is an invoke, the cursor is
// reloaded on its normal edge and in its landing pad.
__device__ void may_throw(float* p);
struct Mark {
  float* p;
  ~Mark() { p[threadIdx.x] = 1.0f; }
};
__global__ void guarded(float* p) {
  Mark m{p};
  p[threadIdx.x + 32] = 2.0f;
  may_throw(p);
}
