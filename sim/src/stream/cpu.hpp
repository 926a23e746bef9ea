// What the CPU running tgsim offers, asked once, for the paths that dispatch on it (the warp
// transpose, the sector window). tgsim is built for x86-64-v2; AVX2 is used only where found.
#pragma once

namespace tgsim::detail {

// Whether this CPU runs AVX2: false on any other architecture or compiler.
inline bool cpu_has_avx2() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has;
#else
  return false;
#endif
}

}  // namespace tgsim::detail
