// CUDA twins of tests/frontend/metal_vectors.metal's vector kernels (tests/metal_counts_test.cpp).
__global__ void cu_copy_float4(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  reinterpret_cast<float4*>(out)[i] = reinterpret_cast<const float4*>(in)[i];
}

__global__ void cu_copy_uchar4(const unsigned char* in, unsigned char* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  reinterpret_cast<uchar4*>(out)[i] = reinterpret_cast<const uchar4*>(in)[i];
}

__global__ void cu_copy_int2(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  reinterpret_cast<int2*>(out)[i] = reinterpret_cast<const int2*>(in)[i];
}

__global__ void cu_tile_float4(const float* in, float* out) {
  __shared__ float4 tile[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = reinterpret_cast<const float4*>(in)[i];
  __syncthreads();
  reinterpret_cast<float4*>(out)[i] = tile[255 - threadIdx.x];
}
