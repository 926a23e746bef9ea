// Launches each kernel of full_unroll.cu once (2 blocks of 256 threads) for ../record_counts.sh.
#include "full_unroll.cu"
#include "../driver_main.h"

void launch_all(const float* in, float* out) {
  LAUNCH(dot_32, 0);
  LAUNCH(dot_64, 0);
  LAUNCH(nest_8x8, 0);
  LAUNCH(nest_16x8, 0);
  LAUNCH(warp_rows, 0);
  LAUNCH(or_windows, 0);
  LAUNCH(dot_128, 0);
  LAUNCH(dot_256, 0);
  LAUNCH(nest_32x8, 0);
  LAUNCH(nest_16x16, 0);
  LAUNCH(nest_64x4, 0);
}
