// cli_ja_everywhere.sh: kernels whose launch or ARGs go wrong in each way tgsim says in words
// (--kernel naming two instances, a struct by value, a pointer to pointers, too much shared memory).
#include <cassert>

template <int N>
__global__ void fill(float* out) { out[threadIdx.x] = N; }
template __global__ void fill<8>(float*);
template __global__ void fill<16>(float*);

struct Pair {
  int a;
  float b;
};
__global__ void by_value(Pair p, float* out) { out[threadIdx.x] = p.a + p.b; }

__global__ void pointers(float** rows) { rows[0][threadIdx.x] = 1.0f; }

__global__ void big_tile(float* out) {
  __shared__ float tile[20000];  // 80,000 bytes: over the H100's 48 KiB of static shared memory
  tile[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

// Its report: printf's output, an out-of-bounds store and an assert (findings), and a note.
__global__ void talk(float* out, int n) {
  if (threadIdx.x == 3) assert(n < 0);
  out[threadIdx.x + 60] = 1.0f;
  printf("lane %d\n", threadIdx.x);
}

__global__ void idle(int n) {
  int x = n * 2;
  (void)x;
}
