// Issue 36: loops of constant trip count that NVVM unrolls completely, so that a thread's loads of
// one row become adjacent and ptxas merges them (LDS.128), and shared indices that are adjacent
// only in the GPU's 32-bit shared addresses. The shapes of a tiled matmul's inner loops (the
// SGEMM ladder's steps 3, 4 and 10, measured on the H100 in docs/validation.md), written here for
// the fixture. ../record_counts.sh records the H100's counts; ../compare_counts.sh checks
// tgsim's. Launched with 2 blocks of 256 threads, `in` of 4096 floats.
#define N 256

// A tile of 32 x 32 and a 32-trip dot product: row = thread / 32, column = thread % 32.
__global__ void dot_32(const float* in, float* out) {
  __shared__ float As[32 * 32], Bs[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += N) {
    As[i] = in[i];
    Bs[i] = in[1024 + i];
  }
  __syncthreads();
  const int row = threadIdx.x / 32, col = threadIdx.x % 32;
  float s = 0;
  for (int k = 0; k < 32; ++k) s += As[row * 32 + k] * Bs[k * 32 + col];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// The same with 64 trips over a 64-wide tile.
__global__ void dot_64(const float* in, float* out) {
  __shared__ float As[4 * 64], Bs[64 * 32];
  for (int i = threadIdx.x; i < 4 * 64; i += N) As[i] = in[i];
  for (int i = threadIdx.x; i < 64 * 32; i += N) Bs[i] = in[256 + i];
  __syncthreads();
  const int row = threadIdx.x / 64, col = threadIdx.x % 32;
  float s = 0;
  for (int k = 0; k < 64; ++k) s += As[row * 64 + k] * Bs[k * 32 + col];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// A nest of 8 x 8: each step reads one column value and 8 rows of A (1-D block tiling).
__global__ void nest_8x8(const float* in, float* out) {
  __shared__ float As[64 * 8], Bs[8 * 64];
  for (int i = threadIdx.x; i < 64 * 8; i += N) {
    As[i] = in[i];
    Bs[i] = in[512 + i];
  }
  __syncthreads();
  const unsigned row = threadIdx.x / 64, col = threadIdx.x % 64;
  float acc[8] = {0};
  for (unsigned d = 0; d < 8; ++d) {
    const float b = Bs[d * 64 + col];
    for (unsigned r = 0; r < 8; ++r) acc[r] += As[(row * 8 + r) * 8 + d] * b;
  }
  float s = 0;
  for (int r = 0; r < 8; ++r) s += acc[r];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// A nest of 16 x 8.
__global__ void nest_16x8(const float* in, float* out) {
  __shared__ float As[32 * 16], Bs[16 * 64];
  for (int i = threadIdx.x; i < 32 * 16; i += N) As[i] = in[i];
  for (int i = threadIdx.x; i < 16 * 64; i += N) Bs[i] = in[512 + i];
  __syncthreads();
  const unsigned row = threadIdx.x / 64, col = threadIdx.x % 64;
  float acc[8] = {0};
  for (unsigned d = 0; d < 16; ++d) {
    const float b = Bs[d * 64 + col];
    for (unsigned r = 0; r < 8; ++r) acc[r] += As[(row * 8 + r) * 16 + d] * b;
  }
  float s = 0;
  for (int r = 0; r < 8; ++r) s += acc[r];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// Rows read through a helper with an unsigned base (warp tiling): adjacent in 32-bit addresses.
template <int TM>
__device__ void rows(float* reg, const float* As, unsigned base) {
  for (unsigned d = 0; d < 8; ++d)
    for (unsigned i = 0; i < TM; ++i) reg[i] += As[d * 128 + base + i];
}
__global__ void warp_rows(const float* in, float* out) {
  __shared__ float As[128 * 8];
  for (int i = threadIdx.x; i < 128 * 8; i += N) As[i] = in[i];
  __syncthreads();
  float reg[8] = {0};
  const unsigned warp_row = (threadIdx.x / 32) / 4, row_in_warp = (threadIdx.x % 32) / 4;
  rows<8>(reg, As, warp_row * 64 + row_in_warp * 8);
  float s = 0;
  for (int i = 0; i < 8; ++i) s += reg[i];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// Four windows of four floats 16 apart: Clang writes base + 16 as base | 16.
__global__ void or_windows(const float* in, float* out) {
  __shared__ float Bs[128 * 16];
  for (int i = threadIdx.x; i < 128 * 16; i += N) Bs[i] = in[i];
  __syncthreads();
  float reg[16] = {0};
  const unsigned warp_col = (threadIdx.x / 32) % 2, col_in_warp = (threadIdx.x % 32) % 4;
  for (unsigned d = 0; d < 16; ++d)
    for (unsigned w = 0; w < 4; ++w)
      for (unsigned i = 0; i < 4; ++i) reg[w * 4 + i] += Bs[d * 128 + warp_col * 64 + w * 16 + col_in_warp * 4 + i];
  float s = 0;
  for (int i = 0; i < 16; ++i) s += reg[i];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// Longer dot products: 128 and 256 trips.
#define DOT_LONG(NAME, K)                                                          \
  __global__ void NAME(const float* in, float* out) {                              \
    __shared__ float As[2 * K], Bs[K * 32];                                        \
    for (int i = threadIdx.x; i < 2 * K; i += N) As[i] = in[i & 4095];             \
    for (int i = threadIdx.x; i < K * 32; i += N) Bs[i] = in[(2 * K + i) & 4095];  \
    __syncthreads();                                                               \
    const int row = threadIdx.x / 128, col = threadIdx.x % 32;                     \
    float s = 0;                                                                   \
    for (int k = 0; k < K; ++k) s += As[row * K + k] * Bs[k * 32 + col];           \
    out[blockIdx.x * N + threadIdx.x] = s;                                         \
  }
DOT_LONG(dot_128, 128)
DOT_LONG(dot_256, 256)

// Larger nests: 32 x 8 and 16 x 16.
#define NEST(NAME, D, R)                                                           \
  __global__ void NAME(const float* in, float* out) {                              \
    __shared__ float As[4 * R * D], Bs[D * 64];                                    \
    for (int i = threadIdx.x; i < 4 * R * D; i += N) As[i] = in[i & 4095];         \
    for (int i = threadIdx.x; i < D * 64; i += N) Bs[i] = in[(1024 + i) & 4095];   \
    __syncthreads();                                                               \
    const unsigned row = threadIdx.x / 64, col = threadIdx.x % 64;                 \
    float acc[R] = {0};                                                            \
    for (unsigned d = 0; d < D; ++d) {                                             \
      const float b = Bs[d * 64 + col];                                            \
      for (unsigned r = 0; r < R; ++r) acc[r] += As[(row * R + r) * D + d] * b;    \
    }                                                                              \
    float s = 0;                                                                   \
    for (int r = 0; r < R; ++r) s += acc[r];                                       \
    out[blockIdx.x * N + threadIdx.x] = s;                                         \
  }
NEST(nest_32x8, 32, 8)
NEST(nest_16x16, 16, 16)
NEST(nest_64x4, 64, 4)
