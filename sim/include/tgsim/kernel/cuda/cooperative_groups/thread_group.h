// cg::thread_group for tgsim's <cooperative_groups.h>: the type-erased group CUDA code passes to
// device functions (`__device__ int sum(cg::thread_group g, ...)`). It is made from a
// thread_block, any thread_block_tile<N> or a coalesced_group, and from the run-time
// cg::tiled_partition(parent, n) (n a power of 2 up to 32, as CUDA allows).
//   sync(): the kind it was made from decides: __syncthreads for a block or a tile of more than
//     32 threads, __syncwarp(the group's lanes) for a warp tile or coalesced group.
//   thread_rank(), size(), num_threads().
// tiled_partition(parent, n) of a block or tile: the n-thread tile holding the thread (rows of the
// block's linear index); of a coalesced group: its ranks k*n .. k*n+n-1 as a coalesced group.
// Any other n is a trap (a finding at the call).
#ifndef TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_THREAD_GROUP_H
#define TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_THREAD_GROUP_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

class thread_group {
  enum Kind : unsigned { kBlock, kWarpTile, kCoalesced, kLargeTile };
  Kind kind_;
  unsigned size_;  // a tile's size (kWarpTile, kLargeTile)
  unsigned mask_;  // the group's lanes of the warp (kWarpTile, kCoalesced)

  __forceinline__ static unsigned linear() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  }
  __forceinline__ thread_group(Kind k, unsigned size, unsigned mask) : kind_(k), size_(size), mask_(mask) {}
  // The n-thread tile of the block's linear index holding this thread (n a power of 2 up to 32).
  __forceinline__ static thread_group warp_tile(unsigned n) {
    const unsigned m = n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1u) << (linear() % 32 & ~(n - 1));
    return thread_group(kWarpTile, n, m);
  }
  friend thread_group tiled_partition(const thread_group& parent, unsigned n);

 public:
  __forceinline__ thread_group(const thread_block&) : kind_(kBlock), size_(0), mask_(0) {}
  template <unsigned N>
  __forceinline__ thread_group(const thread_block_tile<N>&)
      : kind_(N <= 32 ? kWarpTile : kLargeTile), size_(N), mask_(0) {
    if constexpr (N <= 32) *this = warp_tile(N);
  }
  __forceinline__ thread_group(const coalesced_group& g) : kind_(kCoalesced), size_(0), mask_(details_mask(g)) {}

  __forceinline__ unsigned long long num_threads() const {
    switch (kind_) {
      case kBlock: return static_cast<unsigned long long>(blockDim.x) * blockDim.y * blockDim.z;
      case kCoalesced: return static_cast<unsigned>(__builtin_popcount(mask_));
      default: return size_;
    }
  }
  __forceinline__ unsigned long long size() const { return num_threads(); }
  __forceinline__ unsigned long long thread_rank() const {
    switch (kind_) {
      case kBlock: return linear();
      case kCoalesced: return static_cast<unsigned>(__builtin_popcount(mask_ & ((1u << __laneid()) - 1u)));
      default: return linear() & (size_ - 1);
    }
  }
  __forceinline__ void sync() const {
    if (kind_ == kBlock || kind_ == kLargeTile) __syncthreads();
    else __syncwarp(mask_);
  }
};

__forceinline__ thread_group tiled_partition(const thread_group& parent, unsigned n) {
  if (n == 0 || n > 32 || (n & (n - 1)) != 0) __trap();  // CUDA: a power of 2 up to 32
  if (parent.kind_ != thread_group::kCoalesced) return thread_group::warp_tile(n);
  // Ranks [k*n, k*n + n) of the coalesced group, k = this thread's rank / n.
  const unsigned first = static_cast<unsigned>(parent.thread_rank()) / n * n;
  unsigned m = parent.mask_, out = 0;
  for (unsigned r = 0; m; m &= m - 1, ++r)
    if (r >= first && r < first + n) out |= m & (~m + 1u);
  return thread_group(thread_group::kCoalesced, 0, out);
}

__forceinline__ void sync(const thread_group& g) { g.sync(); }

}  // namespace cooperative_groups

#endif
