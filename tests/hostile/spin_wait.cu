// Threadgroups that wait for each other through a flag in global memory (issue 40 item 10,
// issue 37). On the GPU the blocks of a grid that fits the device are resident at once, so
// each wait ends; tgsim parks a group that spins on a value nobody of its group sets and runs
// the others (engine/coresident.cpp). The report is the same for any --threads.

// Block 0 waits for the last block: it spins on an atomic read of the flag, then reads the
// value the last block released with __threadfence() before its atomicExch.
__global__ void wait_for_last(int* data, int* flag, int* out) {
  __shared__ int seen;
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      while (atomicAdd(flag, 0) == 0) {
      }
      __threadfence();
      seen = data[0];
    }
    __syncthreads();
    out[threadIdx.x] = seen + threadIdx.x;
  } else if (blockIdx.x == gridDim.x - 1) {
    if (threadIdx.x == 0) {
      data[0] = 42;
      __threadfence();
      atomicExch(flag, 1);
    }
  }
}

// The same through a volatile flag: a volatile store releases, a volatile read loop acquires.
__global__ void volatile_wait_for_last(int* data, volatile int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (*flag == 0) {
    }
    __threadfence();
    out[0] = data[0];
  } else if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) {
    data[0] = 7;
    __threadfence();
    *flag = 1;
  }
}

// A chain: block b waits until block b + 1 is done, then adds its own value, so block 0 ends
// last and out[b] = the sum of b..n-1. Every block but the last waits on a later one.
__global__ void chain(volatile int* done, int* out) {
  extern __shared__ int pad[];  // (a launch's --shared bytes: how many blocks fit the device)
  const unsigned b = blockIdx.x, n = gridDim.x;
  if (threadIdx.x == 0) {
    pad[0] = static_cast<int>(b);
    int below = 0;
    if (b + 1 < n) {
      while (done[b + 1] == 0) {
      }
      __threadfence();
      below = out[b + 1];
    }
    out[b] = below + static_cast<int>(b) + pad[0] - static_cast<int>(b);
    __threadfence();
    done[b] = 1;
  }
}

// A flag nobody sets: on the GPU the launch hangs; here a watchdog finding at the spin.
__global__ void never_set(volatile int* flag, int* out) {
  if (threadIdx.x == 0) {
    while (*flag == 0) {
    }
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
