// Launches each kernel of short_loops.cu once (2 blocks of 256 threads) for ../record_counts.sh.
#include "short_loops.cu"
#include "../driver_main.h"

void launch_all(const float* in, float* out) {
  LAUNCH(short_3, 0);
  LAUNCH(short_5, 0);
  LAUNCH(short_7, 0);
  LAUNCH(short_11, 0);
  LAUNCH(short_13, 0);
  LAUNCH(short_19, 0);
  LAUNCH(short_31, 0);
  LAUNCH(short_stores_13, 0);
  LAUNCH(short_from_zero_13, 0);
  LAUNCH(short_body_4, 0);
  LAUNCH(short_body_8, 0);
  LAUNCH(short_body_16, 0);
  LAUNCH(short_shared, 0);
}
