// DeviceProfile: the limits a launch is validated against, the memory geometry the counters
// use, and the throughput figures of the time estimate (tgsim/estimate.hpp). nvidia-h100 is
// the modelled and measured device; apple-m3 and amd-cdna carry their documented limits and
// figures (docs/hardware-model.md section 11), with what is not public labelled as an assumption.
// Only 32-wide warps are simulated: a launch on a 64-wide profile throws LaunchError.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  bool bank_layout_assumed = false;  // true where the vendor does not publish it
  std::uint32_t sector_bytes = 32;

  // Memory hierarchy (the cache model, sim/src/analyses/cache/cache.hpp).
  std::uint32_t sm_count = 132;            // threadgroups are placed round-robin on these
  std::size_t l1_bytes = 256 * 1024;       // per SM (H100: unified L1/shared, see cache.hpp)
  std::uint32_t l1_line_bytes = 128;       // 4 sectors of 32 bytes
  std::uint32_t l1_ways = 16;              // assumption: set-associative, hashed sets, LRU
  std::size_t l2_bytes = 50 * 1024 * 1024;
  std::uint32_t dram_chunk_bytes = 64;     // DRAM fetch unit for an L2 read miss
  std::uint64_t dram_fixed_read_bytes = 3072;  // per launch, seen in tiny kernels

  // Throughput figures for the estimate.
  double clock_hz = 1.98e9;                 // SM clock
  double l1_wavefronts_per_clk = 1.0;       // per SM: one 128-byte data-stage wavefront/clock
  double l2_bytes_per_s = 5.5e12;
  double dram_bytes_per_s = 3.35e12;
  double dram_efficiency = 0.71;            // achievable fraction of dram_bytes_per_s
  double fp32_flops_per_s = 67e12;
  std::uint32_t max_warps_per_sm = 64;
  std::uint32_t max_groups_per_sm = 32;
  double launch_overhead_s = 3e-6;

  // Load latency of the estimate's latency term (estimate.hpp), in SM clocks: a load that
  // hits L1, and one that waits for an L1 fill, with the launch's reads inside L2 or beyond.
  double l1_hit_clk = 40;
  double l1_miss_l2_clk = 164;
  double l1_miss_dram_clk = 329;

  // The unified load path rule (Apple GPUs; docs/hardware-model.md 8.4). Threadgroup memory
  // and the L1 data cache are one on-chip SRAM behind one port, so a global sector and a
  // threadgroup wavefront take the same slot of the l1 term, and a kernel that moves its
  // loads from the L1 to threadgroup memory (tiling) gains only the ratio of their slots. Load
  // latency is hidden (up to 3,072 resident threads per core and a low-latency L2/SLC) and not
  // a term; DRAM re-reads beyond L2 are at most one more pass over the footprint per wave of
  // resident groups (the groups of a wave stream their operands together).
  bool unified_load_path = false;
};

namespace profiles {

// NVIDIA H100 80GB HBM3 (SXM5, sm_90).
// Limits: CUDA C++ Programming Guide, compute capability 9.0 table.
// sm_count 132, l2_bytes: cudaGetDeviceProperties on the project's H100 (tests/hardware/h100.json
//   timings.device: sm_count 132, l2_bytes 52428800).
// l1_bytes: Hopper tuning guide, "256 KB combined L1/shared per SM" (the shared carve-out is
//   not subtracted: the modelled kernels' L1 working sets are far smaller).
// dram_chunk_bytes, dram_fixed_read_bytes: docs/hardware-model.md 7.3 (H100 measured).
// clock_hz 1.98 GHz: NVIDIA H100 datasheet, SXM5 max boost clock.
// l1_wavefronts_per_clk: shared memory serves 128 bytes per clock per SM (CUDA Programming
//   Guide / Hopper tuning guide); we let global sectors use the same data stage.
// l2_bytes_per_s 5.5 TB/s: Chips and Cheese, "Nvidia's H100: Funny L2, and Tons of Bandwidth"
//   (measured L2 read bandwidth).
// dram_bytes_per_s 3.35 TB/s: NVIDIA H100 SXM5 datasheet (HBM3); dram_efficiency 0.71: the
//   fixture's relu at N=8192 moves 2.39 TB/s (tests/hardware/h100.json timings), i.e. 71 %.
// fp32_flops_per_s 67 TFLOPS: NVIDIA H100 SXM5 datasheet (FP32, non-tensor).
// max_warps_per_sm 64, max_groups_per_sm 32: CUDA Programming Guide, CC 9.0 table.
// l1_hit_clk 40: Chips and Cheese (above), H100 L1 hit latency.
// l1_miss_l2_clk 164, l1_miss_dram_clk 329: FITTED to CUDA-event times of matmul_naive on
//   the project's H100 at sizes the fixture does not time (tests/hardware/size_probe/
//   size_probe_time.txt): n=1024 and 1536 (A and B inside L2): 0.668, 2.220 ms, 162 and 159
//   clocks per warp load (waves x loads per warp); n=3072 and 3584 (beyond L2): 35.24,
//   54.87 ms, 324 and 316 clocks; 97 % of the loads wait for a fill (estimate.cpp). Tested
//   on the fixture's n=2048 and 4096 only. They are per-load figures of a loop with two loads
//   in flight, not pointer-chase latencies. (n=2560, A and B exactly 50 MiB: 190 clocks.)
inline DeviceProfile nvidia_h100() {
  DeviceProfile p;
  p.name = "nvidia-h100";
  return p;
}

// Apple M3 (10-core GPU), Metal. "metal-benchmarks" below is the README of
// github.com/philipturner/metal-benchmarks (commit dc2adc6), tables "GPU" and "On-Chip Memory",
// whose per-core figures are for Apple 7 and 8 (M1, M2): assumed for the M3 (Apple 9).
// warp_size 32: threadExecutionWidth. max_threads_per_group 1024 and 32 KiB threadgroup
//   memory: Metal Feature Set Tables (Apple GPU family 9).
// Banks: not public (metal-benchmarks lists "Shared Banks: TBD"): 32 x 4 bytes is an
//   ASSUMPTION (bank_layout_assumed).
// sm_count 10 GPU cores, dram_bytes_per_s 100 GB/s: Apple M3 product page (10-core GPU,
//   100 GB/s unified memory bandwidth).
// l1_bytes 8 KiB: metal-benchmarks "Data Cache 8 KB" per core. l2_bytes 8 MiB: the system
//   level cache, the last level before DRAM: metal-benchmarks "L3 $" of the M2, 8 MB (the
//   M3's is not published).
// clock_hz 1.38 GHz: ASSUMPTION (Apple publishes no GPU clock; metal-benchmarks gives the M2
//   1.398 GHz). fp32 10 x 128 lanes x 2 x 1.38 GHz = 3.5 TFLOPS: metal-benchmarks (128 FP32
//   ALUs per core).
// l1_wavefronts_per_clk 1: metal-benchmarks gives Apple 7/8 cores the same on-core data
//   bandwidth per clock as Ampere/Ada SMs ("On-Core Data BW/Cycle 64 B" for both), so the l1
//   unit keeps the H100 profile's rate. Threadgroup memory shares that port: the unified load
//   path rule (unified_load_path; metal-benchmarks: "Apple also reduces the amount of
//   threadgroup memory bandwidth").
// l2_bytes_per_s: metal-benchmarks "On-GPU Data BW/Cycle ~32 B" per core: 32 B x 10 cores x
//   1.38 GHz = 441.6 GB/s.
// max_warps_per_sm 96: metal-benchmarks "Max Threads 384-3072" per core (3,072 / 32).
// dram_efficiency 0.8, max_groups_per_sm 32, launch_overhead_s 5 us: ASSUMPTIONS.
// No figure here was fitted to a measurement. The latency figures are not used: there is no
//   measured M3 load latency, and the unified load path rule takes latency as hidden.
inline DeviceProfile apple_m3() {
  DeviceProfile p;
  p.name = "apple-m3";
  p.max_block_z = 1024;
  p.max_static_shared_bytes = 32 * 1024;
  p.max_shared_bytes_per_group = 32 * 1024;
  p.bank_layout_assumed = true;
  p.sm_count = 10;
  p.l1_bytes = 8 * 1024;
  p.l2_bytes = 8 * 1024 * 1024;
  p.clock_hz = 1.38e9;
  p.l1_wavefronts_per_clk = 1.0;
  p.l2_bytes_per_s = 32.0 * 10 * 1.38e9;
  p.dram_bytes_per_s = 100e9;
  p.dram_efficiency = 0.8;
  p.fp32_flops_per_s = 3.5e12;
  p.max_warps_per_sm = 96;
  p.max_groups_per_sm = 32;
  p.launch_overhead_s = 5e-6;
  p.unified_load_path = true;
  return p;
}

// AMD CDNA3 (Instinct MI300X), HIP.
// warp_size 64 (wavefront), 1024 threads per group: AMD CDNA3 ISA guide / HIP programming guide.
// 64 KiB LDS per group, 32 banks x 4 bytes: ROCm blog "Avoiding LDS Bank Conflicts on AMD
//   GPUs Using CK-Tile", AMD APP OpenCL guide 6.2 (docs/hardware-model.md section 11).
// sm_count 304 CUs, l1_bytes 32 KiB per CU, l2_bytes 4 MiB per XCD (x8; we give one XCD's),
//   clock 2.1 GHz, HBM3 5.3 TB/s, FP32 vector 163.4 TFLOPS: AMD Instinct MI300X data sheet.
inline DeviceProfile amd_cdna() {
  DeviceProfile p;
  p.name = "amd-cdna";
  p.warp_size = 64;
  p.max_static_shared_bytes = 64 * 1024;
  p.max_shared_bytes_per_group = 64 * 1024;
  p.sm_count = 304;
  p.l1_bytes = 32 * 1024;
  p.l1_line_bytes = 128;
  p.l2_bytes = 4 * 1024 * 1024;
  p.clock_hz = 2.1e9;
  p.l2_bytes_per_s = 14.7e12;  // assumption: 8 XCDs x 2 KB/clk at 2.1 GHz x ~0.43 (not published)
  p.dram_bytes_per_s = 5.3e12;
  p.dram_efficiency = 0.7;     // assumption
  p.fp32_flops_per_s = 163.4e12;
  p.max_warps_per_sm = 32;     // 8 waves per SIMD x 4 SIMDs (CDNA3 ISA guide)
  p.max_groups_per_sm = 16;    // assumption
  p.launch_overhead_s = 5e-6;
  return p;
}

inline std::vector<std::string> names() { return {"nvidia-h100", "apple-m3", "amd-cdna"}; }

inline std::optional<DeviceProfile> by_name(std::string_view name) {
  if (name == "nvidia-h100") return nvidia_h100();
  if (name == "apple-m3") return apple_m3();
  if (name == "amd-cdna") return amd_cdna();
  return std::nullopt;
}

}  // namespace profiles

}  // namespace tgsim
