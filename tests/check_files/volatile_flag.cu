// tgsim check FILE: block 0 hands a value to block 1 through a volatile flag in global memory
// (volatile is a relaxed access at system scope: the flag itself is no race). With the fence
// before the flag's store the value's store is released, and the load after the spin acquires
// it: no finding. Without the fence (`fence` 0) the value's store and load race.
__global__ void volatile_flag(int* data, volatile int* flag, int* out, int fence) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      data[0] = 42;
      if (fence) __threadfence();
      *flag = 1;
    }
  } else if (threadIdx.x == 0) {
    while (*flag == 0) {
    }
    __threadfence();
    out[0] = data[0];
  }
}
