// CUDA as a kernel file is written, for a .cu compiled by tgsim's front end (Clang and tgsim's
// pass; `tgsim run FILE.cu`, tgsim_add_cuda_library): force-included before the user's code.
// The qualifiers become attributes the pass reads (__global__ marks a kernel, __shared__ is a
// thread_local the pass moves into the group's shared memory, __constant__ marks constant
// memory); the built-in variables read the running thread; synchronisation, warp intrinsics and
// atomics call the library (abi.h). The host API (cudaMalloc, <<<...>>> through
// tgsim_cuda_launch) is in cuda_host.h; half types in cuda/cuda_fp16.h; textures in cuda_texture.h.
#ifndef TGSIM_KERNEL_CUDA_RUNTIME_H
#define TGSIM_KERNEL_CUDA_RUNTIME_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <time.h>
// libstdc++ writes __attribute__((__noinline__)) (shared_ptr_base.h): included before the macro
// below, as nvcc's own headers arrange, so a program's later #include <memory> is unaffected.
#include <memory>

#include "abi.h"
#include "count_mode.h"
#include "cuda_math.h"
#include "cuda_vector_types.h"

#define __global__ __attribute__((annotate("tgsim_kernel"), noinline))
#define __device__ __attribute__((annotate("tgsim_device")))
#define __host__
#define __shared__ thread_local
#define __constant__ __attribute__((annotate("tgsim_constant")))
#define __managed__ __attribute__((annotate("tgsim_managed")))  // device memory, host code names it too
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#define __CUDA_ARCH__ 900
#define __TGSIM__ 1
// What nvcc defines, as programs test it (`#ifdef __CUDACC__`, CUDART_VERSION: cuda_driver_types.h).
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 4
#define __CUDACC_VER_BUILD__ 0
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif

namespace tgsim_cuda {
inline const char* thread_field(unsigned off) {
  return static_cast<const char*>(__tgsim_thread()) + off;
}
}  // namespace tgsim_cuda

// The built-in variables are objects, not macros, so host code may name its own `dim3 gridDim`
// or `blockDim` (a local shadows them, as with nvcc): each member reads the running thread's
// field through a property (Clang's __declspec(property), -fdeclspec), as Clang's CUDA headers do.
namespace tgsim_cuda {
template <class V, unsigned Off>
struct BuiltinVar {
  static __forceinline__ unsigned get_x() { return reinterpret_cast<const V*>(thread_field(Off))->x; }
  static __forceinline__ unsigned get_y() { return reinterpret_cast<const V*>(thread_field(Off))->y; }
  static __forceinline__ unsigned get_z() { return reinterpret_cast<const V*>(thread_field(Off))->z; }
  __declspec(property(get = get_x)) unsigned x;
  __declspec(property(get = get_y)) unsigned y;
  __declspec(property(get = get_z)) unsigned z;
  __forceinline__ operator V() const { return *reinterpret_cast<const V*>(thread_field(Off)); }
  BuiltinVar() = default;
  BuiltinVar(const BuiltinVar&) = delete;
  BuiltinVar& operator=(const BuiltinVar&) = delete;
};
}  // namespace tgsim_cuda
static constexpr ::tgsim_cuda::BuiltinVar<uint3, TGSIM_OFF_THREAD_IDX> threadIdx{};
static constexpr ::tgsim_cuda::BuiltinVar<uint3, TGSIM_OFF_BLOCK_IDX> blockIdx{};
static constexpr ::tgsim_cuda::BuiltinVar<dim3, TGSIM_OFF_BLOCK_DIM> blockDim{};
static constexpr ::tgsim_cuda::BuiltinVar<dim3, TGSIM_OFF_GRID_DIM> gridDim{};
static constexpr int warpSize = 32;

// ------------------------------------------------------------------ synchronisation

__forceinline__ void __syncthreads() { __tgsim_barrier(0); }
__forceinline__ int __syncthreads_count(int p) { return __tgsim_barrier_reduce(0, 0, p); }
__forceinline__ int __syncthreads_and(int p) { return __tgsim_barrier_reduce(0, 1, p); }
__forceinline__ int __syncthreads_or(int p) { return __tgsim_barrier_reduce(0, 2, p); }
__forceinline__ void __threadfence_block() { __tgsim_fence(0, 0); }
__forceinline__ void __threadfence() { __tgsim_fence(0, 1); }
__forceinline__ void __threadfence_system() { __tgsim_fence(0, 2); }
__forceinline__ void __syncwarp(unsigned mask = 0xFFFFFFFFu) {
  __tgsim_collective(0, TGSIM_SYNCWARP, TGSIM_U32, mask, 0, 0, 32);
}

// A trap ends the thread with a finding and fails the launch (the library: sim/src/frontend/faults.cpp;
// asm("trap;"), asm("brkpt;"), assert() and abort() are rewritten by the pass, faults.cpp).
__forceinline__ void __trap() { __tgsim_trap(0, 0); }
__forceinline__ void __brkpt() { __tgsim_trap(0, 2); }

// ------------------------------------------------------------------ clocks

// clock64() and clock() in a kernel: the thread's count of its own reads in this block (1, 2,
// ...): deterministic and increasing, not cycles (abi.h). clock() in host code stays the host's
// clock() (<ctime> is included above, so its declaration is unaffected by the macro).
// __nanosleep(ns): a wait loop's pause; the thread lets the others of its block run first.
__forceinline__ void __nanosleep(unsigned) { __tgsim_yield(0); }
__forceinline__ long long int clock64() { return static_cast<long long int>(__tgsim_clock(0)); }
__forceinline__ clock_t tgsim_cuda_clock() { return static_cast<clock_t>(__tgsim_clock(0)); }
namespace std {
using ::tgsim_cuda_clock;
}
#define clock() tgsim_cuda_clock()

// ------------------------------------------------------------------ warp intrinsics

namespace tgsim_cuda {
template <class T> constexpr int value_type() {
  // A struct (__half2, a pair of shorts) moves as its bits: one word, or two for 8 bytes.
  if constexpr (!std::is_arithmetic_v<T>) return sizeof(T) == 8 ? TGSIM_U64 : TGSIM_U32;
  else if constexpr (sizeof(T) == 8) return (T(-1) < T(0)) ? (T(0.5) != T(0) ? TGSIM_F64 : TGSIM_I64) : TGSIM_U64;
  else return (T(-1) < T(0)) ? (T(0.5) != T(0) ? TGSIM_F32 : TGSIM_I32) : TGSIM_U32;
}
template <class T> __forceinline__ unsigned long long bits(T v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 2 || sizeof(T) == 1,
                "tgsim: warp intrinsics move 1- to 8-byte values");
  unsigned long long b = 0;
  __builtin_memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T> __forceinline__ T from_bits(unsigned long long b) {
  T v;
  __builtin_memcpy(&v, &b, sizeof(T));
  return v;
}
// A value wider than 8 bytes (a uint4, a struct of any trivially copyable type) moves as 8-byte
// pieces and a last piece of at most 4 bytes: one SHFL per 32-bit word, as nvcc splits it.
template <class T> __forceinline__ T shfl(int op, unsigned mask, T v, int arg, int width) {
  if constexpr (sizeof(T) <= 8) {
    return from_bits<T>(__tgsim_collective(0, op, value_type<T>(), mask, bits(v), arg, width));
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "tgsim: a shuffled value must be trivially copyable");
    T out = v;
    unsigned char* p = reinterpret_cast<unsigned char*>(&out);
    for (std::size_t o = 0; o < sizeof(T); o += 8) {
      const std::size_t n = sizeof(T) - o < 8 ? sizeof(T) - o : 8;
      unsigned long long w = 0;
      __builtin_memcpy(&w, p + o, n);
      w = __tgsim_collective(0, op, n > 4 ? TGSIM_U64 : TGSIM_U32, mask, w, arg, width);
      __builtin_memcpy(p + o, &w, n);
    }
    return out;
  }
}
}  // namespace tgsim_cuda

template <class T> __forceinline__ T __shfl_sync(unsigned mask, T v, int src, int width = warpSize) {
  return tgsim_cuda::shfl(TGSIM_SHFL_IDX, mask, v, src, width);
}
template <class T> __forceinline__ T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = warpSize) {
  return tgsim_cuda::shfl(TGSIM_SHFL_UP, mask, v, static_cast<int>(d), width);
}
template <class T> __forceinline__ T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = warpSize) {
  return tgsim_cuda::shfl(TGSIM_SHFL_DOWN, mask, v, static_cast<int>(d), width);
}
template <class T> __forceinline__ T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = warpSize) {
  return tgsim_cuda::shfl(TGSIM_SHFL_XOR, mask, v, lane_mask, width);
}
__forceinline__ unsigned __ballot_sync(unsigned mask, int p) {
  return static_cast<unsigned>(__tgsim_collective(0, TGSIM_BALLOT, TGSIM_U32, mask, p != 0, 0, 32));
}
__forceinline__ int __any_sync(unsigned mask, int p) {
  return static_cast<int>(__tgsim_collective(0, TGSIM_ANY, TGSIM_U32, mask, p != 0, 0, 32));
}
__forceinline__ int __all_sync(unsigned mask, int p) {
  return static_cast<int>(__tgsim_collective(0, TGSIM_ALL, TGSIM_U32, mask, p != 0, 0, 32));
}
__forceinline__ unsigned __activemask() { return __tgsim_activemask(0); }
// Address-space conversions: one memory here, so an address is its own; a shared-window address
// is the generic one, of which inline PTX's .shared operands read the low 32 bits (ptx_ops.cpp).
__forceinline__ size_t __cvta_generic_to_shared(const void* p) { return reinterpret_cast<size_t>(p); }
__forceinline__ size_t __cvta_generic_to_global(const void* p) { return reinterpret_cast<size_t>(p); }
// The pre-CUDA 9 forms without a mask (removed for sm_70 and later): the lanes active here.
template <class T> __forceinline__ T __shfl(T v, int src, int width = warpSize) {
  return tgsim_cuda::shfl(TGSIM_SHFL_IDX, __activemask(), v, src, width);
}
template <class T> __forceinline__ T __shfl_up(T v, unsigned d, int width = warpSize) {
  return tgsim_cuda::shfl(TGSIM_SHFL_UP, __activemask(), v, static_cast<int>(d), width);
}
template <class T> __forceinline__ T __shfl_down(T v, unsigned d, int width = warpSize) {
  return tgsim_cuda::shfl(TGSIM_SHFL_DOWN, __activemask(), v, static_cast<int>(d), width);
}
template <class T> __forceinline__ T __shfl_xor(T v, int lane_mask, int width = warpSize) {
  return tgsim_cuda::shfl(TGSIM_SHFL_XOR, __activemask(), v, lane_mask, width);
}
__forceinline__ unsigned __ballot(int p) { return __ballot_sync(__activemask(), p); }
__forceinline__ int __any(int p) { return __any_sync(__activemask(), p); }
__forceinline__ int __all(int p) { return __all_sync(__activemask(), p); }
template <class T> __forceinline__ unsigned __match_any_sync(unsigned mask, T v) {
  return static_cast<unsigned>(__tgsim_collective(0, TGSIM_MATCH_ANY, tgsim_cuda::value_type<T>(), mask,
                                                  tgsim_cuda::bits(v), 0, 32));
}
__forceinline__ unsigned __reduce_add_sync(unsigned mask, unsigned v) {
  return static_cast<unsigned>(__tgsim_collective(0, TGSIM_REDUCE_SUM, TGSIM_U32, mask, v, 0, 32));
}
__forceinline__ int __reduce_add_sync(unsigned mask, int v) {
  return tgsim_cuda::from_bits<int>(__tgsim_collective(0, TGSIM_REDUCE_SUM, TGSIM_I32, mask, tgsim_cuda::bits(v), 0, 32));
}
__forceinline__ unsigned __reduce_max_sync(unsigned mask, unsigned v) {
  return static_cast<unsigned>(__tgsim_collective(0, TGSIM_REDUCE_MAX, TGSIM_U32, mask, v, 0, 32));
}
__forceinline__ unsigned __reduce_min_sync(unsigned mask, unsigned v) {
  return static_cast<unsigned>(__tgsim_collective(0, TGSIM_REDUCE_MIN, TGSIM_U32, mask, v, 0, 32));
}
__forceinline__ unsigned __lanemask_lt() {
  return (1u << (*reinterpret_cast<const unsigned*>(tgsim_cuda::thread_field(TGSIM_OFF_LINEAR_TID)) % 32)) - 1u;
}
__forceinline__ unsigned __laneid() {
  return *reinterpret_cast<const unsigned*>(tgsim_cuda::thread_field(TGSIM_OFF_LINEAR_TID)) % 32;
}

// ------------------------------------------------------------------ atomics

namespace tgsim_cuda {
template <class T> __forceinline__ T atomic(int op, T* p, T v, T cmp = T()) {
  return from_bits<T>(__tgsim_atomic(0, op, value_type<T>(), const_cast<void*>(static_cast<const volatile void*>(p)),
                                     bits(v), bits(cmp)));
}
}  // namespace tgsim_cuda

// The _system scope: one memory and one device, so the device-scope atomic. The _block scope:
// the same operation, marked so that the checker orders nothing by it between blocks and
// reports two blocks' atomics of one word as a race (an atomic only inside its block).
#define TGSIM_ATOMIC_SCOPES(name, op)                                                             \
  template <class T, class V> __forceinline__ T name##_block(T* p, V v) {                        \
    if constexpr (std::is_arithmetic_v<T>)                                                       \
      return tgsim_cuda::atomic<T>(op | TGSIM_ATOMIC_BLOCK_SCOPE, p, static_cast<T>(v));          \
    else                                                                                         \
      return name(p, v);                                                                         \
  }                                                                                              \
  template <class T, class V> __forceinline__ T name##_system(T* p, V v) { return name(p, v); }
#define TGSIM_ATOMIC(name, op, T)                                                                      \
  __forceinline__ T name(T* p, T v) { return tgsim_cuda::atomic<T>(op, p, v); }
#define TGSIM_ATOMIC_INTS(name, op)                                 \
  TGSIM_ATOMIC(name, op, int)                                       \
  TGSIM_ATOMIC(name, op, unsigned int)                              \
  TGSIM_ATOMIC(name, op, unsigned long long int)                    \
  TGSIM_ATOMIC(name, op, long long int)

TGSIM_ATOMIC_INTS(atomicAdd, TGSIM_ATOMIC_ADD)
TGSIM_ATOMIC(atomicAdd, TGSIM_ATOMIC_ADD, float)
TGSIM_ATOMIC(atomicAdd, TGSIM_ATOMIC_ADD, double)
TGSIM_ATOMIC(atomicSub, TGSIM_ATOMIC_SUB, int)
TGSIM_ATOMIC(atomicSub, TGSIM_ATOMIC_SUB, unsigned int)
TGSIM_ATOMIC_INTS(atomicExch, TGSIM_ATOMIC_EXCH)
TGSIM_ATOMIC(atomicExch, TGSIM_ATOMIC_EXCH, float)
TGSIM_ATOMIC_INTS(atomicMin, TGSIM_ATOMIC_MIN)
TGSIM_ATOMIC_INTS(atomicMax, TGSIM_ATOMIC_MAX)
TGSIM_ATOMIC(atomicInc, TGSIM_ATOMIC_INC, unsigned int)
TGSIM_ATOMIC(atomicDec, TGSIM_ATOMIC_DEC, unsigned int)
TGSIM_ATOMIC_INTS(atomicAnd, TGSIM_ATOMIC_AND)
TGSIM_ATOMIC_INTS(atomicOr, TGSIM_ATOMIC_OR)
TGSIM_ATOMIC_INTS(atomicXor, TGSIM_ATOMIC_XOR)
#undef TGSIM_ATOMIC
#undef TGSIM_ATOMIC_INTS
__forceinline__ int atomicCAS(int* p, int cmp, int v) { return tgsim_cuda::atomic<int>(TGSIM_ATOMIC_CAS, p, v, cmp); }
__forceinline__ unsigned int atomicCAS(unsigned int* p, unsigned int cmp, unsigned int v) {
  return tgsim_cuda::atomic<unsigned int>(TGSIM_ATOMIC_CAS, p, v, cmp);
}
__forceinline__ unsigned long long int atomicCAS(unsigned long long int* p, unsigned long long int cmp,
                                                 unsigned long long int v) {
  return tgsim_cuda::atomic<unsigned long long int>(TGSIM_ATOMIC_CAS, p, v, cmp);
}
TGSIM_ATOMIC_SCOPES(atomicAdd, TGSIM_ATOMIC_ADD)
TGSIM_ATOMIC_SCOPES(atomicSub, TGSIM_ATOMIC_SUB)
TGSIM_ATOMIC_SCOPES(atomicExch, TGSIM_ATOMIC_EXCH)
TGSIM_ATOMIC_SCOPES(atomicMin, TGSIM_ATOMIC_MIN)
TGSIM_ATOMIC_SCOPES(atomicMax, TGSIM_ATOMIC_MAX)
TGSIM_ATOMIC_SCOPES(atomicAnd, TGSIM_ATOMIC_AND)
TGSIM_ATOMIC_SCOPES(atomicOr, TGSIM_ATOMIC_OR)
TGSIM_ATOMIC_SCOPES(atomicXor, TGSIM_ATOMIC_XOR)
TGSIM_ATOMIC_SCOPES(atomicInc, TGSIM_ATOMIC_INC)
TGSIM_ATOMIC_SCOPES(atomicDec, TGSIM_ATOMIC_DEC)
template <class T, class C, class V> __forceinline__ T atomicCAS_block(T* p, C cmp, V v) {
  return tgsim_cuda::atomic<T>(TGSIM_ATOMIC_CAS | TGSIM_ATOMIC_BLOCK_SCOPE, p, static_cast<T>(v), static_cast<T>(cmp));
}
template <class T, class C, class V> __forceinline__ T atomicCAS_system(T* p, C cmp, V v) { return atomicCAS(p, cmp, v); }
#undef TGSIM_ATOMIC_SCOPES

// ------------------------------------------------------------------ memory

// extern __shared__ arrays start here too (a Metal threadgroup pointer parameter).
extern "C" void* __tgsim_dynamic_shared(void);

#include "cuda_host.h"
#include "cuda_texture.h"

#endif
