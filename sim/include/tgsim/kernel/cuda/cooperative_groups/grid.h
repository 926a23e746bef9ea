// cooperative_groups::grid_group and this_grid() (included by <cooperative_groups.h>): the
// whole grid of a cooperative launch (cudaLaunchCooperativeKernel, `tgsim run --cooperative`).
// sync() waits for every thread of the grid (tgsim: __tgsim_grid_sync; the groups take turns,
// sim/src/engine/cooperative.cpp); outside a cooperative launch is_valid() is false and sync() is a
// finding. Ranks and sizes are CUDA 12's: thread_rank() counts blocks in x-fastest order,
// then the thread's rank in its block; group_dim() is the grid in threads.
#ifndef TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_GRID_H
#define TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_GRID_H

namespace cooperative_groups {

class grid_group {
 public:
  __forceinline__ bool is_valid() const { return __tgsim_grid_is_valid() != 0; }
  __forceinline__ void sync() const { __tgsim_grid_sync(0); }
  __forceinline__ static unsigned long long num_blocks() {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
  __forceinline__ static unsigned long long block_rank() {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  }
  __forceinline__ static unsigned long long num_threads() {
    return num_blocks() * (static_cast<unsigned long long>(blockDim.x) * blockDim.y * blockDim.z);
  }
  __forceinline__ static unsigned long long size() { return num_threads(); }
  __forceinline__ static unsigned long long thread_rank() {
    return block_rank() * (static_cast<unsigned long long>(blockDim.x) * blockDim.y * blockDim.z) +
           (threadIdx.x + static_cast<unsigned long long>(blockDim.x) * (threadIdx.y + static_cast<unsigned long long>(blockDim.y) * threadIdx.z));
  }
  __forceinline__ static dim3 dim_blocks() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __forceinline__ static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __forceinline__ static dim3 dim_threads() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __forceinline__ static dim3 group_dim() {
    return dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z);
  }
};

__forceinline__ grid_group this_grid() { return grid_group(); }
__forceinline__ void sync(const grid_group& g) { g.sync(); }

}  // namespace cooperative_groups

#endif
