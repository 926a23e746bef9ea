// seed: 001_39515d2bf7ee0489.txt (lines 1148-1227, matmul_optimized.metal: matmul_tiled, matmul_simple)
     #include <metal_stdlib>
     using namespace metal;

     #define TILE_SIZE 16

     // 最適化版:タイリング
     kernel void matmul_tiled(
         device const float* A [[buffer(0)]],
         device const float* B [[buffer(1)]],
         device float* C [[buffer(2)]],
         constant uint& M [[buffer(3)]],
         constant uint& K [[buffer(4)]],
         constant uint& N [[buffer(5)]],
         threadgroup float tileA[TILE_SIZE][TILE_SIZE],
         threadgroup float tileB[TILE_SIZE][TILE_SIZE],
         uint2 local_id [[thread_position_in_threadgroup]],
         uint2 group_id [[threadgroup_position_in_grid]]
     ) {
         uint row = group_id.y * TILE_SIZE + local_id.y;
         uint col = group_id.x * TILE_SIZE + local_id.x;

         float sum = 0.0f;

         uint numTiles = (K + TILE_SIZE - 1) / TILE_SIZE;

         for (uint t = 0; t < numTiles; t++) {
             // Aのタイルを読み込む
             uint tileRow = row;
             uint tileCol = t * TILE_SIZE + local_id.x;
             if (tileRow < M && tileCol < K) {
                 tileA[local_id.y][local_id.x] = A[tileRow * K + tileCol];
             } else {
                 tileA[local_id.y][local_id.x] = 0.0f;
             }

             // Bのタイルを読み込む
             tileRow = t * TILE_SIZE + local_id.y;
             tileCol = col;
             if (tileRow < K && tileCol < N) {
                 tileB[local_id.y][local_id.x] = B[tileRow * N + tileCol];
             } else {
                 tileB[local_id.y][local_id.x] = 0.0f;
             }

             threadgroup_barrier(mem_flags::mem_threadgroup);

             // タイル内で計算
             for (uint k = 0; k < TILE_SIZE; k++) {
                 sum += tileA[local_id.y][k] * tileB[k][local_id.x];
             }

             threadgroup_barrier(mem_flags::mem_threadgroup);
         }

         if (row < M && col < N) {
             C[row * N + col] = sum;
         }
     }

     // シンプル版(比較用)
     kernel void matmul_simple(
         device const float* A [[buffer(0)]],
         device const float* B [[buffer(1)]],
         device float* C [[buffer(2)]],
         constant uint& M [[buffer(3)]],
         constant uint& K [[buffer(4)]],
         constant uint& N [[buffer(5)]],
         uint2 pos [[thread_position_in_grid]]
     ) {
         uint row = pos.y;
         uint col = pos.x;

         if (row >= M || col >= N) return;

         float sum = 0.0f;
         for (uint k = 0; k < K; k++) {
             sum += A[row * K + k] * B[k * N + col];
         }
         C[row * N + col] = sum;
     }
