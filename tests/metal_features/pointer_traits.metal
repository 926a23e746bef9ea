// A class template specialized for each address space, as MLX's steel type_traits.h writes
// pointer_element: the element type of a device, threadgroup, constant or thread pointer.
#include <metal_stdlib>
using namespace metal;

template <typename T> struct element_of {};
template <typename T> struct element_of<thread T*> { using type = remove_cv_t<T>; };
template <typename T> struct element_of<device T*> { using type = remove_cv_t<T>; };
template <typename T> struct element_of<constant T*> { using type = remove_cv_t<T>; };
template <typename T> struct element_of<threadgroup T*> { using type = remove_cv_t<T>; };
template <typename T> using element_of_t = typename element_of<remove_cv_t<T>>::type;

template <typename P> element_of_t<P> first_twice(P p) { return p[0] * element_of_t<P>(2); }

[[kernel]] void pointer_traits(device float* out [[buffer(0)]], const constant int* k [[buffer(1)]],
                               uint i [[thread_position_in_threadgroup]]) {
  threadgroup short tg[4];
  tg[i] = short(i + 1);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  thread float local[1] = {1.5f};
  out[i] = float(first_twice(k)) + float(first_twice(&tg[i])) + first_twice(local) + float(sizeof(element_of_t<threadgroup short*>));
}
