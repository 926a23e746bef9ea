// Kernels for `run FILE --advice` trying the x and y thread mapping swapped (issue 38 item 3).

// A naive matrix product as a learner writes it first: the row from threadIdx.x. The lanes of
// a warp take 32 rows, so A[row * n + k] reads a column of A (n * 4 bytes apart, a sector per
// lane) and C[row * n + col] writes one. With x and y swapped the lanes take 32 columns: A's
// element is one word for the warp, B's and C's are consecutive words.
__global__ void matmul_rows_x(const float* A, const float* B, float* C, int n) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

// Strided both ways: lanes one apart in x read 256 bytes apart, one apart in y 16,384 bytes
// apart. A group of 32 x 8 shows the warp only its x stride, so the swap is tried, and every
// lane still reads its own sector: it does not help.
__global__ void strided_both(const float* in, float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = gridDim.x * blockDim.x;
  float acc = 0.0f;
  for (int k = 0; k < 16; ++k) acc += in[(y * 64 + x) * 64 + k];
  out[y * w + x] = acc;
}

// Row sums of a column-read matrix, reduced within each warp by shuffles and written per warp:
// swapping x and y puts other threads in each warp, so the output changes.
__global__ void warp_column_sums(const float* in, float* out, int n) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  float v = 0.0f;
  for (int k = 0; k < 8; ++k) v += in[row * n + k] * float(col + 1);
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  const int linear = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y +
                     threadIdx.y * blockDim.x + threadIdx.x;
  if (linear % 32 == 0) out[linear / 32] = v;
}

// A matrix filled by a formula, with the row from threadIdx.x: no load, and C[row * n + col]
// writes a column (a sector per lane). With x and y swapped the lanes write consecutive words.
__global__ void fill_rows_x(float* C, int n) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  C[row * n + col] = float(row) * 0.5f + float(col);
}
