// cub::BlockAdjacentDifference, written for tgsim: each thread publishes its first and last
// item in the shared TempStorage, a __syncthreads, then differences its blocked items with
// its neighbour's (op(item, left) for SubtractLeft, op(item, right) for SubtractRight). The
// tile's first (last) item is copied unless a predecessor (successor) is passed.
#pragma once
#include "../thread/thread_operators.cuh"

namespace cub {
template <class T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockAdjacentDifference {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

 public:
  struct TempStorage {
    alignas(T) unsigned char first[sizeof(T) * BLOCK_THREADS];
    alignas(T) unsigned char last[sizeof(T) * BLOCK_THREADS];
  };

 private:
  TempStorage& storage_;
  int tid_ = static_cast<int>(tgsim_cub::linear_tid());
  __forceinline__ static TempStorage& private_storage() {
    __shared__ TempStorage storage;
    return storage;
  }
  template <int N, class O, class Op>
  __forceinline__ void left(T (&in)[N], O (&out)[N], Op op, T* predecessor) {
    T* last = reinterpret_cast<T*>(storage_.last);
    last[tid_] = in[N - 1];
    __syncthreads();
    for (int i = N - 1; i > 0; --i) out[i] = op(in[i], in[i - 1]);
    if (tid_ > 0) out[0] = op(in[0], last[tid_ - 1]);
    else out[0] = predecessor ? op(in[0], *predecessor) : in[0];
  }
  template <int N, class O, class Op>
  __forceinline__ void right(T (&in)[N], O (&out)[N], Op op, T* successor) {
    T* first = reinterpret_cast<T*>(storage_.first);
    first[tid_] = in[0];
    __syncthreads();
    for (int i = 0; i < N - 1; ++i) out[i] = op(in[i], in[i + 1]);
    if (tid_ < BLOCK_THREADS - 1) out[N - 1] = op(in[N - 1], first[tid_ + 1]);
    else out[N - 1] = successor ? op(in[N - 1], *successor) : in[N - 1];
  }

 public:
  __forceinline__ BlockAdjacentDifference() : storage_(private_storage()) {}
  __forceinline__ explicit BlockAdjacentDifference(TempStorage& s) : storage_(s) {}

  template <int N, class O, class Op> __forceinline__ void SubtractLeft(T (&in)[N], O (&out)[N], Op op) {
    left(in, out, op, nullptr);
  }
  template <int N, class O, class Op>
  __forceinline__ void SubtractLeft(T (&in)[N], O (&out)[N], Op op, T tile_predecessor_item) {
    left(in, out, op, &tile_predecessor_item);
  }
  template <int N, class O, class Op> __forceinline__ void SubtractRight(T (&in)[N], O (&out)[N], Op op) {
    right(in, out, op, nullptr);
  }
  template <int N, class O, class Op>
  __forceinline__ void SubtractRight(T (&in)[N], O (&out)[N], Op op, T tile_successor_item) {
    right(in, out, op, &tile_successor_item);
  }
};
}  // namespace cub
