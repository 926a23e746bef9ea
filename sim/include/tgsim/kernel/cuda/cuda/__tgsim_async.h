// What <cuda/barrier>, <cuda/pipeline>, <cuda_pipeline.h> and cg::memcpy_async share in tgsim's
// front end: cuda::thread_scope, cuda::aligned_size_t, and the asynchronous copy modelled as done
// at issue: the source's loads and the destination's stores, counted as the plain accesses of
// the widest piece (16, 8, 4, 2 or 1 bytes) that the addresses and size allow, as LDGSTS moves
// them; the commits and waits are the points the program orders it by.
#ifndef TGSIM_KERNEL_CUDA_ASYNC_H
#define TGSIM_KERNEL_CUDA_ASYNC_H

#include <cstddef>
#include <cstdint>

namespace cuda {

enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };

template <std::size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment && (Alignment & (Alignment - 1)) == 0, "aligned_size_t: alignment a power of 2");
  static constexpr std::size_t align = Alignment;
  std::size_t value;
  __forceinline__ explicit constexpr aligned_size_t(std::size_t size) : value(size) {}
  __forceinline__ constexpr operator std::size_t() const { return value; }
};

namespace tgsim_detail {
template <class T>
__forceinline__ void copy_as(void* dst, const void* src, std::size_t n) {
  T* d = static_cast<T*>(dst);
  const T* s = static_cast<const T*>(src);
  for (std::size_t i = 0; i < n / sizeof(T); ++i) d[i] = s[i];
}
// The copy, in pieces of the widest width that divides both addresses and the size.
__forceinline__ void async_copy(void* dst, const void* src, std::size_t n) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | n;
  if (a % 16 == 0) copy_as<uint4>(dst, src, n);
  else if (a % 8 == 0) copy_as<uint2>(dst, src, n);
  else if (a % 4 == 0) copy_as<unsigned>(dst, src, n);
  else if (a % 2 == 0) copy_as<unsigned short>(dst, src, n);
  else copy_as<unsigned char>(dst, src, n);
}
// With the alignment the caller promises (aligned_size_t<A>): pieces of min(A, 16) bytes.
template <std::size_t A>
__forceinline__ void async_copy(void* dst, const void* src, aligned_size_t<A> n) {
  if constexpr (A >= 16) copy_as<uint4>(dst, src, n.value);
  else if constexpr (A == 8) copy_as<uint2>(dst, src, n.value);
  else if constexpr (A == 4) copy_as<unsigned>(dst, src, n.value);
  else async_copy(dst, src, n.value);
}
}  // namespace tgsim_detail
}  // namespace cuda

#endif
