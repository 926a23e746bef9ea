// cub::BlockExchange, written for tgsim: rearranges ITEMS_PER_THREAD items per thread between the
// blocked (thread t holds items t*N..t*N+N-1), striped (item i of thread t is i*BLOCK+t) and
// warp-striped arrangements through the shared TempStorage, as CUB does: every thread writes
// its items, a __syncthreads (a __syncwarp for the warp forms), every thread reads. As in CUB,
// one word of padding per 32 when ITEMS_PER_THREAD is a power of two above 4 (bank conflicts).
// WARP_TIME_SLICING is accepted and ignored (the storage is always the whole tile).
#pragma once
#include "../util_type.cuh"

namespace cub {
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int N = ITEMS_PER_THREAD, TILE = BLOCK_THREADS * N;
  static constexpr bool PADDING = N > 4 && (N & (N - 1)) == 0;
  static constexpr int SLOTS = TILE + (PADDING ? TILE / 32 : 0);

 public:
  struct TempStorage {
    alignas(T) unsigned char buffer[sizeof(T) * SLOTS];
  };

 private:
  TempStorage& storage_;
  int tid_ = static_cast<int>(tgsim_cub::linear_tid());
  __forceinline__ static TempStorage& private_storage() {
    __shared__ TempStorage storage;
    return storage;
  }
  __forceinline__ T& at(int i) {
    return reinterpret_cast<T*>(storage_.buffer)[PADDING ? i + (i >> 5) : i];
  }
  __forceinline__ int warp_base() const { return (tid_ / 32) * 32 * N; }

 public:
  __forceinline__ BlockExchange() : storage_(private_storage()) {}
  __forceinline__ explicit BlockExchange(TempStorage& s) : storage_(s) {}

  template <class I, class O> __forceinline__ void StripedToBlocked(const I (&in)[N], O (&out)[N]) {
    for (int i = 0; i < N; ++i) at(i * BLOCK_THREADS + tid_) = in[i];
    __syncthreads();
    for (int i = 0; i < N; ++i) out[i] = at(tid_ * N + i);
  }
  template <class I, class O> __forceinline__ void BlockedToStriped(const I (&in)[N], O (&out)[N]) {
    for (int i = 0; i < N; ++i) at(tid_ * N + i) = in[i];
    __syncthreads();
    for (int i = 0; i < N; ++i) out[i] = at(i * BLOCK_THREADS + tid_);
  }
  template <class I, class O> __forceinline__ void WarpStripedToBlocked(const I (&in)[N], O (&out)[N]) {
    const int lane = tid_ % 32;
    for (int i = 0; i < N; ++i) at(warp_base() + i * 32 + lane) = in[i];
    __syncwarp(tgsim_cub::warp_lanes_mask());
    for (int i = 0; i < N; ++i) out[i] = at(warp_base() + lane * N + i);
  }
  template <class I, class O> __forceinline__ void BlockedToWarpStriped(const I (&in)[N], O (&out)[N]) {
    const int lane = tid_ % 32;
    for (int i = 0; i < N; ++i) at(warp_base() + lane * N + i) = in[i];
    __syncwarp(tgsim_cub::warp_lanes_mask());
    for (int i = 0; i < N; ++i) out[i] = at(warp_base() + i * 32 + lane);
  }
  template <class I, class O, class R>
  __forceinline__ void ScatterToBlocked(const I (&in)[N], O (&out)[N], const R (&ranks)[N]) {
    for (int i = 0; i < N; ++i) at(static_cast<int>(ranks[i])) = in[i];
    __syncthreads();
    for (int i = 0; i < N; ++i) out[i] = at(tid_ * N + i);
  }
  template <class I, class O, class R>
  __forceinline__ void ScatterToStriped(const I (&in)[N], O (&out)[N], const R (&ranks)[N]) {
    for (int i = 0; i < N; ++i) at(static_cast<int>(ranks[i])) = in[i];
    __syncthreads();
    for (int i = 0; i < N; ++i) out[i] = at(i * BLOCK_THREADS + tid_);
  }
  // The one-array forms (in place).
  __forceinline__ void StripedToBlocked(T (&items)[N]) { StripedToBlocked(items, items); }
  __forceinline__ void BlockedToStriped(T (&items)[N]) { BlockedToStriped(items, items); }
  __forceinline__ void WarpStripedToBlocked(T (&items)[N]) { WarpStripedToBlocked(items, items); }
  __forceinline__ void BlockedToWarpStriped(T (&items)[N]) { BlockedToWarpStriped(items, items); }
  template <class R> __forceinline__ void ScatterToBlocked(T (&items)[N], const R (&ranks)[N]) {
    ScatterToBlocked(items, items, ranks);
  }
  template <class R> __forceinline__ void ScatterToStriped(T (&items)[N], const R (&ranks)[N]) {
    ScatterToStriped(items, items, ranks);
  }
};
}  // namespace cub
