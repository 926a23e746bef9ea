// seed: 001_39515d2bf7ee0489.txt (lines 654-667, threadgroup array parameter example)
  kernel void example(
      threadgroup float shared_data[256],  // ← グループ内で共有!
      uint local_id [[thread_position_in_threadgroup]],
      uint group_id [[threadgroup_position_in_grid]]
  ) {
      // 自分のIDにデータを書く
      shared_data[local_id] = float(local_id);

      // 全員が書き終わるまで待つ
      threadgroup_barrier(mem_flags::mem_threadgroup);

      // 他のスレッドが書いたデータを読める!
      float neighbor = shared_data[(local_id + 1) % 256];
  }
