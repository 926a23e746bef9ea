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

// The last-block reduction with a release fence then a relaxed ticket: a race either way. At
// device scope the fence releases the partials, but the last block's relaxed fetch_add acquires
// nothing (PTX: no fence after it; fence_relaxed_fence is clean); at block scope nothing is released.
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

// A flag stored with release and read by a relaxed load: the relaxed load acquires nothing, so
// the data's load races its store (acquire_fence 0), unless a device-scope fence follows the
// spin (PTX's acquire pattern): cuda::atomic_thread_fence(acquire) (1) or __threadfence() (2).
__global__ void flag_release_relaxed(int* data, int* ready, int* out, int acquire_fence) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*ready);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_release);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (f.load(cuda::memory_order_relaxed) == 0) {
    }
    if (acquire_fence == 1) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    if (acquire_fence == 2) __threadfence();
    *out = *data;
  }
}

// The last-block reduction with fences around a relaxed ticket: the release fence before it
// releases the partial, an acquire fence after it (1: in the same interval, 2: after the barrier)
// acquires the others: clean; without it (0) the last block's reads race.
__global__ void fence_relaxed_fence(float* partial, unsigned int* tickets, float* total, int acquire_fence) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f + blockIdx.x;
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> ticket(*tickets);
    last = ticket.fetch_add(1u, cuda::memory_order_relaxed) == gridDim.x - 1;
    if (acquire_fence == 1) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    if (acquire_fence == 2) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    float sum = 0.0f;
    for (unsigned int b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
}

// fetch_add(release) releases the partial but acquires nothing: the last block's reads race.
__global__ void release_only(float* partial, unsigned int* tickets, float* total) {
  last_block<cuda::thread_scope_device, cuda::memory_order_release>(partial, tickets, total);
}
