// A value loaded before a libm call and named again after it. nvcc's device math sets no errno,
// so the second read is the first one's register: one global load per warp (Nsight Compute on the
// H100, tests/nvcc_fidelity/h100/). A host compiler that keeps C's errno treats the call as a
// store to memory and loads again (issue 36: +50% global loads).
#include <cmath>

__global__ void after_expf(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float e = expf(in[i]);
  out[i] = e * in[i];
}

__global__ void after_sqrtf(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float r = sqrtf(in[i]);
  out[i] = r + in[i];
}

__global__ void after_logf_powf(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float l = logf(in[i]);
  float p = powf(in[i], 1.5f);
  out[i] = l + p + in[i];
}

__global__ void after_double_exp(const double* in, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double e = exp(in[i]);
  out[i] = e - in[i];
}
