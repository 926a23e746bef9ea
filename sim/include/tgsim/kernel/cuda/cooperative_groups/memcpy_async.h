// <cooperative_groups/memcpy_async.h> for tgsim's front end: cg::memcpy_async(group, dst, src,
// bytes | cuda::aligned_size_t<A>) copies as the group: the group's threads take its pieces
// (16, 8, 4, 2 or 1 bytes, the widest that the addresses, size and alignment allow) in turn by
// thread rank, done at issue (loads of the source, stores of the destination, counted).
// cg::wait(group) and cg::wait_prior<N>(group) are the group's sync(), which orders them.
// The element-count form memcpy_async(group, T* dst, size_t dst_count, const T* src,
// size_t src_count) copies min(dst_count, src_count) elements.
#ifndef TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H

#include <cstddef>
#include <cstdint>

#include "../cooperative_groups.h"
#include "../cuda/__tgsim_async.h"

namespace cooperative_groups {
namespace details {
template <class T, class Group>
__forceinline__ void group_copy_as(const Group& g, void* dst, const void* src, std::size_t n) {
  T* d = static_cast<T*>(dst);
  const T* s = static_cast<const T*>(src);
  const std::size_t r = static_cast<std::size_t>(g.thread_rank()), step = static_cast<std::size_t>(g.size());
  for (std::size_t i = r; i < n / sizeof(T); i += step) d[i] = s[i];
}
template <class Group>
__forceinline__ void group_copy(const Group& g, void* dst, const void* src, std::size_t n, std::size_t align) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | n | align;
  if (a % 16 == 0) group_copy_as<uint4>(g, dst, src, n);
  else if (a % 8 == 0) group_copy_as<uint2>(g, dst, src, n);
  else if (a % 4 == 0) group_copy_as<unsigned>(g, dst, src, n);
  else if (a % 2 == 0) group_copy_as<unsigned short>(g, dst, src, n);
  else group_copy_as<unsigned char>(g, dst, src, n);
}
}  // namespace details

template <class Group>
__forceinline__ void memcpy_async(const Group& g, void* dst, const void* src, std::size_t bytes) {
  details::group_copy(g, dst, src, bytes, 16);
}
template <class Group, std::size_t A>
__forceinline__ void memcpy_async(const Group& g, void* dst, const void* src, cuda::aligned_size_t<A> bytes) {
  details::group_copy(g, dst, src, bytes.value, A);
}
template <class Group, class T>
__forceinline__ void memcpy_async(const Group& g, T* dst, std::size_t dst_count, const T* src, std::size_t src_count) {
  details::group_copy(g, dst, src, (dst_count < src_count ? dst_count : src_count) * sizeof(T), alignof(T));
}

template <class Group>
__forceinline__ void wait(const Group& g) { g.sync(); }
template <unsigned N, class Group>
__forceinline__ void wait_prior(const Group& g) { g.sync(); }

}  // namespace cooperative_groups

#endif
