// Device and launch: validate a launch against the device profile (LaunchError before any
// thread runs), then run every threadgroup as a oneTBB task; inside a task the group's
// threads are fibers on one worker thread that meet at a real barrier. Counts are summed
// per source site; the Report is identical for any number of worker threads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <tgsim/dim.hpp>
#include <tgsim/errors.hpp>
#include <tgsim/memory.hpp>
#include <tgsim/profile.hpp>
#include <tgsim/report.hpp>
#include <tgsim/thread.hpp>

namespace tgsim {

// The order in which a group's fibers are started and resumed after each barrier.
enum class Schedule { kInOrder, kReverse, kShuffle };

struct LaunchConfig {
  Dim3 grid;                 // threadgroups
  Dim3 block;                // threads per group
  std::string name = "kernel";
  unsigned threads = 0;      // worker threads; 0 = all cores
  Schedule schedule = Schedule::kInOrder;
  std::uint64_t shuffle_seed = 1;
  std::size_t stack_bytes = 256 * 1024;  // per simulated thread (virtual; a guard page below)
};

namespace detail {
struct KernelFn {
  void (*call)(void* body, ThreadCtx& t);
  void* body;
};
Report run_launch(const DeviceProfile& profile, const LaunchConfig& cfg, KernelFn fn);
void validate_launch(const DeviceProfile& profile, const LaunchConfig& cfg);
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
    return detail::run_launch(profile_, cfg, fn);
  }

 private:
  DeviceProfile profile_;
};

}  // namespace tgsim
