// The library side of abi.h's warp collectives and atomics: each maps onto the collective
// operations of tgsim/warp.hpp (the same rendezvous and counts as the proxy dialect's) or onto
// an atomic read-modify-write of host memory, recorded as one atomic access.
#include <bit>
#include <cmath>
#include <cstring>

#include <tgsim/kernel/abi.h>

#include "frontend/bridge.hpp"
#include "engine/group.hpp"

namespace tgsim::detail {

namespace {

bool wide(int type) { return type == TGSIM_I64 || type == TGSIM_U64 || type == TGSIM_F64; }

template <class T>
std::uint64_t min_compute(const CollectiveIn& in, std::uint32_t, bool*) {
  bool first = true;
  T acc{};
  for (std::uint32_t m = in.arrived; m; m &= m - 1) {
    T v = from_bits<T>(in.value[std::countr_zero(m)]);
    acc = first || v < acc ? v : acc;
    first = false;
  }
  return to_bits(acc);
}
// Metal's simd_prefix_{exclusive,inclusive}_sum over the lanes that take part, in lane order.
template <class T, bool INCLUSIVE>
std::uint64_t prefix_compute(const CollectiveIn& in, std::uint32_t lane, bool*) {
  T acc{};
  for (std::uint32_t m = in.arrived; m; m &= m - 1) {
    const std::uint32_t l = static_cast<std::uint32_t>(std::countr_zero(m));
    if (l > lane || (l == lane && !INCLUSIVE)) break;
    acc = acc + from_bits<T>(in.value[l]);
  }
  return to_bits(acc);
}
// __match_any_sync: the lanes that take part whose value equals this lane's.
inline std::uint64_t match_compute(const CollectiveIn& in, std::uint32_t lane, bool*) {
  std::uint64_t b = 0;
  for (std::uint32_t m = in.arrived; m; m &= m - 1) {
    const int l = std::countr_zero(m);
    if (in.value[l] == in.value[lane]) b |= 1ull << l;
  }
  return b;
}

template <class T> inline constexpr CollectiveOp kMinOp{SiteKind::kWarpReduce, 1, "simd_min", &min_compute<T>};
template <class T, bool I>
inline constexpr CollectiveOp kPrefixOp{SiteKind::kWarpReduce, 1,
                                        I ? "simd_prefix_inclusive_sum" : "simd_prefix_exclusive_sum",
                                        &prefix_compute<T, I>};
inline constexpr CollectiveOp kMatchOp{SiteKind::kVote, 1, "__match_any_sync", &match_compute};

// The typed operations, by value type.
template <template <class> class Op>
const CollectiveOp* by_type(int type) {
  switch (type) {
    case TGSIM_I32: return &Op<std::int32_t>::value;
    case TGSIM_U32: return &Op<std::uint32_t>::value;
    case TGSIM_I64: return &Op<std::int64_t>::value;
    case TGSIM_U64: return &Op<std::uint64_t>::value;
    case TGSIM_F32: return &Op<float>::value;
    default: return &Op<double>::value;
  }
}
template <class T> struct SumOp { static constexpr const CollectiveOp& value = kReduceOp<T, false>; };
template <class T> struct MaxOp { static constexpr const CollectiveOp& value = kReduceOp<T, true>; };
template <class T> struct MinOp { static constexpr const CollectiveOp& value = kMinOp<T>; };
template <class T> struct ExclOp { static constexpr const CollectiveOp& value = kPrefixOp<T, false>; };
template <class T> struct InclOp { static constexpr const CollectiveOp& value = kPrefixOp<T, true>; };

const CollectiveOp* collective_op(int op, int type) {
  const bool w = wide(type);
  switch (op) {
    case TGSIM_SHFL_IDX: return w ? &kShflOp<Shfl::kIdx, 2> : &kShflOp<Shfl::kIdx, 1>;
    case TGSIM_SHFL_UP: return w ? &kShflOp<Shfl::kUp, 2> : &kShflOp<Shfl::kUp, 1>;
    case TGSIM_SHFL_DOWN: return w ? &kShflOp<Shfl::kDown, 2> : &kShflOp<Shfl::kDown, 1>;
    case TGSIM_SHFL_XOR: return w ? &kShflOp<Shfl::kXor, 2> : &kShflOp<Shfl::kXor, 1>;
    case TGSIM_BALLOT: return &kBallotOp;
    case TGSIM_ANY: return &kAnyOp;
    case TGSIM_ALL: return &kAllOp;
    case TGSIM_SYNCWARP: return &kSyncwarpOp;
    case TGSIM_REDUCE_SUM: return by_type<SumOp>(type);
    case TGSIM_REDUCE_MAX: return by_type<MaxOp>(type);
    case TGSIM_REDUCE_MIN: return by_type<MinOp>(type);
    case TGSIM_PREFIX_SUM_EXCLUSIVE: return by_type<ExclOp>(type);
    case TGSIM_PREFIX_SUM_INCLUSIVE: return by_type<InclOp>(type);
    case TGSIM_MATCH_ANY: return &kMatchOp;
    default: return nullptr;
  }
}

// One read-modify-write on T at p; returns the old value.
template <class T>
T rmw(T* p, int op, T v, T cmp, bool shared) {
  if (shared) {  // one worker runs the whole group: a plain update is atomic for the group
    T old = *p;
    switch (op) {
      case TGSIM_ATOMIC_ADD: *p = old + v; break;
      case TGSIM_ATOMIC_SUB: *p = old - v; break;
      case TGSIM_ATOMIC_EXCH: case TGSIM_ATOMIC_STORE: *p = v; break;
      case TGSIM_ATOMIC_MIN: *p = v < old ? v : old; break;
      case TGSIM_ATOMIC_MAX: *p = v > old ? v : old; break;
      case TGSIM_ATOMIC_CAS: if (old == cmp) *p = v; break;
      default: break;
    }
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
        case TGSIM_ATOMIC_INC: *p = old >= v ? 0 : old + 1; break;
        case TGSIM_ATOMIC_DEC: *p = (old == 0 || old > v) ? v : old - 1; break;
        case TGSIM_ATOMIC_AND: *p = old & v; break;
        case TGSIM_ATOMIC_OR: *p = old | v; break;
        case TGSIM_ATOMIC_XOR: *p = old ^ v; break;
        default: break;
      }
    }
    return old;
  }
  // Global memory: other workers run other groups at the same time.
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  for (;;) {
    T next = old;
    if (!(op == TGSIM_ATOMIC_LOAD)) {
      T tmp = old;
      rmw(&tmp, op, v, cmp, true);
      next = tmp;
    }
    if (op == TGSIM_ATOMIC_LOAD || std::memcmp(&next, &old, sizeof old) == 0) return old;
    if (__atomic_compare_exchange(p, &old, &next, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return old;
  }
}

template <class T>
std::uint64_t run_atomic(void* addr, int op, std::uint64_t operand, std::uint64_t compare, bool shared) {
  T v, c;
  std::memcpy(&v, &operand, sizeof v);
  std::memcpy(&c, &compare, sizeof c);
  T old = rmw(static_cast<T*>(addr), op, v, c, shared);
  std::uint64_t bits = 0;
  std::memcpy(&bits, &old, sizeof old);
  return bits;
}

// A pair of 16-bit floats (binary16, or bfloat16 when BF), added lane by lane as the GPU's
// atomicAdd on __half2 / __nv_bfloat162 does: each sum rounded once to nearest even (float's
// 24 bits hold the exact sum of two 11-bit or 8-bit significands before that rounding).
float half_to_float(std::uint16_t h, bool bf) {
  if (bf) return std::bit_cast<float>(std::uint32_t(h) << 16);
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
  if (exp == 0x1F) return std::bit_cast<float>(sign | 0x7F800000u | (mant << 13));
  if (exp == 0) return std::bit_cast<float>(sign) + (sign ? -1.0f : 1.0f) * float(mant) * 0x1p-24f;
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}
std::uint16_t float_to_half(float f, bool bf) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  if (bf) {
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return std::uint16_t((u >> 16) | 0x40u);
    return std::uint16_t((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
  }
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  const float a = std::fabs(f);
  if (a != a) return std::uint16_t(sign | 0x7E00u);
  if (a >= 65520.0f) return std::uint16_t(sign | 0x7C00u);  // rounds to infinity
  if (a < 0x1p-14f) return std::uint16_t(sign | std::uint32_t(std::nearbyint(a * 0x1p24f)));  // subnormal
  u = std::bit_cast<std::uint32_t>(a);
  std::uint32_t h = ((u >> 23) - 112) << 10 | ((u >> 13) & 0x3FFu);
  const std::uint32_t rest = u & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h;
  return std::uint16_t(sign | h);
}
std::uint32_t pair_add(std::uint32_t a, std::uint32_t b, bool bf) {
  std::uint32_t r = 0;
  for (int i = 0; i < 2; ++i) {
    const float s = half_to_float(std::uint16_t(a >> 16 * i), bf) + half_to_float(std::uint16_t(b >> 16 * i), bf);
    r |= std::uint32_t(float_to_half(s, bf)) << 16 * i;
  }
  return r;
}
std::uint64_t run_pair_add(void* addr, std::uint64_t operand, bool shared, bool bf) {
  auto* p = static_cast<std::uint32_t*>(addr);
  const auto v = static_cast<std::uint32_t>(operand);
  if (shared) {
    const std::uint32_t old = *p;
    *p = pair_add(old, v, bf);
    return old;
  }
  std::uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, pair_add(old, v, bf), false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
  }
  return old;
}

}  // namespace

}  // namespace tgsim::detail

using namespace tgsim;
using namespace tgsim::detail;

extern "C" {

unsigned long long __tgsim_collective(const void* site, int op, int type, unsigned mask,
                                      unsigned long long value, int arg, int width) {
  ThreadCtx* t = current;
  if (!t) no_current_thread();
  const CollectiveOp* c = collective_op(op, type);
  if (!c) {
    t->group_->add_finding(*t, FindingKind::kUnsupported, loc_of(site),
                           "warp collective " + std::to_string(op) + " is not modelled");
    return 0;
  }
  if (width < 1 || width > 32 || (width & (width - 1))) width = 32;  // PTX: a power of 2 <= 32
  const std::int64_t a = (std::int64_t(width) << 32) | std::uint32_t(arg);
  return warp_collective(t, *c, mask, value, a, loc_of(site));
}

unsigned __tgsim_activemask(const void* site) {
  ThreadCtx* t = current;
  if (!t) no_current_thread();
  return active_lanes(t, loc_of(site));
}

}  // extern "C"

namespace {

// An atomic read-modify-write that stores what it read: add, sub, or, xor of 0 (integers, or
// +0.0 for floats), and of all ones, or a compare-and-swap whose new value is its compare value.
bool leaves_memory(int op, int type, unsigned long long operand, unsigned long long compare) {
  if (operand != 0 && op != TGSIM_ATOMIC_AND && op != TGSIM_ATOMIC_CAS) return false;  // (most atomics)
  const unsigned long long ones = (type == TGSIM_I64 || type == TGSIM_U64 || type == TGSIM_F64) ? ~0ull : 0xffffffffull;
  const bool integer = type == TGSIM_I32 || type == TGSIM_U32 || type == TGSIM_I64 || type == TGSIM_U64;
  switch (op) {
    case TGSIM_ATOMIC_ADD: return operand == 0 && type != TGSIM_F16X2 && type != TGSIM_BF16X2;
    case TGSIM_ATOMIC_SUB: case TGSIM_ATOMIC_OR: case TGSIM_ATOMIC_XOR: return integer && operand == 0;
    case TGSIM_ATOMIC_AND: return integer && (operand & ones) == ones;
    case TGSIM_ATOMIC_CAS: return operand == compare;
    default: return false;
  }
}

}  // namespace

extern "C" {

unsigned long long __tgsim_atomic(const void* site, int op, int type, void* addr,
                                  unsigned long long operand, unsigned long long compare) {
  ThreadCtx* t = current;
  if (!t) no_current_thread();
  const bool aggregated = op & TGSIM_ATOMIC_WARP_AGGREGATED;
  const int flags = op;
  op &= 0xFF;
  const std::uint32_t width = wide(type) ? 8 : 4;
  const auto a = reinterpret_cast<std::uint64_t>(addr);
  bool shared = false;
  std::uint64_t offset = 0;
  const std::source_location loc = loc_of(site);
  if (!t->group_->atomic_target(*t, loc, a, width, &shared, &offset)) return 0;
  const bool plain = op == TGSIM_ATOMIC_LOAD || op == TGSIM_ATOMIC_STORE;
  // libcu++'s orders inside the group, for an atomic of shared memory (Checker::ordered_shared):
  // acquire and release by memory order only (a relaxed one orders nothing).
  const std::uint8_t shared_order = static_cast<std::uint8_t>(
      TagInfo::kSharedOrderAtomic |
      (!(flags & TGSIM_ATOMIC_NO_ACQUIRE) && op != TGSIM_ATOMIC_STORE ? TagInfo::kSharedOrderAcquire : 0) |
      (flags & TGSIM_ATOMIC_RELEASE ? TagInfo::kSharedOrderRelease : 0));
  // A release of device or system scope (libcu++'s atomic_ref): as __threadfence() before it.
  if ((flags & TGSIM_ATOMIC_RELEASE) && !(flags & TGSIM_ATOMIC_BLOCK_SCOPE)) t->group_->fence(*t, 1);
  if (plain) {  // atomic loads and stores of cooperative code: counted as loads and stores
    const SiteKind kind = op == TGSIM_ATOMIC_LOAD ? SiteKind::kLoad : SiteKind::kStore;
    // libcu++'s: atomic for the checker, as a volatile access is (a flag between groups)
    if (flags & TGSIM_ATOMIC_LIBCU) {
      const std::uint64_t tag = t->group_->tag(loc, kind, width);
      t->group_->mark_volatile(tag);
      if ((flags & TGSIM_ATOMIC_NO_ACQUIRE) || op == TGSIM_ATOMIC_STORE) t->group_->mark_no_acquire(tag);
      if (shared) t->group_->mark_shared_order(tag, shared_order);
    }
    if (op == TGSIM_ATOMIC_LOAD && !shared) t->group_->mark_spin_atomic(t->group_->tag(loc, kind, width), true);
    t->group_->record(*t, loc, kind, a, width, addr);
  } else {
    if (aggregated && !shared) t->group_->mark_warp_aggregated(loc, width);
    if ((flags & TGSIM_ATOMIC_BLOCK_SCOPE) && !shared)
      t->group_->mark_block_scope(t->group_->tag(loc, SiteKind::kGlobalAtomic, width));
    if ((flags & TGSIM_ATOMIC_NO_ACQUIRE) && !shared)
      t->group_->mark_no_acquire(t->group_->tag(loc, SiteKind::kGlobalAtomic, width));
    if (shared && (flags & TGSIM_ATOMIC_LIBCU))
      t->group_->mark_shared_order(t->group_->tag(loc, SiteKind::kSharedAtomic, width), shared_order);
    if (shared)
      t->group_->record(*t, loc, SiteKind::kSharedAtomic, offset, width, addr);
    else  // a read a spin-wait may repeat when it leaves memory as it was (engine/spin.cpp)
      t->group_->record_rmw(*t, loc, a, width, addr, leaves_memory(op, type, operand, compare));
  }
  switch (type) {
    case TGSIM_I32: return run_atomic<std::int32_t>(addr, op, operand, compare, shared);
    case TGSIM_U32: return run_atomic<std::uint32_t>(addr, op, operand, compare, shared);
    case TGSIM_I64: return run_atomic<std::int64_t>(addr, op, operand, compare, shared);
    case TGSIM_U64: return run_atomic<std::uint64_t>(addr, op, operand, compare, shared);
    case TGSIM_F32: return run_atomic<float>(addr, op, operand, compare, shared);
    case TGSIM_F16X2: case TGSIM_BF16X2: return run_pair_add(addr, operand, shared, type == TGSIM_BF16X2);
    default: return run_atomic<double>(addr, op, operand, compare, shared);
  }
}

}  // extern "C"
