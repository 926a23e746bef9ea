// The stream the warp grouper (warp_flush.cpp) emits and every analysis consumes: one warp
// instruction (a memory access, a barrier or a warp collective of one warp), and the context
// the sinks merge into the Report (sinks.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include <tgsim/report.hpp>

#include "launch_state.hpp"

namespace tgsim::detail {

struct WarpInstruction {
  std::uint32_t site;   // the launch's site id (SiteTable)
  SiteKind kind;        // never kLoad/kStore: front-end accesses are placed first
  std::uint32_t width;  // bytes per lane (memory instructions)
  std::uint32_t mask;   // active lanes
  const std::uint64_t* addr;  // addr[lane] for active lanes; null for barriers and collectives
  std::uint64_t group;  // linear threadgroup index
  std::uint32_t warp;   // warp index in the group
  std::uint32_t ops = 1;  // barriers and collectives: SASS instructions (a double SHFL: 2)
};

// What a worker's sinks may need of its GroupRun, given once when they are made.
struct SinkEnv {
  const std::byte* arena;    // the group's shared memory
  std::size_t arena_bytes;
  std::size_t shared_valid;  // bytes of the arena the kernel declared
  std::uint32_t nthreads;    // threads per group
};

// Counters of one site, accumulated by one worker.
struct SiteAcc {
  AccessCounters c;
  std::uint64_t barriers = 0;
  std::uint64_t warp_ops = 0;  // shfl (per 32-bit word), vote, warpsync, warp_reduce
};

// What the sinks' totals merge into after the launch: the per-site sums (several sinks count
// into a site's row), the findings, and the Report. Workers are merged with order-free sums and
// min-ordered examples, so the Report is the same for any worker count.
struct MergeContext {
  LaunchState& st;
  const std::vector<SiteInfo>& infos;
  std::vector<SiteAcc> acc;  // per site id
  FindingMap findings;
  Report& report;
};

}  // namespace tgsim::detail
