// cub::WarpReduce, written for tgsim: a reduction over the lanes of a logical warp by shuffles
// down at offsets 1, 2, 4, ... (a lane adds its neighbour's partial when that lane is in range),
// so the simulated warp runs the SHFLs and adds that CUB's shuffle variant runs. The result is
// valid in the logical warp's lane 0. TempStorage is unused (the shuffles need none).
#pragma once
#include "../thread/thread_operators.cuh"

namespace cub {
template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32, "tgsim: a logical warp has 1 to 32 lanes");

 public:
  struct TempStorage {
    unsigned char unused;
  };
  __forceinline__ WarpReduce() {}
  __forceinline__ explicit WarpReduce(TempStorage&) {}

  template <class Op> __forceinline__ T Reduce(T input, Op op) { return Reduce(input, op, LOGICAL_WARP_THREADS); }
  template <class Op> __forceinline__ T Reduce(T input, Op op, int valid_items) {
    const unsigned mask = tgsim_cub::warp_lanes_mask();
    const int lane = static_cast<int>(__laneid() % LOGICAL_WARP_THREADS);
    for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2) {
      const T other = tgsim_cub::shfl_down(mask, input, offset, LOGICAL_WARP_THREADS);
      if (lane + offset < valid_items) input = op(input, other);
    }
    return input;
  }
  __forceinline__ T Sum(T input) { return Reduce(input, cub::Sum()); }
  __forceinline__ T Sum(T input, int valid_items) { return Reduce(input, cub::Sum(), valid_items); }
};
}  // namespace cub
