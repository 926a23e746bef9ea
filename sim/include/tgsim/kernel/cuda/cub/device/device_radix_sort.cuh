// cub::DeviceRadixSort, written for tgsim: SortKeys, SortPairs and their Descending forms (with
// begin_bit/end_bit, and the DoubleBuffer forms, whose result is left in Current()), run on the
// host as a stable sort on the keys' radix bits (Traits<K>::TwiddleIn: -0.0 sorts before +0.0
// and NaNs by their bits, as CUB does). Not simulated, not counted (device_common.cuh).
#pragma once
#include <vector>

#include "device_common.cuh"

namespace cub {
template <class T>
struct DoubleBuffer {
  T* d_buffers[2] = {nullptr, nullptr};
  int selector = 0;
  DoubleBuffer() = default;
  DoubleBuffer(T* current, T* alternate) : d_buffers{current, alternate} {}
  T* Current() { return d_buffers[selector]; }
  T* Alternate() { return d_buffers[selector ^ 1]; }
};

namespace detail_sort {
template <class K>
typename Traits<K>::UnsignedBits radix(K k, int begin_bit, int end_bit) {
  typedef typename Traits<K>::UnsignedBits U;
  U u;
  __builtin_memcpy(&u, &k, sizeof(K));
  u = Traits<K>::TwiddleIn(u);
  const int width = end_bit - begin_bit;
  if (width <= 0) return 0;
  u = static_cast<U>(u >> begin_bit);
  if (width < int(sizeof(U) * 8)) u = static_cast<U>(u & ((U(1) << width) - 1));
  return u;
}
// Sorts keys (and values, when given) from the inputs to the outputs; in == out works.
template <class K, class V>
void sort(const K* kin, K* kout, const V* vin, V* vout, int n, int begin_bit, int end_bit, bool descending) {
  std::vector<int> order(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const auto ra = radix(kin[a], begin_bit, end_bit), rb = radix(kin[b], begin_bit, end_bit);
    return descending ? rb < ra : ra < rb;
  });
  std::vector<K> keys(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i) keys[i] = kin[order[i]];
  if (vin != nullptr) {
    std::vector<V> values(n > 0 ? n : 0);
    for (int i = 0; i < n; ++i) values[i] = vin[order[i]];
    for (int i = 0; i < n; ++i) vout[i] = values[i];
  }
  for (int i = 0; i < n; ++i) kout[i] = keys[i];
  tgsim_cub::wrote(kout, n);
  if (vin != nullptr) tgsim_cub::wrote(vout, n);
}
}  // namespace detail_sort

struct DeviceRadixSort {
#define TGSIM_CUB_SORT_TAIL int begin_bit = 0, int end_bit = sizeof(K) * 8, cudaStream_t = 0, bool = false
  template <class K>
  static cudaError_t SortKeys(void* t, size_t& bytes, const K* kin, K* kout, int n, TGSIM_CUB_SORT_TAIL) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    detail_sort::sort<K, char>(kin, kout, nullptr, nullptr, n, begin_bit, end_bit, false);
    return cudaSuccess;
  }
  template <class K>
  static cudaError_t SortKeysDescending(void* t, size_t& bytes, const K* kin, K* kout, int n, TGSIM_CUB_SORT_TAIL) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    detail_sort::sort<K, char>(kin, kout, nullptr, nullptr, n, begin_bit, end_bit, true);
    return cudaSuccess;
  }
  template <class K, class V>
  static cudaError_t SortPairs(void* t, size_t& bytes, const K* kin, K* kout, const V* vin, V* vout, int n,
                               TGSIM_CUB_SORT_TAIL) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    detail_sort::sort(kin, kout, vin, vout, n, begin_bit, end_bit, false);
    return cudaSuccess;
  }
  template <class K, class V>
  static cudaError_t SortPairsDescending(void* t, size_t& bytes, const K* kin, K* kout, const V* vin, V* vout, int n,
                                         TGSIM_CUB_SORT_TAIL) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    detail_sort::sort(kin, kout, vin, vout, n, begin_bit, end_bit, true);
    return cudaSuccess;
  }
  template <class K>
  static cudaError_t SortKeys(void* t, size_t& bytes, DoubleBuffer<K>& keys, int n, TGSIM_CUB_SORT_TAIL) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    detail_sort::sort<K, char>(keys.Current(), keys.Current(), nullptr, nullptr, n, begin_bit, end_bit, false);
    return cudaSuccess;
  }
  template <class K, class V>
  static cudaError_t SortPairs(void* t, size_t& bytes, DoubleBuffer<K>& keys, DoubleBuffer<V>& values, int n,
                               TGSIM_CUB_SORT_TAIL) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    detail_sort::sort(keys.Current(), keys.Current(), values.Current(), values.Current(), n, begin_bit, end_bit, false);
    return cudaSuccess;
  }
#undef TGSIM_CUB_SORT_TAIL
};
}  // namespace cub
