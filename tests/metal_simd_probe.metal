// Not a seed: SIMD-group functions, barriers and threadgroup(n) memory, for tests/metal_run_driver.cpp.
#include <metal_stdlib>
using namespace metal;

kernel void simd_probe(device float* out [[buffer(0)]],
                       device uint* bits [[buffer(1)]],
                       threadgroup float* scratch [[threadgroup(0)]],
                       uint lane [[thread_index_in_simdgroup]],
                       uint sg [[simdgroup_index_in_threadgroup]]) {
    out[0] = simd_sum(1.5f);
    out[1] = float(simd_max(int(lane)));
    out[2] = simd_shuffle_down(2.0f, 3);
    bits[0] = uint64_t(simd_ballot(lane == 1)) != 0;
    bits[1] = simd_is_first();
    threadgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_device);
    simdgroup_barrier(mem_flags::mem_none);
    scratch[sg] = 4.0f;
}
