// seed: 000_1fb932340e1f05ed.txt (lines 41-65, the neighbour-read example)
kernel void example(
    device float* input [[buffer(0)]],
    device float* output [[buffer(1)]],
    uint id [[thread_position_in_grid]],
    uint local_id [[thread_position_in_threadgroup]],
    uint group_size [[threads_per_threadgroup]]
) {
    // Threadgroupメモリを宣言（全スレッドで共有）
    threadgroup float shared_data[256];

    // グローバルメモリからThreadgroupメモリへロード
    shared_data[local_id] = input[id];

    // 同期: 全スレッドがロード完了を待つ
    threadgroup_barrier(mem_flags::mem_threadgroup);

    // Threadgroupメモリを使った計算（高速）
    float result = shared_data[local_id] + shared_data[(local_id + 1) % group_size];

    // 同期: 計算完了を待つ
    threadgroup_barrier(mem_flags::mem_threadgroup);

    // 結果をグローバルメモリへ書き戻す
    output[id] = result;
}
