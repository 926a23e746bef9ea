// The tgsim command's interface (tgsim/internal/, not for users; docs/design.md): text helpers
// shared by the library's reports and the command: numbers with thousands separators or a
// fixed precision, a path's last component, a merged site's second line, and text escaped for
// XML (SVG, HTML). The library spells them detail::, the command internal::.
#pragma once
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include <tgsim/kernel/abi.h>

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

// " (also line 19)" for a site the optimiser made of two source accesses, else "": a pass-made
// site's column field holds the second line above the column (tgsim/kernel/abi.h).
inline std::string also_line(std::uint32_t column_field) {
  const std::uint32_t also = tgsim_site_also(column_field);
  return also ? " (also line " + std::to_string(also) + ")" : std::string();
}

// 3.14159, 2 -> "3.14"
inline std::string fixed(double v, int precision) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(precision);
  o << v;
  return o.str();
}

// Text for an XML element or attribute: < > & " escaped.
inline std::string xml_escape(std::string_view text) {
  std::string o;
  for (char ch : text) {
    if (ch == '<') o += "&lt;";
    else if (ch == '>') o += "&gt;";
    else if (ch == '&') o += "&amp;";
    else if (ch == '"') o += "&quot;";
    else o += ch;
  }
  return o;
}

}  // namespace tgsim::detail

namespace tgsim::internal {
using detail::also_line;
using detail::basename_of;
using detail::fixed;
using detail::with_commas;
using detail::xml_escape;
}  // namespace tgsim::internal
