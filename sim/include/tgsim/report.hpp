// Report: the data one launch produces. Counters are exact integers summed over warp
// instructions (docs/hardware-model.md section 9 names the Nsight Compute metric of each);
// findings are errors of the simulated kernel, grouped by kind and source site (a site pair
// for a hazard, as racecheck's analysis mode groups them) with a count and one example (the
// lowest block, then thread), so any worker count gives the same report.
// Writers (text table, JSON) live in report.cpp; a Report itself is plain data.
#pragma once
#include <cstddef>
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
  std::uint64_t wavefronts = 0;        // shared: docs/hardware-model.md section 2.4
  std::uint64_t ideal_wavefronts = 0;  // shared: non-empty phases
  std::uint64_t distinct_addresses = 0;  // constant: one serialised access per distinct address
  std::uint64_t l1_hit_sectors = 0;    // global loads: sectors valid in the SM's L1 (cache model)

  std::uint64_t requests() const { return instructions; }  // one request per warp instruction
  std::uint64_t bank_conflicts() const { return wavefronts - ideal_wavefronts; }
  AccessCounters& operator+=(const AccessCounters& o);
  friend bool operator==(const AccessCounters&, const AccessCounters&) = default;
  // Every field once, as f(name, pointer to member): operator+= adds what it lists.
  template <class F> static constexpr void fields(F&& f) {
    f("thread_accesses", &AccessCounters::thread_accesses);
    f("instructions", &AccessCounters::instructions);
    f("sectors", &AccessCounters::sectors);
    f("bytes", &AccessCounters::bytes);
    f("wavefronts", &AccessCounters::wavefronts);
    f("ideal_wavefronts", &AccessCounters::ideal_wavefronts);
    f("distinct_addresses", &AccessCounters::distinct_addresses);
    f("l1_hit_sectors", &AccessCounters::l1_hit_sectors);
  }
};

struct Counters {
  AccessCounters global_load, global_store, shared_load, shared_store;
  AccessCounters global_atomic, shared_atomic;  // atomicAdd & co. (sectors for global ones)
  AccessCounters constant_load;                 // __constant__ reads (distinct_addresses)
  std::uint64_t barriers = 0;   // BAR: one per warp per barrier call
  std::uint64_t warpsync = 0;   // WARPSYNC: one per completed __syncwarp rendezvous of a warp
  std::uint64_t shfl = 0;       // SHFL: one per shuffle per warp per 32-bit word (a double: 2)
  std::uint64_t vote = 0;       // VOTE: __ballot_sync, __any_sync, __all_sync per warp
  std::uint64_t warp_reduce = 0;  // Metal simd_sum / simd_max per SIMD group (no NVIDIA opcode)
  // The memory-hierarchy model (sim/src/analyses/cache/cache.hpp, LaunchConfig::cache_model): L1 read misses
  // and store sectors reaching L2 (lts__t_sectors_srcunit_tex_op_read / _op_write) and the
  // DRAM bytes of L2 misses (dram__bytes_read / _write). All 0 with the model off.
  bool cache_modelled = false;
  std::uint64_t l2_read_sectors = 0, l2_write_sectors = 0;
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  // The sum of two launches' counters (every field; a multi-launch kernel reports the sum).
  Counters& operator+=(const Counters& o);
  friend bool operator==(const Counters&, const Counters&) = default;
  // Every field once, as f(path, pointer to member), the path being its place in the JSON
  // report's "counters" object: operator+= and to_json go through this list.
  template <class F> static constexpr void fields(F&& f) {
    f("global.load", &Counters::global_load);
    f("global.store", &Counters::global_store);
    f("global.atomic", &Counters::global_atomic);
    f("shared.load", &Counters::shared_load);
    f("shared.store", &Counters::shared_store);
    f("shared.atomic", &Counters::shared_atomic);
    f("constant.load", &Counters::constant_load);
    f("barriers", &Counters::barriers);
    f("warpsync", &Counters::warpsync);
    f("shfl", &Counters::shfl);
    f("vote", &Counters::vote);
    f("warp_reduce", &Counters::warp_reduce);
    f("cache_modelled", &Counters::cache_modelled);
    f("l2.read_sectors", &Counters::l2_read_sectors);
    f("l2.write_sectors", &Counters::l2_write_sectors);
    f("dram.read_bytes", &Counters::dram_read_bytes);
    f("dram.write_bytes", &Counters::dram_write_bytes);
  }
};

enum class SiteKind : std::uint8_t {
  kGlobalLoad, kGlobalStore, kSharedLoad, kSharedStore, kBarrier,
  kGlobalAtomic, kSharedAtomic, kConstantLoad, kShuffle, kVote, kWarpSync, kWarpReduce,
  // An access of front-end-compiled code before its address places it (global, shared or the
  // thread's own stack): never in a Report, each becomes one of the kinds above.
  kLoad, kStore
};
// "global.load", "global.store", "shared.load", "shared.store", "barrier", "global.atomic",
// "shared.atomic", "constant.load", "shfl", "vote", "warpsync", "warp_reduce", "load", "store"
const char* to_string(SiteKind k);

struct SiteCounters {
  std::string file;
  std::uint32_t line = 0, column = 0;  // column: a merged access's 2nd line above it (kernel/abi.h)
  SiteKind kind = SiteKind::kGlobalLoad;
  AccessCounters counters;
  std::uint64_t barriers = 0;  // barrier sites: BAR count
  std::uint64_t warp_ops = 0;  // shfl/vote/warpsync/warp_reduce sites: their count
  std::string where() const;  // "matmul.cu:34:21"
  friend bool operator==(const SiteCounters&, const SiteCounters&) = default;
};

// Hazards (the checker, LaunchConfig::check) are pairs of accesses to one memory word by two
// threads with no barrier between them, at least one a store. RAW: the store comes first in
// lockstep order (each thread's access count since the barrier), WAR: the load comes first,
// WAW: two stores. Lanes of one warp are unordered too unless a __syncwarp separates them
// (independent thread scheduling); such a hazard gets a kWarp* kind of its own.
enum class FindingKind {
  kOutOfBounds,
  kBarrierDivergence,  // also a __syncwarp whose named lanes exited or wait elsewhere
  kRaw,
  kWar,
  kWaw,
  kWarpRaw,
  kWarpWar,
  kWarpWaw,
  kUninitialized,  // a shared word read before any thread of the group wrote it
  kWarpCollective,  // a shuffle/vote whose mask leaves the caller out, mismatched masks or
                    // intrinsics across a warp, or a read of a lane that does not take part
  kConstantWrite,   // a store to __constant__ memory (read-only in kernels)
  kUseAfterFree,    // a subscript of a global_ptr whose Buffer was destroyed (access dropped)
  kWatchdog,        // a thread ran LaunchConfig::watchdog_accesses accesses in one barrier
                    // interval (a runaway loop); its group was ended
  kUnsupported,     // a kernel used a CUDA or Metal feature tgsim does not model
  kAssert,          // a failed assert() in kernel code: the thread ended, the launch failed
                    // (cudaErrorAssert on the GPU)
  kTrap,            // __trap(), asm("trap;"), __brkpt() or abort() in kernel code: the thread
                    // ended, the launch failed (cudaErrorLaunchFailure on the GPU)
  kIntegerDivision,  // an integer division or remainder by 0, or INT_MIN / -1 (the value is
                     // the GPU's: x / 0 = all ones, x % 0 = x, INT_MIN / -1 = INT_MIN)
  kMisaligned,       // an access of N bytes at an address that is not a multiple of N (the
                     // GPU stops the launch: cudaErrorMisalignedAddress); tgsim performs it
};
// "out-of-bounds", "barrier-divergence", "raw-hazard", "war-hazard", "waw-hazard",
// "warp-sync-raw-hazard", "warp-sync-war-hazard", "warp-sync-waw-hazard", "uninitialized-read",
// "warp-collective", "constant-write", "use-after-free", "watchdog", "unsupported", "assert",
// "trap", "integer-division", "misaligned-access"
const char* to_string(FindingKind k);
bool is_hazard(FindingKind k);

struct Finding {
  FindingKind kind = FindingKind::kOutOfBounds;
  std::string file;  // the site; for a hazard the first access (RAW/WAW: store, WAR: load)
  std::uint32_t line = 0, column = 0;  // column, column2: as SiteCounters::column
  std::string file2;  // a hazard's second access; empty and 0 otherwise
  std::uint32_t line2 = 0, column2 = 0;
  std::string message;   // the example's full sentence
  Dim3 block, thread;    // the example: lowest block, then lowest thread in it
  std::uint32_t warp = 0, lane = 0;
  Dim3 block2, thread2;  // a hazard's other thread (block2 != block: two threadgroups)
  std::string object;    // shared array or buffer name ("tileA", "C"); empty if none
  std::int64_t index = -1;  // element index in `object` (flat, row-major); -1 if none
  std::uint64_t count = 0;  // how many times this (kind, site[s]) happened in the launch
  std::string where() const;   // "matmul.cu:38"
  std::string where2() const;  // "matmul.cu:33", or "" without a second site
  friend bool operator==(const Finding&, const Finding&) = default;
};

// One warp instruction copied out of a launch (LaunchConfig::capture_site): the first
// instruction at that site of the lowest threadgroup, lowest warp. `tgsim explain` draws it.
struct CapturedInstruction {
  bool present = false;
  std::string file;
  std::uint32_t line = 0, column = 0;
  SiteKind kind = SiteKind::kGlobalLoad;
  std::uint32_t width = 4;     // bytes per lane
  std::uint32_t mask = 0;      // active lanes
  std::uint64_t addr[32] = {};  // byte address (global) or shared offset, active lanes only
  std::uint64_t group = 0;     // linear threadgroup index
  std::uint32_t warp = 0;
  friend bool operator==(const CapturedInstruction&, const CapturedInstruction&) = default;
};

// One shuffle as it ran (LaunchConfig::capture_site set): the shuffles of the lowest (group,
// warp) that shuffles, in the order they completed, at most kMaxCapturedShuffles of them.
// `tgsim explain` draws them step by step.
struct CapturedShuffle {
  std::string file;
  std::uint32_t line = 0, column = 0;
  std::string op;            // "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync"
  std::uint32_t mask = 0;    // the lanes that took part
  std::uint32_t words = 1;   // 32-bit words each lane moved (a double: 2)
  std::int32_t arg[32] = {};     // each lane's source lane, delta or lane mask as passed
  std::int32_t width[32] = {};   // each lane's segment width (a power of 2, at most 32)
  std::int32_t source[32] = {};  // the lane each lane read: itself where it kept its own value;
                                 // outside 0..31, or a lane outside `mask`: a poison value
  std::uint64_t group = 0;
  std::uint32_t warp = 0;
  friend bool operator==(const CapturedShuffle&, const CapturedShuffle&) = default;
};
inline constexpr std::size_t kMaxCapturedShuffles = 64;

// Bytes [begin, end) (offsets) of a buffer whose values may depend on the order of atomics:
// written by an atomic, or stored by a thread after it made an atomic, or by any thread of its
// group after a barrier that followed one (LaunchConfig::check only). `tgsim check` reports a
// result that differs between schedules only in such bytes as information, not as a finding.
struct AtomicBytes {
  std::string buffer;  // the buffer's name
  std::uint64_t begin = 0, end = 0;
  bool operator==(const AtomicBytes&) const = default;
};

// A sampled launch (LaunchConfig::sample): Report::counters and ::sites are estimates of the
// whole launch's (rounded), each counter with a 95% confidence interval for its whole-launch
// value; findings and printed lines are those of the groups that ran, their counts unscaled.
struct Sampling {
  bool on = false;
  std::uint64_t groups_simulated = 0, groups_total = 0;  // distinct groups run; groups in the grid
  std::uint32_t replicates = 0;  // independent systematic samples (the interval's degrees of freedom + 1)
  bool automatic = false;        // LaunchConfig::sample_auto chose to sample (`--sample auto`)
  double share_asked = 0;        // the share asked (`--sample P`) or chosen (auto)
  double full_events = 0;        // auto: a full run's thread events (accesses, barriers, warp ops) as group 0 predicts
  std::uint32_t strata = 0, path_splits = 0;  // strata drawn from; of them, made by a change of path
  std::uint64_t pilot_groups = 0;  // groups run one at a time to find the paths (in groups_simulated)
  struct Interval {
    std::string counter;  // the JSON path, "global.load.sectors"
    double estimate = 0, low = 0, high = 0;
  };
  std::vector<Interval> intervals;  // every counter whose estimate is not 0, in Counters order
};

struct Report {
  std::string kernel;
  Dim3 grid, block;
  std::string profile = "nvidia-h100";
  Counters counters;
  CapturedInstruction captured;
  std::vector<CapturedShuffle> shuffles;  // LaunchConfig::capture_site set: the lowest warp's
  std::uint64_t shuffles_total = 0;       // how many shuffles that warp ran (past the ones kept)
  std::vector<SiteCounters> sites;  // sorted by file, line, column, kind
  std::vector<Finding> findings;    // sorted by kind, then file, line, column (then site 2)
  std::string printed;  // the kernel's printf output, by group, barrier interval, thread and call (empty when LaunchConfig::print_out took it)
  std::vector<std::string> notes;   // what the counts cannot show (e.g. no access was seen)
  std::vector<AtomicBytes> atomic_bytes;  // LaunchConfig::check: sorted by buffer span, merged
  Sampling sampling;                      // LaunchConfig::sample: what the counters estimate
  bool clean() const { return findings.empty(); }
};

std::string to_json(const Report& r, int indent = 2);

// The words of the text report: English unless a caller passes its language's (the command's
// --lang ja). "{0}".."{6}" stand for the numbers each line prints, in order. Cells are padded by
// display width (a CJK character takes two columns).
struct ReportWords {
  std::string kernel = "kernel", grid = "grid", block = "block", sampled = "SAMPLED";
  // A sampled launch: {0} groups simulated of {1}, {2} their share in percent.
  std::string sampled_exact =
      "sampled: {0} of {1} threadgroups simulated ({2}%); too few groups to sample: the counters below are exact";
  std::string sampled_estimates = "sampled: {0} of {1} threadgroups simulated ({2}%); the counters below are "
                                  "estimates of the whole launch; 95% intervals:";
  // `--sample auto` chose to sample: {0} a full run's thread events as group 0 predicts them,
  // {1} the strata, {2} those made by a change of path, {3} the pilot's groups.
  std::string sampled_auto = "sampled by --sample auto: a full run would make about {0} thread accesses; {1} strata "
                             "({2} split where the groups' paths change, {3} pilot groups); --sample off runs it whole";
  std::string thread_accesses = "thread acc.", warp_instructions = "warp instr.", sectors = "sectors",
              sectors_per_request = "sect/req", wavefronts = "wavefronts", conflicts = "conflicts";
  std::string global_load = "global load", global_store = "global store", shared_load = "shared load",
              shared_store = "shared store";
  std::string global_atomics = "global atomics: {0} warp instr., {1} thread ops, {2} sectors";
  std::string shared_atomics = "shared atomics: {0} warp instr., {1} thread ops, {2} wavefronts";
  std::string constant_loads = "constant loads: {0} warp instr., {1} serialised accesses (one per distinct address)";
  std::string barriers = "barriers (BAR per warp): {0}";
  std::string simd_reductions = "simd reductions";
  // {0} the profile, {1} L1 hit sectors, {2} load sectors, {3} {4} L2 read and write sectors,
  // {5} {6} DRAM bytes read and written.
  std::string memory = "memory ({0}): L1 hits {1} of {2} load sectors; L2 read {3} / write {4} sectors; DRAM read {5} / write {6} bytes";
  std::string by_site = "by source site:";
  std::string site_instructions = "instr", site_sectors = "sectors", site_wavefronts = "wavefronts",
              site_conflicts = "conflicts", site_serialised = "serialised", site_count = "count";
  std::string findings_none = "findings: none", findings = "findings: {0}";
  // {0} the kind, {1} where (and the second site), {2} how often, {3} block, {4} thread,
  // {5} the example sentence: `example(f)` where given, else Finding::message.
  std::string finding = "{0} at {1} [{2}], e.g. block {3} thread {4}: {5}";
  std::string and_word = " and ", time = " time", times = " times";
  std::string (*example)(const Finding&) = nullptr;
};

void write_text(std::ostream& os, const Report& r, const ReportWords& words = {});

}  // namespace tgsim
