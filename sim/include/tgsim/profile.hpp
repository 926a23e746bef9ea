// DeviceProfile: the limits a launch is validated against and the memory geometry the
// counters use. Only the NVIDIA H100 (sm_90) profile is modelled here; its figures are
// from the CUDA C++ Programming Guide (compute capability 9.0 table).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace tgsim {

struct DeviceProfile {
  std::string name;
  std::uint32_t warp_size = 32;
  std::uint32_t max_threads_per_group = 1024;
  std::uint32_t max_block_x = 1024, max_block_y = 1024, max_block_z = 64;
  std::uint32_t max_grid_x = 2147483647u, max_grid_y = 65535, max_grid_z = 65535;
  std::size_t max_static_shared_bytes = 48 * 1024;      // __shared__ declarations
  std::size_t max_shared_bytes_per_group = 227 * 1024;  // static + dynamic (opt-in maximum)
  std::uint32_t shared_banks = 32;
  std::uint32_t bank_bytes = 4;
  std::uint32_t sector_bytes = 32;
};

namespace profiles {
inline DeviceProfile nvidia_h100() {
  DeviceProfile p;
  p.name = "nvidia-h100";
  return p;
}
}  // namespace profiles

}  // namespace tgsim
