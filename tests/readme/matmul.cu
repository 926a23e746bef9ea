// The kernel file the README's GoogleTest example names (matmul.cu, matmul_tiled): C = A B for
// n x n floats, 16x16 tiles of A and B staged in shared memory, n a multiple of 16.
#define TILE 16

__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float a[TILE][TILE];
  __shared__ float b[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    a[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
    b[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += a[threadIdx.y][k] * b[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}
