// seed: 001_39515d2bf7ee0489.txt (lines 884-962, blur_simple and blur_fast)
  #include <metal_stdlib>
  using namespace metal;

  // 方法1: グローバルメモリ直接(シンプル、遅い)
  kernel void blur_simple(
      device const uchar4* input [[buffer(0)]],
      device uchar4* output [[buffer(1)]],
      constant uint& width [[buffer(2)]],
      constant uint& height [[buffer(3)]],
      uint2 pos [[thread_position_in_grid]]
  ) {
      // 境界チェック
      if (pos.x == 0 || pos.x >= width - 1 || pos.y == 0 || pos.y >= height -
   1) {
          output[pos.y * width + pos.x] = input[pos.y * width + pos.x];
          return;
      }

      uint idx = pos.y * width + pos.x;

      // 周囲9ピクセルの平均
      float4 sum = float4(0);
      for (int dy = -1; dy <= 1; dy++) {
          for (int dx = -1; dx <= 1; dx++) {
              uint i = (pos.y + dy) * width + (pos.x + dx);
              sum += float4(input[i]) / 9.0;
          }
      }

      output[idx] = uchar4(sum);
  }

  // 方法2: スレッドグループメモリ(複雑、速い)
  kernel void blur_fast(
      device const uchar4* input [[buffer(0)]],
      device uchar4* output [[buffer(1)]],
      constant uint& width [[buffer(2)]],
      constant uint& height [[buffer(3)]],
      threadgroup uchar4 cache[18][18],  // 16+2 = 18
      uint2 local_id [[thread_position_in_threadgroup]],
      uint2 group_id [[threadgroup_position_in_grid]]
  ) {
      uint2 global_pos = group_id * uint2(16, 16) + local_id;

      // キャッシュに読み込み(境界含む)
      cache[local_id.y + 1][local_id.x + 1] = input[global_pos.y * width +
  global_pos.x];

      // 境界処理
      if (local_id.x == 0 && global_pos.x > 0) {
          cache[local_id.y + 1][0] = input[global_pos.y * width +
  (global_pos.x - 1)];
      }
      if (local_id.x == 15 && global_pos.x < width - 1) {
          cache[local_id.y + 1][17] = input[global_pos.y * width +
  (global_pos.x + 1)];
      }
      if (local_id.y == 0 && global_pos.y > 0) {
          cache[0][local_id.x + 1] = input[(global_pos.y - 1) * width +
  global_pos.x];
      }
      if (local_id.y == 15 && global_pos.y < height - 1) {
          cache[17][local_id.x + 1] = input[(global_pos.y + 1) * width +
  global_pos.x];
      }

      // 全員が読み終わるまで待つ
      threadgroup_barrier(mem_flags::mem_threadgroup);

      // キャッシュから読んで平均計算
      float4 sum = float4(0);
      for (int dy = 0; dy <= 2; dy++) {
          for (int dx = 0; dx <= 2; dx++) {
              sum += float4(cache[local_id.y + dy][local_id.x + dx]) / 9.0;
          }
      }

      output[global_pos.y * width + global_pos.x] = uchar4(sum);
  }
