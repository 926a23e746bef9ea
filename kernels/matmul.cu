// Matrix multiply C = A x B for square n x n float matrices (seed 000 and seed 001).
// Plain CUDA, compiled by nvcc and by tgsim's front end. Each source-level access is meant to be
// one SASS instruction: #pragma unroll 1 keeps nvcc from unrolling the k loops into wider
// LDS.64/128 or merged loads, so Nsight Compute counts what tgsim counts.

// Seed 001: one thread per C element, 16x16 threadgroups, every operand from global memory.
__global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  #pragma unroll 1
  for (int k = 0; k < n; ++k) {
    sum += A[row * n + k] * B[k * n + col];
  }
  C[row * n + col] = sum;
}

// Seed 000: TILE x TILE threadgroups stage one tile of A and one of B in shared memory.
template <int TILE>
__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float tileA[TILE][TILE];
  __shared__ float tileB[TILE][TILE];
  int lx = threadIdx.x;
  int ly = threadIdx.y;
  int row = blockIdx.y * TILE + ly;
  int col = blockIdx.x * TILE + lx;
  float sum = 0.0f;
  #pragma unroll 1
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    int aCol = t * TILE + lx;
    int bRow = t * TILE + ly;
    tileA[ly][lx] = (row < n && aCol < n) ? A[row * n + aCol] : 0.0f;
    tileB[ly][lx] = (bRow < n && col < n) ? B[bRow * n + col] : 0.0f;
    __syncthreads();
    #pragma unroll 1
    for (int k = 0; k < TILE; ++k) {
      sum += tileA[ly][k] * tileB[k][lx];
    }
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = sum;
}

// The tile sizes the catalog runs (kernels.hpp declares them for host code).
template __global__ void matmul_tiled<8>(const float*, const float*, float*, int);
template __global__ void matmul_tiled<16>(const float*, const float*, float*, int);
template __global__ void matmul_tiled<32>(const float*, const float*, float*, int);
