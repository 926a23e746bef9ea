// Issue 36, cause 1 (widening): kernels of ours in which one thread reads or writes adjacent
// elements. ptxas (not nvcc's front end: the PTX keeps one ld.shared.f32 per element) merges
// such accesses into LDS.64/128, STS.64/128 where it can prove the alignment. Each kernel holds
// one pattern; ../record_counts.sh keeps the H100's SASS and Nsight Compute's counts for each, and
// ../compare_counts.sh checks tgsim's counts against them. Launched with 2 blocks of 256 threads.
#include <cuda_fp16.h>

#define N 256

// Fills a shared array of `n` floats from `in`, one element per thread per step (no widening).
#define FILL(s, n) \
  for (int j = threadIdx.x; j < (n); j += blockDim.x) (s)[j] = in[j]; \
  __syncthreads()

// The SGEMM ladder's inner product: 8 consecutive floats of a row per thread (TM = 8).
__global__ void rows_of_8(const float* in, float* out) {
  __shared__ float As[64 * 8];
  FILL(As, 64 * 8);
  const int row = threadIdx.x / 8;  // 0..31
  float r[8] = {0};
#pragma unroll
  for (int k = 0; k < 8; ++k)
#pragma unroll
    for (int i = 0; i < 8; ++i) r[i] += As[k * 64 + (row % 8) * 8 + i];
  float s = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) s += r[i] * (i + 1);
  out[blockIdx.x * N + threadIdx.x] = s;
}

// Four consecutive floats at a multiple of four (TM = 4).
__global__ void rows_of_4(const float* in, float* out) {
  __shared__ float As[4 * N];
  FILL(As, 4 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 4] + 2 * As[t * 4 + 1] + 3 * As[t * 4 + 2] + 4 * As[t * 4 + 3];
}

// Two consecutive floats at a multiple of two.
__global__ void pairs(const float* in, float* out) {
  __shared__ float As[2 * N];
  FILL(As, 2 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 2] - As[t * 2 + 1];
}

// Four consecutive floats one element past a multiple of four.
__global__ void off_by_one(const float* in, float* out) {
  __shared__ float As[4 * N + 8];
  FILL(As, 4 * N + 8);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 4 + 1] + 2 * As[t * 4 + 2] + 3 * As[t * 4 + 3] + 4 * As[t * 4 + 4];
}

// Two consecutive floats at an even element of a row of 33 (rows alternate 8-byte alignment).
__global__ void rows_of_33(const float* in, float* out) {
  __shared__ float tile[32][33];
  FILL(&tile[0][0], 32 * 33);
  const int r = threadIdx.x / 16, c = (threadIdx.x % 16) * 2;
  out[blockIdx.x * N + threadIdx.x] = tile[r][c] - tile[r][c + 1];
}

// Two consecutive floats at an even element of a row of 34 (every row 8-byte aligned).
__global__ void rows_of_34(const float* in, float* out) {
  __shared__ float tile[32][34];
  FILL(&tile[0][0], 32 * 34);
  const int r = threadIdx.x / 16, c = (threadIdx.x % 16) * 2;
  out[blockIdx.x * N + threadIdx.x] = tile[r][c] - tile[r][c + 1];
}

// Three floats at a multiple of three.
__global__ void triples(const float* in, float* out) {
  __shared__ float As[3 * N];
  FILL(As, 3 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 3] + 2 * As[t * 3 + 1] + 3 * As[t * 3 + 2];
}

// Elements 0 and 2 of four: a gap.
__global__ void gap(const float* in, float* out) {
  __shared__ float As[4 * N];
  FILL(As, 4 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 4] - As[t * 4 + 2];
}

// Two __shared__ scalars declared one after the other.
__global__ void two_scalars(const float* in, float* out) {
  __shared__ float a, b;
  if (threadIdx.x == 0) {
    a = in[0];
    b = in[1];
  }
  __syncthreads();
  out[blockIdx.x * N + threadIdx.x] = a * threadIdx.x + b;
}

// A scalar, then an array: which addresses does ptxas give them?
__global__ void scalar_then_array(const float* in, float* out) {
  __shared__ float a;
  __shared__ float As[4 * N];
  if (threadIdx.x == 0) a = in[0];
  FILL(As, 4 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = a + As[t * 4] + 2 * As[t * 4 + 1] + 3 * As[t * 4 + 2] + 4 * As[t * 4 + 3];
}

// Four consecutive floats stored by one thread.
__global__ void store_4(const float* in, float* out) {
  __shared__ float As[4 * N];
  const int t = threadIdx.x;
  const float v = in[blockIdx.x * N + t];
  As[t * 4] = v;
  As[t * 4 + 1] = v + 1;
  As[t * 4 + 2] = v + 2;
  As[t * 4 + 3] = v + 3;
  __syncthreads();
  out[blockIdx.x * N + t] = As[(t * 4 + 5) % (4 * N)];
}

// Dynamic shared memory (extern), four consecutive floats.
__global__ void dynamic_4(const float* in, float* out) {
  extern __shared__ float dyn[];
  FILL(dyn, 4 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = dyn[t * 4] + 2 * dyn[t * 4 + 1] + 3 * dyn[t * 4 + 2] + 4 * dyn[t * 4 + 3];
}

// Two doubles, eight halves, four bytes.
__global__ void doubles_2(const float* in, float* out) {
  __shared__ double D[2 * N];
  FILL(D, 2 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = float(D[t * 2] - D[t * 2 + 1]);
}
__global__ void halves_8(const float* in, float* out) {
  __shared__ __half H[8 * N];
  for (int j = threadIdx.x; j < 8 * N; j += blockDim.x) H[j] = __float2half(in[j]);
  __syncthreads();
  const int t = threadIdx.x;
  float s = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) s += __half2float(H[t * 8 + i]) * (i + 1);
  out[blockIdx.x * N + t] = s;
}
__global__ void bytes_4(const float* in, float* out) {
  __shared__ unsigned char C[4 * N];
  for (int j = threadIdx.x; j < 4 * N; j += blockDim.x) C[j] = (unsigned char)in[j];
  __syncthreads();
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = C[t * 4] + 2 * C[t * 4 + 1] + 3 * C[t * 4 + 2] + 4 * C[t * 4 + 3];
}

// Global memory through a kernel parameter: the alignment of `in` is unknown to the compiler.
__global__ void global_4(const float* in, float* out) {
  const int t = blockIdx.x * N + threadIdx.x;
  const float v = in[t * 4] + 2 * in[t * 4 + 1] + 3 * in[t * 4 + 2] + 4 * in[t * 4 + 3];
  out[t * 4] = v;
  out[t * 4 + 1] = v + 1;
  out[t * 4 + 2] = v + 2;
  out[t * 4 + 3] = v + 3;
}

// The same with the alignment stated.
__global__ void global_4_aligned(const float* in, float* out) {
  const float* a = static_cast<const float*>(__builtin_assume_aligned(in, 16));
  float* o = static_cast<float*>(__builtin_assume_aligned(out, 16));
  const int t = blockIdx.x * N + threadIdx.x;
  const float v = a[t * 4] + 2 * a[t * 4 + 1] + 3 * a[t * 4 + 2] + 4 * a[t * 4 + 3];
  o[t * 4] = v;
  o[t * 4 + 1] = v + 1;
  o[t * 4 + 2] = v + 2;
  o[t * 4 + 3] = v + 3;
}

// A float2 built from two values and stored as one (BlackScholes' results).
__global__ void global_float2_store(const float* in, float* out) {
  const int t = blockIdx.x * N + threadIdx.x;
  const float2 v = reinterpret_cast<const float2*>(in)[t];
  float2 r;
  r.x = v.x * v.y;
  r.y = v.x + v.y;
  reinterpret_cast<float2*>(out)[t] = r;
}

// A struct of two floats aligned to 8, copied whole.
struct __align__(8) Pair { float x, y; };
__global__ void global_struct(const float* in, float* out) {
  const int t = blockIdx.x * N + threadIdx.x;
  const Pair p = reinterpret_cast<const Pair*>(in)[t];
  out[t] = p.x - p.y;
}

// Loads of one row, a store to another shared array between them.
__global__ void store_between(const float* in, float* out) {
  __shared__ float As[4 * N];
  __shared__ float Bs[N];
  FILL(As, 4 * N);
  const int t = threadIdx.x;
  const float x = As[t * 4];
  Bs[t] = x;
  const float y = As[t * 4 + 1] + As[t * 4 + 2] + As[t * 4 + 3];
  __syncthreads();
  out[blockIdx.x * N + t] = Bs[(t + 1) % N] + y;
}

// The SGEMM ladder's 2-D register tile: As transposed (column of BM floats), Bs row (TN = 8).
__global__ void tile_8x8(const float* in, float* out) {
  __shared__ float As[8 * 128];
  __shared__ float Bs[8 * 128];
  FILL(As, 8 * 128);
  for (int j = threadIdx.x; j < 8 * 128; j += blockDim.x) Bs[j] = in[j + 7];
  __syncthreads();
  const int tr = threadIdx.x / 16, tc = threadIdx.x % 16;
  float acc[8][8] = {};
  float a[8], b[8];
  for (int k = 0; k < 8; ++k) {
#pragma unroll
    for (int i = 0; i < 8; ++i) a[i] = As[k * 128 + tr * 8 + i];
#pragma unroll
    for (int i = 0; i < 8; ++i) b[i] = Bs[k * 128 + tc * 8 + i];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
  }
  float s = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) s += acc[i][j] * (i - j);
  out[blockIdx.x * N + threadIdx.x] = s;
}

// Three of the four elements of an aligned window of four floats, each choice of three
// (off_by_one reads elements 1-3 and the next window's 0).
__global__ void three_of_four_012(const float* in, float* out) {
  __shared__ float As[4 * N];
  FILL(As, 4 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 4] + 2 * As[t * 4 + 1] + 3 * As[t * 4 + 2];
}
__global__ void three_of_four_013(const float* in, float* out) {
  __shared__ float As[4 * N];
  FILL(As, 4 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 4] + 2 * As[t * 4 + 1] + 3 * As[t * 4 + 3];
}
__global__ void three_of_four_023(const float* in, float* out) {
  __shared__ float As[4 * N];
  FILL(As, 4 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 4] + 2 * As[t * 4 + 2] + 3 * As[t * 4 + 3];
}
__global__ void three_of_four_123(const float* in, float* out) {
  __shared__ float As[4 * N];
  FILL(As, 4 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 4 + 1] + 2 * As[t * 4 + 2] + 3 * As[t * 4 + 3];
}
// Two of four: elements 1 and 2 (an unaligned pair), and 1 and 3.
__global__ void two_of_four_12(const float* in, float* out) {
  __shared__ float As[4 * N];
  FILL(As, 4 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 4 + 1] - As[t * 4 + 2];
}
__global__ void two_of_four_13(const float* in, float* out) {
  __shared__ float As[4 * N];
  FILL(As, 4 * N);
  const int t = threadIdx.x;
  out[blockIdx.x * N + t] = As[t * 4 + 1] - As[t * 4 + 3];
}
