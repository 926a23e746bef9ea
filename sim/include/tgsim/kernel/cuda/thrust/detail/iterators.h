// Thrust's fancy iterators, written for tgsim: counting, constant, transform, permutation,
// zip (dereferences to a tuple of references, writable and swappable) and discard. Each is a random-access
// iterator over a base position, usable by the algorithms (on the host) and in device code.
#pragma once
#include "core.h"

namespace thrust {
// CRTP base: D provides deref(), advance(n) and distance_from(other).
template <class D, class V, class R = V>
struct tgsim_iterator {
  typedef V value_type;
  typedef R reference;
  typedef std::ptrdiff_t difference_type;
  typedef void pointer;
  typedef std::random_access_iterator_tag iterator_category;
  __host__ __device__ R operator*() const { return self().deref(); }
  __host__ __device__ R operator[](difference_type n) const { return (self() + n).deref(); }
  __host__ __device__ D operator+(difference_type n) const { D d = self(); d.advance(n); return d; }
  __host__ __device__ D operator-(difference_type n) const { D d = self(); d.advance(-n); return d; }
  __host__ __device__ difference_type operator-(const D& o) const { return self().distance_from(o); }
  __host__ __device__ D& operator+=(difference_type n) { me().advance(n); return me(); }
  __host__ __device__ D& operator-=(difference_type n) { me().advance(-n); return me(); }
  __host__ __device__ D& operator++() { me().advance(1); return me(); }
  __host__ __device__ D operator++(int) { D d = self(); me().advance(1); return d; }
  __host__ __device__ D& operator--() { me().advance(-1); return me(); }
  __host__ __device__ D operator--(int) { D d = self(); me().advance(-1); return d; }
  __host__ __device__ bool operator==(const D& o) const { return (*this - o) == 0; }
  __host__ __device__ bool operator!=(const D& o) const { return (*this - o) != 0; }
  __host__ __device__ bool operator<(const D& o) const { return (*this - o) < 0; }
  __host__ __device__ bool operator>(const D& o) const { return (*this - o) > 0; }
  __host__ __device__ bool operator<=(const D& o) const { return (*this - o) <= 0; }
  __host__ __device__ bool operator>=(const D& o) const { return (*this - o) >= 0; }

 private:
  __host__ __device__ const D& self() const { return static_cast<const D&>(*this); }
  __host__ __device__ D& me() { return static_cast<D&>(*this); }
};

template <class T, class S = void, class Tr = void, class Diff = std::ptrdiff_t>
struct counting_iterator : tgsim_iterator<counting_iterator<T, S, Tr, Diff>, T> {
  T value{};
  counting_iterator() = default;
  __host__ __device__ counting_iterator(T v) : value(v) {}
  __host__ __device__ T deref() const { return value; }
  __host__ __device__ void advance(std::ptrdiff_t n) { value = static_cast<T>(value + n); }
  __host__ __device__ std::ptrdiff_t distance_from(const counting_iterator& o) const {
    return static_cast<std::ptrdiff_t>(value) - static_cast<std::ptrdiff_t>(o.value);
  }
};
template <class T> __host__ __device__ counting_iterator<T> make_counting_iterator(T v) { return counting_iterator<T>(v); }

template <class T, class I = std::ptrdiff_t, class S = void>
struct constant_iterator : tgsim_iterator<constant_iterator<T, I, S>, T> {
  T value{};
  std::ptrdiff_t pos = 0;
  constant_iterator() = default;
  __host__ __device__ constant_iterator(T v, std::ptrdiff_t p = 0) : value(v), pos(p) {}
  __host__ __device__ T deref() const { return value; }
  __host__ __device__ void advance(std::ptrdiff_t n) { pos += n; }
  __host__ __device__ std::ptrdiff_t distance_from(const constant_iterator& o) const { return pos - o.pos; }
};
template <class T> __host__ __device__ constant_iterator<T> make_constant_iterator(T v, std::ptrdiff_t p = 0) {
  return constant_iterator<T>(v, p);
}

template <class F, class It, class R = void, class V = void>
struct transform_iterator
    : tgsim_iterator<transform_iterator<F, It, R, V>,
                     std::decay_t<std::invoke_result_t<F, typename std::iterator_traits<It>::reference>>> {
  It it;
  F f;
  transform_iterator() = default;
  __host__ __device__ transform_iterator(It i, F fn) : it(i), f(fn) {}
  __host__ __device__ auto deref() const { return f(*it); }
  __host__ __device__ void advance(std::ptrdiff_t n) { it += n; }
  __host__ __device__ std::ptrdiff_t distance_from(const transform_iterator& o) const { return it - o.it; }
  __host__ __device__ std::ptrdiff_t operator-(const transform_iterator& o) const { return it - o.it; }
  __host__ __device__ bool operator==(const transform_iterator& o) const { return it == o.it; }
  __host__ __device__ bool operator!=(const transform_iterator& o) const { return !(it == o.it); }
  __host__ __device__ It base() const { return it; }
};
template <class F, class It> __host__ __device__ transform_iterator<F, It> make_transform_iterator(It i, F f) {
  return transform_iterator<F, It>(i, f);
}

template <class E, class I>
struct permutation_iterator
    : tgsim_iterator<permutation_iterator<E, I>, typename std::iterator_traits<E>::value_type,
                     typename std::iterator_traits<E>::reference> {
  E elements;
  I index;
  permutation_iterator() = default;
  __host__ __device__ permutation_iterator(E e, I i) : elements(e), index(i) {}
  __host__ __device__ decltype(auto) deref() const { return elements[*index]; }
  __host__ __device__ void advance(std::ptrdiff_t n) { index += n; }
  __host__ __device__ std::ptrdiff_t distance_from(const permutation_iterator& o) const { return index - o.index; }
};
template <class E, class I> __host__ __device__ permutation_iterator<E, I> make_permutation_iterator(E e, I i) {
  return permutation_iterator<E, I>(e, i);
}

// A zip iterator's element: the tuple of its iterators' references. Assigning a tuple (or
// another element) writes through them; swap() exchanges the values, so algorithms that move
// and swap elements (sort, by-key scans into zipped outputs) work through it.
template <class... R>
struct zip_reference : tuple<R...> {
  using base = tuple<R...>;
  using base::base;
  __host__ __device__ zip_reference(const zip_reference&) = default;
  __host__ __device__ zip_reference& operator=(const zip_reference& o) {
    base::operator=(static_cast<const base&>(o));
    return *this;
  }
  template <class T> __host__ __device__ zip_reference& operator=(T&& t) {
    base::operator=(std::forward<T>(t));
    return *this;
  }
  friend __host__ __device__ void swap(zip_reference a, zip_reference b) {
    tuple<std::decay_t<R>...> t = static_cast<const base&>(a);
    a = static_cast<const base&>(b);
    b = t;
  }
};

// Dereferences to a zip_reference of the iterators' elements.
template <class Tuple> struct zip_iterator;
template <class... It>
struct zip_iterator<tuple<It...>>
    : tgsim_iterator<zip_iterator<tuple<It...>>, tuple<typename std::iterator_traits<It>::value_type...>,
                     zip_reference<typename std::iterator_traits<It>::reference...>> {
  tuple<It...> its;
  zip_iterator() = default;
  __host__ __device__ zip_iterator(tuple<It...> t) : its(t) {}
  __host__ __device__ auto deref() const {
    return std::apply([](const auto&... i) { return zip_reference<typename std::iterator_traits<It>::reference...>(*i...); },
                      its);
  }
  __host__ __device__ void advance(std::ptrdiff_t n) { std::apply([n](auto&... i) { ((i += n), ...); }, its); }
  __host__ __device__ std::ptrdiff_t distance_from(const zip_iterator& o) const { return get<0>(its) - get<0>(o.its); }
  __host__ __device__ tuple<It...> get_iterator_tuple() const { return its; }
};
template <class... It> __host__ __device__ zip_iterator<tuple<It...>> make_zip_iterator(tuple<It...> t) {
  return zip_iterator<tuple<It...>>(t);
}
template <class... It> __host__ __device__ zip_iterator<tuple<It...>> make_zip_iterator(It... i) {
  return zip_iterator<tuple<It...>>(tuple<It...>(i...));
}

// Every write is dropped.
struct discard_iterator : tgsim_iterator<discard_iterator, char, discard_iterator&> {
  std::ptrdiff_t pos = 0;
  discard_iterator() = default;
  __host__ __device__ explicit discard_iterator(std::ptrdiff_t p) : pos(p) {}
  template <class T> __host__ __device__ discard_iterator& operator=(const T&) { return *this; }
  __host__ __device__ discard_iterator& deref() const { return const_cast<discard_iterator&>(*this); }
  __host__ __device__ void advance(std::ptrdiff_t n) { pos += n; }
  __host__ __device__ std::ptrdiff_t distance_from(const discard_iterator& o) const { return pos - o.pos; }
};
__host__ __device__ inline discard_iterator make_discard_iterator(std::ptrdiff_t p = 0) { return discard_iterator(p); }
}  // namespace thrust
