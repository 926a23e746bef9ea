// cub::BlockLoad and the direct loads (LoadDirectBlocked, LoadDirectStriped,
// LoadDirectWarpStriped), written for tgsim. The transposing algorithms load striped (or
// warp-striped, coalesced) and rearrange to blocked through BlockExchange, as CUB does;
// BLOCK_LOAD_VECTORIZE loads element by element (blocked).
#pragma once
#include "block_exchange.cuh"

namespace cub {
enum CacheLoadModifier { LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_CS, LOAD_CV, LOAD_LDG, LOAD_VOLATILE };
enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED
};

template <class T, int N, class It> __forceinline__ void LoadDirectBlocked(int tid, It it, T (&items)[N]) {
  for (int i = 0; i < N; ++i) items[i] = it[tid * N + i];
}
template <class T, int N, class It> __forceinline__ void LoadDirectBlocked(int tid, It it, T (&items)[N], int valid) {
  for (int i = 0; i < N; ++i)
    if (tid * N + i < valid) items[i] = it[tid * N + i];
}
template <class T, class D, int N, class It>
__forceinline__ void LoadDirectBlocked(int tid, It it, T (&items)[N], int valid, D oob) {
  for (int i = 0; i < N; ++i) items[i] = tid * N + i < valid ? T(it[tid * N + i]) : T(oob);
}
template <int BLOCK_THREADS, class T, int N, class It>
__forceinline__ void LoadDirectStriped(int tid, It it, T (&items)[N]) {
  for (int i = 0; i < N; ++i) items[i] = it[i * BLOCK_THREADS + tid];
}
template <int BLOCK_THREADS, class T, int N, class It>
__forceinline__ void LoadDirectStriped(int tid, It it, T (&items)[N], int valid) {
  for (int i = 0; i < N; ++i)
    if (i * BLOCK_THREADS + tid < valid) items[i] = it[i * BLOCK_THREADS + tid];
}
template <int BLOCK_THREADS, class T, class D, int N, class It>
__forceinline__ void LoadDirectStriped(int tid, It it, T (&items)[N], int valid, D oob) {
  for (int i = 0; i < N; ++i) items[i] = i * BLOCK_THREADS + tid < valid ? T(it[i * BLOCK_THREADS + tid]) : T(oob);
}
// Warp w's 32*N items, striped over its lanes.
template <class T, int N, class It> __forceinline__ void LoadDirectWarpStriped(int tid, It it, T (&items)[N]) {
  const int base = (tid / 32) * 32 * N, lane = tid % 32;
  for (int i = 0; i < N; ++i) items[i] = it[base + i * 32 + lane];
}
template <class T, int N, class It>
__forceinline__ void LoadDirectWarpStriped(int tid, It it, T (&items)[N], int valid) {
  const int base = (tid / 32) * 32 * N, lane = tid % 32;
  for (int i = 0; i < N; ++i)
    if (base + i * 32 + lane < valid) items[i] = it[base + i * 32 + lane];
}
template <class T, class D, int N, class It>
__forceinline__ void LoadDirectWarpStriped(int tid, It it, T (&items)[N], int valid, D oob) {
  const int base = (tid / 32) * 32 * N, lane = tid % 32;
  for (int i = 0; i < N; ++i) items[i] = base + i * 32 + lane < valid ? T(it[base + i * 32 + lane]) : T(oob);
}

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr bool BLOCK_T = ALGORITHM == BLOCK_LOAD_TRANSPOSE;
  static constexpr bool WARP_T = ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE || ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED;
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
  __forceinline__ void rearrange(T (&items)[ITEMS_PER_THREAD]) {
    if constexpr (BLOCK_T) exchange().StripedToBlocked(items, items);
    else if constexpr (WARP_T) exchange().WarpStripedToBlocked(items, items);
  }

 public:
  __forceinline__ BlockLoad() : storage_(private_storage()) {}
  __forceinline__ explicit BlockLoad(TempStorage& s) : storage_(s) {}

  template <class It> __forceinline__ void Load(It it, T (&items)[ITEMS_PER_THREAD]) {
    if constexpr (BLOCK_T || ALGORITHM == BLOCK_LOAD_STRIPED) LoadDirectStriped<BLOCK_THREADS>(tid_, it, items);
    else if constexpr (WARP_T) LoadDirectWarpStriped(tid_, it, items);
    else LoadDirectBlocked(tid_, it, items);
    rearrange(items);
  }
  template <class It> __forceinline__ void Load(It it, T (&items)[ITEMS_PER_THREAD], int valid) {
    if constexpr (BLOCK_T || ALGORITHM == BLOCK_LOAD_STRIPED) LoadDirectStriped<BLOCK_THREADS>(tid_, it, items, valid);
    else if constexpr (WARP_T) LoadDirectWarpStriped(tid_, it, items, valid);
    else LoadDirectBlocked(tid_, it, items, valid);
    rearrange(items);
  }
  template <class It, class D> __forceinline__ void Load(It it, T (&items)[ITEMS_PER_THREAD], int valid, D oob) {
    if constexpr (BLOCK_T || ALGORITHM == BLOCK_LOAD_STRIPED) LoadDirectStriped<BLOCK_THREADS>(tid_, it, items, valid, oob);
    else if constexpr (WARP_T) LoadDirectWarpStriped(tid_, it, items, valid, oob);
    else LoadDirectBlocked(tid_, it, items, valid, oob);
    rearrange(items);
  }
};
}  // namespace cub
