// Written for tgsim (issue 33 item 6): per-group sums, one partial sum per group in `sums`, in the
// shapes a reduction goes through as it is tuned (GROUP threads per group, a power of two >= 64):
//   own_reduce_modulo       one element per thread; tree with doubling distance, the working
//                           threads picked by `lane % (2 * gap) == 0` (divergent warps);
//   own_reduce_halving      two elements per thread added on load; tree with halving distance,
//                           working threads contiguous (`lane < half`);
//   own_reduce_warp_tail    as halving down to 64 values, then the last warp finishes with
//                           shuffles (no barrier, no shared memory);
//   own_reduce_strided      a fixed grid: each thread first sums a grid-stride run, each warp
//                           reduces by shuffles, the warps' sums meet in shared memory.
// n is a multiple of the elements a grid covers at once (GROUP, 2 x GROUP or gridDim x GROUP).
// own_reduce_halving and own_reduce_warp_tail keep their GROUP values in dynamic shared memory
// (GROUP x sizeof(T) bytes at launch), typed by a __device__ helper that every caller inlines.

// The launch's dynamic shared memory as an array of T.
template <class T> __device__ inline T* own_dynamic_shared() {
  extern __shared__ unsigned long long own_dynamic_words[];  // 8-byte aligned for double
  return reinterpret_cast<T*>(own_dynamic_words);
}
template <class T, int GROUP>
__global__ void own_reduce_modulo(const T* in, T* sums, unsigned n) {
  __shared__ T part[GROUP];
  const unsigned lane = threadIdx.x, at = blockIdx.x * GROUP + lane;
  part[lane] = at < n ? in[at] : T(0);
  __syncthreads();
  for (unsigned gap = 1; gap < GROUP; gap *= 2) {
    if (lane % (2 * gap) == 0) part[lane] += part[lane + gap];
    __syncthreads();
  }
  if (lane == 0) sums[blockIdx.x] = part[0];
}

template <class T, int GROUP>
__global__ void own_reduce_halving(const T* in, T* sums, unsigned n) {
  T* part = own_dynamic_shared<T>();
  const unsigned lane = threadIdx.x, at = blockIdx.x * (2 * GROUP) + lane;
  T v = at < n ? in[at] : T(0);
  if (at + GROUP < n) v += in[at + GROUP];
  part[lane] = v;
  __syncthreads();
  for (unsigned half = GROUP / 2; half > 0; half /= 2) {
    if (lane < half) part[lane] += part[lane + half];
    __syncthreads();
  }
  if (lane == 0) sums[blockIdx.x] = part[0];
}

template <class T, int GROUP>
__global__ void own_reduce_warp_tail(const T* in, T* sums, unsigned n) {
  T* part = own_dynamic_shared<T>();
  const unsigned lane = threadIdx.x, at = blockIdx.x * (2 * GROUP) + lane;
  T v = at < n ? in[at] : T(0);
  if (at + GROUP < n) v += in[at + GROUP];
  part[lane] = v;
  __syncthreads();
  for (unsigned half = GROUP / 2; half > 32; half /= 2) {
    if (lane < half) part[lane] = v = v + part[lane + half];
    __syncthreads();
  }
  if (lane < 32) {
    v += part[lane + 32];
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (lane == 0) sums[blockIdx.x] = v;
  }
}

template <class T, int GROUP>
__global__ void own_reduce_strided(const T* in, T* sums, unsigned n) {
  __shared__ T warp_sums[GROUP / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  T v = T(0);
  for (unsigned at = blockIdx.x * GROUP + threadIdx.x; at < n; at += gridDim.x * GROUP) v += in[at];
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < GROUP / 32 ? warp_sums[lane] : T(0);
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
    if (lane == 0) sums[blockIdx.x] = v;
  }
}

template __global__ void own_reduce_modulo<int, 256>(const int*, int*, unsigned);
template __global__ void own_reduce_halving<int, 256>(const int*, int*, unsigned);
template __global__ void own_reduce_warp_tail<int, 256>(const int*, int*, unsigned);
template __global__ void own_reduce_warp_tail<double, 256>(const double*, double*, unsigned);
template __global__ void own_reduce_strided<int, 256>(const int*, int*, unsigned);
