// CUB's fancy input iterators, written for tgsim: CountingInputIterator, ConstantInputIterator,
// TransformInputIterator, ArgIndexInputIterator (usable in device code and by the device-wide
// algorithms, which run on the host).
#pragma once
#include <cstddef>
#include <iterator>

#include "../util_type.cuh"

namespace cub {
template <class Derived, class V, class Offset>
struct tgsim_random_access {
  typedef V value_type;
  typedef V reference;
  typedef Offset difference_type;
  typedef void pointer;
  typedef std::random_access_iterator_tag iterator_category;
  __host__ __device__ V operator*() const { return self()[0]; }
  __host__ __device__ Derived operator+(Offset n) const { Derived d = self(); d.advance(n); return d; }
  __host__ __device__ Derived operator-(Offset n) const { Derived d = self(); d.advance(-n); return d; }
  __host__ __device__ Derived& operator+=(Offset n) { self_mut().advance(n); return self_mut(); }
  __host__ __device__ Derived& operator++() { self_mut().advance(1); return self_mut(); }
  __host__ __device__ Derived operator++(int) { Derived d = self(); self_mut().advance(1); return d; }

 private:
  __host__ __device__ const Derived& self() const { return static_cast<const Derived&>(*this); }
  __host__ __device__ Derived& self_mut() { return static_cast<Derived&>(*this); }
};

template <class V, class Offset = std::ptrdiff_t>
struct CountingInputIterator : tgsim_random_access<CountingInputIterator<V, Offset>, V, Offset> {
  V value;
  __host__ __device__ explicit CountingInputIterator(const V& v) : value(v) {}
  __host__ __device__ V operator[](Offset n) const { return static_cast<V>(value + n); }
  __host__ __device__ void advance(Offset n) { value = static_cast<V>(value + n); }
};

template <class V, class Offset = std::ptrdiff_t>
struct ConstantInputIterator : tgsim_random_access<ConstantInputIterator<V, Offset>, V, Offset> {
  V value;
  Offset offset;
  __host__ __device__ explicit ConstantInputIterator(const V& v, Offset o = 0) : value(v), offset(o) {}
  __host__ __device__ V operator[](Offset) const { return value; }
  __host__ __device__ void advance(Offset n) { offset += n; }
};

template <class V, class Op, class It, class Offset = std::ptrdiff_t>
struct TransformInputIterator : tgsim_random_access<TransformInputIterator<V, Op, It, Offset>, V, Offset> {
  It it;
  Op op;
  __host__ __device__ TransformInputIterator(It i, Op o) : it(i), op(o) {}
  __host__ __device__ V operator[](Offset n) const { return op(it[n]); }
  __host__ __device__ void advance(Offset n) { it += n; }
};

// Each item paired with its offset: KeyValuePair<offset, value>.
template <class It, class Offset = std::ptrdiff_t,
          class V = typename std::iterator_traits<It>::value_type>
struct ArgIndexInputIterator
    : tgsim_random_access<ArgIndexInputIterator<It, Offset, V>, KeyValuePair<Offset, V>, Offset> {
  It base;
  Offset offset = 0;
  __host__ __device__ explicit ArgIndexInputIterator(It b) : base(b) {}
  __host__ __device__ KeyValuePair<Offset, V> operator[](Offset n) const {
    return KeyValuePair<Offset, V>(offset + n, base[offset + n]);
  }
  __host__ __device__ void advance(Offset n) { offset += n; }
};
}  // namespace cub
