// tgsim check FILE: the last steps of a block reduction inside warp 0, each lane reading what
// another lane of its warp wrote. `nosync` relies on lockstep execution through a volatile
// pointer (racecheck reports it on Volta and later: lanes of a warp are not ordered without
// __syncwarp); `with_syncwarp` orders every read before the writes and every write before the
// next step's reads.
__global__ void nosync(const float* in, float* out) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) {
    volatile float* v = s;
    v[t] = v[t] + v[t + 32];
    v[t] = v[t] + v[t + 16];
    v[t] = v[t] + v[t + 8];
    v[t] = v[t] + v[t + 4];
    v[t] = v[t] + v[t + 2];
    v[t] = v[t] + v[t + 1];
  }
  if (t == 0) out[0] = s[0];
}
__global__ void with_syncwarp(const float* in, float* out) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  if (t < 32) {
    float v = s[t] + s[t + 32];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    for (unsigned o = 16; o > 0; o >>= 1) {
      v += s[t + o];
      __syncwarp();
      s[t] = v;
      __syncwarp();
    }
  }
  if (t == 0) out[0] = s[0];
}
