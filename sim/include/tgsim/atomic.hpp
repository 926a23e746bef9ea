// Atomics on global and shared memory: atomicAdd, atomicMax, atomicMin, atomicExch, atomicCAS
// (and Metal's atomic_fetch_add_explicit). `&a[i]` of a buffer or shared array is the address
// they take, as in CUDA. Each is a real atomic on the host (std::atomic_ref), so groups on
// different workers update one word correctly; each counts as one access of its own kind
// (counters.global.atomic / counters.shared.atomic) and atomics never race with each other.
#pragma once
#include <atomic>
#include <source_location>

#include <tgsim/memory.hpp>

namespace tgsim {

namespace detail {

template <class T, class Op>
T atomic_rmw(T* p, std::uint64_t addr, AccessKind kind, const T& operand, const std::source_location& loc,
             Op op) {
  if (!p) return T{};
  record_store(current_thread(), loc, kind, addr, sizeof(T), &operand);  // an atomic writes
  return op(std::atomic_ref<T>(*p));
}

template <class T, class Op>
T rmw(global_addr<T> a, const T& operand, const std::source_location& loc, Op op) {
  return atomic_rmw(a.p, reinterpret_cast<std::uintptr_t>(a.p), AccessKind::kGlobalAtomic, operand, loc, op);
}
template <class T, class Op>
T rmw(shared_addr<T> a, const T& operand, const std::source_location& loc, Op op) {
  return atomic_rmw(a.p, a.offset, AccessKind::kSharedAtomic, operand, loc, op);
}

template <class T, class Pick>
T cas_loop(std::atomic_ref<T> r, T v, Pick pick) {
  T old = r.load(std::memory_order_relaxed);
  while (!r.compare_exchange_weak(old, pick(old, v), std::memory_order_relaxed)) {
  }
  return old;
}

}  // namespace detail

#define TGSIM_LOC std::source_location loc = std::source_location::current()

// A is global_addr<T> or shared_addr<T>; each returns the old value.
template <template <class> class A, class T>
T atomic_add(A<T> a, T v, TGSIM_LOC) {
  return detail::rmw(a, v, loc, [&](std::atomic_ref<T> r) { return r.fetch_add(v, std::memory_order_relaxed); });
}
template <template <class> class A, class T>
T atomic_sub(A<T> a, T v, TGSIM_LOC) {
  return detail::rmw(a, v, loc, [&](std::atomic_ref<T> r) { return r.fetch_sub(v, std::memory_order_relaxed); });
}
template <template <class> class A, class T>
T atomic_max(A<T> a, T v, TGSIM_LOC) {
  return detail::rmw(a, v, loc, [&](std::atomic_ref<T> r) {
    return detail::cas_loop(r, v, [](T o, T x) { return x > o ? x : o; });
  });
}
template <template <class> class A, class T>
T atomic_min(A<T> a, T v, TGSIM_LOC) {
  return detail::rmw(a, v, loc, [&](std::atomic_ref<T> r) {
    return detail::cas_loop(r, v, [](T o, T x) { return x < o ? x : o; });
  });
}
template <template <class> class A, class T>
T atomic_exch(A<T> a, T v, TGSIM_LOC) {
  return detail::rmw(a, v, loc, [&](std::atomic_ref<T> r) { return r.exchange(v, std::memory_order_relaxed); });
}
template <template <class> class A, class T>
T atomic_cas(A<T> a, T compare, T v, TGSIM_LOC) {
  return detail::rmw(a, v, loc, [&](std::atomic_ref<T> r) {
    T expected = compare;
    r.compare_exchange_strong(expected, v, std::memory_order_relaxed);
    return expected;  // the old value, whether or not it was replaced
  });
}

#undef TGSIM_LOC

}  // namespace tgsim
