// Every thrust header of tgsim's subset includes all of it (written for tgsim).
#pragma once
#include <complex>
#include <iostream>  // as CUDA's thrust brings it in

#include "algorithms.h"
#include "random.h"
#include "vectors.h"

namespace thrust {
// thrust::complex: std::complex (tgsim compiles device code as C++, so it works in kernels).
template <class T> struct complex : std::complex<T> {
  using std::complex<T>::complex;
  __host__ __device__ complex(const std::complex<T>& c) : std::complex<T>(c) {}
};
using std::abs;
using std::arg;
using std::conj;
using std::exp;
using std::norm;
using std::polar;
using std::sqrt;
template <class T> complex<T> operator+(const complex<T>& a, const complex<T>& b) { return std::complex<T>(a) + std::complex<T>(b); }
template <class T> complex<T> operator-(const complex<T>& a, const complex<T>& b) { return std::complex<T>(a) - std::complex<T>(b); }
template <class T> complex<T> operator*(const complex<T>& a, const complex<T>& b) { return std::complex<T>(a) * std::complex<T>(b); }
template <class T> complex<T> operator/(const complex<T>& a, const complex<T>& b) { return std::complex<T>(a) / std::complex<T>(b); }
namespace detail {
template <class T> struct is_arithmetic : std::is_arithmetic<T> {};
}  // namespace detail
}  // namespace thrust
