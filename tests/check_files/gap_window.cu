// Three of four floats of an aligned window, read together: ptxas makes them one LDS.128 that
// also reads the fourth (element 0 here), which no thread writes. tgsim counts the one LDS.128
// (tests/nvcc_fidelity/widening: three_of_four_*), and its checker leaves element 0 out: no
// uninitialised read.
__global__ void gap_window(float* out) {
  __shared__ float s[4 * 64];
  const int t = threadIdx.x;
  s[4 * t + 1] = t;
  s[4 * t + 2] = 2 * t;
  s[4 * t + 3] = 3 * t;
  __syncthreads();
  out[t] = s[4 * t + 1] + s[4 * t + 2] + s[4 * t + 3];
}
