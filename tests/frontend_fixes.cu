// Kernels for frontend_test.cpp, for front-end fixes made while porting kernels/ to plain CUDA.

// An 8-byte struct and a float4 copied whole from global memory, then read member by member
// (one LDG.64 / LDG.128 per copy on the GPU).
struct alignas(8) Pair {
  float v;
  int i;
};

__global__ void copy_pair(const Pair* in, float* vals, int* idx) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Pair p = in[t];
  vals[t] = p.v;
  idx[t] = p.i;
}

__global__ void sum_float4(const float4* in, float* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[t];
  out[t] = v.x + v.y + v.z + v.w;
}

// Its shared array comes first in the module; each kernel's layout starts at 0, so it lies
// where stage_no_barrier's tile does, and must not name tile's bytes.
__global__ void other_shared(int* out) {
  __shared__ int before[64];
  before[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = before[63 - threadIdx.x];
}

// Staged through shared memory with no barrier (64 threads): each thread reads what a thread of
// the other warp stored. Findings name the arrays, static and extern.
__global__ void stage_no_barrier(const float* in, float* out) {
  __shared__ float tile[8][8];
  extern __shared__ float spill[];
  int t = threadIdx.x;
  tile[t / 8][t % 8] = in[t];
  spill[t] = in[t];
  out[t] = tile[(t / 8 + 4) % 8][t % 8] + spill[(t + 32) % 64];
}
