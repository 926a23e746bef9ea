// Written for tgsim (issue 33 item 6): a work-efficient (up-sweep / down-sweep) exclusive prefix
// sum in three launches:
//   own_scan_chunks        each group of 256 threads scans a chunk of 512 values in shared memory
//                          (2 per thread; missing values past n are 0) and leaves the chunk's total
//                          in totals[group];
//   own_scan_chunks again  on the totals (one group): each chunk's offset;
//   own_scan_add_offsets   adds its chunk's offset to every value of the chunk.
// The tree is padded by one word per 32 (value i lives at i + i / 32): unpadded, the strided
// accesses of the tree's levels fall into few banks; padded, every level is conflict-free at
// these sizes (the few threads of the deep levels land in distinct banks).
constexpr unsigned kOwnChunk = 512;

__device__ inline unsigned own_slot(unsigned i) { return i + (i >> 5); }

__global__ void own_scan_chunks(const unsigned* in, unsigned* out, unsigned* totals, unsigned n) {
  __shared__ unsigned tree[kOwnChunk + kOwnChunk / 32];
  const unsigned t = threadIdx.x, base = blockIdx.x * kOwnChunk;
  for (unsigned i = t; i < kOwnChunk; i += blockDim.x) tree[own_slot(i)] = base + i < n ? in[base + i] : 0u;
  unsigned gap = 1;
  for (unsigned active = kOwnChunk / 2; active > 0; active /= 2, gap *= 2) {  // up-sweep
    __syncthreads();
    if (t < active) tree[own_slot(gap * (2 * t + 2) - 1)] += tree[own_slot(gap * (2 * t + 1) - 1)];
  }
  __syncthreads();
  if (t == 0) {
    totals[blockIdx.x] = tree[own_slot(kOwnChunk - 1)];
    tree[own_slot(kOwnChunk - 1)] = 0;
  }
  for (unsigned active = 1; active < kOwnChunk; active *= 2) {  // down-sweep
    gap /= 2;
    __syncthreads();
    if (t < active) {
      const unsigned right = own_slot(gap * (2 * t + 2) - 1), left = own_slot(gap * (2 * t + 1) - 1);
      const unsigned from_left = tree[left], from_right = tree[right];  // both read before either is written
      tree[left] = from_right;
      tree[right] = from_right + from_left;
    }
  }
  __syncthreads();
  for (unsigned i = t; i < kOwnChunk; i += blockDim.x)
    if (base + i < n) out[base + i] = tree[own_slot(i)];
}

__global__ void own_scan_add_offsets(unsigned* data, const unsigned* offsets) {
  const unsigned base = blockIdx.x * kOwnChunk, add = offsets[blockIdx.x];
  for (unsigned i = threadIdx.x; i < kOwnChunk; i += blockDim.x) data[base + i] += add;
}
