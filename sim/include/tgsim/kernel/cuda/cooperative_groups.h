// <cooperative_groups.h> for a .cu compiled by tgsim's front end: the basics the CUDA samples use,
// on top of tgsim/kernel/cuda_runtime.h (force-included before the user's code).
//   cg::thread_block / cg::this_thread_block(): sync() is __syncthreads (one BAR per warp),
//     thread_rank() the x-fastest index in the block, size(), thread_index(), group_index(),
//     dim_threads(), num_threads().
//   cg::thread_block_tile<N> / cg::tiled_partition<N>(g) for N = 1, 2, 4, 8, 16, 32: the N-lane
//     segment of the warp holding the thread; shfl, shfl_up, shfl_down, shfl_xor (width N, the
//     segment's lanes as mask: one SHFL per 32-bit word, as nvcc emits), any, all, ballot,
//     sync() (__syncwarp over the segment), thread_rank(), size(), meta_group_rank(),
//     meta_group_size().
//   cg::coalesced_group / cg::coalesced_threads(): the lanes of the warp active where it is made
//     (__activemask()), ranked in lane order; shfl (by rank), shfl_up, shfl_down, any, all,
//     ballot (bit r = rank r), sync(), thread_rank(), size(), meta_group_rank/size() (0, 1).
//   cg::sync(g) for any group.
//   In cooperative_groups/: tiles of 64 ... 1024 threads and block_tile_memory (large_tile.h),
//   the type-erased thread_group and run-time tiled_partition(g, n) (thread_group.h),
//   labeled_partition / binary_partition (partition.h), cg::reduce (reduce.h), and
//   cg::grid_group / cg::this_grid() (grid.h): grid.sync() in a cooperative launch.
// Simplified: no multi-grid groups.
#ifndef TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_H
#define TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_H

#include "tgsim/kernel/cuda_runtime.h"

namespace cooperative_groups {

class thread_block {
 public:
  __forceinline__ void sync() const { __syncthreads(); }
  __forceinline__ unsigned long long thread_rank() const {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  }
  __forceinline__ unsigned long long size() const { return num_threads(); }
  __forceinline__ unsigned long long num_threads() const {
    return static_cast<unsigned long long>(blockDim.x) * blockDim.y * blockDim.z;
  }
  __forceinline__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __forceinline__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __forceinline__ dim3 dim_threads() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __forceinline__ dim3 group_dim() const { return dim_threads(); }
};

__forceinline__ thread_block this_thread_block() { return thread_block(); }

namespace details {
template <unsigned N> class multi_warp_tile;  // N = 64 ... 1024: cooperative_groups/large_tile.h

// What every tile of N threads knows: its thread's rank in it, and its own rank among the
// block's tiles (threads in the block's x-fastest order, tiles of N consecutive ones).
template <unsigned N>
class tile_ranks {
 protected:
  __forceinline__ static unsigned linear() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  }

 public:
  static constexpr unsigned num_threads() { return N; }
  static constexpr unsigned size() { return N; }
  __forceinline__ unsigned thread_rank() const { return linear() & (N - 1); }
  __forceinline__ unsigned meta_group_rank() const { return linear() / N; }
  __forceinline__ unsigned meta_group_size() const {
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    return (threads + N - 1) / N;
  }
};

template <unsigned N>
class warp_tile : public tile_ranks<N> {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                "tgsim: thread_block_tile<N> needs N a power of 2 up to 1024");
  using tile_ranks<N>::linear;

 public:
  // The segment's lanes within the warp.
  __forceinline__ unsigned mask() const {
    if constexpr (N == 32) return 0xFFFFFFFFu;
    else return ((1u << N) - 1u) << (linear() % 32 & ~(N - 1));
  }
  __forceinline__ void sync() const { __syncwarp(mask()); }
  template <class T> __forceinline__ T shfl(T v, int src) const { return __shfl_sync(mask(), v, src, N); }
  template <class T> __forceinline__ T shfl_up(T v, unsigned d) const { return __shfl_up_sync(mask(), v, d, N); }
  template <class T> __forceinline__ T shfl_down(T v, unsigned d) const { return __shfl_down_sync(mask(), v, d, N); }
  template <class T> __forceinline__ T shfl_xor(T v, int m) const { return __shfl_xor_sync(mask(), v, m, N); }
  __forceinline__ int any(int p) const { return __any_sync(mask(), p); }
  __forceinline__ int all(int p) const { return __all_sync(mask(), p); }
  // The segment's bits, shifted down to bit 0 = thread_rank 0.
  __forceinline__ unsigned ballot(int p) const {
    const unsigned b = __ballot_sync(mask(), p);
    if constexpr (N == 32) return b;
    else return (b >> (linear() % 32 & ~(N - 1))) & ((1u << N) - 1u);
  }
};
}  // namespace details

template <unsigned N>
class thread_block_tile
    : public std::conditional_t<(N <= 32), details::warp_tile<N>, details::multi_warp_tile<N>> {};

template <unsigned N, class Parent>
__forceinline__ thread_block_tile<N> tiled_partition(const Parent&) {
  return thread_block_tile<N>();
}

class coalesced_group {
  friend __forceinline__ unsigned details_mask(const coalesced_group& g) { return g.mask_; }
  unsigned mask_;
  __forceinline__ static unsigned lane() { return __laneid(); }
  // The lane of rank r: the r-th set bit of the mask.
  __forceinline__ unsigned lane_of(unsigned r) const {
    unsigned m = mask_;
    for (unsigned i = 0; i < r && m; ++i) m &= m - 1;
    return m ? static_cast<unsigned>(__builtin_ctz(m)) : 32u;
  }

 public:
  __forceinline__ explicit coalesced_group(unsigned mask) : mask_(mask) {}
  __forceinline__ unsigned long long num_threads() const { return static_cast<unsigned>(__builtin_popcount(mask_)); }
  __forceinline__ unsigned long long size() const { return num_threads(); }
  __forceinline__ unsigned long long thread_rank() const {
    return static_cast<unsigned>(__builtin_popcount(mask_ & ((1u << lane()) - 1u)));
  }
  __forceinline__ unsigned meta_group_rank() const { return 0; }
  __forceinline__ unsigned meta_group_size() const { return 1; }
  __forceinline__ void sync() const { __syncwarp(mask_); }
  template <class T> __forceinline__ T shfl(T v, unsigned rank) const {
    return __shfl_sync(mask_, v, static_cast<int>(lane_of(rank)));
  }
  // Up and down by rank: a lane whose source rank is outside the group keeps its own value.
  template <class T> __forceinline__ T shfl_up(T v, unsigned d) const {
    const unsigned r = static_cast<unsigned>(thread_rank());
    const T got = __shfl_sync(mask_, v, static_cast<int>(lane_of(r >= d ? r - d : r)));
    return r >= d ? got : v;
  }
  template <class T> __forceinline__ T shfl_down(T v, unsigned d) const {
    const unsigned r = static_cast<unsigned>(thread_rank()), n = static_cast<unsigned>(size());
    const T got = __shfl_sync(mask_, v, static_cast<int>(lane_of(r + d < n ? r + d : r)));
    return r + d < n ? got : v;
  }
  __forceinline__ int any(int p) const { return __any_sync(mask_, p); }
  __forceinline__ int all(int p) const { return __all_sync(mask_, p); }
  __forceinline__ unsigned ballot(int p) const {
    const unsigned b = __ballot_sync(mask_, p);
    unsigned out = 0, r = 0;
    for (unsigned m = mask_; m; m &= m - 1, ++r)
      if (b & (1u << __builtin_ctz(m))) out |= 1u << r;
    return out;
  }
};

__forceinline__ coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

__forceinline__ void sync(const thread_block& g) { g.sync(); }
template <unsigned N> __forceinline__ void sync(const thread_block_tile<N>& g) { g.sync(); }
__forceinline__ void sync(const coalesced_group& g) { g.sync(); }

}  // namespace cooperative_groups

#include "cooperative_groups/large_tile.h"
#include "cooperative_groups/thread_group.h"
#include "cooperative_groups/partition.h"
#include "cooperative_groups/grid.h"

#endif
