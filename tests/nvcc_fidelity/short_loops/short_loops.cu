// Issue 36, cause 2 (unroll order), the loops NVVM leaves alone: a trip count known only at run
// time but known to stay at 20 or under (a lane's index to a constant bound). ptxas unrolls them
// itself (read in the SASS of ../unroll/'s uneven_loads). Each kernel holds one trip count or
// body, so that the H100's counts (../record_counts.sh) show where ptxas's rule starts and stops;
// ../compare_counts.sh checks tgsim's counts against them. Launched with 2 blocks of 256 threads:
// lanes 0-11 of each warp run one trip more than lanes 12-31.
#define N 256

#define SHORT_LOOP(NAME, TRIPS)                                                  \
  __global__ void NAME(const float* in, float* out) {                            \
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;                  \
    float s = 0;                                                                 \
    for (int j = lane; j < 32 * (TRIPS - 1) + 12; j += 32) s += in[(warp * 64 + j) & 4095]; \
    out[blockIdx.x * N + threadIdx.x] = s;                                       \
  }

SHORT_LOOP(short_3, 3)    // 3 and 2 trips
SHORT_LOOP(short_5, 5)    // 5 and 4
SHORT_LOOP(short_7, 7)    // 7 and 6
SHORT_LOOP(short_11, 11)  // 11 and 10 (remainders 3 and 2)
SHORT_LOOP(short_13, 13)  // 13 and 12
SHORT_LOOP(short_19, 19)  // 19 and 18
SHORT_LOOP(short_31, 31)  // 31 and 30

// Stores, 13 and 12 trips.
__global__ void short_stores_13(const float* in, float* out) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int j = lane; j < 32 * 12 + 12; j += 32) out[(warp * 64 + j) & 4095] = in[j] * 2.0f;  // equal values
}

// A counter from 0 (LLVM would put the remainder last): 13 and 12 trips.
__global__ void short_from_zero_13(const float* in, float* out) {
  const int lane = threadIdx.x % 32;
  float s = 0;
  const int trips = lane < 12 ? 13 : 12;
  for (int j = 0; j < trips; ++j) s += in[lane + 32 * j];
  out[blockIdx.x * N + threadIdx.x] = s;
}

// Bodies of 4, 8 and 16 loads, 10 and 9 trips.
#define SHORT_BODY(NAME, LOADS)                                                  \
  __global__ void NAME(const float* in, float* out) {                            \
    const int lane = threadIdx.x % 32;                                           \
    float s = 0;                                                                 \
    for (int j = lane; j < 32 * 9 + 12; j += 32)                                 \
      _Pragma("unroll") for (int k = 0; k < LOADS; ++k) s += in[(j + 300 * k) & 4095] * (k + 1); \
    out[blockIdx.x * N + threadIdx.x] = s;                                       \
  }
SHORT_BODY(short_body_4, 4)
SHORT_BODY(short_body_8, 8)
SHORT_BODY(short_body_16, 16)

// Shared memory, 10 and 9 trips per lane.
__global__ void short_shared(const float* in, float* out) {
  __shared__ float t[1024];
  for (int j = threadIdx.x; j < 1024; j += N) t[j] = in[j];
  __syncthreads();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float s = 0;
  for (int j = lane; j < 32 * 9 + 12; j += 32) s += t[(warp * 64 + j) & 1023];
  out[blockIdx.x * N + threadIdx.x] = s;
}
