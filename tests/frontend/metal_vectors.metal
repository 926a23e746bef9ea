// Metal vector and threadgroup-memory kernels for tests/metal_counts_test.cpp, beside their
// CUDA twins in vectors.cu: a vector load or store is one access of its full width, and a
// [[threadgroup(n)]] parameter is counted and checked as a threadgroup array.
#include <metal_stdlib>
using namespace metal;

kernel void mtl_copy_float4(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                            uint i [[thread_position_in_grid]]) {
  ((device float4*)out)[i] = ((device const float4*)in)[i];
}

kernel void mtl_copy_uchar4(device const uchar* in [[buffer(0)]], device uchar* out [[buffer(1)]],
                            uint i [[thread_position_in_grid]]) {
  ((device uchar4*)out)[i] = ((device const uchar4*)in)[i];
}

kernel void mtl_copy_int2(device const int* in [[buffer(0)]], device int* out [[buffer(1)]],
                          uint i [[thread_position_in_grid]]) {
  ((device int2*)out)[i] = ((device const int2*)in)[i];
}

// Vector operators and conversions read their operands whole.
kernel void mtl_scale_float4(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                             uint i [[thread_position_in_grid]]) {
  device const float4* v = (device const float4*)in;
  ((device float4*)out)[i] = v[i] * 2.0f + v[i];
}

kernel void mtl_widen_uchar4(device const uchar* in [[buffer(0)]], device float* out [[buffer(1)]],
                             uint i [[thread_position_in_grid]]) {
  ((device float4*)out)[i] = float4(((device const uchar4*)in)[i]) + dot(float4(1), float4(0));
}

// float4s through threadgroup memory, reversed within the group.
kernel void mtl_tile_float4(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                            uint i [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]]) {
  threadgroup float4 tile[256];
  tile[lid] = ((device const float4*)in)[i];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  ((device float4*)out)[i] = tile[255 - lid];
}

// Each thread reads its neighbour's element with no barrier between: a race, and the same kernel
// with the group's memory as a [[threadgroup(0)]] parameter.
kernel void mtl_neighbour_static(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]],
                                 uint lid [[thread_position_in_threadgroup]]) {
  threadgroup float buf[64];
  buf[lid] = float(i);
  out[i] = buf[(lid + 1) % 64];
}

kernel void mtl_neighbour_param(device float* out [[buffer(0)]], threadgroup float* buf [[threadgroup(0)]],
                                uint i [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]]) {
  buf[lid] = float(i);
  out[i] = buf[(lid + 1) % 64];
}

// The same with the barrier: no finding.
kernel void mtl_neighbour_param_synced(device float* out [[buffer(0)]],
                                       threadgroup float4* buf [[threadgroup(0)]],
                                       uint i [[thread_position_in_grid]],
                                       uint lid [[thread_position_in_threadgroup]]) {
  buf[lid] = float4(float(i));
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[i] = buf[(lid + 1) % 64].x;
}
