// Dim3: a grid, block or index extent in three dimensions (CUDA's dim3 / Metal's uint3).
// Linearisation is x-fastest, as the hardware forms warps: t = x + y*Dx + z*Dx*Dy.
#pragma once
#include <cstdint>
#include <string>

namespace tgsim {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  constexpr Dim3() = default;
  constexpr Dim3(std::uint32_t x_, std::uint32_t y_ = 1, std::uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
  constexpr std::uint64_t volume() const { return std::uint64_t(x) * y * z; }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
  std::string str() const {
    return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
  }
};

// Index of `linear` inside extent `e` (x fastest).
constexpr Dim3 unlinearise(std::uint64_t linear, const Dim3& e) {
  return Dim3(std::uint32_t(linear % e.x), std::uint32_t((linear / e.x) % e.y),
              std::uint32_t(linear / (std::uint64_t(e.x) * e.y)));
}
constexpr std::uint64_t linearise(const Dim3& i, const Dim3& e) {
  return i.x + std::uint64_t(e.x) * (i.y + std::uint64_t(e.y) * i.z);
}

}  // namespace tgsim
