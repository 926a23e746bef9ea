// tgsim run FILE: a tiled matmul with a printf (tests/CMakeLists.txt, hostile_cli_file_*).
#define TILE 16
__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
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
  if (row == 0 && col == 0) printf("C[0][0] = %f\n", sum);
}
