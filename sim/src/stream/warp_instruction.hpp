// The stream the warp grouper (warp_flush.cpp) emits and every analysis consumes: one warp
// instruction (a memory access, a barrier or a warp collective of one warp, with its lanes'
// address spread when the grouper knows it), the placement test by that spread
// (lanes_inside), and the context the sinks merge into the Report (sinks.hpp).
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <tgsim/models.hpp>
#include <tgsim/report.hpp>

#include "engine/launch_state.hpp"

namespace tgsim::detail {

struct CollectiveOp;  // <tgsim/warp.hpp>: a completed shuffle's operation (the sinks' on_shuffle)

struct WarpInstruction {
  std::uint32_t site;   // the launch's site id (SiteTable)
  SiteKind kind;        // never kLoad/kStore: front-end accesses are placed first
  std::uint32_t width;  // bytes per lane (memory instructions)
  std::uint32_t mask;   // active lanes
  const std::uint64_t* addr;  // addr[lane] for active lanes; null for barriers and collectives
  std::uint64_t group;  // linear threadgroup index
  std::uint32_t warp;   // warp index in the group
  std::uint32_t ops = 1;  // barriers and collectives: SASS instructions (a double SHFL: 2)
  // Memory instructions: the lanes' spread (model::WarpAccess::spread) when the grouper
  // computed it, else model::kUnknownSpread.
  std::uint64_t spread = model::kUnknownSpread;
};

// A store or an atomic: the accesses that carry bytes and can conflict.
inline bool is_write(SiteKind k) {
  return k == SiteKind::kSharedStore || k == SiteKind::kGlobalStore || k == SiteKind::kSharedAtomic ||
         k == SiteKind::kGlobalAtomic || k == SiteKind::kStore;
}

// The warp grouper's fast shared rows: `rows` full-warp shared accesses (kSharedLoad or
// kSharedStore) of one site of one warp, `width` bytes per lane, each of whose spreads keeps it
// in one wavefront and inside the declared bytes (model::one_shared_wavefront, lanes_inside).
// Their lanes are never gathered: a sink counts them as it would count each as an instruction.
struct SharedRows {
  std::uint32_t site;
  SiteKind kind;
  std::uint32_t width;
  std::uint32_t rows;
  std::uint64_t group;
  std::uint32_t warp;
};

// True when every active lane of an instruction whose lowest active lane is at `a0` and whose
// spread is `spread` (model::WarpAccess::spread) holds its `width` bytes inside
// [from, from + size): the lanes agree with a0 above the spread's highest bit, so they lie in
// [a0 & ~fill, a0 | fill], fill that bit and all below. Conservative: false may still be inside
// (an unknown spread is never inside).
inline bool lanes_inside(std::uint64_t a0, std::uint64_t spread, std::uint32_t width, std::uint64_t from,
                         std::uint64_t size) {
  const std::uint64_t fill = spread == 0 ? 0 : ~std::uint64_t(0) >> std::countl_zero(spread);
  const std::uint64_t lo = a0 & ~fill, hi = a0 | fill;
  return lo - from < size && hi - from < size && hi - from + width <= size;
}

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
