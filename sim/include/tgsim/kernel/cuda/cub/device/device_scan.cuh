// cub::DeviceScan, written for tgsim: ExclusiveSum, InclusiveSum, ExclusiveScan, InclusiveScan,
// run on the host in input order (device_common.cuh: not simulated, not counted). In place
// (d_in == d_out) works.
#pragma once
#include "device_common.cuh"

namespace cub {
struct DeviceScan {
  template <class In, class Out, class Op, class Init>
  static cudaError_t ExclusiveScan(void* t, size_t& bytes, In d_in, Out d_out, Op op, Init init, int n,
                                   cudaStream_t = 0, bool = false) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    tgsim_cub::value_of<Out> run = init;
    for (int i = 0; i < n; ++i) {
      const auto v = d_in[i];
      d_out[i] = run;
      run = op(run, v);
    }
    tgsim_cub::wrote(d_out, n);
    return cudaSuccess;
  }
  template <class In, class Out, class Op>
  static cudaError_t InclusiveScan(void* t, size_t& bytes, In d_in, Out d_out, Op op, int n, cudaStream_t = 0,
                                   bool = false) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    if (n <= 0) return cudaSuccess;
    tgsim_cub::value_of<Out> run = d_in[0];
    d_out[0] = run;
    for (int i = 1; i < n; ++i) d_out[i] = run = op(run, d_in[i]);
    tgsim_cub::wrote(d_out, n);
    return cudaSuccess;
  }
  template <class In, class Out>
  static cudaError_t ExclusiveSum(void* t, size_t& bytes, In d_in, Out d_out, int n, cudaStream_t s = 0,
                                  bool d = false) {
    return ExclusiveScan(t, bytes, d_in, d_out, cub::Sum(), tgsim_cub::value_of<Out>(0), n, s, d);
  }
  template <class In, class Out>
  static cudaError_t InclusiveSum(void* t, size_t& bytes, In d_in, Out d_out, int n, cudaStream_t s = 0,
                                  bool d = false) {
    return InclusiveScan(t, bytes, d_in, d_out, cub::Sum(), n, s, d);
  }
};
}  // namespace cub
