// Kernels for frontend_test.cpp: plain CUDA, compiled by tgsim's front end.
#define TILE 16

__global__ void matmul_tiled_fe(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

// A pointer from a guard that runs past the end: an out-of-bounds finding, not a crash.
__global__ void overrun(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + n];
}

// Dynamic shared memory, a shuffle reduction and an atomic.
__global__ void block_sum(const float* in, float* out, int n) {
  extern __shared__ float partial[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xFFFFFFFFu, v, d);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) s += partial[w];
    atomicAdd(out, s);
  }
}

// Lanes 16-31 read past the end of `in`: the instruction straddles the buffer's end.
__global__ void half_overrun(const int* in, int* out) {
  out[threadIdx.x] = in[threadIdx.x + 16];
}

// A shared index past the declared array and the group's shared memory.
__global__ void shared_overrun(int* out, int k) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + k];
}

// Group 0 stores every word of its array, the other groups none; after the barrier each thread
// loads a word, in an interval of shared loads only. Group 0's stores do not initialise the
// other groups' arrays (one worker runs them one after the other): those loads are
// uninitialised reads, which the checker's skip of quiet loads must not pass over.
__global__ void first_group_stores(int* out) {
  __shared__ int s[64];
  if (blockIdx.x == 0) s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  const int v = s[63 - threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = v;
}

// An 8-byte struct of 4-byte alignment read whole: two 4-byte accesses per thread (as nvcc
// emits two LDG.32), and the pass must keep the IR valid when one access becomes two records.
struct Pair4 { int a, b; };
__global__ void pair_diff(const Pair4* q, int* out) {
  int i = threadIdx.x;
  Pair4 p = q[i];
  out[i] = p.a - p.b;
}

// Odd lanes load a 4-byte int, even lanes a 2-byte short: every lane's log has one load and
// one store, of equal length, but the loads are two warp instructions of 16 lanes each.
__global__ void odd_even_sources(const int* a, const short* b, int* out) {
  int i = threadIdx.x;
  int v;
  if (i & 1) v = a[i] * 3;
  else v = b[i] + 1;
  out[i] = v;
}

// A buffer given both as a pointer to const and as a pointer stored through (an alias): group
// 3 stores the word every group loads, a hazard between groups the checker must still see.
__global__ void const_and_alias(const int* in, int* out) {
  const int v = in[0];
  if (blockIdx.x == 3 && threadIdx.x == 0) out[0] = v + 1;
}

// A store through a pointer to const with the const cast away.
__global__ void store_through_const(const int* in, int* out) {
  out[blockIdx.x * 32 + threadIdx.x] = in[threadIdx.x];
  if (blockIdx.x == 1 && threadIdx.x == 0) const_cast<int*>(in)[5] = 9;
}

// A pointer to pointers: what it points to may be any buffer (no buffer of the launch is
// then taken as read-only).
__global__ void through_table(const int* in, int** table) { table[0][threadIdx.x] = in[threadIdx.x]; }

// Far out of bounds: lane l reads and writes `stride` elements further out. With a stride of
// 2^20 ints the last lane is 124 MiB past the end, still in the buffer's red zone.
__global__ void far_copy(const int* in, int* out, long stride) {
  long i = threadIdx.x * stride;
  out[i] = in[i] + 1;
}

// A pointer that is no device buffer at all (a null pointer, or memory that was unmapped).
__global__ void wild_copy(const int* in, int* out, long stride) {
  long i = threadIdx.x * stride;
  out[i] = in[i] + 1;
}

// Block 0 waits for the last block's flag (an atomic read loop), then every lane reads the value
// the last block released: co-resident groups (engine/coresident.cpp).
__global__ void wait_for_last_fe(int* data, int* flag, int* out) {
  __shared__ int seen;
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      while (atomicAdd(flag, 0) == 0) {
      }
      __threadfence();
      seen = data[0];
    }
    __syncthreads();
    out[threadIdx.x] = seen + threadIdx.x;
  } else if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  }
}
