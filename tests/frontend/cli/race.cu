// tgsim check FILE: a reduction step without its barrier (a shared-memory race).
__global__ void sum_no_barrier(const float* in, float* out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x < 32) s[threadIdx.x] += s[threadIdx.x + 32];
  if (threadIdx.x == 0) out[0] = s[0];
}
