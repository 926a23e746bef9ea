// Device and launch: validate a launch against the device profile (LaunchError before any
// thread runs), then run every threadgroup as a oneTBB task; inside a task the group's
// threads are fibers on one worker thread that meet at a real barrier. Counts are summed
// per source site; the Report is identical for any number of worker threads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <tgsim/dim.hpp>
#include <tgsim/errors.hpp>
#include <tgsim/memory.hpp>
#include <tgsim/profile.hpp>
#include <tgsim/report.hpp>
#include <tgsim/thread.hpp>

namespace tgsim {

// The order in which a group's fibers are started and resumed after each barrier.
enum class Schedule { kInOrder, kReverse, kShuffle };

// How busy the workers were in one launch (wall-clock times: not part of the Report, which is
// the same for any run). `busy_s` sums, over the workers, the time spent inside their tasks
// (making the worker's group runner and running its groups); `wall_s` is the time from the
// dispatch of the first task to the return of the last. busy_share() = busy_s / (wall_s x
// workers): 1 when no worker ever waits for work. A launch that scales badly although its
// workers were busy lost the time per core (the machine); one whose workers waited lost it to
// too few or uneven tasks (a grid of fewer groups than workers) or to serial work.
struct LaunchTiming {
  unsigned workers = 0;  // the arena's worker slots (cfg.threads, or all cores)
  double wall_s = 0.0, busy_s = 0.0;
  double busy_share() const { return workers && wall_s > 0.0 ? busy_s / (wall_s * workers) : 0.0; }
};

// oneTBB's own cap on worker threads (more draws its warning and is ignored): LaunchConfig::threads
// beyond it is a LaunchError.
inline constexpr unsigned kMaxWorkers = 256;
// The range of LaunchConfig::stack_bytes.
inline constexpr std::size_t kMinStackBytes = 16 * 1024;
inline constexpr std::size_t kMaxStackBytes = std::size_t(1) << 30;

struct LaunchConfig {
  Dim3 grid;                 // threadgroups
  Dim3 block;                // threads per group
  // Bytes of dynamic shared memory (extern __shared__; the third <<<...>>> argument), for
  // kernels compiled by tgsim's front end.
  std::size_t shared_bytes = 0;
  // Metal's dispatchThreads: the threads of the grid; threads of the last groups beyond it do
  // not run (0 in a dimension: the whole grid).
  Dim3 grid_threads{0, 0, 0};
  std::string name = "kernel";
  unsigned threads = 0;      // worker threads; 0 = all cores; at most kMaxWorkers
  Schedule schedule = Schedule::kInOrder;
  std::uint64_t shuffle_seed = 1;
  // Per simulated thread (virtual; a 64 KiB guard below), kMinStackBytes to kMaxStackBytes
  // (else LaunchError). `tgsim run|check FILE --stack BYTES` sets it.
  std::size_t stack_bytes = 256 * 1024;
  // The checker (sim/src/analyses/checker/checker.hpp): hazards in shared and global memory, uninitialised
  // shared reads. Off: one predictable branch per access. `tgsim check` turns it on.
  bool check = false;
  bool report_same_value_waw = false;  // also WAW hazards whose two stores write equal bytes
  // The memory-hierarchy model (sim/src/analyses/cache/cache.hpp): groups placed round-robin on the
  // profile's SMs, each SM's groups run one after another through that SM's L1 (cold at the
  // launch), unique sectors through L2 to DRAM. Fills the l1/l2/dram counters.
  bool cache_model = true;
  // Counting: off, the launch runs its threads (fibers, barriers, shared and global memory)
  // and counts nothing: each warp's log is dropped where it would be formed into warp
  // instructions, no model, cache model or checker runs, and the report's counters are zero.
  // The engine alone, as a baseline for timing the counting (`tgsim bench`).
  bool count = true;
  // "file:line[:column]" (file may be a suffix, e.g. "transpose.cu:24:33"): the first warp
  // instruction at that site of the lowest group and warp is copied into Report::captured, and
  // the shuffles of the lowest group and warp that shuffles into Report::shuffles.
  std::string capture_site;
  // Groups done / total on stderr while the launch runs, when the launch takes longer than about
  // a second: on a terminal redrawn in place, otherwise one line per tenth of the groups.
  bool progress = false;
  // Its lines' words: {0} the launch's name, {1} the share done in percent (one line per tenth)
  // or the groups done (the terminal's line), {2} the groups, {3} the seconds so far.
  std::string progress_tenth = "tgsim: {0}: {1}% of {2} threadgroups done ({3} s)";
  std::string progress_live = "tgsim: {0}: {1} / {2} threadgroups ({3} s)";
  // Watchdog: a thread that makes this many memory accesses in one barrier interval (without
  // reaching a barrier or warp collective) is a `watchdog` finding and its group is ended,
  // so a runaway loop while others wait at a barrier never hangs the launch. 0 = off.
  // Generous by default (2^26 accesses: each costs 16 bytes of warp log, 1 GiB per thread at
  // the limit). A loop that makes no memory access at all cannot be stopped this way.
  std::uint64_t watchdog_accesses = std::uint64_t(1) << 26;
  // Filled after the launch when set (`tgsim bench`'s busy column); the launch writes nothing
  // else through it.
  LaunchTiming* timing = nullptr;
  // Where the kernel's printf output goes while the launch runs, in the report's order (by
  // group, then barrier interval, then thread, then call), from any worker but one call at a
  // time. Empty: collected into Report::printed. A group's text waits until the groups before it
  // have ended; waiting text past 64 MiB waits in a file under TMPDIR, not in memory.
  std::function<void(std::string_view)> print_out;
  // Sharding (`tgsim run --groups I/N`): only slice `slice` of `slices` runs, the linear group
  // ids [group_slice(G, I, N).first, .second) of the G groups (contiguous, sizes differing by
  // at most one; empty when N > G). Placement on SMs, group ids and findings' blocks stay those
  // of the whole grid. slices >= 1 and slice < slices, else LaunchError.
  std::uint32_t slice = 0, slices = 1;
  // Sampling (`tgsim run --sample P`): above 0 and below 1, the share of the groups to run, a
  // stratified sample (sim/src/engine/sample.cpp): the first and last groups, and replicate systematic
  // samples of the rest; the Report's counters and sites are then estimates of the whole
  // launch's, with 95% intervals (Report::sampling). No cache model (the L1 would see only the
  // sample's groups) and no checker (LaunchError). 0 or 1: every group.
  double sample = 0.0;
  // `--sample auto` (the default of `tgsim run`): when `sample` is 0 and the launch may be
  // sampled (no checker, no slices, not cooperative, counting, 16 groups or more), group 0 runs
  // first, alone (the buffers it writes are copied before and put back after); a launch that it
  // predicts to make more than auto_full_events thread events (accesses, barriers, warp
  // operations), its group 0 without findings, is sampled with the share whose sample
  // makes about auto_target_events, stated in Report::sampling (automatic); any other runs
  // whole, exact, as without it.
  bool sample_auto = false;
  double auto_full_events = double(1 << 27);    // about 1 s of simulation on one core
  double auto_target_events = double(1 << 27);  // a sample's thread events, about
  std::uint64_t sample_seed = 0x73616D706C65ull;  // the sample's random starts ("sample")
  // A cooperative launch (cudaLaunchCooperativeKernel, `tgsim run --cooperative`): its groups
  // may meet at grid.sync(). The grid must fit on the device at once (the profile's SMs times
  // the groups of this size and shared memory an SM holds), else LaunchError, as the GPU
  // refuses it. The groups run on one worker, taking turns at each grid sync
  // (sim/src/engine/cooperative.cpp); no cache model, no sample or slices (LaunchError).
  bool cooperative = false;
};

inline constexpr std::uint64_t kAutoMinGroups = 16;

// The linear group ids [first, second) of slice i of n over `groups` groups: floor(G i / n)
// to floor(G (i + 1) / n).
inline std::pair<std::uint64_t, std::uint64_t> group_slice(std::uint64_t groups, std::uint32_t i, std::uint32_t n) {
  auto at = [&](std::uint64_t k) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(groups) * k / n);
  };
  return {at(i), at(std::uint64_t(i) + 1)};
}

namespace detail {
struct KernelFn {
  void (*call)(void* body, ThreadCtx& t);
  void* body;
  const void* kernel = nullptr;  // the kernel function, when it is one (front-end kernels)
};
// A device buffer passed to a launch: lets the checker name the buffer of a global address.
// `read_only`: passed as a pointer to const (global_ptr<const T>) to a kernel function; a buffer
// every one of whose spans is read-only cannot be stored to by this launch, so the checker
// skips its loads (no hazard can involve them).
struct BufferSpan {
  std::uint64_t begin, end;
  const BufferInfo* info;
  bool read_only = false;
};
template <class A> struct is_buffer : std::false_type {};
template <class T> struct is_buffer<Buffer<T>> : std::true_type {};
template <class A> struct is_global_ptr : std::false_type {};
template <class T> struct is_global_ptr<global_ptr<T>> : std::true_type {};
template <class T>
void add_span(std::vector<BufferSpan>& out, const global_ptr<T>& p, bool read_only) {
  if (!p.info() || !p.base() || p.freed()) return;
  auto b = reinterpret_cast<std::uintptr_t>(p.base());
  out.push_back(BufferSpan{b, b + p.info()->count * p.info()->elem_size, p.info(), read_only});
}
// A raw pointer argument: the device allocation it points into, if any.
void add_raw_span(std::vector<BufferSpan>& out, const void* p, bool read_only);
template <class A>
void collect_buffer(std::vector<BufferSpan>& out, const A& a, bool read_only) {
  using D = std::remove_cvref_t<A>;
  if constexpr (is_buffer<D>::value)
    add_span(out, a.ptr(), read_only);
  else if constexpr (is_global_ptr<D>::value)
    add_span(out, a, read_only);
  else if constexpr (std::is_pointer_v<D>)
    add_raw_span(out, a, read_only);
}
// The parameter types of a kernel that is a function (not known for lambdas and functors).
template <class F> struct kernel_params { static constexpr bool known = false; };
template <class R, class... P> struct kernel_params<R(P...)> {
  static constexpr bool known = true;
  using type = std::tuple<P...>;
};
template <class P> struct is_const_global_ptr : std::false_type {};
template <class T> struct is_const_global_ptr<global_ptr<const T>> : std::true_type {};
template <class T> struct is_const_global_ptr<const T*> : std::true_type {};
// Whether argument I of N binds to a global_ptr<const T> parameter of kernel function F (the
// parameters may start with ThreadCtx&, so arguments are matched from the end).
template <class F, std::size_t N, std::size_t I>
constexpr bool param_read_only() {
  if constexpr (kernel_params<F>::known) {
    using P = typename kernel_params<F>::type;
    if constexpr (std::tuple_size_v<P> >= N)
      return is_const_global_ptr<std::remove_cvref_t<std::tuple_element_t<std::tuple_size_v<P> - N + I, P>>>::value;
    else
      return false;
  } else {
    return false;
  }
}
// A launch without the checker may store to any buffer it is given: initcheck counts their
// bytes as written from then on.
template <class A>
void assume_initialised(const A& a) {
  using D = std::remove_cvref_t<A>;
  const BufferInfo* info = nullptr;
  if constexpr (is_buffer<D>::value) info = a.ptr().info();
  else if constexpr (is_global_ptr<D>::value) info = a.info();
  if (info) info->assume_init = true;
}
// An argument that may carry a pointer the checker cannot see (a struct, a pointer to a pointer
// or to a struct, void*): a buffer passed const directly may then also be stored through it. A
// raw pointer to numbers (float*, const int*) is not opaque: it names the one buffer it points
// into (add_raw_span), so a buffer passed both const and through such a pointer is not taken as
// read-only, and the numbers it points to are no pointers for the kernel to follow (no more than
// a scalar argument is).
template <class A>
constexpr bool opaque_arg() {
  using D = std::remove_cvref_t<A>;
  if constexpr (std::is_pointer_v<D>)
    return !std::is_arithmetic_v<std::remove_cv_t<std::remove_pointer_t<D>>>;
  else
    return !(is_buffer<D>::value || is_global_ptr<D>::value || std::is_arithmetic_v<D> ||
             std::is_enum_v<D>);
}
// Read-only (a const parameter) counts only when every argument is a buffer or a scalar: with
// an opaque argument no buffer of the launch is taken as read-only.
template <class K, class... A, std::size_t... I>
void collect_buffers(std::vector<BufferSpan>& out, std::index_sequence<I...>, const A&... args) {
  using F = std::remove_pointer_t<std::remove_cvref_t<K>>;
  constexpr bool opaque = (false || ... || opaque_arg<A>());
  (collect_buffer(out, args, !opaque && param_read_only<F, sizeof...(A), I>()), ...);
}
Report run_launch(const DeviceProfile& profile, const LaunchConfig& cfg, KernelFn fn,
                  const std::vector<BufferSpan>& buffers = {});
void validate_launch(const DeviceProfile& profile, const LaunchConfig& cfg);
// The name a front-end kernel was registered under ("kernel" for any other function).
std::string kernel_name(const void* fn);
}  // namespace detail

class Device {
 public:
  explicit Device(DeviceProfile profile = profiles::nvidia_h100()) : profile_(std::move(profile)) {}
  const DeviceProfile& profile() const { return profile_; }

  template <class T>
  Buffer<T> alloc(std::size_t count, std::string name = "buffer") const {
    return Buffer<T>(count, std::move(name));
  }

  // Runs `kernel(args...)` (or `kernel(ThreadCtx&, args...)`) once per simulated thread.
  // Throws LaunchError for a bad configuration; rethrows an exception thrown by the kernel
  // (the one of the lowest block). Kernel errors (out of bounds, divergence) are findings.
  template <class K, class... A>
  Report launch(const LaunchConfig& cfg, K&& kernel, A&&... args) const {
    auto body = [&](ThreadCtx& t) {
      if constexpr (std::is_invocable_v<K&, ThreadCtx&, A&...>)
        kernel(t, args...);
      else
        kernel(args...);
    };
    using Body = decltype(body);
    detail::KernelFn fn{[](void* b, ThreadCtx& t) { (*static_cast<Body*>(b))(t); }, &body};
    if constexpr (std::is_pointer_v<std::remove_cvref_t<K>> &&
                  std::is_function_v<std::remove_pointer_t<std::remove_cvref_t<K>>>)
      fn.kernel = reinterpret_cast<const void*>(kernel);
    else if constexpr (std::is_function_v<std::remove_reference_t<K>>)
      fn.kernel = reinterpret_cast<const void*>(&kernel);
    std::vector<detail::BufferSpan> buffers;
    // (the checker's spans; `--sample auto`'s pilot puts back the bytes of the writable ones)
    if (cfg.check || cfg.sample_auto) detail::collect_buffers<K>(buffers, std::index_sequence_for<A...>{}, args...);
    if (!cfg.check) (detail::assume_initialised(args), ...);
    return detail::run_launch(profile_, cfg, fn, buffers);
  }

 private:
  DeviceProfile profile_;
};

// CUDA's kernel<<<grid, block, shared_bytes>>>(args...) for a kernel compiled by tgsim's front
// end (tgsim_add_cuda_library / tgsim run), on the default device (the H100 profile).
template <class... P, class... A>
Report launch(void (*kernel)(P...), Dim3 grid, Dim3 block, std::size_t shared_bytes, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "tgsim::launch: the kernel takes a different number of arguments");
  LaunchConfig cfg;
  cfg.grid = grid;
  cfg.block = block;
  cfg.shared_bytes = shared_bytes;
  cfg.name = detail::kernel_name(reinterpret_cast<const void*>(kernel));
  return Device().launch(cfg, kernel, static_cast<P>(args)...);
}

}  // namespace tgsim
