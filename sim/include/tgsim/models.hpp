// The pure hardware models behind every counter (docs/hardware-model.md sections 1.2, 2.1-2.4):
// 32-byte sectors per global warp request, and shared-memory wavefronts over 32 banks of
// 4 bytes with broadcast, split into half/quarter-warp phases for 8- and 16-byte accesses
// (merged for loads under the pair condition). One call models one warp instruction.
#pragma once
#include <cstdint>

namespace tgsim::model {

struct WarpAccess {
  std::uint32_t active = 0;          // bit i: lane i takes part
  std::uint32_t width = 4;           // bytes per lane: 1, 2, 4, 8 or 16
  const std::uint64_t* addr = nullptr;  // addr[lane], read for active lanes only
};

// Distinct 32-byte sectors touched by the active lanes' byte ranges [a, a+width).
std::uint32_t global_sectors(const WarpAccess& a);

struct Wavefronts {
  std::uint32_t wavefronts = 0;  // sum over phases of the max distinct words in one bank
  std::uint32_t ideal = 0;       // phases with at least one active lane
  std::uint32_t conflicts() const { return wavefronts - ideal; }
};

// Distinct addresses of the active lanes (constant cache: one serialised access each).
std::uint32_t distinct_addresses(const WarpAccess& a);

// Shared memory: `addr` are byte offsets in the threadgroup's shared memory.
Wavefronts shared_wavefronts(const WarpAccess& a, bool is_load);

// Shared atomics (ATOMS): one phase over the whole warp at any width, the maximum over banks of
// the distinct 4-byte words the active lanes touch (lanes on one word count once). Matches
// smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom on the H100 (histogram256).
Wavefronts shared_atomic_wavefronts(const WarpAccess& a);

}  // namespace tgsim::model
