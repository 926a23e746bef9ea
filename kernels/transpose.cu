// Matrix transpose out = in^T for square n x n int matrices, 32x32 threadgroups (seed 002).
// naive: the load is strided (one sector per lane); shared: both global accesses coalesce
// but the shared store walks a column (32-way bank conflict); padded: [32][33] spreads the
// column over all 32 banks.

#define TRANSPOSE_BLOCK 32

__global__ void transpose_naive(const int* in, int* out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  out[y * n + x] = in[x * n + y];
}

template <int PAD>
__device__ __forceinline__ void transpose_tile(const int* in, int* out, int n) {
  __shared__ int s[TRANSPOSE_BLOCK][TRANSPOSE_BLOCK + PAD];
  int lx = threadIdx.x;
  int ly = threadIdx.y;
  int x = blockIdx.x * TRANSPOSE_BLOCK + lx;     // column read from `in`
  int y = blockIdx.y * TRANSPOSE_BLOCK + ly;
  int tx = blockIdx.y * TRANSPOSE_BLOCK + lx;    // column written to `out`
  int ty = blockIdx.x * TRANSPOSE_BLOCK + ly;
  if (x < n && y < n) s[lx][ly] = in[y * n + x];
  __syncthreads();
  if (tx < n && ty < n) out[ty * n + tx] = s[ly][lx];
}

// Seed 002's two shared-memory versions: [32][32] and the padded [32][33].
__global__ void transpose_shared(const int* in, int* out, int n) {
  transpose_tile<0>(in, out, n);
}
__global__ void transpose_padded(const int* in, int* out, int n) {
  transpose_tile<1>(in, out, n);
}
