// cuRAND's device API (<curand_kernel.h>) for a .cu compiled by tgsim's front end, written for
// tgsim from cuRAND's documented generators: XORWOW (curandState, curandStateXORWOW_t; each
// subsequence 2^67 draws apart) and Philox4_32_10 (curandStatePhilox4_32_10_t), with curand,
// curand4, curand_uniform(4/_double), curand_normal(2/4; _double for XORWOW), skipahead and
// skipahead_sequence. The integers and uniforms are bit-exact to cuRAND's; the normals use
// cuRAND's Box-Muller on the uniforms with the simulated logf/sqrtf/__sincosf (as exact as
// those are). The draws are device code, simulated and counted; XORWOW's skipahead (cuRAND
// multiplies by precomputed jump matrices read from global memory) runs in tgsim's uncounted
// runtime over jump matrices computed here (powers of the generator's 160x160 GF(2) step).
// Not modelled: MRG32k3a, MTGP32, Sobol, curand_log_normal, curand_poisson.
#pragma once
#include "tgsim/kernel/cuda_runtime.h"

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define CURAND_PI_DOUBLE (3.1415926535897932)

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStateXORWOW curandStateXORWOW_t;
typedef curandStateXORWOW_t curandState_t;
typedef curandStateXORWOW_t curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr, output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

// ---- XORWOW's jump: v <- M^n v over GF(2), in tgsim's runtime (namespace tgsim: not instrumented).
namespace tgsim {
namespace curand_detail {
// A 160x160 bit matrix as its columns: col[j] = M e_j (5 words each).
struct Matrix {
  unsigned col[160][5];
};
inline void apply(const Matrix& m, const unsigned in[5], unsigned out[5]) {
  unsigned r[5] = {0, 0, 0, 0, 0};
  for (int j = 0; j < 160; ++j)
    if (in[j / 32] >> (j % 32) & 1u)
      for (int w = 0; w < 5; ++w) r[w] ^= m.col[j][w];
  for (int w = 0; w < 5; ++w) out[w] = r[w];
}
// step[k] = M^(2^k) for k = 0..130: offsets use 0..63, subsequences (2^67 apart) 67..130.
struct Jumps {
  Matrix step[131];
  Jumps() {
    for (int j = 0; j < 160; ++j) {  // M: one xorshift step of v (curand() without d)
      unsigned v[5] = {0, 0, 0, 0, 0};
      v[j / 32] = 1u << (j % 32);
      const unsigned t = v[0] ^ (v[0] >> 2);
      unsigned* c = step[0].col[j];
      c[0] = v[1], c[1] = v[2], c[2] = v[3], c[3] = v[4];
      c[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
    }
    for (int k = 1; k < 131; ++k)
      for (int j = 0; j < 160; ++j) apply(step[k - 1], step[k - 1].col[j], step[k].col[j]);
  }
};
inline const Jumps& jumps() {
  static const Jumps* j = new Jumps();
  return *j;
}
// v <- M^(n * 2^shift) v, for shift 0 (offsets) or 67 (subsequences).
inline void xorwow_jump(unsigned v[5], unsigned long long n, int shift) {
  const Jumps& j = jumps();
  for (int k = 0; n; ++k, n >>= 1)
    if (n & 1) apply(j.step[k + shift], v, v);
}
}  // namespace curand_detail
}  // namespace tgsim

// ---- XORWOW
__forceinline__ unsigned int curand(curandStateXORWOW_t* s) {
  const unsigned int t = s->v[0] ^ (s->v[0] >> 2);
  s->v[0] = s->v[1];
  s->v[1] = s->v[2];
  s->v[2] = s->v[3];
  s->v[3] = s->v[4];
  s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
  s->d += 362437;
  return s->v[4] + s->d;
}
__forceinline__ void skipahead(unsigned long long n, curandStateXORWOW_t* s) {
  unsigned v[5] = {s->v[0], s->v[1], s->v[2], s->v[3], s->v[4]};
  tgsim::curand_detail::xorwow_jump(v, n, 0);
  for (int i = 0; i < 5; ++i) s->v[i] = v[i];
  s->d += 362437u * static_cast<unsigned int>(n);
}
__forceinline__ void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* s) {
  unsigned v[5] = {s->v[0], s->v[1], s->v[2], s->v[3], s->v[4]};
  tgsim::curand_detail::xorwow_jump(v, n, 67);  // d advances by 362437 * 2^67 n = 0 mod 2^32
  for (int i = 0; i < 5; ++i) s->v[i] = v[i];
}
__forceinline__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                 curandStateXORWOW_t* s) {
  const unsigned int s0 = static_cast<unsigned int>(seed) ^ 0xaad26b49u;
  const unsigned int s1 = static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu;
  const unsigned int t0 = 1099087573u * s0, t1 = 2591861531u * s1;
  s->d = 6615241u + t1 + t0;
  s->v[0] = 123456789u + t0;
  s->v[1] = 362436069u ^ t0;
  s->v[2] = 521288629u + t1;
  s->v[3] = 88675123u ^ t1;
  s->v[4] = 5783321u + t0;
  if (subsequence) skipahead_sequence(subsequence, s);
  if (offset) skipahead(offset, s);
  s->boxmuller_flag = s->boxmuller_flag_double = 0;
  s->boxmuller_extra = 0.f;
  s->boxmuller_extra_double = 0.;
}

// ---- Philox4x32-10: a counter (ctr) encrypted with the key; output holds the current block.
namespace tgsim_curand {
__forceinline__ uint4 philox_round(uint4 c, uint2 k) {
  const unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
  const unsigned hi0 = static_cast<unsigned>(p0 >> 32), lo0 = static_cast<unsigned>(p0);
  const unsigned hi1 = static_cast<unsigned>(p1 >> 32), lo1 = static_cast<unsigned>(p1);
  return make_uint4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
}
__forceinline__ uint4 philox10(uint4 c, uint2 k) {
  for (int r = 0; r < 10; ++r) {
    if (r) k.x += 0x9E3779B9u, k.y += 0xBB67AE85u;
    c = philox_round(c, k);
  }
  return c;
}
__forceinline__ void incr(curandStatePhilox4_32_10_t* s) {
  if (++s->ctr.x) return;
  if (++s->ctr.y) return;
  if (++s->ctr.z) return;
  ++s->ctr.w;
}
__forceinline__ void incr(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  const unsigned nlo = static_cast<unsigned>(n);
  unsigned nhi = static_cast<unsigned>(n >> 32);
  s->ctr.x += nlo;
  if (s->ctr.x < nlo) ++nhi;
  s->ctr.y += nhi;
  if (nhi <= s->ctr.y) return;
  if (++s->ctr.z) return;
  ++s->ctr.w;
}
__forceinline__ void incr_hi(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  const unsigned nlo = static_cast<unsigned>(n);
  unsigned nhi = static_cast<unsigned>(n >> 32);
  s->ctr.z += nlo;
  if (s->ctr.z < nlo) ++nhi;
  s->ctr.w += nhi;
}
}  // namespace tgsim_curand

__forceinline__ void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* s) {
  s->STATE += static_cast<unsigned>(n & 3);
  n /= 4;
  if (s->STATE > 3) {
    n += 1;
    s->STATE -= 4;
  }
  tgsim_curand::incr(s, n);
  s->output = tgsim_curand::philox10(s->ctr, s->key);
}
__forceinline__ void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* s) {
  tgsim_curand::incr_hi(s, n);
  s->output = tgsim_curand::philox10(s->ctr, s->key);
}
__forceinline__ void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                 curandStatePhilox4_32_10_t* s) {
  s->ctr = make_uint4(0, 0, 0, 0);
  s->key.x = static_cast<unsigned>(seed);
  s->key.y = static_cast<unsigned>(seed >> 32);
  s->STATE = 0;
  s->boxmuller_flag = s->boxmuller_flag_double = 0;
  s->boxmuller_extra = 0.f;
  s->boxmuller_extra_double = 0.;
  skipahead_sequence(subsequence, s);
  skipahead(offset, s);
}
__forceinline__ unsigned int curand(curandStatePhilox4_32_10_t* s) {
  unsigned int r;
  switch (s->STATE++) {
    case 1: r = s->output.y; break;
    case 2: r = s->output.z; break;
    case 3: r = s->output.w; break;
    default: r = s->output.x; break;
  }
  if (s->STATE == 4) {
    tgsim_curand::incr(s);
    s->output = tgsim_curand::philox10(s->ctr, s->key);
    s->STATE = 0;
  }
  return r;
}
__forceinline__ uint4 curand4(curandStatePhilox4_32_10_t* s) {
  const uint4 t = s->output;
  tgsim_curand::incr(s);
  s->output = tgsim_curand::philox10(s->ctr, s->key);
  const uint4 o = s->output;
  switch (s->STATE) {
    case 1: return make_uint4(t.y, t.z, t.w, o.x);
    case 2: return make_uint4(t.z, t.w, o.x, o.y);
    case 3: return make_uint4(t.w, o.x, o.y, o.z);
    default: return t;
  }
}

// ---- distributions (the same transforms for both generators)
namespace tgsim_curand {
// (0, 1]: x 2^-32 + 2^-33, one fused multiply-add as nvcc compiles cuRAND's expression.
__forceinline__ float uniform(unsigned x) {
  return __builtin_fmaf(static_cast<float>(x), CURAND_2POW32_INV, CURAND_2POW32_INV / 2.0f);
}
__forceinline__ double uniform_double(unsigned x, unsigned y) {
  const unsigned long long z = static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << (53 - 32));
  return __builtin_fma(static_cast<double>(z), CURAND_2POW53_INV_DOUBLE, CURAND_2POW53_INV_DOUBLE / 2.0);
}
__forceinline__ float2 box_muller(unsigned x, unsigned y) {
  const float u = uniform(x);
  const float v = __builtin_fmaf(static_cast<float>(y), CURAND_2POW32_INV_2PI, CURAND_2POW32_INV_2PI / 2.0f);
  const float s = sqrtf(-2.0f * logf(u));
  float2 r;
  __sincosf(v, &r.x, &r.y);
  r.x *= s;
  r.y *= s;
  return r;
}
__forceinline__ double2 box_muller_double(unsigned x0, unsigned x1, unsigned y0, unsigned y1) {
  const double u = uniform_double(x0, x1);
  const unsigned long long zy = static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << (53 - 32));
  const double v = __builtin_fma(static_cast<double>(zy), CURAND_2POW53_INV_DOUBLE * 2.0, CURAND_2POW53_INV_DOUBLE);
  const double s = sqrt(-2.0 * log(u));
  double2 r;
  sincospi(v, &r.x, &r.y);
  r.x *= s;
  r.y *= s;
  return r;
}
template <class S> __forceinline__ float normal(S* s) {
  if (s->boxmuller_flag != 1) {
    const unsigned x = curand(s), y = curand(s);
    const float2 v = box_muller(x, y);
    s->boxmuller_extra = v.y;
    s->boxmuller_flag = 1;
    return v.x;
  }
  s->boxmuller_flag = 0;
  return s->boxmuller_extra;
}
template <class S> __forceinline__ double normal_double(S* s) {
  if (s->boxmuller_flag_double != 1) {
    const unsigned x0 = curand(s), x1 = curand(s), y0 = curand(s), y1 = curand(s);
    const double2 v = box_muller_double(x0, x1, y0, y1);
    s->boxmuller_extra_double = v.y;
    s->boxmuller_flag_double = 1;
    return v.x;
  }
  s->boxmuller_flag_double = 0;
  return s->boxmuller_extra_double;
}
}  // namespace tgsim_curand

#define TGSIM_CURAND_DISTRIBUTIONS(S)                                                                           \
  __forceinline__ float curand_uniform(S* s) { return tgsim_curand::uniform(curand(s)); }                      \
  __forceinline__ double curand_uniform_double(S* s) {                                                         \
    const unsigned x = curand(s), y = curand(s);                                                               \
    return tgsim_curand::uniform_double(x, y);                                                                 \
  }                                                                                                            \
  __forceinline__ float curand_normal(S* s) { return tgsim_curand::normal(s); }                                \
  __forceinline__ double curand_normal_double(S* s) { return tgsim_curand::normal_double(s); }                 \
  __forceinline__ float2 curand_normal2(S* s) {                                                                \
    const unsigned x = curand(s), y = curand(s);                                                               \
    return tgsim_curand::box_muller(x, y);                                                                     \
  }
TGSIM_CURAND_DISTRIBUTIONS(curandStateXORWOW_t)
#undef TGSIM_CURAND_DISTRIBUTIONS

// Philox's draws take one word each, its uniform doubles too: (x + 1) 2^-32, 32 random bits,
// as cuRAND's (checked against CUDA 13's on an H100).
__forceinline__ float curand_uniform(curandStatePhilox4_32_10_t* s) { return tgsim_curand::uniform(curand(s)); }
__forceinline__ double curand_uniform_double(curandStatePhilox4_32_10_t* s) {
  return static_cast<double>(curand(s)) * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE;
}
__forceinline__ float curand_normal(curandStatePhilox4_32_10_t* s) { return tgsim_curand::normal(s); }
__forceinline__ float2 curand_normal2(curandStatePhilox4_32_10_t* s) {
  const unsigned x = curand(s), y = curand(s);
  return tgsim_curand::box_muller(x, y);
}

__forceinline__ float4 curand_uniform4(curandStatePhilox4_32_10_t* s) {
  const uint4 x = curand4(s);
  return make_float4(tgsim_curand::uniform(x.x), tgsim_curand::uniform(x.y), tgsim_curand::uniform(x.z),
                     tgsim_curand::uniform(x.w));
}
__forceinline__ float4 curand_normal4(curandStatePhilox4_32_10_t* s) {
  const uint4 x = curand4(s);
  const float2 a = tgsim_curand::box_muller(x.x, x.y), b = tgsim_curand::box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
