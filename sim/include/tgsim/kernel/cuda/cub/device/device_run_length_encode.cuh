// cub::DeviceRunLengthEncode, written for tgsim: Encode (each run's value and length) and
// NonTrivialRuns (offset and length of each run longer than one), run on the host in input
// order (device_common.cuh: not simulated, not counted).
#pragma once
#include "device_common.cuh"

namespace cub {
struct DeviceRunLengthEncode {
  template <class In, class Unique, class Lengths, class Num>
  static cudaError_t Encode(void* t, size_t& bytes, In d_in, Unique d_unique_out, Lengths d_counts_out,
                            Num d_num_runs_out, int n, cudaStream_t = 0, bool = false) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    int runs = 0;
    for (int i = 0; i < n;) {
      const tgsim_cub::value_of<In> v = d_in[i];
      int j = i + 1;
      while (j < n && d_in[j] == v) ++j;
      d_unique_out[runs] = v;
      d_counts_out[runs++] = j - i;
      i = j;
    }
    *d_num_runs_out = runs;
    tgsim_cub::wrote(d_unique_out, runs);
    tgsim_cub::wrote(d_counts_out, runs);
    tgsim_cub::wrote(d_num_runs_out, 1);
    return cudaSuccess;
  }
  template <class In, class Offsets, class Lengths, class Num>
  static cudaError_t NonTrivialRuns(void* t, size_t& bytes, In d_in, Offsets d_offsets_out, Lengths d_lengths_out,
                                    Num d_num_runs_out, int n, cudaStream_t = 0, bool = false) {
    if (tgsim_cub::size_query(t, bytes)) return cudaSuccess;
    int runs = 0;
    for (int i = 0; i < n;) {
      const tgsim_cub::value_of<In> v = d_in[i];
      int j = i + 1;
      while (j < n && d_in[j] == v) ++j;
      if (j - i > 1) d_offsets_out[runs] = i, d_lengths_out[runs++] = j - i;
      i = j;
    }
    *d_num_runs_out = runs;
    tgsim_cub::wrote(d_offsets_out, runs);
    tgsim_cub::wrote(d_lengths_out, runs);
    tgsim_cub::wrote(d_num_runs_out, 1);
    return cudaSuccess;
  }
};
}  // namespace cub
