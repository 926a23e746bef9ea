// Shuffles of values wider than 8 bytes (issue 34): a uint4 and a 12-byte struct through a
// tile's shfl_xor and shfl_down, one warp. nvcc -arch=sm_90 emits one SHFL per 32-bit word
// (4 for the uint4, 3 for the struct): 14 SHFL per warp for the kernel below.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Triple {
  float x;
  int y;
  unsigned z;
};

__global__ void wide_shuffle(unsigned* out) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned l = tile.thread_rank();
  const uint4 v = make_uint4(l, 100 + l, 200 + l, 300 + l);
  const uint4 x = tile.shfl_xor(v, 1);    // 4 SHFL
  const uint4 d = tile.shfl_down(v, 3);   // 4 SHFL
  const Triple t{0.5f * l, -int(l), 7u * l};
  const Triple u = tile.shfl_xor(t, 16);  // 3 SHFL
  const Triple w = tile.shfl(t, 5);       // 3 SHFL
  out[l] = x.x + x.y + x.z + x.w + d.w + unsigned(u.x) + unsigned(-u.y) + u.z + w.z;
  if (l == 2) printf("wide %u %u %u %u | %u | %.1f %d %u | %u\n", x.x, x.y, x.z, x.w, d.w, u.x, u.y, u.z, w.z);
}
