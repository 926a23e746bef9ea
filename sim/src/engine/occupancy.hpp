// Occupancy: how many groups of a size and shared memory one SM holds at once, by the
// documented per-SM limits (groups, warps, shared memory with its per-block reservation).
// Serves cudaOccupancy* (cuda_host_device.cpp) and the size check of cooperative launches.
#pragma once
#include <algorithm>
#include <cstddef>

#include <tgsim/profile.hpp>

namespace tgsim::detail {

// The shared memory the runtime reserves per block (sm_80 and later: 1 KiB).
inline constexpr std::size_t kReservedSharedPerBlock = 1024;

// Shared memory per SM: the per-block opt-in maximum plus one block's reservation (228 KiB).
inline std::size_t shared_per_sm(const DeviceProfile& d) {
  return d.max_shared_bytes_per_group + kReservedSharedPerBlock;
}

// Resident blocks of `threads` threads using `shared` bytes each on one SM.
inline int blocks_per_sm(const DeviceProfile& d, int threads, std::size_t shared) {
  if (threads <= 0 || static_cast<unsigned>(threads) > d.max_threads_per_group) return 0;
  const unsigned warps = (static_cast<unsigned>(threads) + d.warp_size - 1) / d.warp_size;
  unsigned n = std::min(d.max_groups_per_sm, d.max_warps_per_sm / warps);
  if (shared > d.max_shared_bytes_per_group) return 0;
  n = static_cast<unsigned>(std::min<std::size_t>(n, shared_per_sm(d) / (shared + kReservedSharedPerBlock)));
  return static_cast<int>(n);
}

}  // namespace tgsim::detail
