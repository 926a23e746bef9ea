// tgsim check FILE: an acquire is a thread's own, and reaches the other threads of its block
// only through a barrier after it (happens-before).
//   fence_by_other: the last-block reduction with a release fence, then a relaxed ticket taken
//     by thread 0. Mode 0: thread 0 makes the acquire fence after the barrier and reads the
//     partials (its read, then its fence: clean). Mode 1: thread 1 makes the fence and reads:
//     thread 1 read no ticket and thread 0 acquired nothing before the barrier, so its reads
//     race the other blocks' stores. Mode 2: thread 0's fence before the barrier, thread 1
//     reads after it (the Programming Guide's order: clean).
//   flag_shared_ticket: block 1 spins on a flag block 0 stored with release, with a relaxed
//     load (which acquires nothing), then makes an atomic on a shared word and reads the data.
//     A shared word cannot carry another block's release: relaxed (mode 0) or acq_rel (mode 1),
//     the data's load races its store; an acquire fence after the spin (mode 2) is clean.
#include <cuda/atomic>

__global__ void fence_by_other(float* partial, unsigned int* tickets, float* total, int mode) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f + blockIdx.x;
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ticket(*tickets);
    last = ticket.fetch_add(1u, cuda::memory_order_relaxed) == gridDim.x - 1;
    if (mode == 2) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
  }
  __syncthreads();
  const unsigned int reader = mode == 0 ? 0u : 1u;
  if (last && threadIdx.x == reader) {
    if (mode != 2) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    float sum = 0.0f;
    for (unsigned int b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
}

__global__ void flag_shared_ticket(int* data, int* ready, int* out, int mode) {
  __shared__ int slot;
  if (threadIdx.x == 0) slot = 0;
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_device> flag(*ready);
  cuda::atomic_ref<int, cuda::thread_scope_block> ticket(slot);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 42;
    flag.store(1, cuda::memory_order_release);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (flag.load(cuda::memory_order_relaxed) == 0) {
    }
    if (mode == 0) ticket.fetch_add(1, cuda::memory_order_relaxed);
    if (mode == 1) ticket.fetch_add(1, cuda::memory_order_acq_rel);
    if (mode == 2) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    *out = *data;
  }
}
