// A 256-bin histogram of bytes: each group counts its grid-stride share into shared-memory bins
// with shared atomics, then merges its bins into the global histogram with global atomics.

__global__ void histogram256(const unsigned char* data, int n, unsigned* hist) {
  __shared__ unsigned bins[256];
  unsigned tid = threadIdx.x;
  bins[tid] = 0;  // blockDim.x == 256
  __syncthreads();
  #pragma unroll 1
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
    unsigned char b = data[i];
    atomicAdd(&bins[b], 1u);
  }
  __syncthreads();
  unsigned count = bins[tid];
  if (count) atomicAdd(&hist[tid], count);
}
