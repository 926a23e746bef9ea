// tgsim check FILE: threads store to __constant__ memory through a cast (nvcc warns "Cannot
// store to pointer that points to constant memory space"). tests/hardware/checker_probe/ records
// what the H100 and memcheck do with it.
__constant__ float coeffs[8];
__global__ void write_constant(float* out) {
  if (threadIdx.x < 8) const_cast<float*>(coeffs)[threadIdx.x] = 1.0f;
  out[threadIdx.x] = coeffs[threadIdx.x % 8];
}
