// Launch: validation against the profile, oneTBB dispatch of threadgroups, and the merge
// of per-worker results into one Report through the sinks' totals (sinks.hpp: sums and
// min-ordered examples, so the Report is deterministic).
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include <tgsim/models.hpp>

#include "engine/analyses.hpp"
#include "engine/cooperative.hpp"
#include "engine/coresident.hpp"
#include "engine/group.hpp"
#include "engine/guard.hpp"
#include "frontend/modules.hpp"

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

SiteInfo SiteTable::info(std::uint32_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  return id < sites_.size() ? sites_[id] : SiteInfo{};
}

void SiteTable::mark_warp_aggregated(std::uint32_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (id < sites_.size()) sites_[id].warp_aggregated = true;
}

void SiteTable::mark_store_value(std::uint32_t id, std::uint8_t bits) {
  std::lock_guard<std::mutex> lock(mu_);
  if (id < sites_.size()) sites_[id].store_value |= bits;
}

bool SiteTable::warp_aggregated(std::uint32_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  return id < sites_.size() && sites_[id].warp_aggregated;
}

std::vector<SiteInfo> SiteTable::snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return sites_;
}

LaunchState::LaunchState(const DeviceProfile& p, const LaunchConfig& c, KernelFn f,
                         const std::vector<BufferSpan>& b)
    : profile(p),
      cfg(c),
      fn(f),
      buffers(b),
      // printf output streams from the slice's first group (LaunchConfig::slice)
      print(std::make_unique<PrintStream>(c.print_out, c.slices ? group_slice(c.grid.volume(), c.slice, c.slices).first : 0)) {}

LaunchState::~LaunchState() = default;

void AtomicOrder::wait_slow(std::uint64_t group, const std::atomic<std::uint64_t>& stop_after) {
  std::unique_lock<std::mutex> lock(mu_);
  // (stop_after is set without this lock: the wait looks at it again every millisecond)
  while (frontier_.load(std::memory_order_relaxed) < group &&
         group <= stop_after.load(std::memory_order_relaxed))
    cv_.wait_for(lock, std::chrono::milliseconds(1));
}

void AtomicOrder::group_done(std::uint64_t group) {
  std::lock_guard<std::mutex> lock(mu_);
  done_[group] = 1;
  std::uint64_t f = frontier_.load(std::memory_order_relaxed);
  if (f != group) return;
  while (f < done_.size() && done_[f]) ++f;
  frontier_.store(f, std::memory_order_release);
  cv_.notify_all();
}

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

// Adds the time from its making to its end to a worker's busy seconds (LaunchTiming).
class BusyTime {
 public:
  explicit BusyTime(double& total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~BusyTime() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  BusyTime(const BusyTime&) = delete;
  BusyTime& operator=(const BusyTime&) = delete;

 private:
  double& total_;
  std::chrono::steady_clock::time_point start_;
};

// Groups done / total for launches longer than about a second: on a terminal one line redrawn
// in place; otherwise (a CI log, a pipe) one line per tenth of the groups done.
class Progress {
 public:
  Progress(const LaunchConfig& cfg, std::uint64_t total)
      : on_(cfg.progress), tty_(isatty(2)), name_(cfg.name), tenth_words_(cfg.progress_tenth),
        live_words_(cfg.progress_live), total_(total), start_(std::chrono::steady_clock::now()) {}
  ~Progress() {
    if (shown_) std::fprintf(stderr, "\r%-70s\r", "");
  }
  void group_done() {
    if (!on_) return;
    std::uint64_t d = done_.fetch_add(1, std::memory_order_relaxed) + 1;
    const std::uint64_t tenth = total_ ? d * 10 / total_ : 10;
    if (!tty_ && tenth <= tenth_shown_.load(std::memory_order_relaxed)) return;
    auto now = std::chrono::steady_clock::now();
    double t = std::chrono::duration<double>(now - start_).count();
    if (t < 1.0) return;
    if (!tty_) {
      std::lock_guard<std::mutex> lock(mu_);
      if (tenth <= tenth_shown_.load(std::memory_order_relaxed)) return;
      tenth_shown_.store(tenth, std::memory_order_relaxed);
      std::fprintf(stderr, "%s\n", line(tenth_words_, tenth * 10, t).c_str());
      std::fflush(stderr);
      return;
    }
    std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
    if (!lock.owns_lock() || t - last_ < 0.2) return;
    last_ = t;
    shown_ = true;
    std::fprintf(stderr, "\r%s", line(live_words_, d, t).c_str());
    std::fflush(stderr);
  }

 private:
  // `words` with {0} the name, {1} `done`, {2} the groups, {3} the seconds.
  std::string line(const std::string& words, std::uint64_t done, double seconds) const {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.0f", seconds);
    const std::string args[] = {name_, std::to_string(done), std::to_string(total_), secs};
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (words[i] == '{' && i + 2 < words.size() && words[i + 2] == '}' && words[i + 1] >= '0' && words[i + 1] <= '3') {
        out += args[words[i + 1] - '0'];
        i += 2;
      } else {
        out += words[i];
      }
    }
    return out;
  }
  bool on_, tty_;
  std::string name_, tenth_words_, live_words_;
  std::uint64_t total_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<std::uint64_t> done_{0}, tenth_shown_{0};
  std::mutex mu_;
  double last_ = 0;
  bool shown_ = false;
};

void validate_launch(const DeviceProfile& p, const LaunchConfig& cfg) {
  if (p.warp_size != 32)
    throw LaunchError("warp size " + std::to_string(p.warp_size) + " is not simulated yet (profile " +
                      p.name + "); its limits and figures still serve `tgsim explain` estimates");
  if (cfg.block.volume() > p.max_threads_per_group)
    throw LaunchError("block " + cfg.block.str() + " has " + std::to_string(cfg.block.volume()) +
                      " threads; " + p.name + " allows at most " +
                      std::to_string(p.max_threads_per_group) + " threads per threadgroup");
  check_dims("block", cfg.block, p.max_block_x, p.max_block_y, p.max_block_z);
  check_dims("grid", cfg.grid, p.max_grid_x, p.max_grid_y, p.max_grid_z);
  const model::Geometry geo{p.shared_banks, p.bank_bytes, p.sector_bytes};
  if (const char* why = geo.unsupported()) throw LaunchError("profile " + p.name + ": " + why);
  if (!std::has_single_bit(p.l1_line_bytes) || p.l1_line_bytes < p.sector_bytes ||
      p.l1_line_bytes > 32 * p.sector_bytes || !std::has_single_bit(p.dram_chunk_bytes) ||
      p.dram_chunk_bytes < p.sector_bytes)
    throw LaunchError("profile " + p.name + ": l1_line_bytes and dram_chunk_bytes must be powers of "
                      "two, 1 to 32 sectors (line) and at least one sector (chunk)");
  if (cfg.stack_bytes < kMinStackBytes)
    throw LaunchError("stack_bytes " + std::to_string(cfg.stack_bytes) +
                      " is too small: at least 16384 bytes per simulated thread");
  if (cfg.stack_bytes > kMaxStackBytes)
    throw LaunchError("stack_bytes " + std::to_string(cfg.stack_bytes) +
                      " is too large: at most 1073741824 bytes per simulated thread");
  if (cfg.slices < 1 || cfg.slice >= cfg.slices)
    throw LaunchError("slice " + std::to_string(cfg.slice) + " of " + std::to_string(cfg.slices) +
                      ": the slice must be below the number of slices, which must be at least 1");
  if (!(cfg.sample >= 0.0 && cfg.sample <= 1.0))
    throw LaunchError("sample " + std::to_string(cfg.sample) + ": the share of groups must be from 0 to 1");
  if (cfg.sample > 0.0 && cfg.sample < 1.0 && cfg.check)
    throw LaunchError("sampling runs without the checker: hazards need every group (sample 0 or 1 with check)");
  if (cfg.sample > 0.0 && cfg.sample < 1.0 && cfg.slices > 1)
    throw LaunchError("sampling and slices (--groups) do not go together: sample the whole launch");
  if (cfg.cooperative && (cfg.slices > 1 || (cfg.sample > 0.0 && cfg.sample < 1.0)))
    throw LaunchError("a cooperative launch runs whole: its groups meet at grid.sync(), so it "
                      "takes no sample and no slices (--groups)");
  if (cfg.threads > kMaxWorkers)
    throw LaunchError("threads " + std::to_string(cfg.threads) + " is too many: at most " +
                      std::to_string(kMaxWorkers) + " worker threads (0: all cores)");
}

void add_raw_span(std::vector<BufferSpan>& out, const void* p, bool read_only) {
  DeviceRange r = find_device_range(reinterpret_cast<std::uint64_t>(p));
  if (!r.info || r.info->freed || !r.contains(reinterpret_cast<std::uint64_t>(p))) return;
  out.push_back(BufferSpan{r.begin, r.end, r.info, read_only});
}

std::string kernel_name(const void* fn) {
  KernelRef k = find_kernel(fn);
  return k.kernel ? k.kernel->name : "kernel";
}

// One task_arena per worker count, made on first use and kept for the life of the process: an
// arena made and destroyed per launch grows the process by about 7 KiB a launch with two or
// more workers (measured: +142 MB over 20,000 launches), one kept stays flat (semantics_test).
tbb::task_arena& arena_for(unsigned threads) {
  static std::mutex mu;
  static std::map<unsigned, std::unique_ptr<tbb::task_arena>>* arenas =
      new std::map<unsigned, std::unique_ptr<tbb::task_arena>>;  // never destroyed: no exit order
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<tbb::task_arena>& a = (*arenas)[threads];
  if (!a)
    a = std::make_unique<tbb::task_arena>(threads ? static_cast<int>(threads)
                                                  : tbb::task_arena::automatic);
  return *a;
}

// The shared memory of one group (static + dynamic) of a front-end kernel, checked against the
// profile before any thread runs.
std::size_t launch_shared_bytes(const DeviceProfile& profile, const LaunchConfig& cfg,
                                const KernelRef& kref) {
  if (!kref.kernel) {
    if (cfg.shared_bytes)
      throw LaunchError("dynamic shared memory (" + std::to_string(cfg.shared_bytes) +
                        " bytes) needs a kernel compiled by tgsim's front end (extern __shared__)");
    return 0;
  }
  const std::size_t shared = kernel_shared_bytes(kref, cfg.shared_bytes);
  if (kref.kernel->static_shared > profile.max_static_shared_bytes)
    throw LaunchError(std::string(kref.kernel->name) + " declares " +
                      std::to_string(kref.kernel->static_shared) + " bytes of static shared memory; " +
                      profile.name + " allows " + std::to_string(profile.max_static_shared_bytes));
  if (shared > profile.max_shared_bytes_per_group)
    throw LaunchError(std::string(kref.kernel->name) + " with " + std::to_string(cfg.shared_bytes) +
                      " bytes of dynamic shared memory needs " + std::to_string(shared) +
                      " bytes per threadgroup; " + profile.name + " allows " +
                      std::to_string(profile.max_shared_bytes_per_group));
  return shared;
}

// A module's __constant__ variables together fit CUDA's 64 KiB constant bank (nvcc refuses more
// at link time: "uses too much constant data").
void check_constant_bytes(const KernelRef& kref) {
  constexpr unsigned long long kConstantBankBytes = 64 * 1024;
  if (!kref.module) return;
  unsigned long long bytes = 0;
  std::string names;
  for (unsigned i = 0; i < kref.module->nvars; ++i)
    if (const tgsim_var_desc& v = kref.module->vars[i]; v.kind == 1)
      bytes += v.bytes, names += std::string(names.empty() ? "" : ", ") + v.name + " " + std::to_string(v.bytes);
  if (bytes > kConstantBankBytes)
    throw LaunchError("the file of " + std::string(kref.kernel->name) + " declares " + std::to_string(bytes) +
                      " bytes of __constant__ memory (" + names + "); CUDA allows " +
                      std::to_string(kConstantBankBytes) + " (64 KiB)");
}

// Merge: the sinks' totals (sums and min-ordered examples: order-free), the groups' own
// findings and printed lines.
template <class Runs>
Report merge_report(LaunchState& st, const Runs& runs,
                    const std::vector<std::unique_ptr<GroupRun>>* parked = nullptr) {
  Report r;
  r.kernel = st.cfg.name;
  r.profile = st.profile.name;
  r.grid = st.cfg.grid;
  r.block = st.cfg.block;
  const std::vector<SiteInfo> infos = st.sites.snapshot();
  MergeContext m{st, infos, std::vector<SiteAcc>(infos.size()), {}, r};
  std::vector<const Sinks*> workers;  // each worker's sinks, opaque here (engine/analyses.hpp)
  auto add = [&](const std::unique_ptr<GroupRun>& run) {
    if (!run) return;
    workers.push_back(&run->sinks());
    merge_findings(m.findings, run->findings());
  };
  for (const std::unique_ptr<GroupRun>& run : runs) add(run);
  if (parked)  // groups that parked (coresident.cpp), each with the sinks it ran with
    for (const std::unique_ptr<GroupRun>& run : *parked) add(run);
  merge_sinks(workers, m);
  for (auto& [key, agg] : m.findings) r.findings.push_back(agg.finding);  // map order: by kind, site
  st.print->finish();
  r.printed = st.print->take();
  const Counters& c = r.counters;
  if (c.global_load.instructions + c.global_store.instructions + c.shared_load.instructions +
          c.shared_store.instructions + c.global_atomic.instructions + c.shared_atomic.instructions +
          c.constant_load.instructions + c.barriers + c.shfl + c.vote + c.warpsync + c.warp_reduce == 0 &&
      r.findings.empty())
    r.notes.push_back(st.frontend
                          ? "the kernel made no memory access, barrier or warp operation"
                          : "no access was seen: this kernel was not compiled by tgsim's front end "
                            "(tgsim_add_cuda_library, tgsim run) and takes no tgsim buffer types, so "
                            "its loads and stores are invisible to tgsim");
  return r;
}

Report run_launch(const DeviceProfile& profile, const LaunchConfig& given, KernelFn fn,
                  const std::vector<BufferSpan>& buffers) {
  // A front-end kernel launched under the default name is named by its own, so that the report
  // and the test matchers' failure messages say which kernel ("Report of matmul_tiled").
  const KernelRef kref = find_kernel(fn.kernel);
  LaunchConfig cfg = given;
  if (kref.kernel && cfg.name == LaunchConfig().name) cfg.name = kref.kernel->name;
  if (const ThreadCtx* t = current)
    throw LaunchError("launch of '" + cfg.name + "' from inside a kernel (thread " +
                      t->thread_idx.str() + " of block " + t->block_idx.str() +
                      "): launches from device code (dynamic parallelism) are not simulated");
  validate_launch(profile, cfg);
  if (cfg.sample > 0.0 && cfg.sample < 1.0) return run_sampled(profile, cfg, fn, buffers);
  // `--sample auto`: never with the checker (`tgsim check` is exact), slices or a cooperative launch.
  if (cfg.sample_auto && cfg.sample == 0.0 && !cfg.check && cfg.slices == 1 && !cfg.cooperative && cfg.count &&
      cfg.capture_site.empty() && cfg.grid.volume() >= kAutoMinGroups) {
    LaunchConfig whole = cfg;
    whole.sample_auto = false;
    return run_auto(profile, cfg, fn, buffers, [&] { return run_launch(profile, whole, fn, buffers); });
  }
  if (cfg.cooperative && cfg.cache_model && cfg.count) {  // (the SMs' replay needs groups in order)
    cfg.cache_model = false;
    Report r = run_groups(profile, cfg, fn, buffers, GroupList{0, cfg.grid.volume()});
    r.notes.push_back("no cache model (L1, L2, DRAM) for a cooperative launch: its groups take "
                      "turns at every grid.sync()");
    return r;
  }
  // This process's slice of the grid (LaunchConfig::slice): groups [first, last).
  const auto [first, last] = group_slice(cfg.grid.volume(), cfg.slice, cfg.slices);
  return run_groups(profile, cfg, fn, buffers, GroupList{first, last});
}

Report run_groups(const DeviceProfile& profile, const LaunchConfig& cfg, KernelFn fn,
                  const std::vector<BufferSpan>& buffers, const GroupList& groups) {
  const DeviceHeapLaunch heap_in_use;  // blocks freed by the kernel stay mapped until it ends
  const KernelRef kref = find_kernel(fn.kernel);
  const std::size_t shared = launch_shared_bytes(profile, cfg, kref);
  check_constant_bytes(kref);
  LaunchState st(profile, cfg, fn, buffers);
  st.frontend = kref.kernel != nullptr;
  st.shared_bytes = shared;
  if (kref.kernel) st.dynamic_offset = kref.kernel->dynamic_shared_offset, st.kernel = kref.kernel;
  const std::uint64_t ngroups = cfg.grid.volume();
  const std::uint64_t first = groups.ids ? 0 : groups.first, count = groups.size();
  // LaunchConfig::count off: no cache model; a sample (groups.ids) runs without it (sample.cpp);
  // a cooperative launch never has it (run_launch).
  const bool per_sm = cfg.cache_model && cfg.count && !groups.ids;
  start_analyses(st, per_sm, ngroups, first);
  if (cfg.cooperative) {  // one worker, groups in phases between grid syncs (cooperative.cpp)
    check_cooperative(st);
    Progress progress(cfg, count);
    WildLaunch wild;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::unique_ptr<GroupRun>> runs = run_cooperative(st, [&] { progress.group_done(); });
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (cfg.timing) *cfg.timing = LaunchTiming{1, s, s};
    if (st.error) std::rethrow_exception(st.error);
    return merge_report(st, runs);
  }

  if (cfg.check && !groups.ids && cfg.threads != 1 && ngroups > 1) st.atomic_order = std::make_unique<AtomicOrder>(ngroups, first);
  // Marks a group ended for AtomicOrder, also when its run throws.
  struct Ended {
    AtomicOrder* order;
    std::uint64_t g;
    ~Ended() {
      if (order) order->group_done(g);
    }
  };

  Progress progress(cfg, count);
  WildLaunch wild;  // zero pages stand in for wild accesses until the groups are gone (guard.hpp)
  tbb::enumerable_thread_specific<std::unique_ptr<GroupRun>> runs;
  tbb::enumerable_thread_specific<double> busy;  // seconds inside tasks, per worker
  // Groups are taken in group order from one counter (so that the SMs of the cache model,
  // SmReplay, rarely hold a record back, and groups that wait for each other are resident as on
  // the device: coresident.cpp); each worker takes the next group until none is left. A group
  // stuck waiting for another is parked and runs on later.
  Coresidency co(st, count, resident_limit(st));
  struct Leave {  // the group left the device: ended (also when its run throws) or parked
    Coresidency& co;
    bool parked = false;
    ~Leave() {
      if (!parked) co.ended();
    }
  };
  auto worker = [&] {
    BusyTime in_task(busy.local());
    std::unique_ptr<GroupRun>& run = runs.local();
    for (std::uint64_t i; co.admit(&i);) {
      Leave leave{co};
      const std::uint64_t g = groups[i];
      if (g > st.stop_after.load(std::memory_order_relaxed)) return;
      if (!run) {
        run = std::make_unique<GroupRun>(st);
        run->allow_parking(true);
      }
      Ended ended{st.atomic_order.get(), g};
      if (run->run(g) == GroupRun::RunEnd::kParked) {
        leave.parked = true;
        co.park(std::move(run));
      }
      progress.group_done();
    }
  };
  const auto start = std::chrono::steady_clock::now();
  unsigned workers = 1;
  if (cfg.threads == 1) {
    worker();
  } else {
    tbb::task_arena& arena = arena_for(cfg.threads);
    workers = static_cast<unsigned>(arena.max_concurrency());
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<unsigned>(0, workers, 1),
                        [&](const tbb::blocked_range<unsigned>&) { worker(); }, tbb::static_partitioner());
    });
  }
  co.finish();  // parked groups run on
  if (cfg.timing) {
    *cfg.timing = LaunchTiming{workers, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                               busy.combine(std::plus<double>())};
  }
  if (st.error) std::rethrow_exception(st.error);
  return merge_report(st, runs, &co.runs());
}

}  // namespace tgsim::detail
