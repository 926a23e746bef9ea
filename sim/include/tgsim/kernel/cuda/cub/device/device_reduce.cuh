// cub::DeviceReduce, written for tgsim: Reduce, Sum, Min, Max, ArgMin, ArgMax, run on the host
// in input order (device_common.cuh: not simulated, not counted).
#pragma once
#include "device_common.cuh"

namespace cub {
struct DeviceReduce {
  template <class In, class Out, class Op, class Init>
  static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, int num_items,
                            Op op, Init init, cudaStream_t = 0, bool = false) {
    if (tgsim_cub::size_query(d_temp_storage, temp_storage_bytes)) return cudaSuccess;
    Init acc = init;
    for (int i = 0; i < num_items; ++i) acc = op(acc, d_in[i]);
    *d_out = acc;
    tgsim_cub::wrote(d_out, 1);
    return cudaSuccess;
  }
  template <class In, class Out>
  static cudaError_t Sum(void* t, size_t& bytes, In d_in, Out d_out, int n, cudaStream_t s = 0, bool d = false) {
    typedef tgsim_cub::value_of<Out> O;
    return Reduce(t, bytes, d_in, d_out, n, cub::Sum(), O(0), s, d);
  }
  template <class In, class Out>
  static cudaError_t Max(void* t, size_t& bytes, In d_in, Out d_out, int n, cudaStream_t s = 0, bool d = false) {
    typedef tgsim_cub::value_of<In> I;
    return Reduce(t, bytes, d_in, d_out, n, cub::Max(), Traits<I>::Lowest(), s, d);
  }
  template <class In, class Out>
  static cudaError_t Min(void* t, size_t& bytes, In d_in, Out d_out, int n, cudaStream_t s = 0, bool d = false) {
    typedef tgsim_cub::value_of<In> I;
    return Reduce(t, bytes, d_in, d_out, n, cub::Min(), Traits<I>::Max(), s, d);
  }
  // *d_out = {index, value} of the first maximum (minimum); {1, Lowest} for no items, as CUB.
  template <class In, class Out>
  static cudaError_t ArgMax(void* t, size_t& bytes, In d_in, Out d_out, int n, cudaStream_t = 0, bool = false) {
    return arg(t, bytes, d_in, d_out, n, true);
  }
  template <class In, class Out>
  static cudaError_t ArgMin(void* t, size_t& bytes, In d_in, Out d_out, int n, cudaStream_t = 0, bool = false) {
    return arg(t, bytes, d_in, d_out, n, false);
  }

 private:
  template <class In, class Out>
  static cudaError_t arg(void* t, size_t& bytes, In d_in, Out d_out, int n, bool max) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    typedef tgsim_cub::value_of<In> I;
    tgsim_cub::value_of<Out> best;
    best.key = 1;
    best.value = max ? Traits<I>::Lowest() : Traits<I>::Max();
    for (int i = 0; i < n; ++i) {
      const I v = d_in[i];
      if (i == 0 || (max ? best.value < v : v < best.value)) best.key = i, best.value = v;
    }
    *d_out = best;
    tgsim_cub::wrote(d_out, 1);
    return cudaSuccess;
  }
};
}  // namespace cub
