// Written for tgsim (issue 33 item 6): a shared-memory tiled matrix product, out = left x right,
// one output per thread, EDGE x EDGE groups. The left tile is kept transposed and padded
// (left_t[k][row]), so the inner loop reads one word per half-warp row from it (a broadcast of two
// words, one wavefront) and a conflict-free row from the right tile; its store is the padded
// column write. No two consecutive k-reads are adjacent in memory, so no compiler can widen them.
// `inner` and `cols` are multiples of EDGE; the grid covers out exactly.
template <int EDGE>
__global__ void own_tiled_matmul(const float* left, const float* right, float* out, int inner, int cols) {
  __shared__ float left_t[EDGE][EDGE + 1];
  __shared__ float right_s[EDGE][EDGE];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int row = int(blockIdx.y) * EDGE + ty, col = int(blockIdx.x) * EDGE + tx;
  float acc = 0.0f;
  for (int step = 0; step < inner; step += EDGE) {
    left_t[tx][ty] = left[row * inner + step + tx];
    right_s[ty][tx] = right[(step + ty) * cols + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < EDGE; ++k) acc += left_t[k][ty] * right_s[k][tx];
    __syncthreads();
  }
  out[row * cols + col] = acc;
}

template __global__ void own_tiled_matmul<16>(const float*, const float*, float*, int, int);
