// cub::WarpExchange, written for tgsim: BlockExchange's rearrangements within one logical warp
// (a TempStorage per warp), a __syncwarp between the writes and the reads.
#pragma once
#include "../util_type.cuh"

namespace cub {
enum WarpExchangeAlgorithm { WARP_EXCHANGE_SMEM, WARP_EXCHANGE_SHUFFLE };

template <class T, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0,
          WarpExchangeAlgorithm ALGORITHM = WARP_EXCHANGE_SMEM>
class WarpExchange {
  static constexpr int N = ITEMS_PER_THREAD, L = LOGICAL_WARP_THREADS;

 public:
  struct TempStorage {
    alignas(T) unsigned char buffer[sizeof(T) * N * L];
  };

 private:
  T* buf_;
  int lane_ = static_cast<int>(__laneid() % L);

 public:
  __forceinline__ explicit WarpExchange(TempStorage& s) : buf_(reinterpret_cast<T*>(s.buffer)) {}

  template <class I, class O> __forceinline__ void BlockedToStriped(const I (&in)[N], O (&out)[N]) {
    for (int i = 0; i < N; ++i) buf_[lane_ * N + i] = in[i];
    __syncwarp(tgsim_cub::warp_lanes_mask());
    for (int i = 0; i < N; ++i) out[i] = buf_[i * L + lane_];
  }
  template <class I, class O> __forceinline__ void StripedToBlocked(const I (&in)[N], O (&out)[N]) {
    for (int i = 0; i < N; ++i) buf_[i * L + lane_] = in[i];
    __syncwarp(tgsim_cub::warp_lanes_mask());
    for (int i = 0; i < N; ++i) out[i] = buf_[lane_ * N + i];
  }
  template <class R> __forceinline__ void ScatterToStriped(T (&items)[N], const R (&ranks)[N]) {
    for (int i = 0; i < N; ++i) buf_[ranks[i]] = items[i];
    __syncwarp(tgsim_cub::warp_lanes_mask());
    for (int i = 0; i < N; ++i) items[i] = buf_[i * L + lane_];
  }
};
}  // namespace cub
