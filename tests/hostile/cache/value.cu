// For compile_cache.sh: prints a value that comes from an included header, so an edit of the
// header must reach the next run.
#include "value.h"

__global__ void show(int* out) {
  out[threadIdx.x] = VALUE;
  if (threadIdx.x == 0) printf("value %d\n", VALUE);
}
