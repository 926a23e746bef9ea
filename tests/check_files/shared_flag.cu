// tgsim check FILE: a flag in shared memory, cuda::atomic_ref<int, thread_scope_block>, hands a
// value from thread 0 to thread 32 (another warp) of one block with no barrier between. The
// flag's own accesses are atomics (no race on it); the value's store and load are ordered only
// by a release on the writing side and an acquire on the reading side (PTX at block scope).
//   mode 0: store(relaxed), load(relaxed): the value races.
//   mode 1: store(release), load(acquire): clean.
//   mode 2: fetch_add(relaxed), load(relaxed): the value races.
//   mode 3: fetch_add(acq_rel), load(acquire): clean.
//   mode 4: store(release), load(relaxed): the value races (the reader acquires nothing).
#include <cuda/atomic>

__global__ void shared_flag(int* out, int mode) {
  __shared__ int data;
  __shared__ int flag;
  if (threadIdx.x == 0) {
    flag = 0;
    data = 0;
  }
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> f(flag);
  if (threadIdx.x == 0) {
    data = 42;
    if (mode == 0) f.store(1, cuda::memory_order_relaxed);
    if (mode == 1 || mode == 4) f.store(1, cuda::memory_order_release);
    if (mode == 2) f.fetch_add(1, cuda::memory_order_relaxed);
    if (mode == 3) f.fetch_add(1, cuda::memory_order_acq_rel);
  }
  if (threadIdx.x == 32) {
    if (mode == 1 || mode == 3) {
      while (f.load(cuda::memory_order_acquire) == 0) {
      }
    } else {
      while (f.load(cuda::memory_order_relaxed) == 0) {
      }
    }
    out[0] = data;
  }
}
