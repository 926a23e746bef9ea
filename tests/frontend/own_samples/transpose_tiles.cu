// Written for tgsim (issue 33 item 6): four ways to move a square matrix through 32 x 32 tiles
// with 32 x 8 groups (each thread handles 4 rows of its tile's column):
//   own_copy_tiles            the bandwidth baseline: coalesced read, coalesced write;
//   own_transpose_direct      read rows, write columns (every store warp touches 32 sectors);
//   own_transpose_tile_bank   through an unpadded shared tile: coalesced both ways, but the
//                             column read out of the tile hits one bank 32 times;
//   own_transpose_tile_pad    the same with the tile padded to 33 columns: conflict-free.
// `side` is a multiple of 32; the grid is (side / 32, side / 32).
constexpr int kTile = 32, kTileRows = 8;

__global__ void own_copy_tiles(const float* src, float* dst, int side) {
  const int x = int(blockIdx.x) * kTile + int(threadIdx.x);
  for (int r = int(threadIdx.y); r < kTile; r += kTileRows) {
    const int y = int(blockIdx.y) * kTile + r;
    dst[y * side + x] = src[y * side + x];
  }
}

__global__ void own_transpose_direct(const float* src, float* dst, int side) {
  const int x = int(blockIdx.x) * kTile + int(threadIdx.x);
  for (int r = int(threadIdx.y); r < kTile; r += kTileRows) {
    const int y = int(blockIdx.y) * kTile + r;
    dst[x * side + y] = src[y * side + x];
  }
}

// Reads the group's tile into `tile` (row pitch `pitch` words), then writes it out transposed:
// the tile at block (bx, by) goes to block (by, bx), read down its columns.
__device__ inline void own_move_through_tile(const float* src, float* dst, int side, float* tile, int pitch) {
  const int tx = int(threadIdx.x);
  for (int r = int(threadIdx.y); r < kTile; r += kTileRows)
    tile[r * pitch + tx] = src[(int(blockIdx.y) * kTile + r) * side + int(blockIdx.x) * kTile + tx];
  __syncthreads();
  for (int r = int(threadIdx.y); r < kTile; r += kTileRows)
    dst[(int(blockIdx.x) * kTile + r) * side + int(blockIdx.y) * kTile + tx] = tile[tx * pitch + r];
}

__global__ void own_transpose_tile_bank(const float* src, float* dst, int side) {
  __shared__ float tile[kTile * kTile];
  own_move_through_tile(src, dst, side, tile, kTile);
}

__global__ void own_transpose_tile_pad(const float* src, float* dst, int side) {
  __shared__ float tile[kTile * (kTile + 1)];
  own_move_through_tile(src, dst, side, tile, kTile + 1);
}
