// Kernels for `explain FILE --source` and `run FILE --advice` trying a pad (issue 38 item 3).

// A 3-point row smoothing through a shared tile with a 2-pixel halo, as a learner writes it:
// each 16x16 group stages 16 rows of 18 words. A warp holds two 16-pixel rows, 18 words apart,
// so banks 0-1 (and 1-2, 2-3 for the shifted reads) serve two words each: every store and read
// takes 2 wavefronts. Padding the rows by one word ([16][19]) keeps the conflict; a pitch of 16
// mod 32 words ([16][48]) puts the two rows in opposite halves of the banks.
#define T 16
__global__ void smooth_rows(const float* in, float* out, int w) {
  __shared__ float tile[T][T + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  tile[ty][tx] = in[row * w + col];
  if (tx < 2) tile[ty][T + tx] = in[row * w + min(col + T, w - 1)];
  __syncthreads();
  out[row * w + col] = (tile[ty][tx] + tile[ty][tx + 1] + tile[ty][tx + 2]) / 3.0f;
}

// Every other word of a 1-D array: lanes l and l + 16 share a bank (a 2-way conflict) for any
// length of the array, so padding it cannot help.
__global__ void every_other(const float* in, float* out) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  s[t + 32] = in[blockIdx.x * 64 + t + 32];
  __syncthreads();
  out[blockIdx.x * 32 + t] = s[2 * t];
}

// Rows read as rows: no conflict, nothing to try.
__global__ void plain_rows(const float* in, float* out) {
  __shared__ float tile[8][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[(blockIdx.x * 8 + ty) * 32 + tx];
  __syncthreads();
  out[(blockIdx.x * 8 + ty) * 32 + tx] = 2.0f * tile[ty][31 - tx];
}
