// Launches each kernel of call_sites.cu once (2 blocks of 256 threads) for ../record_counts.sh.
#include "call_sites.cu"
#define FIDELITY_FLOATS 8192
#define FIDELITY_FILL(i) (0.25f * ((i) % 5))
#include "../driver_main.h"

void launch_all(const float* in, float* out) {
  LAUNCH(sites_in_branches, 0);
  LAUNCH(three_sites, 0);
  LAUNCH(two_calls_in_a_row, 0);
  LAUNCH(four_sites_large_helper, 0);
  LAUNCH(same_address_arms, 0);
  LAUNCH(different_address_arms, 0);
  LAUNCH(same_address_builtins, 0);
  LAUNCH(same_address_after_loop, 0);
}
