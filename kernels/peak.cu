// Seed 003: the warp-shuffle arg-max. block_peak finds each block's largest value and its index
// (shuffle reduction inside each warp, warp representatives in shared memory, warp 0 reduces
// them); final_peak_and_centroid reduces the block peaks to one and takes the 5x5 moments
// m00, m10, m01 around it. A Peak is written and read whole (one 8-byte access, as nvcc emits);
// the moments go to out_centroid[0..2] as three float stores, as the seed's three member stores.
// The reviewed variants follow the seed's review: ties go to the smaller index, and the peak
// index reaches thread 0 through shared memory instead of a global write and read.
#include "kernels.hpp"

__device__ __forceinline__ Peak make_peak(float v, int i) {
  Peak p;
  p.val = v;
  p.idx = i;
  return p;
}

// Does (vv, iid) beat (v, id)? The seed keeps the first on a tie; the review prefers the smaller index.
template <bool TIE_SMALLER>
__device__ __forceinline__ bool peak_beats(float vv, int iid, float v, int id) {
  return vv > v || (TIE_SMALLER && vv == v && iid < id);
}

template <bool TIE_SMALLER>
__device__ __forceinline__ void warp_argmax(float& v, int& id) {
  unsigned mask = 0xffffffff;
  #pragma unroll 1
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) {
    float vv = __shfl_down_sync(mask, v, offset);
    int iid = __shfl_down_sync(mask, id, offset);
    if (peak_beats<TIE_SMALLER>(vv, iid, v, id)) {
      v = vv;
      id = iid;
    }
  }
}

template <bool TIE_SMALLER>
__device__ __forceinline__ void block_peak_body(const float* src, int n, Peak* block_out) {
  int tid = threadIdx.x;
  int idx = blockIdx.x * blockDim.x + tid;
  float v = (idx < n) ? src[idx] : -1e30f;
  int id = idx;
  warp_argmax<TIE_SMALLER>(v, id);
  __shared__ float warp_val[32];
  __shared__ int warp_idx[32];
  int lane = tid & (warpSize - 1);
  int warp = tid / warpSize;
  if (lane == 0) {
    warp_val[warp] = v;
    warp_idx[warp] = id;
  }
  __syncthreads();
  if (warp == 0) {
    int warp_count = (blockDim.x + warpSize - 1) / warpSize;
    float val = (lane < warp_count) ? warp_val[lane] : -1e30f;
    int idx2 = (lane < warp_count) ? warp_idx[lane] : 0;
    warp_argmax<TIE_SMALLER>(val, idx2);
    if (lane == 0) block_out[blockIdx.x] = make_peak(val, idx2);
  }
}

__global__ void block_peak(const float* src, int n, Peak* block_out) {
  block_peak_body<false>(src, n, block_out);
}
__global__ void block_peak_reviewed(const float* src, int n, Peak* block_out) {
  block_peak_body<true>(src, n, block_out);
}

template <bool REVIEWED>
__device__ __forceinline__ void final_peak_body(const Peak* block_peaks, int block_count,
                                                const float* corr, int width, int height,
                                                Peak* out_peak, float* out_centroid) {
  int tid = threadIdx.x;
  float best_val = -1e30f;
  int best_idx = 0;
  #pragma unroll 1
  for (int i = tid; i < block_count; i += blockDim.x) {
    Peak p = block_peaks[i];
    if (peak_beats<REVIEWED>(p.val, p.idx, best_val, best_idx)) {
      best_val = p.val;
      best_idx = p.idx;
    }
  }
  warp_argmax<REVIEWED>(best_val, best_idx);
  __shared__ float warp_val[32];
  __shared__ int warp_idx[32];
  __shared__ int s_peak_idx[1];
  int lane = tid & (warpSize - 1);
  int warp = tid / warpSize;
  if (lane == 0) {
    warp_val[warp] = best_val;
    warp_idx[warp] = best_idx;
  }
  __syncthreads();
  if (warp == 0) {
    int warp_count = (blockDim.x + warpSize - 1) / warpSize;
    float v = (lane < warp_count) ? warp_val[lane] : -1e30f;
    int id = (lane < warp_count) ? warp_idx[lane] : 0;
    warp_argmax<REVIEWED>(v, id);
    if (lane == 0) {
      out_peak[0] = make_peak(v, id);
      if (REVIEWED) s_peak_idx[0] = id;
    }
  }
  __syncthreads();
  if (tid == 0) {
    int peak_idx;
    if (REVIEWED) {
      peak_idx = s_peak_idx[0];
    } else {
      Peak p = out_peak[0];
      peak_idx = p.idx;
    }
    int px = peak_idx % width;
    int py = peak_idx / width;
    float m00 = 0.0f, m10 = 0.0f, m01 = 0.0f;
    #pragma unroll 1
    for (int dy = -2; dy <= 2; ++dy) {
      int y = py + dy;
      if (y < 0 || y >= height) continue;
      #pragma unroll 1
      for (int dx = -2; dx <= 2; ++dx) {
        int x = px + dx;
        if (x < 0 || x >= width) continue;
        float v = corr[y * width + x];
        m00 += v;
        m10 += v * static_cast<float>(x);
        m01 += v * static_cast<float>(y);
      }
    }
    out_centroid[0] = m00;
    out_centroid[1] = m10;
    out_centroid[2] = m01;
  }
}

__global__ void final_peak_and_centroid(const Peak* block_peaks, int block_count,
                                        const float* corr, int width, int height,
                                        Peak* out_peak, float* out_centroid) {
  final_peak_body<false>(block_peaks, block_count, corr, width, height, out_peak, out_centroid);
}
__global__ void final_peak_and_centroid_reviewed(const Peak* block_peaks, int block_count,
                                                 const float* corr, int width, int height,
                                                 Peak* out_peak, float* out_centroid) {
  final_peak_body<true>(block_peaks, block_count, corr, width, height, out_peak, out_centroid);
}
