// cuRAND's host API (<curand.h>) for a program built by tgsim's front end, written for tgsim:
// curandCreateGenerator / curandCreateGeneratorHost, seed, offset and ordering, curandGenerate,
// curandGenerateUniform(Double), curandGenerateNormal(Double), curandDestroyGenerator. A
// generator writes its numbers in order from one stream, by host loops over the simulated
// device memory (all one memory): not simulated, not counted, as tgsim's cuBLAS.
//   XORWOW (CURAND_RNG_PSEUDO_DEFAULT) and Philox4_32_10: the sequence of the device API's state
//   curand_init(seed, 0, offset) (curand_kernel.h), draw for draw.
//   MRG32k3a: L'Ecuyer's combined recurrence (moduli 2^32-209 and 2^32-22853), uniforms (p1 - p2
//   mod m1) / (m1 + 1); seed 0 is L'Ecuyer's initial state (12345 six times), another seed
//   multiplies it component-wise by the seed's halves xored with 0x55555555 and 0xAAAAAAAA
//   (mod each modulus); the offset skips draws. Normals are Box-Muller on two uniforms.
// cuRAND's host generators lay several streams out in memory (the ordering): tgsim's
// numbers are one stream, so they are not those of NVIDIA's host API for the same seed; host and
// device generators of one type give the same numbers. Quasi-random and MTGP32 generators are
// one line naming the call, exit 2.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "curand_kernel.h"

typedef enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;

typedef enum curandRngType {
  CURAND_RNG_TEST = 0,
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141,
  CURAND_RNG_PSEUDO_MT19937 = 142,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200,
  CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} curandRngType_t;

typedef enum curandOrdering {
  CURAND_ORDERING_PSEUDO_BEST = 100,
  CURAND_ORDERING_PSEUDO_DEFAULT = 101,
  CURAND_ORDERING_PSEUDO_SEEDED = 102,
  CURAND_ORDERING_PSEUDO_LEGACY = 103,
  CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
  CURAND_ORDERING_QUASI_DEFAULT = 201
} curandOrdering_t;

namespace tgsim {
namespace curand_host {

// L'Ecuyer's MRG32k3a: two order-3 recurrences combined.
struct Mrg32k3a {
  static constexpr unsigned long long m1 = 4294967087ull, m2 = 4294944443ull;
  unsigned long long s1[3], s2[3];
  explicit Mrg32k3a(unsigned long long seed) {
    for (int i = 0; i < 3; ++i) s1[i] = s2[i] = 12345;
    if (seed == 0) return;
    const unsigned long long lo = (static_cast<unsigned>(seed) ^ 0x55555555u);
    const unsigned long long hi = (static_cast<unsigned>(seed >> 32) ^ 0xAAAAAAAAu);
    const unsigned long long f1[3] = {lo, hi, lo}, f2[3] = {hi, lo, hi};
    for (int i = 0; i < 3; ++i) {
      s1[i] = s1[i] * (f1[i] % m1) % m1;
      s2[i] = s2[i] * (f2[i] % m2) % m2;
      if (s1[i] == 0) s1[i] = 12345;  // a component's zero state would stay zero
      if (s2[i] == 0) s2[i] = 12345;
    }
  }
  // The next value in 1..m1 (p1 - p2 mod m1, m1 for 0).
  unsigned long long next() {
    const unsigned long long p1 = (1403580ull * s1[1] % m1 + m1 - 810728ull * s1[0] % m1) % m1;
    const unsigned long long p2 = (527612ull * s2[2] % m2 + m2 - 1370589ull * s2[0] % m2) % m2;
    s1[0] = s1[1], s1[1] = s1[2], s1[2] = p1;
    s2[0] = s2[1], s2[1] = s2[2], s2[2] = p2;
    return p1 > p2 ? p1 - p2 : p1 + m1 - p2;
  }
  double uniform_double() { return static_cast<double>(next()) / static_cast<double>(m1 + 1); }
};

struct Generator {
  curandRngType_t type;
  unsigned long long seed = 0, offset = 0;
  curandOrdering_t ordering = CURAND_ORDERING_PSEUDO_DEFAULT;
};

[[noreturn]] inline void unsupported(const char* call, const char* what) {
  std::fprintf(stderr, "tgsim: %s(%s) is not modelled (tgsim's cuRAND host API has XORWOW, Philox4_32_10 and "
                       "MRG32k3a)\n", call, what);
  std::exit(2);
}

inline const char* type_name(curandRngType_t t) {
  switch (t) {
    case CURAND_RNG_PSEUDO_MTGP32: return "CURAND_RNG_PSEUDO_MTGP32";
    case CURAND_RNG_PSEUDO_MT19937: return "CURAND_RNG_PSEUDO_MT19937";
    case CURAND_RNG_TEST: return "CURAND_RNG_TEST";
    default: return "a quasi-random generator";
  }
}

// Fills out[0..n) with draw(state) from the generator's stream, state made per type.
template <class Draw> void generate(const Generator& g, size_t n, Draw draw) {
  if (g.type == CURAND_RNG_PSEUDO_MRG32K3A) {
    Mrg32k3a s(g.seed);
    for (unsigned long long i = 0; i < g.offset; ++i) s.next();
    for (size_t i = 0; i < n; ++i) draw(i, s);
  } else if (g.type == CURAND_RNG_PSEUDO_PHILOX4_32_10) {
    curandStatePhilox4_32_10_t s;
    curand_init(g.seed, 0, g.offset, &s);
    for (size_t i = 0; i < n; ++i) draw(i, s);
  } else {
    curandStateXORWOW_t s;
    curand_init(g.seed, 0, g.offset, &s);
    for (size_t i = 0; i < n; ++i) draw(i, s);
  }
}

inline unsigned bits(Mrg32k3a& s) { return static_cast<unsigned>(s.next()); }
template <class S> unsigned bits(S& s) { return curand(&s); }
inline float uniform(Mrg32k3a& s) { return static_cast<float>(s.uniform_double()); }
template <class S> float uniform(S& s) { return curand_uniform(&s); }
inline double uniform_double(Mrg32k3a& s) { return s.uniform_double(); }
template <class S> double uniform_double(S& s) { return curand_uniform_double(&s); }

// Box-Muller on two uniforms u (0, 1] and v: (sqrt(-2 ln u) cos 2 pi v, sqrt(-2 ln u) sin 2 pi v).
template <class T, class Uniform> void normals(const Generator& g, T* out, size_t n, T mean, T stddev, Uniform u01) {
  generate(g, n / 2, [&](size_t i, auto& s) {
    const double u = u01(s), v = u01(s);
    const double r = std::sqrt(-2.0 * std::log(u)), a = 6.283185307179586 * v;
    out[2 * i] = static_cast<T>(mean + stddev * static_cast<T>(r * std::cos(a)));
    out[2 * i + 1] = static_cast<T>(mean + stddev * static_cast<T>(r * std::sin(a)));
  });
}

}  // namespace curand_host
}  // namespace tgsim

typedef tgsim::curand_host::Generator* curandGenerator_t;

inline curandStatus_t curandCreateGenerator(curandGenerator_t* g, curandRngType_t type) {
  using tgsim::curand_host::unsupported;
  if (type != CURAND_RNG_PSEUDO_DEFAULT && type != CURAND_RNG_PSEUDO_XORWOW && type != CURAND_RNG_PSEUDO_MRG32K3A &&
      type != CURAND_RNG_PSEUDO_PHILOX4_32_10)
    unsupported("curandCreateGenerator", tgsim::curand_host::type_name(type));
  *g = new tgsim::curand_host::Generator{type};
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandCreateGeneratorHost(curandGenerator_t* g, curandRngType_t type) {
  return curandCreateGenerator(g, type);
}
inline curandStatus_t curandDestroyGenerator(curandGenerator_t g) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  delete g;
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t g, unsigned long long seed) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  g->seed = seed;
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetGeneratorOffset(curandGenerator_t g, unsigned long long offset) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  g->offset = offset;
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetGeneratorOrdering(curandGenerator_t g, curandOrdering_t order) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  if (order == CURAND_ORDERING_QUASI_DEFAULT) return CURAND_STATUS_OUT_OF_RANGE;
  g->ordering = order;  // one stream whatever the ordering (see the top of this file)
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandSetStream(curandGenerator_t g, cudaStream_t) {
  return g ? CURAND_STATUS_SUCCESS : CURAND_STATUS_NOT_INITIALIZED;
}
inline curandStatus_t curandGenerateSeeds(curandGenerator_t g) {
  return g ? CURAND_STATUS_SUCCESS : CURAND_STATUS_NOT_INITIALIZED;
}
inline curandStatus_t curandGenerate(curandGenerator_t g, unsigned int* out, size_t n) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  tgsim::curand_host::generate(*g, n, [&](size_t i, auto& s) { out[i] = tgsim::curand_host::bits(s); });
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerateUniform(curandGenerator_t g, float* out, size_t n) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  tgsim::curand_host::generate(*g, n, [&](size_t i, auto& s) { out[i] = tgsim::curand_host::uniform(s); });
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerateUniformDouble(curandGenerator_t g, double* out, size_t n) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  tgsim::curand_host::generate(*g, n, [&](size_t i, auto& s) { out[i] = tgsim::curand_host::uniform_double(s); });
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerateNormal(curandGenerator_t g, float* out, size_t n, float mean, float stddev) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  if (n % 2) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  tgsim::curand_host::normals<float>(*g, out, n, mean, stddev,
                                     [](auto& s) { return static_cast<double>(tgsim::curand_host::uniform(s)); });
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGenerateNormalDouble(curandGenerator_t g, double* out, size_t n, double mean,
                                                 double stddev) {
  if (!g) return CURAND_STATUS_NOT_INITIALIZED;
  if (n % 2) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  tgsim::curand_host::normals<double>(*g, out, n, mean, stddev,
                                      [](auto& s) { return tgsim::curand_host::uniform_double(s); });
  return CURAND_STATUS_SUCCESS;
}
inline curandStatus_t curandGetVersion(int* v) {
  *v = 10303;
  return CURAND_STATUS_SUCCESS;
}
