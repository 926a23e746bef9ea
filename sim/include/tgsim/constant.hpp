// Constant memory (__constant__): a small array set from the host and read-only in kernels.
// Reads are counted with the constant cache's broadcast rule: one access per distinct address
// in a warp instruction, serialised otherwise (counters.constant.load.serialized_accesses).
// A store from a kernel is a constant-write finding and is dropped.
#pragma once
#include <cstddef>
#include <cstring>
#include <source_location>
#include <stdexcept>
#include <string>

#include <tgsim/memory.hpp>

namespace tgsim {

namespace detail {
void constant_write(ThreadCtx* t, const std::source_location& loc, const BufferInfo* info, std::int64_t index);
}

template <class T>
class constant_ref {
 public:
  constant_ref(const T* p, const detail::BufferInfo* info, std::int64_t index, std::source_location loc)
      : p_(p), info_(info), index_(index), loc_(loc) {}
  operator T() const {
    if (!p_) return T{};
    detail::record_access(detail::current, loc_, detail::AccessKind::kConstantLoad,
                          reinterpret_cast<std::uintptr_t>(p_), sizeof(T));
    return *p_;
  }
  const constant_ref& operator=(const T&) const {
    detail::constant_write(detail::current_thread(), loc_, info_, index_);
    return *this;
  }

 private:
  const T* p_;
  const detail::BufferInfo* info_;
  std::int64_t index_;
  std::source_location loc_;
};

template <class T>
class constant_array;

template <class E, std::size_t N>
class constant_array<E[N]> {
 public:
  explicit constant_array(const char* name) {
    detail::check_element<E>();
    info_.name = name;
    info_.space = "constant";
    info_.count = N;
    info_.elem_size = sizeof(E);
  }
  constant_ref<E> operator[](detail::Index i) const {
    ThreadCtx* t = detail::current_thread();
    if (i.v < 0 || static_cast<std::uint64_t>(i.v) >= N) {
      detail::global_out_of_bounds(t, i.loc, &info_, i.v);
      return constant_ref<E>(nullptr, &info_, i.v, i.loc);
    }
    return constant_ref<E>(&data_[i.v], &info_, i.v, i.loc);
  }
  static constexpr std::size_t size() { return N; }
  E* host_data() { return data_; }  // host side only, between launches

 private:
  alignas(16) E data_[N] = {};
  detail::BufferInfo info_;
};

// cudaMemcpyToSymbol: copies `bytes` from host memory into the constant array at `offset`.
template <class E, std::size_t N>
void copy_to_constant(constant_array<E[N]>& c, const void* src, std::size_t bytes, std::size_t offset = 0) {
  if (offset > sizeof(E) * N || bytes > sizeof(E) * N - offset)
    throw std::invalid_argument("copy_to_constant: " + std::to_string(bytes) + " bytes at offset " +
                                std::to_string(offset) + " do not fit the " +
                                std::to_string(sizeof(E) * N) + "-byte constant array");
  std::memcpy(reinterpret_cast<char*>(c.host_data()) + offset, src, bytes);
}

}  // namespace tgsim
