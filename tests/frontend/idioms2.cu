// Everyday CUDA idioms, part 2 (tests/frontend_idioms_test.cpp): raw int* parameters, __shared__
// in a function template, extern __shared__, __constant__, __device__ variables, atomics, printf,
// cooperative_groups, warp shuffles and votes, a host pointer handed to a kernel.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Raw int* parameters, launched with Buffer::data().
__global__ void int_params(int* a, const int* b) {
  int i = threadIdx.x;
  a[i] += b[i];
}

// __shared__ inside a function template: one array per instantiation (float and double), both
// written before either is read.
template <class T> __device__ T* stash(T v) {
  __shared__ T buf[64];
  buf[threadIdx.x] = v;
  return buf;
}
__global__ void template_shared(const float* f, const double* d, float* fo, double* dout) {
  int t = threadIdx.x;
  float* fs = stash(f[t]);
  double* ds = stash(d[t]);
  __syncthreads();
  fo[t] = fs[63 - t];
  dout[t] = ds[63 - t];
}

// extern __shared__ sized at launch (2 * blockDim.x ints).
__global__ void dynamic_shared(const int* in, int* out) {
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  int v = in[t];
  dyn[t] = v;
  dyn[blockDim.x + t] = 2 * v;
  __syncthreads();
  out[t] = dyn[blockDim.x - 1 - t] + dyn[2 * blockDim.x - 1 - t];
}

// __constant__ set by cudaMemcpyToSymbol.
__constant__ float c_coef[4];
extern "C" int set_coef(const float* h) { return cudaMemcpyToSymbol(c_coef, h, sizeof(c_coef)); }
__global__ void constant_poly(const float* x, float* y) {
  int t = threadIdx.x;
  float v = x[t];
  y[t] = c_coef[0] + v * (c_coef[1] + v * c_coef[2]) + c_coef[3];
}

// __device__ variables (global memory) that persist across launches.
__device__ int g_launches;
__device__ float g_table[32];
extern "C" int read_launches(int* h) { return cudaMemcpyFromSymbol(h, g_launches, sizeof(int)); }
__global__ void device_globals(float* out) {
  int t = threadIdx.x;
  g_table[t] = t * 0.5f;
  __syncthreads();
  out[t] = g_table[31 - t];
  if (t == 0) atomicAdd(&g_launches, 1);
}

// atomicAdd, atomicInc and atomicCAS on shared and on global memory.
__global__ void atomics(int* gsum, unsigned* ginc, int* gcas, unsigned* wrap_out, int* owner_out) {
  __shared__ int s_count;
  __shared__ unsigned s_wrap;
  __shared__ int s_owner;
  int t = threadIdx.x;
  if (t == 0) {
    s_count = 0;
    s_wrap = 0;
    s_owner = -1;
  }
  __syncthreads();
  atomicAdd(&s_count, 1);
  atomicInc(&s_wrap, 9u);
  atomicCAS(&s_owner, -1, t);
  __syncthreads();
  if (t == 0) {
    atomicAdd(gsum, s_count);
    *wrap_out = s_wrap;
    *owner_out = s_owner;
  }
  atomicInc(ginc, 1000u);
  atomicCAS(gcas, 0, t + 1);
}

// printf from a kernel.
__global__ void hello(int base) {
  if (threadIdx.x % 16 == 0) printf("block %d thread %d value %d\n", blockIdx.x, threadIdx.x, base + threadIdx.x);
}

// cooperative_groups: this_thread_block, thread_rank, tiled_partition<32>, shfl_down, sync.
__global__ void cg_block_sum(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int warp_sums[2];
  int v = in[block.thread_rank()];
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  for (int d = 16; d > 0; d /= 2) v += tile.shfl_down(v, d);
  tile.sync();
  if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = v;
  cg::sync(block);
  if (block.thread_rank() == 0) out[blockIdx.x] = warp_sums[0] + warp_sums[1];
}

// Shuffles (a double is two SHFL), votes and __syncwarp.
__global__ void warp_ops(const int* in, int* out, unsigned* ballots) {
  int t = threadIdx.x;
  int v = in[t];
  int x = __shfl_xor_sync(0xFFFFFFFFu, v, 1);
  int u = __shfl_up_sync(0xFFFFFFFFu, v, 1);
  int s = __shfl_sync(0xFFFFFFFFu, v, 0);
  double dd = __shfl_down_sync(0xFFFFFFFFu, (double)v, 2);
  unsigned b = __ballot_sync(0xFFFFFFFFu, v & 1);
  int any = __any_sync(0xFFFFFFFFu, v > 40);
  int all = __all_sync(0xFFFFFFFFu, v >= 0);
  __syncwarp();
  out[t] = x + u + s + (int)dd + any + all;
  if (t % 32 == 0) ballots[t / 32] = b;
}

// A host pointer handed to a kernel: a finding, not a crash.
__global__ void read_pointer(const int* p, int* out) { out[threadIdx.x] = p[threadIdx.x]; }
