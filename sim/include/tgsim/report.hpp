// Report: the data one launch produces. Counters are exact integers summed over warp
// instructions (hardware-model.md section 7 names the Nsight Compute metric of each);
// findings are errors of the simulated kernel, grouped by kind and source site with a count
// and one example (the lowest block, then thread), so any worker count gives the same report.
// Writers (text table, JSON) live in report.cpp; a Report itself is plain data.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <tgsim/dim.hpp>

namespace tgsim {

struct AccessCounters {
  std::uint64_t thread_accesses = 0;   // lanes that accessed
  std::uint64_t instructions = 0;      // warp instructions with >= 1 active lane
  std::uint64_t sectors = 0;           // global: distinct 32-byte sectors per instruction, summed
  std::uint64_t bytes = 0;             // bytes requested by the lanes
  std::uint64_t wavefronts = 0;        // shared: hardware-model.md section 1.3
  std::uint64_t ideal_wavefronts = 0;  // shared: non-empty phases

  std::uint64_t requests() const { return instructions; }  // one request per warp instruction
  std::uint64_t bank_conflicts() const { return wavefronts - ideal_wavefronts; }
  AccessCounters& operator+=(const AccessCounters& o);
  friend bool operator==(const AccessCounters&, const AccessCounters&) = default;
};

struct Counters {
  AccessCounters global_load, global_store, shared_load, shared_store;
  std::uint64_t barriers = 0;  // BAR: one per warp per barrier call
  friend bool operator==(const Counters&, const Counters&) = default;
};

enum class SiteKind { kGlobalLoad, kGlobalStore, kSharedLoad, kSharedStore, kBarrier };
const char* to_string(SiteKind k);  // "global.load", ..., "barrier"

struct SiteCounters {
  std::string file;
  std::uint32_t line = 0, column = 0;
  SiteKind kind = SiteKind::kGlobalLoad;
  AccessCounters counters;
  std::uint64_t barriers = 0;
  std::string where() const;  // "matmul.cuh:41:25"
  friend bool operator==(const SiteCounters&, const SiteCounters&) = default;
};

enum class FindingKind { kOutOfBounds, kBarrierDivergence };
const char* to_string(FindingKind k);  // "out-of-bounds", "barrier-divergence"

struct Finding {
  FindingKind kind = FindingKind::kOutOfBounds;
  std::string file;
  std::uint32_t line = 0, column = 0;
  std::string message;   // the example's full sentence
  Dim3 block, thread;    // the example: lowest block, then lowest thread in it
  std::uint32_t warp = 0, lane = 0;
  std::uint64_t count = 0;  // how many times this (kind, site) happened in the launch
  std::string where() const;
  friend bool operator==(const Finding&, const Finding&) = default;
};

struct Report {
  std::string kernel;
  Dim3 grid, block;
  Counters counters;
  std::vector<SiteCounters> sites;  // sorted by file, line, column, kind
  std::vector<Finding> findings;    // sorted by file, line, column, kind
  bool clean() const { return findings.empty(); }
};

std::string to_json(const Report& r, int indent = 2);
void write_text(std::ostream& os, const Report& r);

}  // namespace tgsim
