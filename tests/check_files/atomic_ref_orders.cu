// tgsim check FILE: the last-block reduction (tests/check_files/last_block.cu) with libcu++'s
// cuda::atomic_ref and memory orders instead of __threadfence(). Each block's thread 0 stores
// its partial sum and takes a ticket; the block with the last ticket reads every partial.
//   release_acquire: fetch_add(acq_rel) releases the partial and acquires the others: clean.
//   relaxed:         fetch_add(relaxed) releases nothing: the partials race between blocks.
//   block_scope:     acq_rel at thread_scope_block orders nothing between blocks: a race.
//   flag:            a store(release) of a flag and a spinning load(acquire) hand one value
//                    from block 0 to block 1: clean (the flag's own accesses are atomics).
#include <cuda/atomic>

template <cuda::thread_scope Scope, cuda::memory_order Order>
__device__ void last_block(float* partial, unsigned int* tickets, float* total) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f + blockIdx.x;
    cuda::atomic_ref<unsigned int, Scope> ticket(*tickets);
    last = ticket.fetch_add(1u, Order) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned int b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
}

__global__ void release_acquire(float* partial, unsigned int* tickets, float* total) {
  last_block<cuda::thread_scope_device, cuda::memory_order_acq_rel>(partial, tickets, total);
}
__global__ void relaxed(float* partial, unsigned int* tickets, float* total) {
  last_block<cuda::thread_scope_device, cuda::memory_order_relaxed>(partial, tickets, total);
}
__global__ void block_scope(float* partial, unsigned int* tickets, float* total) {
  last_block<cuda::thread_scope_block, cuda::memory_order_acq_rel>(partial, tickets, total);
}

__global__ void flag(int* data, int* ready, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*ready);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_release);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    *out = *data;
  }
}

// atomicAdd_block on one counter from every block: atomic only inside a block, so the blocks'
// updates race (a write-after-write between blocks); atomicAdd is clean.
__global__ void block_counter(unsigned int* count, int block_scope) {
  if (block_scope) atomicAdd_block(count, 1u);
  else atomicAdd(count, 1u);
}

// The last-block reduction with a fence and a relaxed ticket: cuda::atomic_thread_fence at device
// scope releases the partial (clean); at block scope, as __threadfence_block(), it orders
// nothing between blocks (a race).
__global__ void fence_then_relaxed(float* partial, unsigned int* tickets, float* total, int device_fence) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f + blockIdx.x;
    if (device_fence) cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
    else __threadfence_block();
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ticket(*tickets);
    last = ticket.fetch_add(1u, cuda::memory_order_relaxed) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned int b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
}

// flag with relaxed orders and no fence: the store of data is not released, so block 1's load of
// it races block 0's store.
__global__ void flag_relaxed(int* data, int* ready, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*ready);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_relaxed);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (f.load(cuda::memory_order_relaxed) == 0) {
    }
    *out = *data;
  }
}
