// cub::BlockStore and the direct stores (StoreDirectBlocked, StoreDirectStriped,
// StoreDirectWarpStriped), written for tgsim. The transposing algorithms rearrange blocked
// items to striped (or warp-striped) through BlockExchange, then store coalesced, as CUB does.
#pragma once
#include "block_exchange.cuh"

namespace cub {
enum CacheStoreModifier { STORE_DEFAULT, STORE_WB, STORE_CG, STORE_CS, STORE_WT, STORE_VOLATILE };
enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED
};

template <class T, int N, class It> __forceinline__ void StoreDirectBlocked(int tid, It it, T (&items)[N]) {
  for (int i = 0; i < N; ++i) it[tid * N + i] = items[i];
}
template <class T, int N, class It> __forceinline__ void StoreDirectBlocked(int tid, It it, T (&items)[N], int valid) {
  for (int i = 0; i < N; ++i)
    if (tid * N + i < valid) it[tid * N + i] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class It>
__forceinline__ void StoreDirectStriped(int tid, It it, T (&items)[N]) {
  for (int i = 0; i < N; ++i) it[i * BLOCK_THREADS + tid] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class It>
__forceinline__ void StoreDirectStriped(int tid, It it, T (&items)[N], int valid) {
  for (int i = 0; i < N; ++i)
    if (i * BLOCK_THREADS + tid < valid) it[i * BLOCK_THREADS + tid] = items[i];
}
template <class T, int N, class It> __forceinline__ void StoreDirectWarpStriped(int tid, It it, T (&items)[N]) {
  const int base = (tid / 32) * 32 * N, lane = tid % 32;
  for (int i = 0; i < N; ++i) it[base + i * 32 + lane] = items[i];
}
template <class T, int N, class It>
__forceinline__ void StoreDirectWarpStriped(int tid, It it, T (&items)[N], int valid) {
  const int base = (tid / 32) * 32 * N, lane = tid % 32;
  for (int i = 0; i < N; ++i)
    if (base + i * 32 + lane < valid) it[base + i * 32 + lane] = items[i];
}

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr bool BLOCK_T = ALGORITHM == BLOCK_STORE_TRANSPOSE;
  static constexpr bool WARP_T = ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE || ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED;
  typedef BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, false, BLOCK_DIM_Y, BLOCK_DIM_Z> Exchange;

 public:
  struct NoStorage {
    unsigned char unused;
  };
  // The direct algorithms need no shared memory.
  typedef std::conditional_t<BLOCK_T || WARP_T, typename Exchange::TempStorage, NoStorage> TempStorage;

 private:
  TempStorage& storage_;
  int tid_ = static_cast<int>(tgsim_cub::linear_tid());
  __forceinline__ static TempStorage& private_storage() {
    __shared__ TempStorage storage;
    return storage;
  }
  __forceinline__ Exchange exchange() { return Exchange(storage_); }

 public:
  __forceinline__ BlockStore() : storage_(private_storage()) {}
  __forceinline__ explicit BlockStore(TempStorage& s) : storage_(s) {}

  template <class It> __forceinline__ void Store(It it, T (&items)[ITEMS_PER_THREAD]) {
    if constexpr (BLOCK_T) {
      exchange().BlockedToStriped(items, items);
      StoreDirectStriped<BLOCK_THREADS>(tid_, it, items);
    } else if constexpr (WARP_T) {
      exchange().BlockedToWarpStriped(items, items);
      StoreDirectWarpStriped(tid_, it, items);
    } else if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) {
      StoreDirectStriped<BLOCK_THREADS>(tid_, it, items);
    } else {
      StoreDirectBlocked(tid_, it, items);
    }
  }
  template <class It> __forceinline__ void Store(It it, T (&items)[ITEMS_PER_THREAD], int valid) {
    if constexpr (BLOCK_T) {
      exchange().BlockedToStriped(items, items);
      StoreDirectStriped<BLOCK_THREADS>(tid_, it, items, valid);
    } else if constexpr (WARP_T) {
      exchange().BlockedToWarpStriped(items, items);
      StoreDirectWarpStriped(tid_, it, items, valid);
    } else if constexpr (ALGORITHM == BLOCK_STORE_STRIPED) {
      StoreDirectStriped<BLOCK_THREADS>(tid_, it, items, valid);
    } else {
      StoreDirectBlocked(tid_, it, items, valid);
    }
  }
};
}  // namespace cub
