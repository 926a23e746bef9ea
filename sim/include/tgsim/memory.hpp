// Memory as a kernel sees it: device buffers (global memory) and per-group shared arrays.
// Every element access goes through a small proxy that records one access event
// (space, load/store, address, width, source line:column of the subscript) for the
// counters, then touches host memory. Out-of-bounds subscripts become findings and the
// access is dropped (a load yields T{}).
//
// Proxy pitfall: `auto x = a[i];` keeps a proxy (the load happens later, at each use).
// Write `float x = a[i];` to load once, as the GPU code means.
#pragma once
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

#include <tgsim/thread.hpp>

namespace tgsim {

namespace detail {

// A subscript; its constructor captures the source location of the indexing expression.
struct Index {
  std::int64_t v;
  std::source_location loc;
  template <std::integral I>
  Index(I i, std::source_location l = std::source_location::current())
      : v(static_cast<std::int64_t>(i)), loc(l) {}
};

struct BufferInfo {
  std::string name;
  const char* space = "global";  // "global" or "constant", for findings
  std::size_t count = 0;      // elements
  std::size_t elem_size = 0;  // bytes
  // Use after free: a Buffer's BufferInfo is never freed nor reused (sim/src/memory/buffers.cpp);
  // when the Buffer dies its count drops to 0 and `freed` is set, so a global_ptr that
  // outlived its Buffer fails the bounds check it makes anyway (no extra test on the hot
  // path) and the slow path names the finding.
  bool freed = false;
  // Initcheck (the checker's uninitialised global reads, sim/src/analyses/checker/initcheck.cpp). `assume_init`:
  // every byte counts as written, since the host took a mutable view of the data (it may have
  // written any byte) or a launch without the checker may have stored to it; otherwise
  // `written` has one bit per byte that a checked launch stored (empty: none yet). Touched on
  // the host and after checked launches only, never on the kernel access path.
  mutable bool assume_init = false;
  mutable std::vector<std::uint64_t> written;
};
// A fresh BufferInfo, and its retirement when the Buffer dies (kept, about 100 bytes).
BufferInfo* acquire_buffer_info();
void release_buffer_info(BufferInfo* info) noexcept;
// Device memory (sim/src/memory/device_memory.cpp): `bytes` zero-filled, page-aligned, registered with
// `info` and surrounded by red zones; freed memory keeps its addresses (use after free is found).
void* device_alloc(std::size_t bytes, const BufferInfo* info);
void device_free(void* p) noexcept;
// The bytes of `count` elements of `elem_size`, rounded up to 256 (cudaMalloc's alignment);
// throws LaunchError naming the size when count * elem_size does not fit in size_t.
std::size_t buffer_bytes(std::size_t count, std::size_t elem_size, const std::string& name);

struct SharedDecl;  // one shared array of a group (defined in the library)

// The out-of-line path of one thread access (sim/src/engine/group.cpp). A store also passes the
// bytes it stores (the checker tells same-value stores apart). The source_location is passed
// by value (one pointer, in a register): a reference made every proxy spill to the stack.
void record_access(ThreadCtx* t, std::source_location loc, AccessKind kind,
                   std::uint64_t addr, std::uint32_t width);
void record_store(ThreadCtx* t, std::source_location loc, AccessKind kind,
                  std::uint64_t addr, std::uint32_t width, const void* value);

// With the checker on, the bytes of a store the inline path logged (the checker reads the logs
// when the barrier is released; it tells same-value stores apart).
void note_store(ThreadCtx* t, AccessKind kind, std::uint64_t addr, std::uint32_t width,
                const void* value);

// Their inline fast path (record.hpp): on a tag-cache hit, one record appended to the lane's log.
template <AccessKind K, std::uint32_t W>
inline bool append_record(ThreadCtx* t, std::source_location loc, std::uint64_t addr) {
  const std::uint64_t key = tag_key(loc, K, W);
  const TagSlot& e = t->tags_[tag_slot(key)];
  LaneBuf* b = t->log_;
  if (e.key != key || b->cur == b->end) [[unlikely]]
    return false;
  *b->cur++ = e.tag | addr;
  return true;
}
template <AccessKind K, std::uint32_t W>
inline void record_load(ThreadCtx* t, std::source_location loc, std::uint64_t addr) {
  if (!append_record<K, W>(t, loc, addr)) [[unlikely]]
    record_access(t, loc, K, addr, W);
}
template <AccessKind K, std::uint32_t W>
inline void record_write(ThreadCtx* t, std::source_location loc, std::uint64_t addr,
                         const void* value) {
  if (!append_record<K, W>(t, loc, addr)) [[unlikely]]
    record_store(t, loc, K, addr, W, value);
  else if (t->checking_) [[unlikely]]
    note_store(t, K, addr, W, value);
}
void global_out_of_bounds(ThreadCtx* t, const std::source_location& loc, const BufferInfo* buf,
                          std::int64_t index);
// A subscript of a global_ptr whose Buffer was freed (BufferInfo::freed).
void global_use_after_free(ThreadCtx* t, const std::source_location& loc, const BufferInfo* buf,
                           std::int64_t index);
// Offsets wrap like 64-bit pointer arithmetic on the GPU (never signed-overflow UB).
constexpr std::int64_t wrap_add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
void shared_out_of_bounds(ThreadCtx* t, const std::source_location& loc, const SharedDecl* decl,
                          std::size_t dim, std::int64_t index, std::size_t extent);
// Returns the group's storage for the declaration at `loc`, allocating it on first use.
std::byte* shared_storage(ThreadCtx* t, const std::source_location& loc, const char* name,
                          std::size_t bytes, std::size_t align, std::uint32_t rank,
                          const std::size_t* extents, std::uint32_t* offset,
                          const SharedDecl** decl);

// A buffer above the 48-bit address range the access log records (never seen on Linux).
[[noreturn]] void address_out_of_range(const void* base);

inline ThreadCtx* current_thread() {
  ThreadCtx* t = current;
  if (!t) no_current_thread();
  return t;
}

template <class T>
constexpr void check_element() {
  static_assert(std::is_trivially_copyable_v<T>, "tgsim: element types must be trivially copyable");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 ||
                    sizeof(T) == 16,
                "tgsim: an access is 1, 2, 4, 8 or 16 bytes (a float4 load is one access)");
}

}  // namespace detail

// ---------------------------------------------------------------- global memory

// The address of one global or shared element (what &a[i] is in CUDA), taken by atomics.
template <class T>
struct global_addr {
  T* p;  // null after an out-of-bounds subscript (already reported)
};
template <class T>
struct shared_addr {
  T* p;
  std::uint32_t offset;
};

template <class T>
class global_ref {
  using V = std::remove_const_t<T>;

 public:
  global_ref(T* p, std::source_location loc) : p_(p), loc_(loc) {}

  operator V() const {  // a load
    if (!p_) return V{};
    detail::record_load<detail::AccessKind::kGlobalLoad, sizeof(T)>(
        detail::current, loc_, reinterpret_cast<std::uintptr_t>(p_));
    return *p_;
  }
  const global_ref& operator=(const V& v) const
    requires(!std::is_const_v<T>)
  {  // a store
    if (p_) {
      detail::record_write<detail::AccessKind::kGlobalStore, sizeof(T)>(
          detail::current, loc_, reinterpret_cast<std::uintptr_t>(p_), &v);
      *p_ = v;
    }
    return *this;
  }
  const global_ref& operator=(const global_ref& o) const { return *this = static_cast<V>(o); }
  // &a[i]: the element's address, for atomicAdd and friends (tgsim/atomic.hpp).
  global_addr<T> operator&() const { return global_addr<T>{p_}; }
  template <class U> const global_ref& operator+=(const U& x) const { return *this = V(V(*this) + x); }
  template <class U> const global_ref& operator-=(const U& x) const { return *this = V(V(*this) - x); }
  template <class U> const global_ref& operator*=(const U& x) const { return *this = V(V(*this) * x); }
  template <class U> const global_ref& operator/=(const U& x) const { return *this = V(V(*this) / x); }

 private:
  T* p_;  // null when the subscript was out of bounds (already reported)
  std::source_location loc_;
};

// A pointer into a device buffer, as a kernel parameter (TG_GLOBAL(T) in the CUDA dialect).
template <class T>
class global_ptr {
  using V = std::remove_const_t<T>;

 public:
  global_ptr() = default;
  global_ptr(T* base, const detail::BufferInfo* info, std::int64_t offset = 0)
      : base_(base), info_(info), off_(offset) {
    detail::check_element<V>();
    // The access log keeps 48-bit addresses (record.hpp); user-space memory is below 2^47.
    if (base && info &&
        reinterpret_cast<std::uintptr_t>(base) + info->count * sizeof(T) > detail::kAddrMask)
      detail::address_out_of_range(base);
  }
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
  global_ptr(const global_ptr<U>& o)
      : base_(o.base()), info_(o.info()), off_(o.offset()) {}

  global_ref<T> operator[](detail::Index i) const {
    ThreadCtx* t = detail::current_thread();
    std::int64_t idx = detail::wrap_add(off_, i.v);
    // One rarely taken branch: out of bounds, null, or a freed Buffer (its count is 0).
    if (idx < 0 || !info_ || static_cast<std::uint64_t>(idx) >= info_->count) [[unlikely]] {
      if (info_ && info_->freed)
        detail::global_use_after_free(t, i.loc, info_, idx);
      else
        detail::global_out_of_bounds(t, i.loc, info_, idx);
      return global_ref<T>(nullptr, i.loc);
    }
    return global_ref<T>(base_ + idx, i.loc);
  }
  global_ref<T> operator*() const { return (*this)[0]; }
  global_ptr operator+(std::int64_t d) const { return global_ptr(*this, detail::wrap_add(off_, d)); }
  global_ptr operator-(std::int64_t d) const {
    return global_ptr(*this, detail::wrap_add(off_, static_cast<std::int64_t>(0ull - static_cast<std::uint64_t>(d))));
  }
  global_ptr& operator+=(std::int64_t d) { off_ = detail::wrap_add(off_, d); return *this; }

  T* base() const { return base_; }
  const detail::BufferInfo* info() const { return info_; }
  std::int64_t offset() const { return off_; }
  bool freed() const { return info_ && info_->freed; }  // its Buffer was destroyed

 private:
  global_ptr(const global_ptr& o, std::int64_t off) : base_(o.base_), info_(o.info_), off_(off) {}
  T* base_ = nullptr;
  const detail::BufferInfo* info_ = nullptr;
  std::int64_t off_ = 0;
};

// A device buffer owned by the host: page-aligned (cudaMalloc aligns to 256), zero-filled,
// registered so that kernel accesses through raw pointers find it (data(), or ptr() for the
// proxy dialect). Host code reads and writes it directly.
template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t count, std::string name = "buffer") {
    detail::check_element<T>();
    detail::buffer_bytes(count, sizeof(T), name);  // LaunchError when count * sizeof(T) overflows
    info_.reset(detail::acquire_buffer_info());
    info_->name = std::move(name);
    info_->count = count;
    info_->elem_size = sizeof(T);
    mem_.reset(static_cast<T*>(detail::device_alloc(count * sizeof(T), info_.get())));
  }
  // The mutable views mark the data as written by the host (initcheck cannot see which bytes).
  T* data() { return host_view(); }
  const T* data() const { return mem_.get(); }
  std::size_t size() const { return info_ ? info_->count : 0; }
  T& operator[](std::size_t i) { return host_view()[i]; }
  const T& operator[](std::size_t i) const { return mem_.get()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const std::string& name() const {  // "" for a default-constructed Buffer
    static const std::string none;
    return info_ ? info_->name : none;
  }

  operator global_ptr<T>() const { return global_ptr<T>(mem_.get(), info_.get()); }
  operator global_ptr<const T>() const { return global_ptr<const T>(mem_.get(), info_.get()); }
  global_ptr<T> ptr() const { return *this; }

 private:
  T* host_view() {
    if (info_) info_->assume_init = true;
    return mem_.get();
  }
  struct Free {
    void operator()(T* p) const { detail::device_free(p); }
  };
  struct Release {
    void operator()(detail::BufferInfo* i) const noexcept { detail::release_buffer_info(i); }
  };
  // Declared first, so destroyed last: the memory is freed before the info is retired.
  std::unique_ptr<detail::BufferInfo, Release> info_;
  std::unique_ptr<T, Free> mem_;
};

// ---------------------------------------------------------------- shared memory

// T may be volatile (TG_SHARED(volatile float, s, [64]) for warp-synchronous code): every
// access is performed and recorded anyway, so volatile only shapes the value type.
template <class T>
class shared_ref {
  using V = std::remove_cv_t<T>;

 public:
  shared_ref(T* p, std::uint32_t offset, std::source_location loc) : p_(p), off_(offset), loc_(loc) {}

  operator V() const {
    if (!p_) return V{};
    detail::record_load<detail::AccessKind::kSharedLoad, sizeof(T)>(detail::current, loc_, off_);
    return *p_;
  }
  const shared_ref& operator=(const V& v) const {
    if (p_) {
      detail::record_write<detail::AccessKind::kSharedStore, sizeof(T)>(detail::current, loc_, off_,
                                                                        &v);
      *p_ = v;
    }
    return *this;
  }
  const shared_ref& operator=(const shared_ref& o) const { return *this = static_cast<V>(o); }
  shared_addr<V> operator&() const { return shared_addr<V>{const_cast<V*>(p_), off_}; }
  template <class U> const shared_ref& operator+=(const U& x) const { return *this = V(V(*this) + x); }
  template <class U> const shared_ref& operator-=(const U& x) const { return *this = V(V(*this) - x); }
  template <class U> const shared_ref& operator*=(const U& x) const { return *this = V(V(*this) * x); }
  template <class U> const shared_ref& operator/=(const U& x) const { return *this = V(V(*this) / x); }

 private:
  T* p_;               // null after an out-of-bounds subscript (already reported)
  std::uint32_t off_;  // byte offset in the group's shared memory (decides the bank)
  std::source_location loc_;
};

// A (sub-)array of a group's shared array; the last subscript yields a shared_ref.
template <class T>
class shared_array;

template <class E, std::size_t N>
class shared_array<E[N]> {
 public:
  shared_array(std::byte* base, std::uint32_t offset, const detail::SharedDecl* decl,
               std::uint32_t rank)
      : base_(base), off_(offset), decl_(decl), rank_(rank) {}

  auto operator[](detail::Index i) const {
    // One rarely taken branch: out of bounds (a negative index wraps to a huge one), or an outer
    // subscript was (base_ is null then); the access is dropped.
    if (static_cast<std::uint64_t>(i.v) >= N || !base_) [[unlikely]] {
      if (base_)
        detail::shared_out_of_bounds(detail::current_thread(), i.loc, decl_,
                                     rank_ - std::rank_v<E[N]>, i.v, N);
      return element(nullptr, 0, i.loc);
    }
    const std::size_t step = static_cast<std::size_t>(i.v) * sizeof(E);
    return element(base_ + step, step, i.loc);
  }
  static constexpr std::size_t size() { return N; }

 private:
  auto element(std::byte* b, std::size_t step, const std::source_location& loc) const {
    if constexpr (std::is_array_v<E>) {
      return shared_array<E>(b, off_ + static_cast<std::uint32_t>(step), decl_, rank_);
    } else {
      detail::check_element<std::remove_cv_t<E>>();
      return shared_ref<E>(reinterpret_cast<E*>(b), off_ + static_cast<std::uint32_t>(step), loc);
    }
  }
  std::byte* base_;      // null: an outer subscript was out of bounds
  std::uint32_t off_;    // byte offset of this sub-array in shared memory
  const detail::SharedDecl* decl_;
  std::uint32_t rank_;   // rank of the whole declared array
};

template <class T>
shared_array<T> ThreadCtx::shared(const char* name, std::source_location loc) {
  static_assert(std::is_array_v<T> && std::extent_v<T> > 0,
                "tgsim: shared<T> takes an array type, e.g. shared<float[16][17]>");
  using Elem = std::remove_cv_t<std::remove_all_extents_t<T>>;
  detail::check_element<Elem>();
  constexpr std::uint32_t rank = std::rank_v<T>;
  std::size_t extents[rank];
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((extents[I] = std::extent_v<T, I>), ...);
  }(std::make_index_sequence<rank>{});
  std::uint32_t offset = 0;
  const detail::SharedDecl* decl = nullptr;
  std::byte* base = detail::shared_storage(this, loc, name, sizeof(T),
                                           alignof(Elem) < 16 ? 16 : alignof(Elem), rank, extents,
                                           &offset, &decl);
  return shared_array<T>(base, offset, decl, rank);
}

// A shared array of the running thread's group: `auto tile = tgsim::shared<float[16][17]>("tile");`
template <class T>
shared_array<T> shared(const char* name = "shared",
                       std::source_location loc = std::source_location::current()) {
  return this_thread().template shared<T>(name, loc);
}

}  // namespace tgsim
