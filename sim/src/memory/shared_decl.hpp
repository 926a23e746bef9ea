// One shared-memory array of a threadgroup, as declared (the proxy dialect's shared_array or a
// front-end kernel's __shared__ / threadgroup variable): where it lies in the group's arena and
// its shape, so that findings name the array and the element.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tgsim::detail {

struct SharedDecl {
  const char* file;
  std::uint32_t line, column;
  std::string name;
  std::uint32_t offset = 0;
  std::size_t bytes = 0;
  std::vector<std::size_t> extents;
};

}  // namespace tgsim::detail
