// A launch long enough (seconds: 2^29 loads) to print progress lines: every thread sums 64 elements.
__global__ void authors_busy(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < 64; ++k) sum += in[(i + k * 32) % n];
  out[i % n] = sum;
}
