// cub::DeviceSelect, written for tgsim: Flagged, If, Unique, run on the host in input order
// (device_common.cuh: not simulated, not counted); *d_num_selected_out = the count kept.
#pragma once
#include "device_common.cuh"

namespace cub {
struct DeviceSelect {
  template <class In, class Flags, class Out, class Num>
  static cudaError_t Flagged(void* t, size_t& bytes, In d_in, Flags d_flags, Out d_out, Num d_num_selected_out,
                             int n, cudaStream_t = 0, bool = false) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    int k = 0;
    for (int i = 0; i < n; ++i)
      if (d_flags[i]) d_out[k++] = d_in[i];
    *d_num_selected_out = k;
    tgsim_cub::wrote(d_out, k);
    tgsim_cub::wrote(d_num_selected_out, 1);
    return cudaSuccess;
  }
  template <class In, class Out, class Num, class Pred>
  static cudaError_t If(void* t, size_t& bytes, In d_in, Out d_out, Num d_num_selected_out, int n, Pred pred,
                        cudaStream_t = 0, bool = false) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    int k = 0;
    for (int i = 0; i < n; ++i) {
      const auto v = d_in[i];
      if (pred(v)) d_out[k++] = v;
    }
    *d_num_selected_out = k;
    tgsim_cub::wrote(d_out, k);
    tgsim_cub::wrote(d_num_selected_out, 1);
    return cudaSuccess;
  }
  template <class In, class Out, class Num>
  static cudaError_t Unique(void* t, size_t& bytes, In d_in, Out d_out, Num d_num_selected_out, int n,
                            cudaStream_t = 0, bool = false) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    int k = 0;
    tgsim_cub::value_of<In> previous{};
    for (int i = 0; i < n; ++i) {
      const tgsim_cub::value_of<In> v = d_in[i];
      if (i == 0 || !(v == previous)) d_out[k++] = v;
      previous = v;
    }
    *d_num_selected_out = k;
    tgsim_cub::wrote(d_out, k);
    tgsim_cub::wrote(d_num_selected_out, 1);
    return cudaSuccess;
  }
};
}  // namespace cub
