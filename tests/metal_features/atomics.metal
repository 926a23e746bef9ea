// Metal atomics on device and threadgroup memory.
#include <metal_stdlib>
#include <metal_atomic>
using namespace metal;

kernel void count_and_max(device atomic_int* count [[buffer(0)]], device atomic_uint* biggest [[buffer(1)]],
                          device const uint* v [[buffer(2)]], device float* total [[buffer(3)]],
                          uint i [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]]) {
  threadgroup atomic_float sum;
  if (lid == 0) atomic_store_explicit(&sum, 0.0f, memory_order_relaxed);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
  atomic_fetch_max_explicit(biggest, v[i], memory_order_relaxed);
  atomic_fetch_add_explicit(&sum, 0.5f, memory_order_relaxed);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  if (lid == 0) {
    float expected = 0.0f;  // a compare-exchange that fails once, then succeeds
    while (!atomic_compare_exchange_weak_explicit((device atomic_float*)total, &expected,
                                                  expected + atomic_load_explicit(&sum, memory_order_relaxed),
                                                  memory_order_relaxed, memory_order_relaxed)) {
    }
  }
}
