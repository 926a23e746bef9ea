// Launches each kernel of unroll.cu once (2 blocks of 256 threads) for ../record_counts.sh.
#include "unroll.cu"
#include "../driver_main.h"

void launch_all(const float* in, float* out) {
  LAUNCH(uneven_loads, 0);
  LAUNCH(uneven_stores, 0);
  LAUNCH(uneven_shared, 0);
  LAUNCH(uneven_big_body, 0);
  LAUNCH(uneven_runtime_stride, 0);
  LAUNCH(uneven_from_zero, 0);
  LAUNCH(runtime_bound_loads, 0);
  LAUNCH(runtime_bound_long, 0);
  LAUNCH(runtime_bound_stores, 0);
}
