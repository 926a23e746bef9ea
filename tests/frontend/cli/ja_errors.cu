// cli_ja_everywhere.sh: kernels whose launch or ARGs go wrong in each way tgsim says in words
// (--kernel naming two instances, a struct by value, a pointer to pointers, too much shared memory).
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
