// cuRAND's device API (issue 34): XORWOW and Philox4_32_10 draws of a few threads, printed to be
// compared with cuRAND's own output for the same seeds, subsequences and offsets (recorded on
// an H100 with CUDA's curand_kernel.h; tests/CMakeLists.txt holds the expected lines).
#include <curand_kernel.h>

#include <cstdio>

// Thread t: seed 1234, subsequence t, offset 5 * (t % 2).
__global__ void xorwow(unsigned* out) {
  const int t = threadIdx.x;
  curandState s;
  curand_init(1234ull, t, 5 * (t % 2), &s);
  const unsigned a = curand(&s), b = curand(&s);
  const float u = curand_uniform(&s);
  const double ud = curand_uniform_double(&s);
  out[t] = a;
  if (t == 0 || t == 3) printf("xorwow %d %u %u %.9g %.17g\n", t, a, b, u, ud);
}

// Thread t: seed 0x123456789, subsequence t, offset 3 * t.
__global__ void philox(unsigned* out) {
  const int t = threadIdx.x;
  curandStatePhilox4_32_10_t s;
  curand_init(0x123456789ull, t, 3 * t, &s);
  const unsigned a = curand(&s);
  const uint4 q = curand4(&s);
  const float4 u = curand_uniform4(&s);
  const double ud = curand_uniform_double(&s);
  const unsigned next = curand(&s);
  out[t] = a;
  if (t == 0 || t == 3) printf("philox %d %u %u %u %u %u %.9g %.9g %.17g\n", t, a, q.x, q.y, q.w, next, u.x, u.w, ud);
}

// Normals (Box-Muller): as exact as the simulated logf, sqrtf and __sincosf (within 1e-6 of the
// GPU's here: printed to 4 places).
__global__ void normals(float* out) {
  const int t = threadIdx.x;
  curandState s;
  curand_init(42ull, t, 0, &s);
  curandStatePhilox4_32_10_t p;
  curand_init(42ull, t, 0, &p);
  const float a = curand_normal(&s), b = curand_normal(&s), c = curand_normal(&p);
  out[t] = a;
  if (t == 1) printf("normal %d %.4f %.4f %.4f\n", t, a, b, c);
}
