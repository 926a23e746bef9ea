// seed: 000_1fb932340e1f05ed.txt (lines 96-141, tiled matmul)
#define TILE_SIZE 16

kernel void matmul_tiled(
    device const float* A [[buffer(0)]],
    device const float* B [[buffer(1)]],
    device float* C [[buffer(2)]],
    constant uint& M [[buffer(3)]],
    constant uint& K [[buffer(4)]],
    constant uint& N [[buffer(5)]],
    uint2 global_id [[thread_position_in_grid]],
    uint2 local_id [[thread_position_in_threadgroup]]
) {
    // Threadgroupメモリ（タイル）
    threadgroup float tileA[TILE_SIZE][TILE_SIZE];
    threadgroup float tileB[TILE_SIZE][TILE_SIZE];

    uint row = global_id.y;
    uint col = global_id.x;

    float sum = 0.0f;

    // タイルごとに処理
    for (uint t = 0; t < (K + TILE_SIZE - 1) / TILE_SIZE; t++) {
        // タイルをロード
        uint aRow = row;
        uint aCol = t * TILE_SIZE + local_id.x;
        uint bRow = t * TILE_SIZE + local_id.y;
        uint bCol = col;

        tileA[local_id.y][local_id.x] = (aRow < M && aCol < K) ? A[aRow * K + aCol] : 0.0f;
        tileB[local_id.y][local_id.x] = (bRow < K && bCol < N) ? B[bRow * N + bCol] : 0.0f;

        threadgroup_barrier(mem_flags::mem_threadgroup);

        // タイル内で積和演算（高速メモリから読む）
        for (uint k = 0; k < TILE_SIZE; k++) {
            sum += tileA[local_id.y][k] * tileB[k][local_id.x];
        }

        threadgroup_barrier(mem_flags::mem_threadgroup);
    }

    if (row < M && col < N) {
        C[row * N + col] = sum;
    }
}
