// <metal_type_traits> as MLX's headers use it: bool_constant as a base and as a tag,
// true_type/false_type overloads, integral_constant, remove_addrspace_t, and Apple's internal
// _disjunction/_conjunction/_negation (MLX's atomic.h, under `#pragma METAL internals`).
#include <metal_stdlib>
#include <metal_type_traits>
using namespace metal;

#pragma METAL internals : enable
template <typename T>
constexpr constant bool is_word = _disjunction<is_same<T, int>, is_same<T, uint>, is_same<T, float>>::value;
template <typename T>
constexpr constant bool is_narrow_int = _conjunction<is_integral<T>, _negation<is_same<T, int>>>::value;
#pragma METAL internals : disable

template <typename T> struct is_tag : metal::bool_constant<__is_empty(T)> {};
struct tag_t {};

template <typename T> T pick(T a, T b, metal::true_type) { return a; }
template <typename T> T pick(T a, T b, metal::false_type) { return b; }

template <typename T, enable_if_t<is_word<T>, bool> = true> int width(T) { return 4; }
template <typename T, enable_if_t<!is_word<T>, bool> = true> int width(T) { return 2; }

[[kernel]] void traits(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  device int* p = out;
  using elem_t = metal::remove_addrspace_t<decltype(*p)>;
  out[i] = i == 0 ? is_word<float> + 2 * is_word<half> + 4 * is_narrow_int<short> + 8 * is_narrow_int<int>
         : i == 1 ? is_tag<tag_t>::value + 2 * is_tag<int2>::value + 4 * metal::integral_constant<int, 5>::value
         : i == 2 ? pick(7, 9, metal::bool_constant<true>{}) * 10 + pick(7, 9, metal::false_type{})
                  : width(1.0f) * 10 + width(short(1)) + 100 * int(is_same_v<elem_t, int&>);
}
