// Issue 36, causes 1 and 3 where tgsim's own instrumentation or the CPU's flat memory hides what
// nvcc sees: kernels of ours in which nvcc keeps a value in a register that Clang reloads (a
// shared value after a global store, a global value after a shared store: on the GPU they are
// different spaces), and a tile whose 2-D subscripts tgsim checks per dimension (the check's
// branch must not split the loads ptxas merges). Each kernel holds one pattern;
// ../record_counts.sh keeps the H100's SASS and Nsight Compute's counts for each, and
// ../compare_counts.sh checks tgsim's counts against them. Launched with 2 blocks of 256 threads.
#define N 256

// A 16x16 tile product, one output per thread: the row of As is read as four LDS.128 although
// Bs[k][tx]'s inner subscript is checked per dimension between the loads.
__global__ void tile_2d(const float* in, float* out) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  const int ty = threadIdx.x / 16, tx = threadIdx.x % 16;
  As[ty][tx] = in[threadIdx.x];
  Bs[ty][tx] = in[threadIdx.x + N];
  __syncthreads();
  float acc = 0;
#pragma unroll
  for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
  out[blockIdx.x * N + threadIdx.x] = acc;
}

// The same over four tiles (an outer loop with barriers, as tiled matmuls have), with indices
// the compiler cannot bound (blockIdx.y and .z are 0 here): tgsim checks Bs[k][tx]'s inner
// subscript between the loads of As's row, as it does in cuda-samples' matrixMul.
__global__ void tile_2d_loop(const float* in, float* out) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  const int ty = threadIdx.x / 16 + blockIdx.z, tx = threadIdx.x % 16 + blockIdx.y;
  float acc = 0;
  for (int t = 0; t < 4; ++t) {
    As[ty][tx] = in[t * 16 + ty * 64 + tx];
    Bs[ty][tx] = in[t * 1024 + ty * 64 + tx + 7];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  out[blockIdx.x * N + threadIdx.x] = acc;
}

// A shared scalar read before and after a global store: one LDS on the GPU.
__global__ void scalar_after_store(const float* in, float* out) {
  __shared__ float scale;
  if (threadIdx.x == 0) scale = in[7];
  __syncthreads();
  const int i = blockIdx.x * N + threadIdx.x;
  out[i] = in[i] * scale;
  out[i + 2 * N] = in[i + 2 * N] * scale;
}

// The same in an unrolled loop of four stores.
__global__ void scalar_after_stores_unrolled(const float* in, float* out) {
  __shared__ float bias;
  if (threadIdx.x == 0) bias = in[3];
  __syncthreads();
  const int i = blockIdx.x * N + threadIdx.x;
#pragma unroll
  for (int j = 0; j < 4; ++j) out[i + j * 2 * N] = in[i + j * 2 * N] + bias;
}

// A global value read again after a shared store: one LDG on the GPU.
__global__ void global_after_shared_store(const float* in, float* out) {
  __shared__ float s[N];
  const int i = blockIdx.x * N + threadIdx.x;
  s[threadIdx.x] = in[i];
  const float again = in[i] * 3.0f;
  __syncthreads();
  out[i] = s[N - 1 - threadIdx.x] + again;
}

// A shared element read again after a global store, and a shared store between: the store to
// the same array orders the second read (two LDS on the GPU as well). The second read races
// with the neighbour's store (the output differs between runs); only the counts are compared.
__global__ void shared_after_both(const float* in, float* out) {
  __shared__ float s[N];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  const int i = blockIdx.x * N + threadIdx.x;
  const float a = s[(threadIdx.x + 1) % N];
  out[i] = a;
  s[threadIdx.x] = a * 2.0f;
  const float b = s[(threadIdx.x + 1) % N];
  out[i + 2 * N] = b;
}

// Lanes with 8 and 9 trips of one loop (nvcc unrolls runtime trip counts by 4 and runs the
// remainder first: issue 36, cause 2).
__global__ void uneven_trips(const float* in, float* out) {
  float s = 0;
  const int trips = 8 + (threadIdx.x & 1);
  for (int j = 0; j < trips; ++j) s += in[threadIdx.x + 8 * j];
  out[blockIdx.x * N + threadIdx.x] = s;
}
