// Runs barrier-free seed kernels after the Metal adapter, compiled by clang++-14 without tgsim's
// pass: a stand-in __tgsim_thread() walks the grid one thread at a time (tests/metal_run.sh).
// Checks the position attributes, the parameter order and by-value constants, uchar4/float4
// arithmetic, that a partial grid (dispatchThreads) ends the threads outside it, and what the
// SIMD-group functions, barriers and [[threadgroup(0)]] of tests/metal_simd_probe.metal call.
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
// The stand-in library: records what the probe kernel (tests/metal_simd_probe.metal) asks for.
struct Call { int op, type; unsigned mask; unsigned long long value; int arg, width; };
std::vector<Call> g_calls;
int g_barriers = 0;
// simd_probe's [[threadgroup(0)]] scratch, as the adapter declares it (the pass, not used
// here, would place it in the group's memory).
namespace __tgsim_threadgroup_simd_probe {
thread_local float scratch[4];
}
unsigned g_barrier_flags = ~0u;
extern "C" void __tgsim_metal_barrier(const void* site, unsigned flags) {
  if (site) std::abort();  // the headers pass 0
  ++g_barriers;
  g_barrier_flags = flags;
}
extern "C" unsigned long long __tgsim_collective(const void*, int op, int type, unsigned mask,
                                                 unsigned long long value, int arg, int width) {
  g_calls.push_back({op, type, mask, value, arg, width});
  float three = 3.0f;
  unsigned three_bits;
  std::memcpy(&three_bits, &three, 4);
  return op == TGSIM_BALLOT ? 0x2u : op == TGSIM_REDUCE_MAX ? 31u : three_bits;
}
extern "C" unsigned __tgsim_activemask(const void*) { return 0xfffffffcu; }
void simd_probe(float* out, unsigned* bits);

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
  float probe[3] = {};
  unsigned bits[2] = {9, 9};
  launch(1, 1, 64, 1, 0, 0, [] {});
  unsigned linear = 34;  // lane 2 of SIMD group 1: the first active lane of mask 0xfffffffc
  std::memcpy(g_thread + TGSIM_OFF_LINEAR_TID, &linear, 4);
  simd_probe(probe, bits);
  float f15 = 1.5f, f2 = 2.0f;
  unsigned b15, b2;
  std::memcpy(&b15, &f15, 4);
  std::memcpy(&b2, &f2, 4);
  check(g_calls.size() == 5, "simd probe: four collectives and a simdgroup_barrier");
  if (g_calls.size() >= 4) {
    const Call& s = g_calls[0];
    check(s.op == TGSIM_REDUCE_SUM && s.type == TGSIM_F32 && s.mask == 0xfffffffcu && s.value == b15 && s.width == 32,
          "simd_sum(float): REDUCE_SUM, F32, the active mask, the float's bits");
    check(g_calls[1].op == TGSIM_REDUCE_MAX && g_calls[1].type == TGSIM_I32 && g_calls[1].value == 2,
          "simd_max(int): REDUCE_MAX, I32, the lane");
    check(g_calls[2].op == TGSIM_SHFL_DOWN && g_calls[2].value == b2 && g_calls[2].arg == 3,
          "simd_shuffle_down: SHFL_DOWN with the delta");
    check(g_calls[3].op == TGSIM_BALLOT && g_calls[3].value == 0, "simd_ballot(lane == 1) at lane 2: false");
  }
  check(probe[0] == 3.0f && probe[1] == 31.0f && probe[2] == 3.0f, "simd results come back as their type");
  check(bits[0] == 1 && bits[1] == 1, "simd_vote converts to uint64; simd_is_first at the lowest active lane");
  check(g_barriers == 1 && g_barrier_flags == (TGSIM_METAL_MEM_THREADGROUP | TGSIM_METAL_MEM_DEVICE),
        "threadgroup_barrier(mem_threadgroup | mem_device): one __tgsim_metal_barrier with its flags");
  check(g_calls.size() == 5 && g_calls.back().op == TGSIM_SYNCWARP && g_calls.back().mask == 0xffffffffu,
        "simdgroup_barrier: SYNCWARP, full mask");
  check(__tgsim_threadgroup_simd_probe::scratch[1] == 4.0f, "[[threadgroup(0)]] is the kernel's extern threadgroup array");
  std::printf(g_failures ? "metal run: %d failures\n" : "metal run OK\n", g_failures);
  return g_failures ? 1 : 0;
}
