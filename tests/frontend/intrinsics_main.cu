// Device intrinsics as public CUDA code uses them (tests/CMakeLists.txt checks the last line):
// clock()/clock64() (tgsim: the thread's count of its reads), the _system and _block atomics,
// the mask-less warp intrinsics of CUDA 8, cooperative_groups::coalesced_threads(), and half /
// bfloat16 pair math. Each CHECK compares with an exact value.
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <ctime>

namespace cg = cooperative_groups;

#include "exact_checks.h"

__global__ void clocks(long long* first, long long* elapsed) {
  const clock_t a = clock();
  const long long b = clock64();
  const long long c = clock64();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  first[i] = a;
  elapsed[i] = c - b;
}

__global__ void scoped_atomics(int* sum, unsigned* wrap, int* lock, int* block_sum) {
  atomicAdd_system(sum, 2);
  atomicInc_system(wrap, 9u);  // counts 0..9, then wraps to 0
  if (atomicCAS_system(lock, 0, 1 + static_cast<int>(threadIdx.x)) == 0) atomicAdd_block(block_sum, 100);
  atomicSub_block(block_sum, 1);
}

__global__ void legacy_warp(int* out) {
  const int lane = threadIdx.x % 32;
  int v = lane;
  for (int d = 16; d > 0; d /= 2) v += __shfl_down(v, d);  // lane 0: 0 + 1 + ... + 31
  const int from5 = __shfl(lane * 10, 5);
  const int swapped = __shfl_xor(lane, 1);
  const unsigned odd = __ballot(lane & 1);
  const int any31 = __any(lane == 31), all_below31 = __all(lane < 31), up2 = __shfl_up(lane, 2);
  if (lane == 0) out[0] = v, out[1] = from5, out[2] = static_cast<int>(odd), out[3] = any31, out[4] = all_below31;
  if (lane == 6) out[5] = swapped;
  if (lane == 3) out[6] = up2;
}

__device__ int append_index(int* counter) {
  auto g = cg::coalesced_threads();
  int base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(counter, static_cast<int>(g.size()));
  return g.shfl(base, 0) + static_cast<int>(g.thread_rank());
}

// Keeps the multiples of 3 of 0..n-1, in any order; also the group's size and ballot at lane 9.
__global__ void compact(int* out, int* count, int n, int* group_info) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 3 == 0) {
    out[append_index(count)] = i;
    auto g = cg::coalesced_threads();
    const unsigned even = g.ballot(threadIdx.x % 2 == 0);
    if (i == 9) group_info[0] = static_cast<int>(g.size()), group_info[1] = static_cast<int>(g.thread_rank()),
                group_info[2] = static_cast<int>(even);
  }
}

__global__ void pair_math(float* out) {
  const half2 a = __floats2half2_rn(3.0f, -1.5f), b = __floats2half2_rn(1.0f, 2.0f);
  const half2 e = h2exp2(a);               // 8, 2^-1.5 = 0.35355 -> half 0.353516
  const half2 gt = __hgt2(a, b);           // 1, 0
  const half2 fl = h2floor(a);             // 3, -2
  out[0] = __low2float(e), out[1] = __high2float(e);
  out[2] = __low2float(gt), out[3] = __high2float(gt);
  out[4] = __low2float(fl), out[5] = __high2float(fl);
  out[6] = static_cast<float>(__half2int_rn(__float2half(2.5f)));  // ties to even: 2
  const __nv_bfloat162 x = __bfloat162bfloat162(__float2bfloat16(1.5f));
  const __nv_bfloat162 d = __hsub2(x, __floats2bfloat162_rn(0.25f, 2.0f));  // 1.25, -0.5
  out[7] = __low2float(d), out[8] = __high2float(d);
  out[9] = static_cast<float>(__bfloat162int_rn(__float2bfloat16(3.5f)));  // ties to even: 4
}

// The operators cuda_fp16.hpp and cuda_bf16.hpp define beside the arithmetic: unary plus (so
// `+__float2half(x) * h` is __half * __half, not ambiguous), the increments, bf16's -=, /=, !=.
__global__ void half_operators(float* out) {
  __half h = __float2half(1.5f);
  const __half p = +__float2half(2.0f) * h;  // 3
  __half post = h++;                         // post 1.5, h 2.5
  --h;                                       // 1.5
  __nv_bfloat16 b = __float2bfloat16(6.0f);
  b -= __float2bfloat16(2.0f);               // 4
  b /= __float2bfloat16(8.0f);               // 0.5
  ++b;                                       // 1.5
  out[0] = __half2float(p), out[1] = __half2float(post), out[2] = __half2float(h);
  out[3] = __bfloat162float(b);
  out[4] = (b != __float2bfloat16(1.5f)) + 2.0f * (b <= __float2bfloat16(1.5f)) + 4.0f * (+b >= b);  // 6
}

// SIMD within a word (bytes: 0x7f, 0x80 = -128, 0x05, 0xfe = -2 against 0x01, 0x01, 0x07, 0x02)
// and the byte dot products, each against its value worked out by hand.
__global__ void simd_words(unsigned* out) {
  const unsigned a = 0xfe05807fu, b = 0x02070101u;
  out[0] = __vmaxs4(a, b);    // max(-2,2)=02 max(5,7)=07 max(-128,1)=01 max(127,1)=7f
  out[1] = __vmaxu4(a, b);    // fe 07 80 7f
  out[2] = __vaddss4(a, b);   // 00 0c 81 7f (127+1 saturates)
  out[3] = __vsub4(a, b);     // fc fe 7f 7e
  out[4] = __vabsss4(a);      // 02 05 7f 7f
  out[5] = __vcmpgts4(a, b);  // 00 00 00 ff
  out[6] = __vsadu4(a, b);    // 252 + 2 + 127 + 126 = 507
  out[7] = static_cast<unsigned>(__dp4a(static_cast<int>(a), static_cast<int>(b), 10));  // 10 - 4 + 35 - 128 + 127 = 40
  out[8] = __vavgu2(0x00030001u, 0x00040002u);  // (3+4+1)>>1 = 4, (1+2+1)>>1 = 2
  out[9] = static_cast<unsigned>(__dp2a_hi(0x0002fffd, 0x05060000, 1));  // -3*6 + 2*5 + 1 = -7
}

// A __half2 moves through a shuffle as its 4 bytes: lane i gets lane i+1's pair.
__global__ void shuffle_pairs(float* out) {
  const int lane = threadIdx.x;
  const half2 mine = make_half2(__float2half(float(lane)), __float2half(-float(lane)));
  const half2 next = __shfl_down_sync(0xFFFFFFFFu, mine, 1);
  if (lane == 4) out[0] = __low2float(next), out[1] = __high2float(next);
}

// 64 threads add to a __half2, to the second __half of a pair, and to a __nv_bfloat162.
__global__ void half_atomics(__half2* h2, __half* h, __nv_bfloat162* b2) {
  atomicAdd(h2, __floats2half2_rn(0.5f, 1.0f));
  atomicAdd(h + 1, __float2half(0.25f));
  atomicAdd(b2, __floats2bfloat162_rn(2.0f, -1.0f));
}

int main() {
  long long *first, *elapsed;
  cudaMallocManaged(&first, 64 * sizeof(long long));
  cudaMallocManaged(&elapsed, 64 * sizeof(long long));
  clocks<<<2, 32>>>(first, elapsed);
  cudaDeviceSynchronize();
  CHECK(first[0] == 1 && first[63] == 1 && elapsed[0] == 1 && elapsed[40] == 1);
  const clock_t host = clock() + std::clock();  // host code keeps the host's clock()
  CHECK(host >= 0);

  int *sum, *lock, *block_sum;
  unsigned* wrap;
  cudaMallocManaged(&sum, sizeof(int));
  cudaMallocManaged(&wrap, sizeof(unsigned));
  cudaMallocManaged(&lock, sizeof(int));
  cudaMallocManaged(&block_sum, sizeof(int));
  *sum = 0, *wrap = 0, *lock = 0, *block_sum = 0;
  scoped_atomics<<<1, 64>>>(sum, wrap, lock, block_sum);
  cudaDeviceSynchronize();
  CHECK(*sum == 128 && *wrap == 64 % 10 && *lock >= 1 && *lock <= 64 && *block_sum == 100 - 64);

  int* w;
  cudaMallocManaged(&w, 8 * sizeof(int));
  legacy_warp<<<1, 32>>>(w);
  cudaDeviceSynchronize();
  CHECK(w[0] == 496 && w[1] == 50 && static_cast<unsigned>(w[2]) == 0xAAAAAAAAu && w[3] == 1 && w[4] == 0);
  CHECK(w[5] == 7 && w[6] == 1);

  const int n = 100;
  int *out, *count, *info;
  cudaMallocManaged(&out, n * sizeof(int));
  cudaMallocManaged(&count, sizeof(int));
  cudaMallocManaged(&info, 3 * sizeof(int));
  *count = 0;
  compact<<<2, 64>>>(out, count, n, info);
  cudaDeviceSynchronize();
  long long total = 0;
  for (int i = 0; i < *count; ++i) total += out[i];
  CHECK(*count == 34 && total == 3 * (33 * 34 / 2));
  // Lanes 0, 3, ..., 30 of warp 0 hold a multiple of 3: 11 lanes, lane 9 is rank 3; the even
  // threadIdx among them (0, 6, 12, ..., 30) are ranks 0, 2, 4, ..., 10.
  CHECK(info[0] == 11 && info[1] == 3 && static_cast<unsigned>(info[2]) == 0x555u);

  float* f;
  cudaMallocManaged(&f, 10 * sizeof(float));
  pair_math<<<1, 1>>>(f);
  cudaDeviceSynchronize();
  CHECK(f[0] == 8.0f && f[1] == float(__float2half(0.35355339f)) && f[2] == 1.0f && f[3] == 0.0f);
  CHECK(f[4] == 3.0f && f[5] == -2.0f && f[6] == 2.0f && f[7] == 1.25f && f[8] == -0.5f && f[9] == 4.0f);
  unsigned* u;
  cudaMallocManaged(&u, 10 * sizeof(unsigned));
  simd_words<<<1, 1>>>(u);
  cudaDeviceSynchronize();
  CHECK(u[0] == 0x0207017fu && u[1] == 0xfe07807fu && u[2] == 0x000c817fu && u[3] == 0xfcfe7f7eu &&
        u[4] == 0x02057f7fu && u[5] == 0x000000ffu && u[6] == 507u && u[7] == 40u && u[8] == 0x00040002u &&
        static_cast<int>(u[9]) == -7);
  cudaFree(u);
  half_operators<<<1, 1>>>(f);
  cudaDeviceSynchronize();
  CHECK(f[0] == 3.0f && f[1] == 1.5f && f[2] == 1.5f && f[3] == 1.5f && f[4] == 6.0f);
  shuffle_pairs<<<1, 32>>>(f);
  cudaDeviceSynchronize();
  CHECK(f[0] == 5.0f && f[1] == -5.0f);
  __half2* h2;
  __half* h;
  __nv_bfloat162* b2;
  cudaMallocManaged(&h2, sizeof(__half2));
  cudaMallocManaged(&h, 2 * sizeof(__half));
  cudaMallocManaged(&b2, sizeof(__nv_bfloat162));
  *h2 = __floats2half2_rn(0.0f, 0.0f);
  h[0] = __float2half(-0.0f), h[1] = __float2half(1.0f);
  *b2 = __floats2bfloat162_rn(0.0f, 0.0f);
  half_atomics<<<2, 32>>>(h2, h, b2);
  cudaDeviceSynchronize();
  CHECK(__low2float(*h2) == 32.0f && __high2float(*h2) == 64.0f);
  CHECK(__half_as_ushort(h[0]) == 0x8000u && float(h[1]) == 17.0f);  // the neighbour keeps -0.0
  CHECK(__low2float(*b2) == 128.0f && __high2float(*b2) == -64.0f);
  CHECK(cudaGetLastError() == cudaSuccess);
  std::printf("intrinsics: %d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}
