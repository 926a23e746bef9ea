// Launches each kernel of reuse.cu once (2 blocks of 256 threads) for ../record_counts.sh.
#include "reuse.cu"
#include "../driver_main.h"

void launch_all(const float* in, float* out) {
  LAUNCH(tile_2d, 0);
  LAUNCH(tile_2d_loop, 0);
  LAUNCH(scalar_after_store, 0);
  LAUNCH(scalar_after_stores_unrolled, 0);
  LAUNCH(global_after_shared_store, 0);
  LAUNCH(shared_after_both, 0);
  LAUNCH(uneven_trips, 0);
}
