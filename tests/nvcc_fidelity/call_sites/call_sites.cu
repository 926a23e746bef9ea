// Issue 36, cause 4 (call sites): nvcc inlines a __device__ helper at each call site, so the
// helper's access at each site is an instruction of its own; lanes of one warp calling it from
// two sites issue two instructions. Kernels of ours, recorded on the H100 by ../record_counts.sh
// (2 blocks of 256 threads; in: 8192 floats, out: 8192 floats).

// A small helper Clang inlines as well: each call site unrolls its own loop.
__device__ void accumulate(const float* in, float* out, int i, int n) {
  float s = 0;
  for (int k = 0; k < n; ++k) s += in[i * 8 + k] * (k + 1);
  out[i] = s;
}

// Odd lanes call it from one site, even lanes from another: 3 and 5 loads.
__global__ void sites_in_branches(const float* in, float* out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  if (threadIdx.x & 1)
    accumulate(in, out, t, 3);
  else
    accumulate(in, out + 1024, t, 5);
}

// A helper too large for Clang to inline at three sites (a loop over a run-time count, a switch).
__device__ float weigh(const float* in, int i, int n, int mode) {
  float s = 0;
  for (int k = 0; k < n; ++k) {
    float v = in[(i + 37 * k) % 8192];
    switch ((mode + k) % 5) {
      case 0: s += v * 1.5f; break;
      case 1: s -= v * 0.25f; break;
      case 2: s += v * v; break;
      case 3: s = s * 0.5f + v; break;
      default: s += 1.0f / (1.0f + v * v); break;
    }
  }
  return s;
}

// Lanes in four groups of eight: three call sites with 2, 3 and 4 iterations, and none.
__global__ void three_sites(const float* in, float* out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  const int g = (threadIdx.x / 8) % 4;
  float r = 0;
  if (g == 0)
    r = weigh(in, t, 2, 0);
  else if (g == 1)
    r = weigh(in, t * 2, 3, 1);
  else if (g == 2)
    r = weigh(in, t * 3, 4, 2);
  out[t] = r;
}

// The same helper called twice in a row by every lane: two instructions either way.
__global__ void two_calls_in_a_row(const float* in, float* out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  out[t] = weigh(in, t, 2, 0) + weigh(in, t + 512, 2, 3);
}

// A helper Clang keeps out of line at four sites (a longer loop body): nvcc inlines it at each.
__device__ float heavy(const float* in, int i, int n) {
  float s = 0;
  for (int k = 0; k < n; ++k) {
    float v = in[(i + 37 * k) % 8192];
    s += v * 1.5f;
    s -= v * v * 0.25f;
    s = s * 0.5f + v;
    s += 1.0f / (1.0f + v * v);
    if (s > 100.f) s = sqrtf(s);
    else if (s < -100.f) s = -sqrtf(-s);
    s += in[(i * 3 + k) % 8192] * in[(i * 5 + k) % 8192] - in[(i * 7 + k) % 8192];
    s += in[(i * 11 + k) % 8192] * in[(i * 13 + k) % 8192] - in[(i * 17 + k) % 8192];
  }
  return s;
}

// Lanes in four groups by lane % 4: four call sites with 2, 3, 4 and 5 iterations.
__global__ void four_sites_large_helper(const float* in, float* out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  const int g = threadIdx.x % 4;
  float r = 0;
  if (g == 0)
    r = heavy(in, t, 2);
  else if (g == 1)
    r = heavy(in, t * 2, 3);
  else if (g == 2)
    r = heavy(in, t * 3, 4);
  else
    r = heavy(in, t * 5, 5);
  out[t] = r;
}

// Both arms of an `if` store to one address, with different values (what MLX-style kernels
// write): one STG after the `if` with the value selected, or one per arm?
__global__ void same_address_arms(const float* in, float* out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  const float v = in[t];
  if (threadIdx.x & 1)
    out[t] = v * 2;
  else
    out[t] = v + 1;
}

// Both arms store to different addresses, written inline (no helper).
__global__ void different_address_arms(const float* in, float* out) {
  const int t = blockIdx.x * 256 + threadIdx.x;
  const float v = in[t];
  if (threadIdx.x & 1)
    out[t] = v * 2;
  else
    out[t + 1024] = v + 1;
}

// Both arms store to one address that each arm computes from the built-in variables (as
// MLX-style kernels do).
__global__ void same_address_builtins(const float* in, float* out) {
  const float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x & 1)
    out[blockIdx.x * blockDim.x + threadIdx.x] = v * 2;
  else
    out[blockIdx.x * blockDim.x + threadIdx.x] = v + 1;
}

// The same after a loop over a row, the value accumulated there (tests/frontend/lines/mlx_style.cu).
__global__ void same_address_after_loop(const float* in, float* out) {
  const int row = blockIdx.x;
  float acc = 0;
  for (int col = threadIdx.x * 4; col + 4 <= 1024; col += blockDim.x * 4) {
#pragma unroll
    for (int r = 0; r < 4; ++r) acc += in[row * 1024 + col + r];
  }
  if (threadIdx.x & 1)
    out[row * blockDim.x + threadIdx.x] = acc * 2;
  else
    out[row * blockDim.x + threadIdx.x] = acc + 1;
}
