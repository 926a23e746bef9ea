// CUB's <cub/util_type.cuh> for a .cu compiled by tgsim's front end (written for tgsim, not
// NVIDIA's code): the types the collectives and programs name, and the shuffle of any trivially
// copyable value that the warp collectives are built on (one SHFL per 32-bit word, as nvcc
// emits for a struct).
#pragma once
#include "tgsim/kernel/cuda_runtime.h"

#include <cfloat>
#include <climits>
#include <type_traits>

#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#define CUB_QUOTIENT_CEILING(a, b) (((a) + (b) - 1) / (b))
#define CUB_ROUND_UP_NEAREST(a, b) ((((a) + (b) - 1) / (b)) * (b))
#define CUB_PTX_ARCH 900
#define CUB_RUNTIME_FUNCTION
#define CUB_NAMESPACE_BEGIN namespace cub {
#define CUB_NAMESPACE_END }
#ifndef CubDebug
#define CubDebug(e) (e)
#endif
#ifndef CubDebugExit
#define CubDebugExit(e) \
  if ((e) != cudaSuccess) { std::fprintf(stderr, "CUDA error %d at %s:%d\n", int(e), __FILE__, __LINE__); std::exit(1); }
#endif

namespace cub {

struct NullType {};

// A T without its constructors, so a TempStorage holding one can be __shared__.
template <class T>
struct Uninitialized {
  alignas(T) unsigned char storage[sizeof(T)];
  __forceinline__ T& Alias() { return *reinterpret_cast<T*>(storage); }
};

template <class K, class V>
struct KeyValuePair {
  typedef K Key;
  typedef V Value;
  K key;
  V value;
  KeyValuePair() = default;
  __host__ __device__ KeyValuePair(const K& k, const V& v) : key(k), value(v) {}
  __host__ __device__ bool operator!=(const KeyValuePair& b) const { return key != b.key || value != b.value; }
};

enum Category { NOT_A_NUMBER, SIGNED_INTEGER, UNSIGNED_INTEGER, FLOATING_POINT };

// Radix-sort bit twiddling: TwiddleIn maps a key's bits to an unsigned order-preserving form.
template <class T, class U, Category C>
struct BaseTraits {
  typedef U UnsignedBits;
  static constexpr Category CATEGORY = C;
  static constexpr bool PRIMITIVE = true, NULL_TYPE = false;
  static constexpr U HIGH_BIT = U(1) << (sizeof(U) * 8 - 1);
  static constexpr U LOWEST_KEY = C == FLOATING_POINT ? U(~HIGH_BIT) : C == SIGNED_INTEGER ? HIGH_BIT : U(0);
  static constexpr U MAX_KEY = C == FLOATING_POINT ? U(~HIGH_BIT) : C == SIGNED_INTEGER ? U(~HIGH_BIT) : U(~U(0));
  __host__ __device__ static U TwiddleIn(U k) {
    if constexpr (C == FLOATING_POINT) return k ^ ((k & HIGH_BIT) ? U(~U(0)) : HIGH_BIT);
    else if constexpr (C == SIGNED_INTEGER) return k ^ HIGH_BIT;
    else return k;
  }
  __host__ __device__ static U TwiddleOut(U k) {
    if constexpr (C == FLOATING_POINT) return k ^ ((k & HIGH_BIT) ? HIGH_BIT : U(~U(0)));
    else if constexpr (C == SIGNED_INTEGER) return k ^ HIGH_BIT;
    else return k;
  }
  __host__ __device__ static T Max() {
    if constexpr (C == FLOATING_POINT) return sizeof(T) == 4 ? T(FLT_MAX) : T(DBL_MAX);
    else return ~T(0) < T(0) ? T(~HIGH_BIT) : T(~T(0));
  }
  __host__ __device__ static T Lowest() {
    if constexpr (C == FLOATING_POINT) return sizeof(T) == 4 ? T(-FLT_MAX) : T(-DBL_MAX);
    else return ~T(0) < T(0) ? T(HIGH_BIT) : T(0);
  }
};

template <class T> struct Traits {
  typedef T UnsignedBits;
  static constexpr Category CATEGORY = NOT_A_NUMBER;
  static constexpr bool PRIMITIVE = false, NULL_TYPE = false;
};
template <> struct Traits<char> : BaseTraits<char, unsigned char, (char(-1) < 0) ? SIGNED_INTEGER : UNSIGNED_INTEGER> {};
template <> struct Traits<signed char> : BaseTraits<signed char, unsigned char, SIGNED_INTEGER> {};
template <> struct Traits<short> : BaseTraits<short, unsigned short, SIGNED_INTEGER> {};
template <> struct Traits<int> : BaseTraits<int, unsigned, SIGNED_INTEGER> {};
template <> struct Traits<long> : BaseTraits<long, unsigned long, SIGNED_INTEGER> {};
template <> struct Traits<long long> : BaseTraits<long long, unsigned long long, SIGNED_INTEGER> {};
template <> struct Traits<unsigned char> : BaseTraits<unsigned char, unsigned char, UNSIGNED_INTEGER> {};
template <> struct Traits<unsigned short> : BaseTraits<unsigned short, unsigned short, UNSIGNED_INTEGER> {};
template <> struct Traits<unsigned> : BaseTraits<unsigned, unsigned, UNSIGNED_INTEGER> {};
template <> struct Traits<unsigned long> : BaseTraits<unsigned long, unsigned long, UNSIGNED_INTEGER> {};
template <> struct Traits<unsigned long long> : BaseTraits<unsigned long long, unsigned long long, UNSIGNED_INTEGER> {};
template <> struct Traits<float> : BaseTraits<float, unsigned, FLOATING_POINT> {};
template <> struct Traits<double> : BaseTraits<double, unsigned long long, FLOATING_POINT> {};
template <> struct Traits<bool> : BaseTraits<bool, unsigned char, UNSIGNED_INTEGER> {};
template <class T> struct NumericTraits : Traits<T> {};

template <int N> struct PowerOfTwo { static constexpr bool VALUE = N > 0 && (N & (N - 1)) == 0; };
template <int N, int B = 2> struct Log2 { static constexpr int VALUE = N <= 1 ? 0 : 1 + Log2<(N + 1) / 2>::VALUE; };
template <int B> struct Log2<1, B> { static constexpr int VALUE = 0; };
template <int B> struct Log2<0, B> { static constexpr int VALUE = 0; };

__forceinline__ unsigned LaneId() { return __laneid(); }
__forceinline__ unsigned WarpId() { return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32; }
__forceinline__ int RowMajorTid(int bx, int by, int bz) {
  return (bz == 1 ? 0 : threadIdx.z * bx * by) + (by == 1 ? 0 : threadIdx.y * bx) + threadIdx.x;
}

}  // namespace cub

namespace tgsim_cub {
// The running thread's index in its block (x fastest).
__forceinline__ unsigned linear_tid() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
// The lanes of this thread's warp that exist (a block of 48 has a warp of 16 lanes).
__forceinline__ unsigned warp_lanes_mask() {
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z, base = linear_tid() & ~31u;
  const unsigned n = threads - base;
  return n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
}
// Shuffles of any trivially copyable value: one SHFL per 32-bit word.
template <int OP, class T>
__forceinline__ T shfl_words(unsigned mask, const T& v, int arg, int width) {
  static_assert(std::is_trivially_copyable_v<T>, "tgsim: cub shuffles trivially copyable types");
  constexpr int W = (sizeof(T) + 3) / 4;
  unsigned in[W] = {}, out[W];
  __builtin_memcpy(in, &v, sizeof(T));
  for (int i = 0; i < W; ++i) {
    if constexpr (OP == 0) out[i] = __shfl_sync(mask, in[i], arg, width);
    else if constexpr (OP == 1) out[i] = __shfl_up_sync(mask, in[i], static_cast<unsigned>(arg), width);
    else out[i] = __shfl_down_sync(mask, in[i], static_cast<unsigned>(arg), width);
  }
  T r;
  __builtin_memcpy(&r, out, sizeof(T));
  return r;
}
template <class T> __forceinline__ T shfl_idx(unsigned m, const T& v, int src, int w) { return shfl_words<0>(m, v, src, w); }
template <class T> __forceinline__ T shfl_up(unsigned m, const T& v, int d, int w) { return shfl_words<1>(m, v, d, w); }
template <class T> __forceinline__ T shfl_down(unsigned m, const T& v, int d, int w) { return shfl_words<2>(m, v, d, w); }
}  // namespace tgsim_cub
