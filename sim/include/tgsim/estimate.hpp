// A roofline-style time estimate from a launch's counters and a device profile. Each unit
// the kernel's traffic passes through gets a time, traffic / throughput:
//   dram  = DRAM bytes / (bandwidth x achievable fraction)
//   l2    = L2 sectors x 32 / L2 bandwidth
//   l1    = (global sectors + shared wavefronts) / (busy SMs x wavefronts per clock x clock):
//           the L1/shared data stage serves one 128-byte wavefront per clock; a global
//           access costs one per 32-byte sector (assumption), a shared one per wavefront
//   fp32  = FLOPs / peak
//   latency = waves x (global loads per warp) x (average load latency): a warp's loads wait
//           one after another; it binds when too few warps are resident to hide it
// Occupancy: a group's warps = ceil(threads / warp size); groups per SM = min(max groups,
// max warps / warps per group) (shared memory and registers are not counted); busy SMs =
// min(SMs, groups); waves = ceil(groups / (busy SMs x groups per SM)).
// L2 capacity: the launch's reads fit L2 when its compulsory DRAM reads (every byte read
// once) are at most l2_bytes. Beyond, the re-reads leave L2: a fraction 1 - l2_bytes /
// footprint of the L2 read sectors are read again from DRAM (dram term), and an L1 miss costs
// l1_miss_dram_clk instead of l1_miss_l2_clk (on the H100 the cost steps up between n=2560 and
// n=3072 of the naive matmul, where A and B outgrow the 50 MiB L2: hardware/size_probe).
// Unified load path (DeviceProfile::unified_load_path, Apple): no latency term, and the
// re-reads are at most (waves - 1) x footprint.
// time = max(terms) + launch overhead; `bound` names the largest term. Not modelled: issue
// slots, instruction latency other than loads, tensor cores, clock changes, the L2's merging
// of requests from several SMs (l2_read_sectors is an upper bound: see cache.hpp).
#pragma once
#include <cstdint>
#include <string>

#include <tgsim/profile.hpp>
#include <tgsim/report.hpp>

namespace tgsim {

struct Estimate {
  double time_s = 0;
  std::string bound;  // "dram", "l2", "l1", "fp32", "latency"
  double dram_s = 0, l2_s = 0, l1_s = 0, fp32_s = 0, latency_s = 0, overhead_s = 0;
  // Occupancy and capacity, as the terms used them.
  std::uint64_t groups = 0;
  std::uint32_t busy_sms = 0, groups_per_sm = 0;
  double waves = 0;
  bool reads_fit_l2 = true;
  std::uint64_t dram_reread_bytes = 0;  // L2 read sectors that miss L2 beyond its capacity
  bool latency_modelled = true;          // false under the unified load path rule (latency_s 0)
  double time_ms() const { return time_s * 1e3; }
};

struct Workload {
  std::uint64_t groups = 1;
  std::uint32_t threads_per_group = 32;
  double flops = 0;  // floating-point operations of the whole launch (an FMA is 2)
};

Estimate estimate(const Counters& c, const Workload& w, const DeviceProfile& p);

// Counters of a launch at a larger size, from counters measured at a smaller one: every
// per-access counter (instructions, requests, sectors, wavefronts, L1 hits, L2 sectors)
// times `access_factor`, DRAM bytes (compulsory traffic) times `footprint_factor`; written
// data reaches DRAM when the scaled footprint no longer fits L2 (each output written once).
// Valid when the access pattern per thread is the same at both sizes and L1 behaviour per
// group does not change (true for the seed matmuls and transposes, stated in the README).
Counters scale_counters(const Counters& c, double access_factor, double footprint_factor,
                        const DeviceProfile& p);

}  // namespace tgsim
