// Buggy kernels for `tgsim check` and its tests: each has one classic mistake that
// compute-sanitizer (racecheck, synccheck, memcheck) finds on a GPU. The `// check:` tags
// mark the lines the findings must point at (tests/check_test.cpp looks them up).
// One source for nvcc and tgsim, like the clean kernels; they are in the catalog as "buggy".
// The lines are those compute-sanitizer named (tests/hardware/sanitizer_h100.txt): keep them.


// matmul_tiled<16> with the first __syncthreads removed: a thread reads tile entries that
// other threads may not have stored yet (RAW between the tile stores and the k loop).
__global__ void matmul_tiled16_nobarrier1(const float* A, const float* B,
                                          float* C, int n) {
  __shared__ float tileA[16][16];
  __shared__ float tileB[16][16];
  int lx = threadIdx.x;
  int ly = threadIdx.y;
  int row = blockIdx.y * 16 + ly;
  int col = blockIdx.x * 16 + lx;
  float sum = 0.0f;
  #pragma unroll 1
  for (int t = 0; t < (n + 15) / 16; ++t) {
    int aCol = t * 16 + lx;
    int bRow = t * 16 + ly;
    tileA[ly][lx] = (row < n && aCol < n) ? A[row * n + aCol] : 0.0f;  // check: nb1_store_a
    tileB[ly][lx] = (bRow < n && col < n) ? B[bRow * n + col] : 0.0f;  // check: nb1_store_b
    #pragma unroll 1
    for (int k = 0; k < 16; ++k) {
      sum += tileA[ly][k] * tileB[k][lx];  // check: nb1_load
    }
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = sum;
}

// matmul_tiled<16> with the second __syncthreads removed: a fast thread stores the next tile
// while slower ones still read the current one (WAR between the k loop and the tile stores).
__global__ void matmul_tiled16_nobarrier2(const float* A, const float* B,
                                          float* C, int n) {
  __shared__ float tileA[16][16];
  __shared__ float tileB[16][16];
  int lx = threadIdx.x;
  int ly = threadIdx.y;
  int row = blockIdx.y * 16 + ly;
  int col = blockIdx.x * 16 + lx;
  float sum = 0.0f;
  #pragma unroll 1
  for (int t = 0; t < (n + 15) / 16; ++t) {
    int aCol = t * 16 + lx;
    int bRow = t * 16 + ly;
    tileA[ly][lx] = (row < n && aCol < n) ? A[row * n + aCol] : 0.0f;  // check: nb2_store_a
    tileB[ly][lx] = (bRow < n && col < n) ? B[bRow * n + col] : 0.0f;  // check: nb2_store_b
    __syncthreads();
    #pragma unroll 1
    for (int k = 0; k < 16; ++k) {
      sum += tileA[ly][k] * tileB[k][lx];  // check: nb2_load
    }
  }
  if (row < n && col < n) C[row * n + col] = sum;
}

// Seed 000's bad example: each thread stages its element, then reads its neighbour's with
// no barrier in between (256 threads per group).
__global__ void neighbor_nobarrier(const float* input, float* output, int n) {
  __shared__ float shared_data[256];
  int local_id = threadIdx.x;
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  shared_data[local_id] = id < n ? input[id] : 0.0f;  // check: nb_store
  float val = 0.0f;
  if (local_id + 1 < 256) val = shared_data[local_id + 1];  // check: nb_load
  if (id < n) output[id] = val;
}

// A barrier only some threads of the block reach (64 threads per group).
__global__ void divergent_barrier(const float* in, float* out, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  float v = id < n ? in[id] : 0.0f;
  if (threadIdx.x < 16) __syncthreads();  // check: div_barrier
  if (id < n) out[id] = 2.0f * v;
}

// transpose_naive with an off-by-one in the row index of the load: the last thread reads one
// element past the end of `in`.
__global__ void transpose_oob(const int* in, int* out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  out[y * n + x] = in[x * n + y + 1];  // check: oob_load
}

// The classic last-warp unroll of a sum (64 threads per group) without __syncwarp: it relied
// on lockstep warps, which independent thread scheduling (sm_70+) no longer guarantees.
// volatile keeps nvcc from caching s[tid] in a register: one LDS/STS per source access.
__global__ void warp_reduce_nosync(const float* in, float* out, int n) {
  __shared__ volatile float s[64];
  int tid = threadIdx.x;
  int id = blockIdx.x * 64 + tid;
  s[tid] = id < n ? in[id] : 0.0f;
  __syncthreads();
  if (tid < 32) {
    s[tid] = s[tid] + s[tid + 32];  // check: wr_32
    s[tid] = s[tid] + s[tid + 16];  // check: wr_16
    s[tid] = s[tid] + s[tid + 8];  // check: wr_8
    s[tid] = s[tid] + s[tid + 4];  // check: wr_4
    s[tid] = s[tid] + s[tid + 2];  // check: wr_2
    s[tid] = s[tid] + s[tid + 1];  // check: wr_1
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

// The same reduction made correct for independent thread scheduling: every step reads into a
// register, then __syncwarp, then stores, then __syncwarp (the CUDA Programming Guide's fix).
__global__ void warp_reduce_syncwarp(const float* in, float* out, int n) {
  __shared__ float s[64];
  int tid = threadIdx.x;
  int id = blockIdx.x * 64 + tid;
  s[tid] = id < n ? in[id] : 0.0f;
  __syncthreads();
  if (tid < 32) {
    float v = s[tid] + s[tid + 32];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
    #pragma unroll 1
    for (int d = 16; d > 0; d /= 2) {
      v += s[tid + d];
      __syncwarp();
      s[tid] = v;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
