// Texture fetches' exact counts (texture_counts.sh reads each launch's report): one warp.
// point_fetch: each lane fetches texel (lane, 0) of a 64x2 float array: one load
// instruction of 32 lanes, 128 bytes in 4 sectors. bilinear_fetch: each lane fetches between
// texels lane and lane + 1 of rows 0 and 1 (weights 1/2): 4 load instructions, one per
// corner, of 4 + 5 + 4 + 5 = 18 sectors (a row is 256 bytes).
#include <cstdio>
#include <cstring>

__global__ void point_fetch(cudaTextureObject_t t, float* out) {
  out[threadIdx.x] = tex2D<float>(t, threadIdx.x + 0.5f, 0.5f);
}
__global__ void bilinear_fetch(cudaTextureObject_t t, float* out) {
  out[threadIdx.x] = tex2D<float>(t, threadIdx.x + 1.0f, 1.0f);
}

int main() {
  float h[128];
  for (int i = 0; i < 128; ++i) h[i] = float(i);
  cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMallocArray(&a, &ch, 64, 2);
  cudaMemcpy2DToArray(a, 0, 0, h, 256, 256, 2, cudaMemcpyHostToDevice);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
  d.filterMode = cudaFilterModePoint;
  cudaTextureObject_t point, linear;
  cudaCreateTextureObject(&point, &r, &d, nullptr);
  d.filterMode = cudaFilterModeLinear;
  cudaCreateTextureObject(&linear, &r, &d, nullptr);
  float* out;
  cudaMalloc(&out, 32 * sizeof(float));
  float ho[32];
  int wrong = 0;
  point_fetch<<<1, 32>>>(point, out);
  cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i) wrong += ho[i] != float(i);
  bilinear_fetch<<<1, 32>>>(linear, out);
  cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i) wrong += ho[i] != (i + (i + 1) + (i + 64) + (i + 65)) / 4.0f;
  std::printf("texture counts: %d wrong\n", wrong);
  return wrong != 0;
}
