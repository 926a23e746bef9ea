// Metal's barrier rules under `tgsim check` (tests/metal_barrier_rules.sh): a
// threadgroup_barrier orders only the memory its flags name, and every thread of a threadgroup
// must reach each threadgroup_barrier.
#include <metal_stdlib>
using namespace metal;

// Each thread stores its slot of device memory, then loads its neighbour's: mem_threadgroup
// does not order device memory (a race), mem_device does.
kernel void neighbour_tg_only(device float* data [[buffer(0)]], device float* out [[buffer(1)]],
                              uint tid [[thread_position_in_threadgroup]],
                              uint n [[threads_per_threadgroup]]) {
  data[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[tid] = data[(tid + 1) % n];
}

kernel void neighbour_device(device float* data [[buffer(0)]], device float* out [[buffer(1)]],
                             uint tid [[thread_position_in_threadgroup]],
                             uint n [[threads_per_threadgroup]]) {
  data[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_device);
  out[tid] = data[(tid + 1) % n];
}

kernel void neighbour_both(device float* data [[buffer(0)]], device float* out [[buffer(1)]],
                           uint tid [[thread_position_in_threadgroup]],
                           uint n [[threads_per_threadgroup]]) {
  data[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);
  out[tid] = data[(tid + 1) % n];
}

kernel void neighbour_combined(device float* data [[buffer(0)]], device float* out [[buffer(1)]],
                               uint tid [[thread_position_in_threadgroup]],
                               uint n [[threads_per_threadgroup]]) {
  data[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_device_and_threadgroup);
  out[tid] = data[(tid + 1) % n];
}

// Two threadgroup-only barriers, then one with mem_device: the store before the first and the
// load after the last are ordered; the load between them is not.
kernel void neighbour_late_device(device float* data [[buffer(0)]], device float* out [[buffer(1)]],
                                  uint tid [[thread_position_in_threadgroup]],
                                  uint n [[threads_per_threadgroup]]) {
  data[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  threadgroup_barrier(mem_flags::mem_device);
  out[tid] = data[(tid + 1) % n];
}

// Threadgroup memory behind mem_threadgroup: ordered, no finding.
kernel void tile_neighbour(device float* out [[buffer(0)]], uint tid [[thread_position_in_threadgroup]],
                           uint n [[threads_per_threadgroup]]) {
  threadgroup float tile[64];
  tile[tid] = float(tid) * 2.0f;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[tid] = tile[(tid + 1) % n];
}

// Threads 16 and up return before the barrier the others reach: undefined behaviour in Metal.
kernel void early_return(device float* out [[buffer(0)]], uint tid [[thread_position_in_threadgroup]]) {
  threadgroup float tile[16];
  if (tid >= 16) return;
  tile[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[tid] = tile[(tid + 1) % 16];
}

// Every thread reaches the barrier; some return after it: no finding.
kernel void return_after(device float* out [[buffer(0)]], uint tid [[thread_position_in_threadgroup]]) {
  threadgroup float tile[32];
  tile[tid] = float(tid);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (tid >= 16) return;
  out[tid] = tile[tid + 16];
}

// dispatchThreads of 40 threads in groups of 32: the second group's threads past the grid never
// run the kernel, so they do not count as returned before the barrier.
kernel void partial_grid(device float* out [[buffer(0)]], uint gid [[thread_position_in_grid]],
                         uint tid [[thread_position_in_threadgroup]]) {
  threadgroup float tile[32];
  tile[tid] = float(gid);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[gid] = tile[tid] + 1.0f;
}

// The SIMD groups of a threadgroup wait at two different threadgroup_barriers.
kernel void two_barriers(device float* out [[buffer(0)]], uint tid [[thread_position_in_threadgroup]]) {
  threadgroup float tile[64];
  tile[tid] = float(tid);
  if (tid < 32) {
    threadgroup_barrier(mem_flags::mem_threadgroup);
  } else {
    out[tid] = 0.0f;
    threadgroup_barrier(mem_flags::mem_device);
  }
  out[tid] = tile[63 - tid];
}
