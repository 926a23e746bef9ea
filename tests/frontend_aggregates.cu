// Kernels for frontend_test.cpp: an 8-byte struct and a float4 copied whole from global memory
// and then read member by member (one LDG.64 / LDG.128 per copy on the GPU).
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
