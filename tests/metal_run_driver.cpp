// Runs barrier-free seed kernels after the Metal adapter, compiled by clang++-14 without tgsim's
// pass: a stand-in __tgsim_thread() walks the grid one thread at a time (tests/metal_run.sh).
// Checks the position attributes, the parameter order and by-value constants, uchar4/float4
// arithmetic, and that a partial grid (dispatchThreads) ends the threads outside it.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tgsim/kernel/abi.h"

// The adapted kernels (tests/metal/seed001_matmul.metal, seed001_blur.metal).
void matmul(const float* A, const float* B, float* C, unsigned M, unsigned K, unsigned N);
void relu(float* data);
void add_bias(float* matrix, const float* bias, unsigned N);
namespace metal {
template <class T, int N> struct vec;  // uchar4 is metal::vec<unsigned char, 4> (in the mangled name)
}
using uchar4 = metal::vec<unsigned char, 4>;
void blur_simple(const uchar4* input, uchar4* output, unsigned width, unsigned height);
struct alignas(4) uchar4_ { unsigned char v[4]; };

namespace {
alignas(16) unsigned char g_thread[128];
void set3(int off, unsigned x, unsigned y, unsigned z) {
  unsigned v[3] = {x, y, z};
  std::memcpy(g_thread + off, v, sizeof v);
}
int g_failures = 0;
void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++g_failures;
  }
}
// Every thread of a grid of gx x gy groups of bx x by threads; size: dispatchThreads' grid (0: whole).
template <class F> void launch(unsigned gx, unsigned gy, unsigned bx, unsigned by, unsigned sx, unsigned sy, F f) {
  std::memset(g_thread, 0, sizeof g_thread);
  set3(TGSIM_OFF_BLOCK_DIM, bx, by, 1);
  set3(TGSIM_OFF_GRID_DIM, gx, gy, 1);
  set3(TGSIM_OFF_GRID_SIZE, sx, sy, sx ? 1 : 0);
  for (unsigned g = 0; g < gx * gy; ++g)
    for (unsigned t = 0; t < bx * by; ++t) {
      set3(TGSIM_OFF_BLOCK_IDX, g % gx, g / gx, 0);
      set3(TGSIM_OFF_THREAD_IDX, t % bx, t / bx, 0);
      unsigned linear = t;
      std::memcpy(g_thread + TGSIM_OFF_LINEAR_TID, &linear, 4);
      f();
    }
}
}  // namespace

extern "C" void* __tgsim_thread(void) { return g_thread; }
extern "C" void __tgsim_barrier(const void*) { std::abort(); }
extern "C" unsigned long long __tgsim_collective(const void*, int, int, unsigned, unsigned long long, int, int) {
  std::abort();
}
extern "C" unsigned __tgsim_activemask(const void*) { std::abort(); }
extern "C" void* __tgsim_dynamic_shared(void) { std::abort(); }

int main() {
  const unsigned M = 5, K = 7, N = 6;  // not multiples of the 4 x 4 groups
  std::vector<float> A(M * K), B(K * N), C(M * N, -1.0f);
  for (unsigned i = 0; i < M * K; ++i) A[i] = float(i % 5) - 2.0f;
  for (unsigned i = 0; i < K * N; ++i) B[i] = float(i % 3) * 0.5f;
  launch(2, 2, 4, 4, 0, 0, [&] { matmul(A.data(), B.data(), C.data(), M, K, N); });
  bool ok = true;
  for (unsigned r = 0; r < M; ++r)
    for (unsigned c = 0; c < N; ++c) {
      float s = 0;
      for (unsigned k = 0; k < K; ++k) s += A[r * K + k] * B[k * N + c];
      ok = ok && C[r * N + c] == s;
    }
  check(ok, "matmul: C = A x B (uint2 thread_position_in_grid, constant uint& by value)");

  std::vector<float> d = {-1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, -12};
  launch(3, 1, 4, 1, 10, 1, [&] { relu(d.data()); });  // 12 threads, a grid of 10
  check(d[0] == 0 && d[1] == 2 && d[8] == 0 && d[9] == 10, "relu: max(0, x) in the grid");
  check(d[10] == -11 && d[11] == -12, "relu: threads outside a dispatchThreads grid do not run");

  std::vector<float> m(12, 1.0f), bias = {10, 20, 30};
  launch(3, 1, 4, 1, 0, 0, [&] { add_bias(m.data(), bias.data(), 3); });
  check(m[0] == 11 && m[4] == 21 && m[11] == 31, "add_bias: bias[id % N]");

  const unsigned W = 8, H = 8;
  std::vector<uchar4_> in(W * H), out(W * H);
  for (unsigned i = 0; i < W * H; ++i)
    for (int c = 0; c < 4; ++c) in[i].v[c] = (unsigned char)((i * 7 + c * 50) % 256);
  launch(2, 2, 4, 4, 0, 0, [&] { blur_simple(reinterpret_cast<const uchar4*>(in.data()), reinterpret_cast<uchar4*>(out.data()), W, H); });
  ok = true;
  for (unsigned y = 0; y < H; ++y)
    for (unsigned x = 0; x < W; ++x)
      for (int c = 0; c < 4; ++c) {
        unsigned char want = in[y * W + x].v[c];
        if (x > 0 && x < W - 1 && y > 0 && y < H - 1) {
          float s = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) s += float(in[(y + dy) * W + (x + dx)].v[c]) / 9.0f;
          want = (unsigned char)s;
        }
        ok = ok && out[y * W + x].v[c] == want;
      }
  check(ok, "blur_simple: 3x3 mean through uchar4 -> float4 -> uchar4");
  std::printf(g_failures ? "metal run: %d failures\n" : "metal run OK\n", g_failures);
  return g_failures ? 1 : 0;
}
