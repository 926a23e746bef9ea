// Small helpers used across the library and the command: numbers with thousands separators
// and a path's last component.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace tgsim::detail {

// 14680064 -> "14,680,064"
inline std::string with_commas(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

// "a/b/c.cu" -> "c.cu"
inline std::string basename_of(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace tgsim::detail
