// Each kernel's shared memory laid out from its own declarations (issue 40, item 5): the
// dynamic region of a launch starts after the launched kernel's static arrays, not after the
// largest kernel's of the file.
#define TILE 12288  // 48 KiB of floats: the static limit

// 48 KiB of static shared memory: a tile written, then read back reversed.
__global__ void static_48k(float* out) {
  __shared__ float tile[TILE];
  for (int i = threadIdx.x; i < TILE; i += blockDim.x) tile[i] = (float)i;
  __syncthreads();
  float s = 0;
  for (int i = threadIdx.x; i < TILE; i += blockDim.x) s += tile[TILE - 1 - i] == (float)(TILE - 1 - i);
  out[threadIdx.x] = s;
  if (threadIdx.x == 0) printf("static: %d of %d\n", (int)s, TILE / (int)blockDim.x);
}

// Only extern __shared__: every byte of a large dynamic region is its own.
__global__ void dynamic_only(int* out, int n) {
  extern __shared__ int buf[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    int good = 0;
    for (int i = 0; i < n; ++i) good += buf[i] == i;
    out[0] = good;
    printf("dynamic: %d of %d\n", good, n);
  }
}

// A small static array and the dynamic region: they do not overlap.
__global__ void mixed(int* out, int n) {
  __shared__ int small[4];
  extern __shared__ int dyn[];
  if (threadIdx.x < 4) small[threadIdx.x] = -1 - (int)threadIdx.x;
  for (int i = threadIdx.x; i < n; i += blockDim.x) dyn[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    int good = 0;
    for (int i = 0; i < 4; ++i) good += small[i] == -1 - i;
    for (int i = 0; i < n; ++i) good += dyn[i] == i;
    out[0] = good;
    printf("mixed: %d of %d\n", good, n + 4);
  }
}
