// Cooperative groups as CUDA 12 has them (issue 34): the type-erased thread_group with the
// run-time tiled_partition, tiles of more than one warp with cg::reduce, labeled and binary
// partitions. Each kernel prints its results from one thread; the CLI tests check them and the
// barrier/shuffle counts.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// Sum of val over g through the workspace x (g.size() ints), in rounds of halving; rank 0 gets it.
__device__ int group_sum(cg::thread_group g, int* x, int val) {
  const int r = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    x[r] = val;
    g.sync();
    if (r < i) val += x[r + i];
    g.sync();
  }
  return r == 0 ? val : -1;
}

// 64 threads: the block (6 rounds, 12 BAR per warp), tiles of 8 from tiled_partition(block, 8)
// (3 rounds, 6 WARPSYNC per tile), tiles of 2 of those tiles (1 round), a thread_block_tile<16>
// as a thread_group.
__global__ void erased(int* out) {
  __shared__ int ws[64];
  cg::thread_block block = cg::this_thread_block();
  const int all = group_sum(block, ws, block.thread_rank());
  block.sync();
  cg::thread_group t8 = cg::tiled_partition(block, 8);
  const int base = block.thread_rank() - t8.thread_rank();
  const int s8 = group_sum(t8, ws + base, block.thread_rank());
  cg::thread_group t2 = cg::tiled_partition(t8, 2);
  const int s2 = group_sum(t2, ws + block.thread_rank() - t2.thread_rank(), 1000 + block.thread_rank());
  cg::thread_group t16 = cg::tiled_partition<16>(block);
  const int r = block.thread_rank();
  out[r] = s8;
  if (r == 0) printf("erased block %d size %d\n", all, int(block.size()));
  if (r == 40) printf("erased t8 %d rank %d size %d\n", s8, int(t8.thread_rank()), int(t8.size()));
  if (r == 42) printf("erased t2 %d rank %d size %d t16 rank %d size %d\n", s2, int(t2.thread_rank()),
                      int(t2.size()), int(t16.thread_rank()), int(t16.size()));
}

// 256 threads with block_tile_memory: tiles of 128 (2 of them) reduce 0..255 as sums and maxima.
__global__ void large_tiles(int* out) {
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<128> tile = cg::tiled_partition<128>(block);
  const int v = block.thread_rank();
  const int sum = cg::reduce(tile, v, cg::plus<int>());
  const int max = cg::reduce(tile, (v * 37) % 256, cg::greater<int>());
  tile.sync();
  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = sum;
  if (v == 200)
    printf("large rank %d size %d meta %d of %d sum %d max %d\n", int(tile.thread_rank()), int(tile.size()),
           int(tile.meta_group_rank()), int(tile.meta_group_size()), sum, max);
}

// One warp: lanes labeled by lane % 3, each partition's size, rank and sum; then a binary
// partition of the even lanes of a tile and a shfl within it (rank 1's lane).
__global__ void partitions(int* out) {
  const int lane = threadIdx.x;
  cg::coalesced_group active = cg::coalesced_threads();
  cg::coalesced_group part = cg::labeled_partition(active, lane % 3);
  const int sum = cg::reduce(part, lane, cg::plus<int>());
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group half = cg::binary_partition(tile, lane % 2 == 0);
  const int second = half.shfl(lane * 10, 1);
  half.sync();
  out[lane] = sum;
  if (lane == 7)
    printf("labeled size %d rank %d sum %d | binary size %d rank %d second %d\n", int(part.size()),
           int(part.thread_rank()), sum, int(half.size()), int(half.thread_rank()), second);
}
