// Kernels for tgsim run --cooperative (grid_sync.sh): grid.sync() used right and wrong.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Rotates a by one element per round across the whole grid: a[i] = (i + rounds) % n after.
__global__ void rotate(int* a, int* b, int rounds) {
  cg::grid_group g = cg::this_grid();
  const unsigned long long i = g.thread_rank(), n = g.size();
  for (int r = 0; r < rounds; ++r) {
    b[i] = a[(i + 1) % n];
    g.sync();
    a[i] = b[i];
    g.sync();
  }
}

// Block 1 leaves before the grid sync the others wait at: on the GPU the launch hangs.
__global__ void block_leaves(int* a) {
  cg::grid_group g = cg::this_grid();
  if (blockIdx.x == 1) return;
  a[g.thread_rank()] = 1;
  g.sync();
  a[g.thread_rank()] += 1;
}

// Thread 0 of every block leaves: nobody makes the block's arrival.
__global__ void thread0_leaves(int* a) {
  cg::grid_group g = cg::this_grid();
  if (threadIdx.x == 0) return;
  g.sync();
  a[g.thread_rank()] = 2;
}

// The first warp waits at the grid sync, the second at __syncthreads().
__global__ void mixed_barriers(int* a) {
  cg::grid_group g = cg::this_grid();
  if (threadIdx.x < 32) g.sync();
  else __syncthreads();
  a[g.thread_rank()] = 3;
}
