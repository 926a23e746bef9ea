// cub::BlockScan, written for tgsim, one algorithm for every BlockScanAlgorithm (CUB's
// BLOCK_SCAN_WARP_SCANS): each warp scans by shuffles up (warp_scan.cuh), the warp's last lane
// writes the warp total to the shared TempStorage, a __syncthreads, then each thread folds the
// totals of the warps before its own (in order: the operator need not commute). Array inputs
// are reduced per thread first, the thread's partials scanned, then the items rescanned with
// the thread's prefix. As in CUB, reusing the TempStorage needs a __syncthreads between calls.
// Not modelled: the block-prefix callback forms.
#pragma once
#include "../thread/thread_operators.cuh"

namespace cub {
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int WARPS = (BLOCK_THREADS + 31) / 32;

 public:
  struct TempStorage {
    alignas(T) unsigned char warp_totals[sizeof(T) * WARPS];
  };

 private:
  TempStorage& storage_;
  __forceinline__ static TempStorage& private_storage() {
    __shared__ TempStorage storage;
    return storage;
  }

  // The block-wide inclusive scan of one value per thread; prefix = the fold of the threads
  // before this one (has_prefix false for thread 0), aggregate = the whole block's fold.
  template <class Op>
  __forceinline__ T scan(T input, Op op, T& prefix, bool& has_prefix, T& aggregate) {
    T* totals = reinterpret_cast<T*>(storage_.warp_totals);
    const int tid = static_cast<int>(tgsim_cub::linear_tid()), warp = tid / 32, lane = tid % 32;
    const unsigned mask = tgsim_cub::warp_lanes_mask();
    T inclusive = input;
    for (int offset = 1; offset < 32; offset *= 2) {
      const T other = tgsim_cub::shfl_up(mask, inclusive, offset, 32);
      if (lane >= offset) inclusive = op(other, inclusive);
    }
    const T up = tgsim_cub::shfl_up(mask, inclusive, 1, 32);
    if (lane == 31 - __builtin_clz(mask)) totals[warp] = inclusive;
    __syncthreads();
    const int warps = static_cast<int>((blockDim.x * blockDim.y * blockDim.z + 31) / 32);
    T block_prefix = totals[0];
    aggregate = totals[0];
    for (int w = 1; w < warps; ++w) {
      if (w == warp) block_prefix = aggregate;
      aggregate = op(aggregate, totals[w]);
    }
    has_prefix = tid > 0;
    if (warp == 0) prefix = up;
    else prefix = lane == 0 ? block_prefix : op(block_prefix, up);
    return warp == 0 ? inclusive : op(block_prefix, inclusive);
  }

 public:
  __forceinline__ BlockScan() : storage_(private_storage()) {}
  __forceinline__ explicit BlockScan(TempStorage& s) : storage_(s) {}

  template <class Op> __forceinline__ void InclusiveScan(T input, T& output, Op op, T& aggregate) {
    T prefix;
    bool has;
    output = scan(input, op, prefix, has, aggregate);
  }
  template <class Op> __forceinline__ void InclusiveScan(T input, T& output, Op op) {
    T aggregate;
    InclusiveScan(input, output, op, aggregate);
  }
  template <class Op> __forceinline__ void ExclusiveScan(T input, T& output, T initial, Op op, T& aggregate) {
    T prefix;
    bool has;
    scan(input, op, prefix, has, aggregate);
    output = has ? op(initial, prefix) : initial;
  }
  template <class Op> __forceinline__ void ExclusiveScan(T input, T& output, T initial, Op op) {
    T aggregate;
    ExclusiveScan(input, output, initial, op, aggregate);
  }
  __forceinline__ void InclusiveSum(T input, T& output) { InclusiveScan(input, output, cub::Sum()); }
  __forceinline__ void InclusiveSum(T input, T& output, T& aggregate) { InclusiveScan(input, output, cub::Sum(), aggregate); }
  __forceinline__ void ExclusiveSum(T input, T& output) { ExclusiveScan(input, output, T(0), cub::Sum()); }
  __forceinline__ void ExclusiveSum(T input, T& output, T& aggregate) {
    ExclusiveScan(input, output, T(0), cub::Sum(), aggregate);
  }

  // ---- ITEMS_PER_THREAD items per thread, blocked arrangement
  template <int N, class Op>
  __forceinline__ void InclusiveScan(T (&input)[N], T (&output)[N], Op op, T& aggregate) {
    T partial = input[0];
    for (int i = 1; i < N; ++i) partial = op(partial, input[i]);
    T prefix;
    bool has;
    scan(partial, op, prefix, has, aggregate);
    T run = has ? op(prefix, input[0]) : input[0];
    output[0] = run;
    for (int i = 1; i < N; ++i) output[i] = run = op(run, input[i]);
  }
  template <int N, class Op> __forceinline__ void InclusiveScan(T (&input)[N], T (&output)[N], Op op) {
    T aggregate;
    InclusiveScan(input, output, op, aggregate);
  }
  template <int N, class Op>
  __forceinline__ void ExclusiveScan(T (&input)[N], T (&output)[N], T initial, Op op, T& aggregate) {
    T partial = input[0];
    for (int i = 1; i < N; ++i) partial = op(partial, input[i]);
    T prefix;
    bool has;
    scan(partial, op, prefix, has, aggregate);
    T run = has ? op(initial, prefix) : initial;
    for (int i = 0; i < N; ++i) {
      const T v = input[i];
      output[i] = run;
      run = op(run, v);
    }
  }
  template <int N, class Op> __forceinline__ void ExclusiveScan(T (&input)[N], T (&output)[N], T initial, Op op) {
    T aggregate;
    ExclusiveScan(input, output, initial, op, aggregate);
  }
  template <int N> __forceinline__ void InclusiveSum(T (&input)[N], T (&output)[N]) { InclusiveScan(input, output, cub::Sum()); }
  template <int N> __forceinline__ void InclusiveSum(T (&input)[N], T (&output)[N], T& aggregate) {
    InclusiveScan(input, output, cub::Sum(), aggregate);
  }
  template <int N> __forceinline__ void ExclusiveSum(T (&input)[N], T (&output)[N]) {
    ExclusiveScan(input, output, T(0), cub::Sum());
  }
  template <int N> __forceinline__ void ExclusiveSum(T (&input)[N], T (&output)[N], T& aggregate) {
    ExclusiveScan(input, output, T(0), cub::Sum(), aggregate);
  }
};
}  // namespace cub
