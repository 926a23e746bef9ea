// Small helpers shared by GroupRun's files (group.cpp, warp_collective.cpp): the exception
// that unwinds a group's waiting threads, and the text of findings.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <source_location>
#include <string>
#include "report/util.hpp"

namespace tgsim::detail {

// Thrown into waiting threads to end a group that cannot go on (divergence, exception).
struct AbortGroup {};

inline std::string hex(std::uint32_t mask) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", mask);
  return buf;
}

inline bool same_site(const std::source_location& a, const std::source_location& b) {
  // One call site has one source_location object (libstdc++): equal pointers, no strcmp.
  if (std::memcmp(&a, &b, sizeof a) == 0) return true;
  return a.line() == b.line() && a.column() == b.column() &&
         (a.file_name() == b.file_name() || std::strcmp(a.file_name(), b.file_name()) == 0);
}

inline std::string where(const std::source_location& loc) {
  return basename_of(loc.file_name()) + ":" + std::to_string(loc.line()) + also_line(loc.column());
}

}  // namespace tgsim::detail
