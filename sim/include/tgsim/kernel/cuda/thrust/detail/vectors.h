// thrust::device_vector and thrust::host_vector, written for tgsim. A device_vector's elements
// are in simulated device memory (cudaMalloc), so kernels reach them through
// raw_pointer_cast; its iterators are device_ptr. Filling or copying one from the host marks
// the bytes written for initcheck, as cudaMemcpy does. host_vector is a std::vector.
#pragma once
#include <algorithm>
#include <initializer_list>
#include <vector>

#include "core.h"

namespace thrust {
template <class T, class Alloc = std::allocator<T>>
class host_vector : public std::vector<T, Alloc> {
 public:
  using std::vector<T, Alloc>::vector;
  host_vector() = default;
  host_vector(const std::vector<T, Alloc>& v) : std::vector<T, Alloc>(v) {}
  template <class D, class = decltype(std::declval<const D&>().tgsim_device_vector())>
  host_vector(const D& d) : std::vector<T, Alloc>(d.begin().get(), d.end().get()) {}
  template <class D, class = decltype(std::declval<const D&>().tgsim_device_vector())>
  host_vector& operator=(const D& d) {
    this->assign(d.begin().get(), d.end().get());
    return *this;
  }
};

template <class T, class Alloc = void>
class device_vector {
  T* data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;

  void wrote(size_t from, size_t n) {
    if (n) cudaMemcpy(data_ + from, data_ + from, n * sizeof(T), cudaMemcpyDeviceToDevice);
  }
  void grow(size_t n) {
    if (n <= capacity_) return;
    T* p = nullptr;
    cudaMalloc(&p, n * sizeof(T));
    if (size_) cudaMemcpy(p, data_, size_ * sizeof(T), cudaMemcpyDeviceToDevice);
    cudaFree(data_);
    data_ = p;
    capacity_ = n;
  }

 public:
  typedef T value_type;
  typedef device_ptr<T> iterator;
  typedef device_ptr<const T> const_iterator;
  typedef device_ptr<T> pointer;
  typedef device_ptr<const T> const_pointer;
  typedef T& reference;
  typedef const T& const_reference;
  typedef size_t size_type;
  typedef std::ptrdiff_t difference_type;
  void tgsim_device_vector() const {}

  device_vector() = default;
  explicit device_vector(size_t n) : device_vector(n, T()) {}
  device_vector(size_t n, const T& v) { resize(n, v); }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  device_vector(It first, It last) { assign(first, last); }
  device_vector(const device_vector& o) { assign(o.begin(), o.end()); }
  device_vector(device_vector&& o) noexcept { swap(o); }
  device_vector(std::initializer_list<T> l) { assign(l.begin(), l.end()); }
  template <class A> device_vector(const std::vector<T, A>& v) { assign(v.begin(), v.end()); }
  template <class A> device_vector(const host_vector<T, A>& v) { assign(v.begin(), v.end()); }
  ~device_vector() { cudaFree(data_); }
  device_vector& operator=(const device_vector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  device_vector& operator=(device_vector&& o) noexcept {
    swap(o);
    return *this;
  }
  template <class A> device_vector& operator=(const std::vector<T, A>& v) {
    assign(v.begin(), v.end());
    return *this;
  }
  template <class A> device_vector& operator=(const host_vector<T, A>& v) {
    assign(v.begin(), v.end());
    return *this;
  }

  template <class It> void assign(It first, It last) {
    const size_t n = static_cast<size_t>(std::distance(first, last));
    std::vector<T> tmp(first, last);  // the source may overlap this vector
    size_ = 0;
    grow(n);
    std::copy(tmp.begin(), tmp.end(), data_);
    size_ = n;
    wrote(0, n);
  }
  void assign(size_t n, const T& v) {
    size_ = 0;
    resize(n, v);
  }
  void resize(size_t n, const T& v = T()) {
    grow(n);
    if (n > size_) {
      std::fill(data_ + size_, data_ + n, v);
      wrote(size_, n - size_);
    }
    size_ = n;
  }
  void reserve(size_t n) { grow(n); }
  void clear() { size_ = 0; }
  void shrink_to_fit() {}
  void push_back(const T& v) {
    if (size_ == capacity_) grow(capacity_ ? 2 * capacity_ : 8);
    data_[size_] = v;
    wrote(size_++, 1);
  }
  void pop_back() { --size_; }
  iterator erase(iterator first, iterator last) {
    T* end = std::copy(last.get(), data_ + size_, first.get());
    size_ = static_cast<size_t>(end - data_);
    return first;
  }
  iterator erase(iterator pos) { return erase(pos, pos + 1); }
  void swap(device_vector& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
  }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  iterator begin() { return iterator(data_); }
  iterator end() { return iterator(data_ + size_); }
  const_iterator begin() const { return const_iterator(data_); }
  const_iterator end() const { return const_iterator(data_ + size_); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  pointer data() { return pointer(data_); }
  const_pointer data() const { return const_pointer(data_); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
};
template <class T> using universal_vector = device_vector<T>;
}  // namespace thrust
