// <cooperative_groups/reduce.h> for tgsim's front end: cg::plus / less / greater and
// cg::reduce(tile, value, op) over a thread_block_tile<N>, as a shfl_xor butterfly (log2(N)
// SHFL per warp for a 4-byte value; nvcc may use REDUX for int sums, so counts can differ there).
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
  for (unsigned m = N / 2; m > 0; m /= 2) v = op(v, g.shfl_xor(v, static_cast<int>(m)));
  return v;
}

}  // namespace cooperative_groups

#endif
