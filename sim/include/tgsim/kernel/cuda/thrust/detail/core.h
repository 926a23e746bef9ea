// Thrust for a program built by tgsim's front end, written for tgsim (not NVIDIA's code): the
// execution policies, device_ptr, the function objects, pair and tuple. tgsim compiles host and
// device code as one C++ program, so thrust's algorithms (algorithms.h) run on the host over
// the simulated device memory: right results, NOT simulated or counted as kernels; called with
// thrust::seq from a kernel they run in that thread like any device code.
#pragma once
#include <cstddef>
#include <functional>
#include <iterator>
#include <tuple>
#include <system_error>
#include <type_traits>
#include <utility>

#include "tgsim/kernel/cuda_runtime.h"

#define THRUST_VERSION 200200
#define THRUST_MAJOR_VERSION 2
#define THRUST_MINOR_VERSION 2
#define THRUST_SUBMINOR_VERSION 0
#define THRUST_DEVICE_SYSTEM_CUDA 1
#define THRUST_HOST_SYSTEM_CPP 1
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CUDA

namespace thrust {
// ---- execution policies: all run the algorithm where it is called.
struct tgsim_policy {};
struct device_execution_policy : tgsim_policy {
  device_execution_policy on(cudaStream_t) const { return *this; }
};
struct host_execution_policy : tgsim_policy {};
struct sequential_execution_policy : tgsim_policy {};
static constexpr device_execution_policy device{};
static constexpr host_execution_policy host{};
static constexpr sequential_execution_policy seq{};
namespace cuda {
static constexpr device_execution_policy par{};
static constexpr device_execution_policy par_nosync{};
}  // namespace cuda
namespace system { namespace cuda { using thrust::cuda::par; using thrust::cuda::par_nosync; } }
// What thrust throws (std's, as thrust's derive from them).
namespace system { using std::system_error; using std::error_code; using std::error_category; }
using std::system_error;
using std::error_code;
using std::error_category;
namespace cuda_cub = cuda;
template <class P> constexpr bool is_policy = std::is_base_of_v<tgsim_policy, std::decay_t<P>>;
template <class P> struct is_execution_policy : std::bool_constant<is_policy<P>> {};

// ---- device_ptr: a device address (a host address in tgsim) as a random-access iterator;
// device_ptr<void> (raw bytes, as device_malloc(n) returns) has no reference or arithmetic.
template <class T>
class device_ptr {
  T* p_ = nullptr;

 public:
  typedef T element_type;
  typedef std::remove_cv_t<T> value_type;
  typedef std::ptrdiff_t difference_type;
  typedef T* pointer;
  typedef std::add_lvalue_reference_t<T> reference;
  typedef std::random_access_iterator_tag iterator_category;
  device_ptr() = default;
  __host__ __device__ explicit device_ptr(T* p) : p_(p) {}
  __host__ __device__ device_ptr(std::nullptr_t) : p_(nullptr) {}
  template <class U, class = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  __host__ __device__ device_ptr(const device_ptr<U>& o) : p_(o.get()) {}
  __host__ __device__ T* get() const { return p_; }
  __host__ __device__ reference operator*() const { return *p_; }
  __host__ __device__ T* operator->() const { return p_; }
  __host__ __device__ reference operator[](difference_type i) const { return p_[i]; }
  __host__ __device__ device_ptr& operator++() { ++p_; return *this; }
  __host__ __device__ device_ptr operator++(int) { device_ptr o = *this; ++p_; return o; }
  __host__ __device__ device_ptr& operator--() { --p_; return *this; }
  __host__ __device__ device_ptr operator--(int) { device_ptr o = *this; --p_; return o; }
  __host__ __device__ device_ptr& operator+=(difference_type n) { p_ += n; return *this; }
  __host__ __device__ device_ptr& operator-=(difference_type n) { p_ -= n; return *this; }
  __host__ __device__ device_ptr operator+(difference_type n) const { return device_ptr(p_ + n); }
  __host__ __device__ device_ptr operator-(difference_type n) const { return device_ptr(p_ - n); }
  __host__ __device__ difference_type operator-(const device_ptr& o) const { return p_ - o.p_; }
  __host__ __device__ bool operator==(const device_ptr& o) const { return p_ == o.p_; }
  __host__ __device__ bool operator!=(const device_ptr& o) const { return p_ != o.p_; }
  __host__ __device__ bool operator<(const device_ptr& o) const { return p_ < o.p_; }
  __host__ __device__ bool operator>(const device_ptr& o) const { return p_ > o.p_; }
  __host__ __device__ bool operator<=(const device_ptr& o) const { return p_ <= o.p_; }
  __host__ __device__ bool operator>=(const device_ptr& o) const { return p_ >= o.p_; }
  __host__ __device__ explicit operator bool() const { return p_ != nullptr; }
};
template <class T> __host__ __device__ device_ptr<T> operator+(std::ptrdiff_t n, const device_ptr<T>& p) { return p + n; }
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(T* p) { return device_ptr<T>(p); }
template <class T> __host__ __device__ device_ptr<T> device_pointer_cast(const device_ptr<T>& p) { return p; }
template <class T> __host__ __device__ T* raw_pointer_cast(T* p) { return p; }
template <class T> __host__ __device__ T* raw_pointer_cast(const device_ptr<T>& p) { return p.get(); }
template <class T> using device_reference = T&;

template <class T> device_ptr<T> device_malloc(size_t n) {
  T* p = nullptr;
  cudaMalloc(&p, n * sizeof(T));
  return device_ptr<T>(p);
}
inline device_ptr<void> device_malloc(size_t bytes) {
  void* p = nullptr;
  cudaMalloc(&p, bytes);
  return device_ptr<void>(p);
}
template <class T> void device_free(device_ptr<T> p) { cudaFree(p.get()); }

// ---- function objects
#define TGSIM_THRUST_BINARY(name, expr)                                                         \
  template <class T = void> struct name {                                                      \
    typedef T first_argument_type, second_argument_type;                                       \
    __host__ __device__ constexpr auto operator()(const T& a, const T& b) const { return expr; } \
  };                                                                                           \
  template <> struct name<void> {                                                              \
    template <class A, class B>                                                                \
    __host__ __device__ constexpr auto operator()(const A& a, const B& b) const { return expr; } \
  };
TGSIM_THRUST_BINARY(plus, a + b)
TGSIM_THRUST_BINARY(minus, a - b)
TGSIM_THRUST_BINARY(multiplies, a * b)
TGSIM_THRUST_BINARY(divides, a / b)
TGSIM_THRUST_BINARY(modulus, a % b)
TGSIM_THRUST_BINARY(maximum, a < b ? b : a)
TGSIM_THRUST_BINARY(minimum, b < a ? b : a)
TGSIM_THRUST_BINARY(less, a < b)
TGSIM_THRUST_BINARY(greater, b < a)
TGSIM_THRUST_BINARY(less_equal, !(b < a))
TGSIM_THRUST_BINARY(greater_equal, !(a < b))
TGSIM_THRUST_BINARY(equal_to, a == b)
TGSIM_THRUST_BINARY(not_equal_to, a != b)
TGSIM_THRUST_BINARY(logical_and, a && b)
TGSIM_THRUST_BINARY(logical_or, a || b)
TGSIM_THRUST_BINARY(bit_and, a & b)
TGSIM_THRUST_BINARY(bit_or, a | b)
TGSIM_THRUST_BINARY(bit_xor, a ^ b)
#undef TGSIM_THRUST_BINARY
template <class T = void> struct negate {
  __host__ __device__ constexpr T operator()(const T& a) const { return -a; }
};
template <class T = void> struct logical_not {
  __host__ __device__ constexpr bool operator()(const T& a) const { return !a; }
};
template <class T = void> struct identity {
  __host__ __device__ constexpr const T& operator()(const T& a) const { return a; }
};
template <class T = void> struct square {
  __host__ __device__ constexpr T operator()(const T& a) const { return a * a; }
};
template <class A, class R> struct unary_function {
  typedef A argument_type;
  typedef R result_type;
};
template <class A, class B, class R> struct binary_function {
  typedef A first_argument_type;
  typedef B second_argument_type;
  typedef R result_type;
};

// ---- pair and tuple: the standard ones.
using std::get;
using std::make_pair;
using std::make_tuple;
using std::pair;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_size;

template <class It> using iterator_difference_t = typename std::iterator_traits<It>::difference_type;
template <class It> struct iterator_difference { typedef iterator_difference_t<It> type; };
template <class It> struct iterator_value { typedef typename std::iterator_traits<It>::value_type type; };
template <class It> using iterator_value_t = typename iterator_value<It>::type;
template <class It> struct iterator_traits : std::iterator_traits<It> {};
template <class It> __host__ __device__ auto distance(It first, It last) { return std::distance(first, last); }
template <class It, class D> __host__ __device__ void advance(It& it, D n) { std::advance(it, n); }
}  // namespace thrust
