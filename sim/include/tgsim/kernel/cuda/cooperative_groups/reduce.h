// <cooperative_groups/reduce.h> for tgsim's front end: cg::plus / less / greater and
// cg::reduce(tile, value, op) over a thread_block_tile<N>, as a shfl_xor butterfly (log2(N)
// SHFL per warp for a 4-byte value; nvcc may use REDUX for int sums, so counts can differ there);
// over a tile of more than 32 threads (large_tile.h) and over a coalesced group (below).
#ifndef TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_REDUCE_H
#define TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T> struct plus {
  __forceinline__ T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T> struct less {
  __forceinline__ T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  __forceinline__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

template <unsigned N, class T, class Op>
__forceinline__ T reduce(const thread_block_tile<N>& g, T v, Op op) {
  if constexpr (N > 32) {
    return details::multi_warp_reduce<N>(v, op);
  } else {
    for (unsigned m = N / 2; m > 0; m /= 2) v = op(v, g.shfl_xor(v, static_cast<int>(m)));
    return v;
  }
}

// Over a coalesced group (labeled_partition, binary_partition, coalesced_threads): rank r takes
// rank r + d's value for d = 1, 2, 4, ... while r + d < size (one SHFL per round and 32-bit
// word), then every member takes rank 0's total (one more).
template <class T, class Op>
__forceinline__ T reduce(const coalesced_group& g, T v, Op op) {
  const unsigned r = static_cast<unsigned>(g.thread_rank()), n = static_cast<unsigned>(g.size());
  for (unsigned d = 1; d < n; d *= 2) {
    const T got = g.shfl(v, r + d < n ? r + d : r);
    if (r + d < n) v = op(v, got);
  }
  return g.shfl(v, 0);
}

}  // namespace cooperative_groups

#endif
