// A header with Metal's keywords and a kernel template, included from another folder (-I).
#pragma once
#include <metal_stdlib>

template <typename T>
[[kernel]] void scaled_sum(device const T* in [[buffer(0)]], device T* out [[buffer(1)]],
                           constant T& factor [[buffer(2)]], uint lid [[thread_position_in_threadgroup]]) {
  threadgroup T tile[32];
  tile[lid] = in[lid] * factor;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (lid == 0) {
    T s = 0;
    for (int j = 0; j < 32; ++j) s += tile[j];
    out[0] = s;
  }
}
