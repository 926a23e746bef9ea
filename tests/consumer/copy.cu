// A user's kernel as plain CUDA, compiled by an installed tgsim's front end.
__global__ void copy_through_shared(const float* in, float* out) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = s[threadIdx.x];
}
