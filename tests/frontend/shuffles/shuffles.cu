// explain FILE's shuffle picture (tests/frontend/shuffles/shuffle_picture_test.sh): each kernel's
// shuffles, as warp 0 runs them, against the expected steps in expected_*.txt.
struct Peak {
  float val;
  int idx;
};

// A tree sum: __shfl_down_sync by 16, 8, 4, 2, 1; lane 0 ends with the warp's sum.
__global__ void tree_sum(const float* in, float* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  if ((threadIdx.x & 31) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}

// A butterfly: __shfl_xor_sync by 1, 2, 4, 8, 16; every lane ends with the warp's sum.
__global__ void butterfly_sum(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int mask = 1; mask < 32; mask <<= 1) v += __shfl_xor_sync(0xffffffff, v, mask);
  out[i] = v;
}

// An arg-max as seed 003 writes it: the value and its index move together, two shuffles a step.
__global__ void arg_max(const float* src, int n, Peak* out) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  float v = idx < n ? src[idx] : -1e30f;
  int id = idx;
  for (int offset = 16; offset > 0; offset >>= 1) {
    float vv = __shfl_down_sync(0xffffffff, v, offset);
    int iid = __shfl_down_sync(0xffffffff, id, offset);
    if (vv > v) {
      v = vv;
      id = iid;
    }
  }
  if ((threadIdx.x & 31) == 0) {
    out[idx / 32].val = v;
    out[idx / 32].idx = id;
  }
}

// An inclusive scan in segments of 16 lanes by __shfl_up_sync, then each segment's total from
// its last lane (__shfl_sync with width 16).
__global__ void scan16(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int d = 1; d < 16; d <<= 1) {
    int u = __shfl_up_sync(0xffffffff, v, d, 16);
    if ((threadIdx.x & 15) >= d) v += u;
  }
  out[i] = v - __shfl_sync(0xffffffff, v, 15, 16);
}
