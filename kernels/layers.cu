// Seed 001's neural-network layer ReLU(W x + b), built from three kernels as the seed builds it:
// a matrix-vector product (one thread per output row), add_bias and relu (one thread per element).

// y[row] = sum_k W[row][k] * x[k]; W is rows x cols, row-major.
__global__ void matvec(const float* W, const float* x, float* y, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  #pragma unroll 1
  for (int k = 0; k < cols; ++k) sum += W[row * cols + k] * x[k];
  y[row] = sum;
}

// matrix (total elements, n columns) += bias[column].
__global__ void add_bias(float* matrix, const float* bias, int n, int total) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= total) return;
  int col = id % n;
  matrix[id] += bias[col];
}

__global__ void relu(float* data, int total) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= total) return;
  float v = data[id];
  data[id] = v > 0.0f ? v : 0.0f;
}
