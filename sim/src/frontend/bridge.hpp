// Shared by the library's entry points for front-end kernels (bridge.cpp, bridge_warp.cpp).
#pragma once
#include <cstring>
#include <source_location>

#include <tgsim/kernel/abi.h>

namespace tgsim::detail {

// A pass-made site (a tgsim_site, laid out as libstdc++'s std::source_location::__impl) as the
// source_location the rest of the library keys sites by; a null site is "<unknown site>".
inline std::source_location loc_of(const void* site) {
  static const tgsim_site unknown{"<unknown site>", "", 0, 0, 0};
  if (!site) site = &unknown;
  std::source_location loc;
  std::memcpy(static_cast<void*>(&loc), &site, sizeof site);
  return loc;
}

}  // namespace tgsim::detail
