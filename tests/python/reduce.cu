// A block's sum in shared memory with interleaved addressing: in step s, thread t adds
// s[2*s*t + s] into s[2*s*t], so the active lanes' words are 2*s apart and share banks.
__global__ void reduce(const float* in, float* out, int n) {
  __shared__ float s[256];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned step = 1; step < blockDim.x; step *= 2) {
    unsigned index = 2 * step * t;
    if (index < blockDim.x) s[index] += s[index + step];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
