// A kernel for the GoogleTest matchers' own test (authors_test.cpp): line 6 holds a global load
// (4 sectors per warp) and a shared store at stride 2 (2 wavefronts, 1 bank conflict per warp).
__global__ void authors_stride2(const float* in, float* out) {
  __shared__ float s[64];
  int tid = threadIdx.x;
  s[tid * 2] = in[tid];
  __syncthreads();
  out[tid] = s[tid * 2];
}
