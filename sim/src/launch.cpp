// Launch: validation against the profile, oneTBB dispatch of threadgroups, and the merge
// of per-worker results into one Report (sums and min-ordered examples: deterministic).
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <memory>

#include "group.hpp"

namespace tgsim::detail {

std::uint32_t SiteTable::id(const std::source_location& loc, SiteKind kind) {
  std::lock_guard<std::mutex> lock(mu_);
  auto key = std::make_tuple(std::string(loc.file_name()), loc.line(), loc.column(),
                             static_cast<int>(kind));
  auto it = ids_.find(key);
  if (it != ids_.end()) return it->second;
  auto id = static_cast<std::uint32_t>(sites_.size());
  sites_.push_back(SiteInfo{loc.file_name(), loc.line(), loc.column(), kind});
  ids_.emplace(std::move(key), id);
  return id;
}

std::vector<SiteInfo> SiteTable::snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return sites_;
}

void merge_findings(FindingMap& into, const FindingMap& from) {
  for (const auto& [key, agg] : from) {
    auto [it, inserted] = into.try_emplace(key, agg);
    if (inserted) continue;
    FindingAgg& a = it->second;
    std::uint64_t count = a.finding.count + agg.finding.count;
    if (agg.order < a.order) a = agg;
    a.finding.count = count;
  }
}

LaunchState::LaunchState(const DeviceProfile& p, const LaunchConfig& c, KernelFn f,
                         const std::vector<BufferSpan>& b)
    : profile(p), cfg(c), fn(f), buffers(b) {
  if (c.check) grid = std::make_unique<GridShadow>();
}

LaunchState::~LaunchState() = default;

void LaunchState::kernel_threw(std::uint64_t group, std::exception_ptr e) {
  std::lock_guard<std::mutex> lock(error_mu);
  if (group < error_group) {
    error_group = group;
    error = e;
    stop_after.store(group, std::memory_order_relaxed);
  }
}

namespace {

void check_dims(const char* what, const Dim3& d, std::uint32_t mx, std::uint32_t my,
                std::uint32_t mz) {
  if (d.x == 0 || d.y == 0 || d.z == 0)
    throw LaunchError(std::string(what) + " " + d.str() + ": every dimension must be at least 1");
  if (d.x > mx || d.y > my || d.z > mz)
    throw LaunchError(std::string(what) + " " + d.str() + " exceeds the limit (" +
                      std::to_string(mx) + "," + std::to_string(my) + "," + std::to_string(mz) +
                      ")");
}

}  // namespace

void validate_launch(const DeviceProfile& p, const LaunchConfig& cfg) {
  if (cfg.block.volume() > p.max_threads_per_group)
    throw LaunchError("block " + cfg.block.str() + " has " + std::to_string(cfg.block.volume()) +
                      " threads; " + p.name + " allows at most " +
                      std::to_string(p.max_threads_per_group) + " threads per threadgroup");
  check_dims("block", cfg.block, p.max_block_x, p.max_block_y, p.max_block_z);
  check_dims("grid", cfg.grid, p.max_grid_x, p.max_grid_y, p.max_grid_z);
  if (cfg.stack_bytes < 16 * 1024)
    throw LaunchError("stack_bytes " + std::to_string(cfg.stack_bytes) +
                      " is too small: at least 16384 bytes per simulated thread");
}

Report run_launch(const DeviceProfile& profile, const LaunchConfig& cfg, KernelFn fn,
                  const std::vector<BufferSpan>& buffers) {
  validate_launch(profile, cfg);
  LaunchState st(profile, cfg, fn, buffers);
  const std::uint64_t ngroups = cfg.grid.volume();

  tbb::enumerable_thread_specific<std::unique_ptr<GroupRun>> runs;
  auto body = [&](const tbb::blocked_range<std::uint64_t>& r) {
    std::unique_ptr<GroupRun>& run = runs.local();
    if (!run) run = std::make_unique<GroupRun>(st);
    for (std::uint64_t g = r.begin(); g != r.end(); ++g) {
      if (g > st.stop_after.load(std::memory_order_relaxed)) return;
      run->run(g);
    }
  };
  if (cfg.threads == 1) {
    body(tbb::blocked_range<std::uint64_t>(0, ngroups));
  } else {
    tbb::task_arena arena(cfg.threads ? static_cast<int>(cfg.threads)
                                      : tbb::task_arena::automatic);
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, ngroups), body);
    });
  }
  if (st.error) std::rethrow_exception(st.error);

  // Merge: integer sums (order-free) and findings with min-ordered examples.
  std::vector<SiteInfo> infos = st.sites.snapshot();
  std::vector<SiteAcc> acc(infos.size());
  FindingMap findings;
  HazardMap hazards;
  for (const std::unique_ptr<GroupRun>& run : runs) {
    if (!run) continue;
    const std::vector<SiteAcc>& a = run->accumulated();
    for (std::size_t i = 0; i < a.size(); ++i) {
      acc[i].c += a[i].c;
      acc[i].barriers += a[i].barriers;
      acc[i].warp_ops += a[i].warp_ops;
    }
    merge_findings(findings, run->findings());
    if (run->checker()) merge_hazards(hazards, run->checker()->hazards());
  }
  if (st.grid) grid_hazards(*st.grid, buffers, hazards);
  hazard_findings(hazards, infos, cfg, findings);

  Report r;
  r.kernel = cfg.name;
  r.grid = cfg.grid;
  r.block = cfg.block;
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const SiteInfo& s = infos[i];
    if (acc[i].c.instructions == 0 && acc[i].barriers == 0 && acc[i].warp_ops == 0) continue;
    r.sites.push_back(
        SiteCounters{s.file, s.line, s.column, s.kind, acc[i].c, acc[i].barriers, acc[i].warp_ops});
    Counters& c = r.counters;
    switch (s.kind) {
      case SiteKind::kGlobalLoad: c.global_load += acc[i].c; break;
      case SiteKind::kGlobalStore: c.global_store += acc[i].c; break;
      case SiteKind::kSharedLoad: c.shared_load += acc[i].c; break;
      case SiteKind::kSharedStore: c.shared_store += acc[i].c; break;
      case SiteKind::kGlobalAtomic: c.global_atomic += acc[i].c; break;
      case SiteKind::kSharedAtomic: c.shared_atomic += acc[i].c; break;
      case SiteKind::kConstantLoad: c.constant_load += acc[i].c; break;
      case SiteKind::kBarrier: c.barriers += acc[i].barriers; break;
      case SiteKind::kShuffle: c.shfl += acc[i].warp_ops; break;
      case SiteKind::kVote: c.vote += acc[i].warp_ops; break;
      case SiteKind::kWarpSync: c.warpsync += acc[i].warp_ops; break;
      case SiteKind::kWarpReduce: c.warp_reduce += acc[i].warp_ops; break;
    }
  }
  std::sort(r.sites.begin(), r.sites.end(), [](const SiteCounters& a, const SiteCounters& b) {
    return std::tie(a.file, a.line, a.column, a.kind) < std::tie(b.file, b.line, b.column, b.kind);
  });
  for (auto& [key, agg] : findings) r.findings.push_back(agg.finding);  // map order: by kind, site
  return r;
}

}  // namespace tgsim::detail
