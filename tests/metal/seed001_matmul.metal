// seed: 001_39515d2bf7ee0489.txt (lines 130-174, matmul.metal: matmul, relu, add_bias)
     #include <metal_stdlib>
     using namespace metal;

     // 行列積: C = A × B
     // A: M×K, B: K×N, C: M×N
     kernel void matmul(
         device const float* A [[buffer(0)]],
         device const float* B [[buffer(1)]],
         device float* C [[buffer(2)]],
         constant uint& M [[buffer(3)]],
         constant uint& K [[buffer(4)]],
         constant uint& N [[buffer(5)]],
         uint2 pos [[thread_position_in_grid]]  // 2次元スレッドID
     ) {
         uint row = pos.y;  // 行インデックス
         uint col = pos.x;  // 列インデックス

         // 範囲チェック
         if (row >= M || col >= N) return;

         float sum = 0.0f;
         for (uint k = 0; k < K; k++) {
             sum += A[row * K + k] * B[k * N + col];
         }
         C[row * N + col] = sum;
     }

     // ReLU活性化関数(ニューラルネット風)
     kernel void relu(
         device float* data [[buffer(0)]],
         uint id [[thread_position_in_grid]]
     ) {
         data[id] = max(0.0f, data[id]);
     }

     // バイアス加算
     kernel void add_bias(
         device float* matrix [[buffer(0)]],       // M×N の行列
         device const float* bias [[buffer(1)]],   // N 次元のベクトル
         constant uint& N [[buffer(2)]],
         uint id [[thread_position_in_grid]]
     ) {
         uint col = id % N;
         matrix[id] += bias[col];
     }
