// Written for tgsim (issue 33 item 6): histograms of the bytes of a word array.
//   own_histogram256          256 bins per group in shared memory, filled by shared atomics (4 per
//                             word, one per byte), then added into the result by global atomics;
//   own_histogram64_warps     64 bins (a byte's top 6 bits) per warp in shared memory, the input
//                             read as 16-byte vectors, the warps' bins summed into one partial
//                             histogram per group (partials[group * 64 + bin]);
//   own_histogram64_sum       one thread per bin adds the groups' partials (a second launch).
// Both histogram kernels walk the input with a grid-stride loop.
__global__ void own_histogram256(const unsigned* words, unsigned count, unsigned* hist) {
  __shared__ unsigned bins[256];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  for (unsigned w = blockIdx.x * blockDim.x + threadIdx.x; w < count; w += gridDim.x * blockDim.x) {
    const unsigned word = words[w];
    for (int byte = 0; byte < 4; ++byte) atomicAdd(&bins[(word >> (8 * byte)) & 0xFFu], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
    if (bins[b] != 0) atomicAdd(&hist[b], bins[b]);
}

constexpr unsigned kOwnHistWarps = 4;  // own_histogram64_warps runs 32 x kOwnHistWarps threads

__global__ void own_histogram64_warps(const uint4* quads, unsigned count, unsigned* partials) {
  __shared__ unsigned warp_bins[kOwnHistWarps][64];
  const unsigned warp = threadIdx.x / 32;
  for (unsigned b = threadIdx.x; b < kOwnHistWarps * 64; b += blockDim.x) warp_bins[b / 64][b % 64] = 0;
  __syncthreads();
  for (unsigned q = blockIdx.x * blockDim.x + threadIdx.x; q < count; q += gridDim.x * blockDim.x) {
    const uint4 v = quads[q];
    const unsigned part[4] = {v.x, v.y, v.z, v.w};
    for (int i = 0; i < 4; ++i)
      for (int byte = 0; byte < 4; ++byte) atomicAdd(&warp_bins[warp][(part[i] >> (8 * byte + 2)) & 0x3Fu], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 64; b += blockDim.x) {
    unsigned s = 0;
    for (unsigned w = 0; w < kOwnHistWarps; ++w) s += warp_bins[w][b];
    partials[blockIdx.x * 64 + b] = s;
  }
}

__global__ void own_histogram64_sum(const unsigned* partials, unsigned groups, unsigned* hist) {
  const unsigned bin = blockIdx.x * blockDim.x + threadIdx.x;
  if (bin >= 64) return;
  unsigned s = 0;
  for (unsigned g = 0; g < groups; ++g) s += partials[g * 64 + bin];
  hist[bin] = s;
}
