// cub::BlockReduce, written for tgsim, as CUB's BLOCK_REDUCE_WARP_REDUCTIONS does it for every
// algorithm: each warp reduces by shuffles down (warp_reduce.cuh's order), lane 0 of each warp
// writes its warp's partial to the shared TempStorage, a __syncthreads, then thread 0 folds the
// partials in warp order. The result is valid in thread 0 only, as in CUB. With num_valid,
// threads at or past it contribute nothing. Array inputs are first reduced in order per thread.
#pragma once
#include "../warp/warp_reduce.cuh"

namespace cub {
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int WARPS = (BLOCK_THREADS + 31) / 32;

 public:
  struct TempStorage {
    alignas(T) unsigned char warp_partials[sizeof(T) * WARPS];
  };

 private:
  TempStorage& storage_;
  __forceinline__ static TempStorage& private_storage() {
    __shared__ TempStorage storage;
    return storage;
  }

 public:
  __forceinline__ BlockReduce() : storage_(private_storage()) {}
  __forceinline__ explicit BlockReduce(TempStorage& s) : storage_(s) {}

  template <class Op> __forceinline__ T Reduce(T input, Op op, int num_valid) {
    T* partials = reinterpret_cast<T*>(storage_.warp_partials);
    const int tid = static_cast<int>(tgsim_cub::linear_tid());
    const int warp = tid / 32, lane = tid % 32;
    const int warp_valid = num_valid - warp * 32;
    const unsigned mask = tgsim_cub::warp_lanes_mask();
    for (int offset = 1; offset < 32; offset *= 2) {
      const T other = tgsim_cub::shfl_down(mask, input, offset, 32);
      if (lane + offset < warp_valid) input = op(input, other);
    }
    if (lane == 0 && warp_valid > 0) partials[warp] = input;
    __syncthreads();
    if (tid == 0) {
      const int warps = (num_valid + 31) / 32;
      for (int w = 1; w < warps && w < WARPS; ++w) input = op(input, partials[w]);
    }
    return input;
  }
  template <class Op> __forceinline__ T Reduce(T input, Op op) { return Reduce(input, op, BLOCK_THREADS); }
  template <int N, class Op> __forceinline__ T Reduce(T (&inputs)[N], Op op) {
    T partial = inputs[0];
    for (int i = 1; i < N; ++i) partial = op(partial, inputs[i]);
    return Reduce(partial, op, BLOCK_THREADS);
  }
  __forceinline__ T Sum(T input) { return Reduce(input, cub::Sum(), BLOCK_THREADS); }
  __forceinline__ T Sum(T input, int num_valid) { return Reduce(input, cub::Sum(), num_valid); }
  template <int N> __forceinline__ T Sum(T (&inputs)[N]) { return Reduce(inputs, cub::Sum()); }
};
}  // namespace cub
