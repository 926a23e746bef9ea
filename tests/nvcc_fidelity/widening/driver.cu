// Launches each kernel of widening.cu once (2 blocks of 256 threads) for ../record_counts.sh.
#include "widening.cu"
#include "../driver_main.h"

void launch_all(const float* in, float* out) {
  LAUNCH(rows_of_8, 0);
  LAUNCH(rows_of_4, 0);
  LAUNCH(pairs, 0);
  LAUNCH(off_by_one, 0);
  LAUNCH(rows_of_33, 0);
  LAUNCH(rows_of_34, 0);
  LAUNCH(triples, 0);
  LAUNCH(gap, 0);
  LAUNCH(two_scalars, 0);
  LAUNCH(scalar_then_array, 0);
  LAUNCH(store_4, 0);
  LAUNCH(dynamic_4, 4096);
  LAUNCH(doubles_2, 0);
  LAUNCH(halves_8, 0);
  LAUNCH(bytes_4, 0);
  LAUNCH(global_4, 0);
  LAUNCH(global_4_aligned, 0);
  LAUNCH(global_float2_store, 0);
  LAUNCH(global_struct, 0);
  LAUNCH(store_between, 0);
  LAUNCH(tile_8x8, 0);
  LAUNCH(three_of_four_012, 0);
  LAUNCH(three_of_four_013, 0);
  LAUNCH(three_of_four_023, 0);
  LAUNCH(three_of_four_123, 0);
  LAUNCH(two_of_four_12, 0);
  LAUNCH(two_of_four_13, 0);
}
