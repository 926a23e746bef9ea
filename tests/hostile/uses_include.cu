// For the -I/-D tests: includes "sub/scale.h" through -I, takes SCALE from -D.
#include "sub/scale.h"

__global__ void scaled(int* out) {
  out[threadIdx.x] = SCALE * threadIdx.x;
  if (threadIdx.x == 1) printf("scaled %d\n", out[threadIdx.x]);
}
