// Tiles of more than one warp for tgsim's <cooperative_groups.h> (CUDA 12 allows
// thread_block_tile<N> for N = 64 ... 1024; before compute capability 8.0 with the block's
// cg::block_tile_memory, which tgsim accepts and does not need).
//   thread_rank(), size(), num_threads(), meta_group_rank(), meta_group_size() as for a warp tile.
//   sync(): the whole block's barrier (__syncthreads, one BAR per warp). Simplified: right where
//     every tile of the block syncs at the same points (the usual case); tiles that sync apart
//     are reported as barrier divergence although the GPU would run them.
//   cg::reduce over such a tile (reduce.h): each warp's shfl_xor butterfly, the warps' results
//     through 32 slots of shared memory, combined in warp order by every thread of the tile.
#ifndef TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_LARGE_TILE_H
#define TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_LARGE_TILE_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

// The scratch CUDA keeps for multi-warp tiles; tgsim's tiles need none of it.
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {
  static_assert(MaxBlockSize >= 1 && MaxBlockSize <= 1024, "tgsim: block_tile_memory<N> needs N in 1..1024");
  alignas(16) unsigned char reserved[16];
};

template <unsigned MaxBlockSize>
__forceinline__ thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) { return thread_block(); }

namespace details {

template <unsigned N>
class multi_warp_tile : public tile_ranks<N> {
  static_assert(N == 64 || N == 128 || N == 256 || N == 512 || N == 1024,
                "tgsim: thread_block_tile<N> needs N a power of 2 up to 1024");

 public:
  __forceinline__ void sync() const { __syncthreads(); }
};

// cg::reduce over a multi-warp tile: the warp's butterfly, then its lane 0 leaves the warp's
// value in slot (warp of the block); after a barrier every thread combines its tile's slots.
template <unsigned N, class T, class Op>
__forceinline__ T multi_warp_reduce(T v, Op op) {
  alignas(T) __shared__ unsigned char raw[32 * sizeof(T)];
  T* slots = reinterpret_cast<T*>(raw);
  for (unsigned m = 16; m > 0; m /= 2) v = op(v, __shfl_xor_sync(0xFFFFFFFFu, v, static_cast<int>(m)));
  const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if (linear % 32 == 0) slots[linear / 32] = v;
  __syncthreads();
  const unsigned first = linear / N * (N / 32);
  T r = slots[first];
  for (unsigned w = 1; w < N / 32; ++w) r = op(r, slots[first + w]);
  __syncthreads();  // the slots are free for the next reduce
  return r;
}

}  // namespace details
}  // namespace cooperative_groups

#endif
