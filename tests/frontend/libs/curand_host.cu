// cuRAND's host API (<curand.h>) in a whole program: MRG32k3a's first draws against an
// independent model of L'Ecuyer's recurrence (Python, the values below), the XORWOW and Philox
// generators against the device API's curand_init(seed, 0, 0) stream drawn in a kernel, offsets,
// host against device generators, normals as Box-Muller of the uniforms. With the argument
// "sobol" it asks for a generator tgsim does not model (a one-line error, exit 2).
#include <curand.h>
#include <curand_kernel.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

static int checks = 0, wrong = 0;
static void check(bool ok, const char* what) {
  ++checks;
  if (!ok) ++wrong, std::printf("wrong: %s\n", what);
}

// One thread draws n uniforms of the device API's stream (seed, subsequence 0, offset 0).
template <class State> __global__ void device_uniforms(unsigned long long seed, float* out, int n) {
  State s;
  curand_init(seed, 0, 0, &s);
  for (int i = 0; i < n; ++i) out[i] = curand_uniform(&s);
}

// n uniforms from a generator of `type` into device memory, copied back.
static std::vector<float> generated(curandRngType_t type, unsigned long long seed, unsigned long long offset, int n) {
  curandGenerator_t g;
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  curandCreateGenerator(&g, type);
  curandSetPseudoRandomGeneratorSeed(g, seed);
  curandSetGeneratorOffset(g, offset);
  curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_BEST);
  check(curandGenerateUniform(g, d, n) == CURAND_STATUS_SUCCESS, "curandGenerateUniform's status");
  std::vector<float> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  curandDestroyGenerator(g);
  cudaFree(d);
  return h;
}

template <class State> static void against_device_api(curandRngType_t type, const char* what) {
  const int n = 16;
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  device_uniforms<State><<<1, 1>>>(1234ull, d, n);
  std::vector<float> kernel(n);
  cudaMemcpy(kernel.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  check(generated(type, 1234ull, 0, n) == kernel, what);
}

static void mrg32k3a() {
  curandGenerator_t g;
  curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_MRG32K3A);
  curandSetPseudoRandomGeneratorSeed(g, 0);  // L'Ecuyer's initial state
  unsigned bits[3];
  curandGenerate(g, bits, 3);
  check(bits[0] == 545508589u && bits[1] == 1368065410u && bits[2] == 1327943761u, "MRG32k3a's first draws");
  float u[3];
  curandGenerateUniform(g, u, 3);
  check(u[0] == 0.12701112f && u[1] == 0.31852757f, "MRG32k3a's first uniforms");
  curandDestroyGenerator(g);
  const std::vector<float> all = generated(CURAND_RNG_PSEUDO_MRG32K3A, 1234ull, 0, 64);
  const std::vector<float> later = generated(CURAND_RNG_PSEUDO_MRG32K3A, 1234ull, 5, 59);
  check(std::vector<float>(all.begin() + 5, all.end()) == later, "MRG32k3a's offset skips draws");
  check(generated(CURAND_RNG_PSEUDO_MRG32K3A, 1235ull, 0, 64) != all, "another seed, other numbers");
  bool in_range = true;
  for (float v : all) in_range = in_range && v > 0.0f && v <= 1.0f;
  check(in_range, "uniforms in (0, 1]");
}

static void normals() {
  curandGenerator_t g;
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_MRG32K3A);
  curandSetPseudoRandomGeneratorSeed(g, 42);
  std::vector<float> z(4096), u(4);
  check(curandGenerateNormal(g, z.data(), 3, 0.0f, 1.0f) == CURAND_STATUS_LENGTH_NOT_MULTIPLE, "odd count refused");
  curandGenerateNormal(g, z.data(), z.size(), 2.0f, 0.5f);
  curandGenerateUniform(g, u.data(), 4);
  const double r = std::sqrt(-2.0 * std::log(static_cast<double>(u[0])));
  const double a = 6.283185307179586 * u[1];
  check(z[0] == static_cast<float>(2.0f + 0.5f * static_cast<float>(r * std::cos(a))), "normal = Box-Muller");
  double mean = 0;
  for (float v : z) mean += v;
  mean /= z.size();
  check(std::fabs(mean - 2.0) < 0.05, "normals' mean");
  curandDestroyGenerator(g);
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "sobol") == 0) {
    curandGenerator_t g;
    curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL32);
    return 0;
  }
  against_device_api<curandStateXORWOW_t>(CURAND_RNG_PSEUDO_DEFAULT, "XORWOW: the device API's stream");
  against_device_api<curandStatePhilox4_32_10_t>(CURAND_RNG_PSEUDO_PHILOX4_32_10, "Philox: the device API's stream");
  mrg32k3a();
  normals();
  std::printf("curand_host: %d checks, %d wrong\n", checks, wrong);
  return wrong == 0 ? 0 : 1;
}
