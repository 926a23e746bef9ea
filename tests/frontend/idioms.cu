// Everyday CUDA idioms as a kernel author writes them (issue 12, requirement 1), compiled by
// tgsim's front end; tests/frontend_idioms_test.cpp checks each result and its exact counts.
// Part 1: pointers, structs, shared memory, barriers, fences, vector types, math.

// &p[k] used as a pointer, handed to a __device__ helper.
__device__ void scale_into(float* dst, const float* src, float f) { *dst = *src * f; }
__global__ void addr_of_element(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  scale_into(&out[i], &in[i], 2.0f);
}

// p++ through four consecutive ints per thread.
__global__ void walk_pointer(const int* in, int* out) {
  int i = threadIdx.x;
  const int* p = in + 4 * i;
  int s = 0;
  for (int k = 0; k < 4; ++k) s += *p++;
  out[i] = s;
}

// if (p) on a pointer parameter that may be nullptr.
__global__ void optional_bias(const float* in, const float* bias, float* out) {
  int i = threadIdx.x;
  float v = in[i];
  if (bias) v += bias[i];
  out[i] = v;
}

// reinterpret_cast to float4: one 16-byte load and one 16-byte store per thread.
__global__ void copy_as_float4(const float* in, float* out) {
  int i = threadIdx.x;
  reinterpret_cast<float4*>(out)[i] = reinterpret_cast<const float4*>(in)[i];
}

// Pointer comparison against an end pointer.
__global__ void bounded_copy(const int* begin, const int* end, int* out) {
  const int* p = begin + blockIdx.x * blockDim.x + threadIdx.x;
  out[p - begin] = p < end ? *p : -1;
}

// p[i].x = v: a 4-byte store into a 16-byte struct, and one into a 12-byte struct.
struct Particle { float x, y, z, w; };
struct Out12 { int idx; float val; int tag; };
__global__ void set_members(Particle* p, Out12* block_out, float v) {
  int i = threadIdx.x;
  p[i].x = v;
  block_out[i].val = v + i;
}

// s[i]++ on shared memory.
__global__ void shared_increment(int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  s[t]++;
  __syncthreads();
  out[t] = s[63 - t];
}

// __syncthreads_count / _and / _or.
__global__ void vote_barriers(const int* in, int* out) {
  int t = threadIdx.x;
  int p = in[t] > 0;
  int c = __syncthreads_count(p);
  int a = __syncthreads_and(p);
  int o = __syncthreads_or(p);
  if (t == 0) {
    out[0] = c;
    out[1] = a;
    out[2] = o;
  }
}

// __threadfence between the data and the flag that publishes it.
__global__ void publish(int* data, int* flag) {
  int t = threadIdx.x;
  data[t] = t + 1;
  __threadfence();
  if (t == 0) *(volatile int*)flag = 1;
}

// __ldg.
__global__ void read_only_load(const float* in, float* out) {
  int t = threadIdx.x;
  out[t] = __ldg(&in[t]) + __ldg(in + 31 - t);
}

// &s[0] passed as a float* to a __device__ helper.
__device__ float sum_first4(const float* p) { return p[0] + p[1] + p[2] + p[3]; }
__global__ void shared_to_helper(const float* in, float* out) {
  __shared__ float s[32];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = sum_first4(&s[0]) + t;
}

// Shared pointer arithmetic: a per-warp slice s_Hist + offset.
__global__ void shared_offsets(int* out) {
  __shared__ int s_Hist[2 * 64];
  int t = threadIdx.x, lane = t % 32;
  int* s_Warp = s_Hist + (t / 32) * 64;
  s_Warp[lane] = lane;
  s_Warp[lane + 32] = 100 + lane;
  __syncthreads();
  out[t] = s_Hist[2 * t];
}

// ((uint*)s)[i] = 0 on byte storage, then byte accesses.
__global__ void clear_bytes_as_words(unsigned* out) {
  __shared__ unsigned char s[4 * 64];
  int t = threadIdx.x;
  ((unsigned*)s)[t] = 0;
  __syncthreads();
  s[t] += 1;
  __syncthreads();
  out[t] = ((unsigned*)s)[t];
}

// A volatile unsigned* helper into shared memory: every access happens.
__device__ void bump(volatile unsigned* p, unsigned v) {
  *p = v;
  *p = *p + 1;
}
__global__ void volatile_shared(unsigned* out) {
  __shared__ unsigned s[32];
  int t = threadIdx.x;
  bump(&s[t], t);
  __syncthreads();
  out[t] = s[31 - t];
}

// __restrict__.
__global__ void saxpy_restrict(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// float4 / float3 / uint4 / uchar4 and make_*.
__global__ void vector_types(const float4* a, float3* b, uint4* c, uchar4* d) {
  int i = threadIdx.x;
  float4 v = a[i];
  b[i] = make_float3(v.x + v.y, v.z, v.w);
  c[i] = make_uint4(i, 2 * i, 3 * i, 4 * i);
  d[i] = make_uchar4(i, i + 1, i + 2, i + 3);
}

// rsqrtf, __mul24, max(0.0f, data[id]).
__global__ void math_idioms(const float* data, float* out, int* iout) {
  int id = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
  out[id] = max(0.0f, data[id]) * rsqrtf(4.0f);
  iout[id] = __mul24(id, 3);
}

// cond ? g[i] : 0 with an int 0 on float and double arrays.
__global__ void cond_zero(const float* f, const double* d, float* fo, double* dout, int n) {
  int i = threadIdx.x;
  fo[i] = (i < n) ? f[i] : 0;
  dout[i] = (i < n) ? d[i] : 0;
}

// A float2 copied into a local and used by fields: one 8-byte load (LDG.64), as the float4 above
// is one 16-byte load.
__global__ void aggregate_fields(const float2* f, float2* e) {
  int i = threadIdx.x;
  float2 w = f[i];
  e[i] = make_float2(w.y, w.x);
}
