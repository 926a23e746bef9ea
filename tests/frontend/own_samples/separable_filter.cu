// Written for tgsim (issue 33 item 6): a separable (2 x 1-D) convolution with a filter of
// 2 x kOwnRadius + 1 taps in constant memory (own_set_taps copies it there), zero outside the
// image. Each pass stages its outputs' inputs plus a halo of kOwnRadius on both sides in shared
// memory, loading halo and body with one strided loop, then every thread computes two outputs.
//   own_filter_rows     groups of 32 x 4: a row strip of 64 outputs per group row;
//   own_filter_columns  groups of 16 x 16: a column strip of 32 outputs per group column.
// width is a multiple of 64, height of 32.
constexpr int kOwnRadius = 8, kOwnTaps = 2 * kOwnRadius + 1;
__constant__ float own_taps[kOwnTaps];

extern "C" void own_set_taps(const float* taps) { cudaMemcpyToSymbol(own_taps, taps, sizeof(float) * kOwnTaps); }

constexpr int kRowOut = 64, kRowLines = 4, kColOut = 32, kColLines = 16;

__global__ void own_filter_rows(const float* src, float* dst, int width, int height) {
  __shared__ float strip[kRowLines][kRowOut + 2 * kOwnRadius];
  const int y = int(blockIdx.y) * kRowLines + int(threadIdx.y), x0 = int(blockIdx.x) * kRowOut;
  for (int i = int(threadIdx.x); i < kRowOut + 2 * kOwnRadius; i += int(blockDim.x)) {
    const int x = x0 - kOwnRadius + i;
    strip[threadIdx.y][i] = x >= 0 && x < width ? src[y * width + x] : 0.0f;
  }
  __syncthreads();
  for (int o = int(threadIdx.x); o < kRowOut; o += int(blockDim.x)) {
    float s = 0.0f;
    for (int j = 0; j < kOwnTaps; ++j) s += strip[threadIdx.y][o + j] * own_taps[kOwnTaps - 1 - j];
    dst[y * width + x0 + o] = s;
  }
  (void)height;
}

__global__ void own_filter_columns(const float* src, float* dst, int width, int height) {
  __shared__ float strip[kColOut + 2 * kOwnRadius][kColLines];
  const int x = int(blockIdx.x) * kColLines + int(threadIdx.x), y0 = int(blockIdx.y) * kColOut;
  for (int i = int(threadIdx.y); i < kColOut + 2 * kOwnRadius; i += int(blockDim.y)) {
    const int y = y0 - kOwnRadius + i;
    strip[i][threadIdx.x] = y >= 0 && y < height ? src[y * width + x] : 0.0f;
  }
  __syncthreads();
  for (int o = int(threadIdx.y); o < kColOut; o += int(blockDim.y)) {
    float s = 0.0f;
    for (int j = 0; j < kOwnTaps; ++j) s += strip[o + j][threadIdx.x] * own_taps[kOwnTaps - 1 - j];
    dst[(y0 + o) * width + x] = s;
  }
}
