#include <tgsim/estimate.hpp>

#include <algorithm>
#include <cmath>

namespace tgsim {

Estimate estimate(const Counters& c, const Workload& w, const DeviceProfile& p) {
  Estimate e;
  const double busy_sms = double(std::min<std::uint64_t>(p.sm_count, std::max<std::uint64_t>(w.groups, 1)));
  const double warps_per_group = std::ceil(double(w.threads_per_group) / p.warp_size);
  const double resident = std::max(1.0, std::min<double>(p.max_groups_per_sm,
                                                          std::floor(p.max_warps_per_sm / warps_per_group)));
  const double waves = std::ceil(double(w.groups) / (busy_sms * resident));
  e.groups = w.groups;
  e.busy_sms = static_cast<std::uint32_t>(busy_sms);
  e.groups_per_sm = static_cast<std::uint32_t>(resident);
  e.waves = waves;

  const double footprint = double(c.dram_read_bytes);
  e.reads_fit_l2 = footprint <= double(p.l2_bytes);
  if (!e.reads_fit_l2) {
    const double l2_read_bytes = double(c.l2_read_sectors) * p.sector_bytes;
    const double beyond = l2_read_bytes * (1.0 - double(p.l2_bytes) / footprint);
    double reread = std::max(0.0, beyond - footprint);
    if (p.unified_load_path) reread = std::min(reread, (waves - 1) * footprint);
    e.dram_reread_bytes = static_cast<std::uint64_t>(reread);
  }
  e.dram_s = double(c.dram_read_bytes + e.dram_reread_bytes + c.dram_write_bytes) /
             (p.dram_bytes_per_s * p.dram_efficiency);
  e.l2_s = double(c.l2_read_sectors + c.l2_write_sectors) * p.sector_bytes / p.l2_bytes_per_s;
  const double wavefronts = double(c.global_load.sectors + c.global_store.sectors + c.global_atomic.sectors +
                                   c.shared_load.wavefronts + c.shared_store.wavefronts +
                                   c.shared_atomic.instructions);
  e.l1_s = wavefronts / (busy_sms * p.l1_wavefronts_per_clk * p.clock_hz);
  e.fp32_s = w.flops / p.fp32_flops_per_s;
  // A warp's loads in one wave are serial. The warps of a group run the same loop in step,
  // so a sector one of them misses is waited for by the others that read it (a hit on a
  // sector in flight): a miss holds up to warps-per-group loads, and a fraction
  // min(1, miss rate x warps per group) of the loads wait for a fill.
  const double loads = double(c.global_load.instructions);
  const double total_warps = double(w.groups) * warps_per_group;
  e.latency_modelled = !p.unified_load_path;
  if (e.latency_modelled && loads > 0 && total_warps > 0) {
    const double sectors = std::max<double>(1, double(c.global_load.sectors));
    const double hit = c.cache_modelled ? double(c.global_load.l1_hit_sectors) / sectors : 0.0;
    const double miss = e.reads_fit_l2 ? p.l1_miss_l2_clk : p.l1_miss_dram_clk;
    const double wait = std::min(1.0, (1 - hit) * warps_per_group);
    const double lat = (1 - wait) * p.l1_hit_clk + wait * miss;
    e.latency_s = waves * (loads / total_warps) * lat / p.clock_hz;
  }
  e.overhead_s = p.launch_overhead_s;
  struct T { const char* n; double t; } terms[] = {
      {"dram", e.dram_s}, {"l2", e.l2_s}, {"l1", e.l1_s}, {"fp32", e.fp32_s}, {"latency", e.latency_s}};
  const T* best = &terms[0];
  for (const T& t : terms)
    if (t.t > best->t) best = &t;
  e.bound = best->n;
  e.time_s = best->t + e.overhead_s;
  return e;
}

Counters scale_counters(const Counters& c, double a, double f, const DeviceProfile& p) {
  Counters s = c;
  auto m = [a](std::uint64_t v) { return static_cast<std::uint64_t>(std::llround(double(v) * a)); };
  auto sc = [&m](AccessCounters& x) {
    x.thread_accesses = m(x.thread_accesses);
    x.instructions = m(x.instructions);
    x.sectors = m(x.sectors);
    x.bytes = m(x.bytes);
    x.wavefronts = m(x.wavefronts);
    x.ideal_wavefronts = m(x.ideal_wavefronts);
    x.distinct_addresses = m(x.distinct_addresses);
    x.l1_hit_sectors = m(x.l1_hit_sectors);
  };
  for (AccessCounters* x : {&s.global_load, &s.global_store, &s.shared_load, &s.shared_store,
                            &s.global_atomic, &s.shared_atomic, &s.constant_load})
    sc(*x);
  s.barriers = m(s.barriers);
  s.shfl = m(s.shfl);
  s.vote = m(s.vote);
  s.warpsync = m(s.warpsync);
  s.warp_reduce = m(s.warp_reduce);
  s.l2_read_sectors = m(s.l2_read_sectors);
  s.l2_write_sectors = m(s.l2_write_sectors);
  const std::uint64_t fixed = c.dram_read_bytes ? std::min(c.dram_read_bytes, p.dram_fixed_read_bytes) : 0;
  s.dram_read_bytes = static_cast<std::uint64_t>(std::llround(double(c.dram_read_bytes - fixed) * f)) + fixed;
  const double written = double(c.l2_write_sectors) * p.sector_bytes * f;
  s.dram_write_bytes = double(s.dram_read_bytes) + written > double(p.l2_bytes)
                           ? static_cast<std::uint64_t>(written)
                           : static_cast<std::uint64_t>(std::llround(double(c.dram_write_bytes) * f));
  return s;
}

}  // namespace tgsim
