// CUB's binary operators (<cub/thread/thread_operators.cuh>), written for tgsim.
#pragma once
#include "../util_type.cuh"

namespace cub {
struct Sum {
  template <class A, class B> __host__ __device__ __forceinline__ auto operator()(const A& a, const B& b) const { return a + b; }
};
struct Max {
  template <class A, class B> __host__ __device__ __forceinline__ auto operator()(const A& a, const B& b) const { return a < b ? b : a; }
};
struct Min {
  template <class A, class B> __host__ __device__ __forceinline__ auto operator()(const A& a, const B& b) const { return b < a ? b : a; }
};
struct Equality {
  template <class A, class B> __host__ __device__ __forceinline__ bool operator()(const A& a, const B& b) const { return a == b; }
};
struct Inequality {
  template <class A, class B> __host__ __device__ __forceinline__ bool operator()(const A& a, const B& b) const { return a != b; }
};
struct Difference {
  template <class A, class B> __host__ __device__ __forceinline__ auto operator()(const A& a, const B& b) const { return a - b; }
};
// Arg ops on KeyValuePair<index, value>: the larger (smaller) value, the lower index on a tie.
struct ArgMax {
  template <class KV> __host__ __device__ __forceinline__ KV operator()(const KV& a, const KV& b) const {
    if ((b.value > a.value) || ((a.value == b.value) && (b.key < a.key))) return b;
    return a;
  }
};
struct ArgMin {
  template <class KV> __host__ __device__ __forceinline__ KV operator()(const KV& a, const KV& b) const {
    if ((b.value < a.value) || ((a.value == b.value) && (b.key < a.key))) return b;
    return a;
  }
};
using CustomSum = Sum;
}  // namespace cub
