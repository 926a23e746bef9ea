// The CUDA runtime subset of tgsim/kernel/cuda_host.h, for host code compiled by tgsim's front
// end: the error state and the launch (memory, the device, streams: cuda_host_*.cpp). One device,
// synchronous: a launch runs before tgsim_cuda_launch_kernel returns. A program that launches a
// kernel many times sees each distinct finding (kernel, kind, source site) printed once, at the
// launch that first makes it; at exit, one line per finding repeated by later launches gives its
// total count.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include <tgsim/launch.hpp>
#include <tgsim/profile.hpp>
#include <tgsim/report.hpp>

#include <tgsim/kernel/abi.h>
#include "memory/device_memory.hpp"
#include "frontend/kernel_args.hpp"
#include "frontend/modules.hpp"
#include "report/util.hpp"

#include "cuda_runtime/cuda_host_internal.hpp"

namespace {

thread_local cudaError_t last_error = cudaSuccess;
thread_local std::string last_message;
cudaError_t sticky = cudaSuccess;

// The findings printed so far, by kernel, site and count: a repeat is counted, printed at exit.
struct SeenFinding {
  std::string where;  // "KIND at FILE:LINE:COL" as printed
  std::uint64_t count = 0;
  unsigned launches = 0;
};
struct SeenFindings {
  std::mutex mu;
  std::map<std::string, SeenFinding> by_key;  // key: kernel, kind, file, line, column, count
  std::vector<std::string> order;             // keys in first-seen order
  ~SeenFindings() {
    for (const std::string& k : order) {
      const SeenFinding& f = by_key[k];
      if (f.launches > 1)
        std::fprintf(stderr, "tgsim: %s in %u launches: %llu in total (printed at the first)\n", f.where.c_str(),
                     f.launches, static_cast<unsigned long long>(f.count));
    }
  }
};
SeenFindings seen_findings;

// Prints the findings of one launch of `kernel` that no earlier launch made; counts the others.
void print_findings(const std::string& kernel, const std::vector<tgsim::Finding>& findings) {
  std::lock_guard lock(seen_findings.mu);
  std::vector<const tgsim::Finding*> fresh;
  for (const tgsim::Finding& f : findings) {
    const std::string where = std::string(tgsim::to_string(f.kind)) + " at " + f.file + ":" + std::to_string(f.line) + ":" +
                              std::to_string(tgsim_site_column(f.column)) + tgsim::detail::also_line(f.column);
    // The same kind at the same site as many times: a repeat (a finding that changed with the
    // launch's data, as initcheck's count after a partial copy, is printed again).
    const std::string key = kernel + "\n" + where + "\n" + std::to_string(f.count);
    auto [it, added] = seen_findings.by_key.try_emplace(key);
    if (added) {
      it->second.where = kernel + ": " + where;
      seen_findings.order.push_back(key);
      fresh.push_back(&f);
    }
    it->second.count += f.count;
    ++it->second.launches;
  }
  if (fresh.empty()) return;
  std::cerr << "tgsim: " << kernel << ": " << fresh.size() << " finding(s)\n";
  for (const tgsim::Finding* f : fresh)
    std::cerr << "  " << tgsim::to_string(f->kind) << " at " << f->file << ":" << f->line << ":"
              << tgsim_site_column(f->column) << tgsim::detail::also_line(f->column) << " (" << f->count
              << "x), e.g. block " << f->block.str() << " thread " << f->thread.str() << ": " << f->message << "\n";
}

}  // namespace

namespace tgsim::detail::cuda {

cudaError_t fail(cudaError_t e, std::string message) {
  last_error = e;
  last_message = std::move(message);
  std::cerr << "tgsim: " << last_message << "\n";
  return e;
}

cudaError_t sticky_error() { return sticky; }

tgsim::DeviceProfile profile() {
  if (const char* p = std::getenv("TGSIM_PROFILE"))
    if (auto d = tgsim::profiles::by_name(p)) return *d;
  return tgsim::profiles::nvidia_h100();
}

void host_wrote(void* dst, std::size_t bytes) {
  const auto a = reinterpret_cast<std::uint64_t>(dst);
  const tgsim::detail::DeviceRange r = tgsim::detail::find_device_range(a);
  if (!bytes || !r.info || !r.contains(a) || r.info->assume_init) return;
  const std::uint64_t size = r.end - r.begin, from = a - r.begin, to = std::min<std::uint64_t>(from + bytes, size);
  std::vector<std::uint64_t>& bits = r.info->written;
  if (bits.size() < (size + 63) / 64) bits.resize((size + 63) / 64, 0);
  std::uint64_t o = from;
  for (; o < to && o % 64; ++o) bits[o / 64] |= 1ull << (o % 64);
  for (; o + 64 <= to; o += 64) bits[o / 64] = ~0ull;
  for (; o < to; ++o) bits[o / 64] |= 1ull << (o % 64);
}

}  // namespace tgsim::detail::cuda

using namespace tgsim::detail;
using namespace tgsim::detail::cuda;

extern "C" {

cudaError_t cudaDeviceReset(void) {
  sticky = last_error = cudaSuccess;
  return cudaSuccess;
}
cudaError_t cudaGetLastError(void) {
  cudaError_t e = last_error;
  last_error = sticky;
  return e;
}
cudaError_t cudaPeekAtLastError(void) { return last_error; }
const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidPitchValue: return "cudaErrorInvalidPitchValue";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
    case cudaErrorPeerAccessUnsupported: return "cudaErrorPeerAccessUnsupported";
    case cudaErrorIllegalState: return "cudaErrorIllegalState";
    case cudaErrorPeerAccessNotEnabled: return "cudaErrorPeerAccessNotEnabled";
    case cudaErrorStreamCaptureUnsupported: return "cudaErrorStreamCaptureUnsupported";
    case cudaErrorStreamCaptureInvalidated: return "cudaErrorStreamCaptureInvalidated";
    case cudaErrorStreamCaptureUnmatched: return "cudaErrorStreamCaptureUnmatched";
    case cudaErrorStreamCaptureUnjoined: return "cudaErrorStreamCaptureUnjoined";
    case cudaErrorGraphExecUpdateFailure: return "cudaErrorGraphExecUpdateFailure";
    default: return "cudaErrorUnknown";
  }
}
const char* cudaGetErrorString(cudaError_t e) {
  if (e == cudaSuccess) return "no error";
  if (e == last_error && !last_message.empty()) return last_message.c_str();
  return cudaGetErrorName(e);
}
namespace {
cudaError_t launch(const void* kernel, const unsigned* grid, const unsigned* block, size_t shared_bytes,
                   void** args, bool cooperative);
}
cudaError_t tgsim_cuda_launch_kernel(const void* kernel, const unsigned* grid, const unsigned* block,
                                     size_t shared_bytes, void** args) {
  return launch(kernel, grid, block, shared_bytes, args, false);
}
cudaError_t tgsim_cuda_launch_cooperative(const void* kernel, const unsigned* grid, const unsigned* block,
                                          size_t shared_bytes, void** args) {
  return launch(kernel, grid, block, shared_bytes, args, true);
}
}  // extern "C"

namespace {
cudaError_t launch(const void* kernel, const unsigned* grid, const unsigned* block, size_t shared_bytes,
                   void** args, bool cooperative) {
  KernelRef k = find_kernel(kernel);
  if (!k.kernel)
    return fail(cudaErrorInvalidDeviceFunction,
                "launch of a function that tgsim's front end did not compile as a __global__ kernel");
  tgsim::LaunchConfig cfg;
  cfg.grid = tgsim::Dim3(grid[0], grid[1], grid[2]);
  cfg.block = tgsim::Dim3(block[0], block[1], block[2]);
  cfg.shared_bytes = shared_bytes;
  cfg.cooperative = cooperative;
  cfg.name = k.kernel->name;
  const char* check = std::getenv("TGSIM_CHECK");
  cfg.check = check && *check && std::strcmp(check, "0") != 0;
  // printf output goes to stdout while the kernel runs (in the report's order).
  cfg.print_out = [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); };
  struct Body {
    void (*tramp)(void**);
    void** args;
  } body{k.kernel->trampoline, args};
  KernelFn fn{[](void* b, tgsim::ThreadCtx&) {
                auto* x = static_cast<Body*>(b);
                x->tramp(x->args);
              },
              &body, kernel};
  tgsim::Report r;
  try {
    // The buffers its pointer arguments name (read-only ones and initcheck); a launch without
    // the checker may store to any of them (launch.hpp, assume_initialised).
    const std::vector<BufferSpan> spans = kernel_arg_spans(*k.kernel, args);
    r = run_launch(profile(), cfg, fn, spans);
    if (!cfg.check)
      for (const BufferSpan& b : spans) b.info->assume_init = true;
  } catch (const tgsim::LaunchError& e) {
    const bool too_large = cooperative && std::strstr(e.what(), "cudaErrorCooperativeLaunchTooLarge");
    return fail(too_large ? cudaErrorCooperativeLaunchTooLarge : cudaErrorInvalidConfiguration,
                std::string("launch of ") + cfg.name + ": " + e.what());
  } catch (const std::exception& e) {
    return fail(cudaErrorLaunchFailure, std::string("launch of ") + cfg.name + ": " + e.what());
  }
  std::fflush(stdout);
  print_findings(cfg.name, r.findings);
  if (const char* path = std::getenv("TGSIM_REPORT")) {
    static std::mutex mu;
    std::lock_guard lock(mu);
    std::ofstream(path, std::ios::app) << tgsim::to_json(r, -1) << "\n";
  }
  // Findings that end the launch on the GPU: its error, sticky as there.
  for (const tgsim::Finding& f : r.findings) {
    cudaError_t e = cudaSuccess;
    const char* what = "";
    if (f.kind == tgsim::FindingKind::kAssert) {
      e = cudaErrorAssert, what = "device-side assert triggered";
    } else if (f.kind == tgsim::FindingKind::kTrap || f.kind == tgsim::FindingKind::kConstantWrite) {
      e = cudaErrorLaunchFailure, what = "unspecified launch failure";
    } else if (f.kind == tgsim::FindingKind::kMisaligned) {
      e = cudaErrorMisalignedAddress, what = "misaligned address";
    }
    if (e == cudaSuccess) continue;
    sticky = e;
    return fail(sticky, std::string("launch of ") + cfg.name + " failed: " + what + " at " + f.file + ":" +
                            std::to_string(f.line));
  }
  return cudaSuccess;
}
}  // namespace
