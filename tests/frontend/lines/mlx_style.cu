// An MLX-style kernel (issue 32 item 9): templated, a helper inlined, a loop over a row with a
// scale the helper loads on every step (LICM hoists it out of the loop, where it loses its
// location). tests/lines_test.sh asserts the lines: keep them where they are.

template <typename T>
__device__ __forceinline__ T load_scaled(const T* in, const T* scale, int row, int col, int cols) {
  return in[row * cols + col] * scale[row];
}

template <typename T, int N_READS>
__global__ void rms_like(T* out, const T* in, const T* scale, int cols) {
  int row = blockIdx.x;
  T acc = 0;
  for (int col = threadIdx.x * N_READS; col + N_READS <= cols; col += blockDim.x * N_READS) {
#pragma unroll
    for (int r = 0; r < N_READS; ++r)
      acc += load_scaled(in, scale, row, col + r, cols);
  }
  T v = acc;
  if (threadIdx.x & 1)
    out[row * blockDim.x + threadIdx.x] = v * 2;
  else
    out[row * blockDim.x + threadIdx.x] = v + 1;
}

template __global__ void rms_like<float, 4>(float*, const float*, const float*, int);
