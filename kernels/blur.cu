// Seed 001's threadgroup blur: a 3x3 box blur of a w x h float image. Each 16x16 group stages
// an 18x18 tile (its 16x16 pixels plus a one-pixel halo) in shared memory, then every thread
// averages its 9 neighbours from the tile. Pixels outside the image clamp to the nearest edge.

#define BLUR_TILE 16

__device__ __forceinline__ int blur_clamp(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

__global__ void blur3x3(const float* image, float* out, int w, int h) {
  __shared__ float cache[BLUR_TILE + 2][BLUR_TILE + 2];
  int lx = threadIdx.x, ly = threadIdx.y;
  int x0 = blockIdx.x * BLUR_TILE, y0 = blockIdx.y * BLUR_TILE;
  // The 18x18 tile has 324 cells for 256 threads: each thread loads cell t and cell t + 256.
  int t = ly * BLUR_TILE + lx;
  #pragma unroll 1
  for (int c = t; c < (BLUR_TILE + 2) * (BLUR_TILE + 2); c += BLUR_TILE * BLUR_TILE) {
    int cy = c / (BLUR_TILE + 2), cx = c % (BLUR_TILE + 2);
    int gx = blur_clamp(x0 + cx - 1, 0, w - 1), gy = blur_clamp(y0 + cy - 1, 0, h - 1);
    cache[cy][cx] = image[gy * w + gx];
  }
  __syncthreads();
  int x = x0 + lx, y = y0 + ly;
  if (x >= w || y >= h) return;
  float sum = 0.0f;
  #pragma unroll 1
  for (int dy = 0; dy < 3; ++dy) {
    #pragma unroll 1
    for (int dx = 0; dx < 3; ++dx) sum += cache[ly + dy][lx + dx];
  }
  out[y * w + x] = sum / 9.0f;
}
