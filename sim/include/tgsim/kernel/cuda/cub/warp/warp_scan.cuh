// cub::WarpScan, written for tgsim: a Kogge-Stone scan over the lanes of a logical warp by
// shuffles up at offsets 1, 2, 4, ...; the exclusive forms shift the inclusive result up one lane.
// TempStorage is unused (the shuffles need none).
#pragma once
#include "../thread/thread_operators.cuh"

namespace cub {
template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpScan {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32, "tgsim: a logical warp has 1 to 32 lanes");
  static constexpr int L = LOGICAL_WARP_THREADS;
  unsigned mask_ = tgsim_cub::warp_lanes_mask();
  int lane_ = static_cast<int>(__laneid() % L);

 public:
  struct TempStorage {
    unsigned char unused;
  };
  __forceinline__ WarpScan() {}
  __forceinline__ explicit WarpScan(TempStorage&) {}

  template <class Op> __forceinline__ void InclusiveScan(T input, T& output, Op op) {
    for (int offset = 1; offset < L; offset *= 2) {
      const T other = tgsim_cub::shfl_up(mask_, input, offset, L);
      if (lane_ >= offset) input = op(other, input);
    }
    output = input;
  }
  template <class Op> __forceinline__ void InclusiveScan(T input, T& output, Op op, T& aggregate) {
    InclusiveScan(input, output, op);
    aggregate = Broadcast(output, L - 1);
  }
  __forceinline__ void InclusiveSum(T input, T& output) { InclusiveScan(input, output, cub::Sum()); }
  __forceinline__ void InclusiveSum(T input, T& output, T& aggregate) {
    InclusiveScan(input, output, cub::Sum(), aggregate);
  }
  // Lane 0's output is undefined in CUB; here it is the input's type default-constructed.
  template <class Op> __forceinline__ void ExclusiveScan(T input, T& output, Op op) {
    T inclusive;
    InclusiveScan(input, inclusive, op);
    const T up = tgsim_cub::shfl_up(mask_, inclusive, 1, L);
    output = lane_ == 0 ? T() : up;
  }
  template <class Op> __forceinline__ void ExclusiveScan(T input, T& output, T initial, Op op) {
    T inclusive;
    InclusiveScan(input, inclusive, op);
    const T up = tgsim_cub::shfl_up(mask_, inclusive, 1, L);
    output = lane_ == 0 ? initial : op(initial, up);
  }
  template <class Op> __forceinline__ void ExclusiveScan(T input, T& output, T initial, Op op, T& aggregate) {
    T inclusive;
    InclusiveScan(input, inclusive, op);
    aggregate = Broadcast(inclusive, L - 1);
    const T up = tgsim_cub::shfl_up(mask_, inclusive, 1, L);
    output = lane_ == 0 ? initial : op(initial, up);
  }
  __forceinline__ void ExclusiveSum(T input, T& output) { ExclusiveScan(input, output, T(0), cub::Sum()); }
  __forceinline__ void ExclusiveSum(T input, T& output, T& aggregate) {
    ExclusiveScan(input, output, T(0), cub::Sum(), aggregate);
  }
  __forceinline__ T Broadcast(T input, unsigned src_lane) {
    return tgsim_cub::shfl_idx(mask_, input, static_cast<int>(src_lane), L);
  }
};
}  // namespace cub
