// The CUDA runtime subset of tgsim/kernel/cuda_host.h, for host code compiled by tgsim's front
// end. One device, synchronous: a launch runs before tgsim_cuda_launch_kernel returns.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include <tgsim/launch.hpp>
#include <tgsim/profile.hpp>
#include <tgsim/report.hpp>

#include <tgsim/kernel/abi.h>
#include "device_memory.hpp"
#include "kernel_args.hpp"
#include "modules.hpp"
#include "util.hpp"

#include <tgsim/kernel/cuda_host_api.h>

namespace {

thread_local cudaError_t last_error = cudaSuccess;
thread_local std::string last_message;
// A launch that failed (a failed assert: cudaErrorAssert, a trap: cudaErrorLaunchFailure) leaves
// the context unusable, as on the GPU: later calls that synchronise or copy return the error
// until cudaDeviceReset.
cudaError_t sticky = cudaSuccess;

cudaError_t fail(cudaError_t e, std::string message) {
  last_error = e;
  last_message = std::move(message);
  std::cerr << "tgsim: " << last_message << "\n";
  return e;
}

tgsim::DeviceProfile profile() {
  if (const char* p = std::getenv("TGSIM_PROFILE"))
    if (auto d = tgsim::profiles::by_name(p)) return *d;
  return tgsim::profiles::nvidia_h100();
}

// Bytes of device memory the host API wrote (cudaMemcpy, cudaMemset): initcheck counts them as
// written (BufferInfo::written), as compute-sanitizer's initcheck does; a cudaMalloc'd byte
// nothing wrote is uninitialised for a checked launch that loads it.
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

struct CudaEvent {
  std::chrono::steady_clock::time_point t;
};

}  // namespace

using namespace tgsim::detail;

extern "C" {

cudaError_t cudaMalloc(void** p, size_t bytes) {
  static std::atomic<unsigned> n{0};
  auto* info = acquire_buffer_info();
  info->name = "cudaMalloc #" + std::to_string(++n) + " (" + std::to_string(bytes) + " bytes)";
  info->count = bytes;
  info->elem_size = 1;
  try {
    *p = device_alloc(bytes, info);
  } catch (const std::exception& e) {
    release_buffer_info(info);
    return fail(cudaErrorMemoryAllocation, e.what());
  }
  return cudaSuccess;
}
cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned) {
  const cudaError_t e = cudaMalloc(p, bytes);
  // The host writes managed memory directly, unseen: initcheck counts every byte as written.
  if (e == cudaSuccess) find_device_range(reinterpret_cast<std::uint64_t>(*p)).info->assume_init = true;
  return e;
}
cudaError_t cudaMallocHost(void** p, size_t bytes) {
  *p = std::malloc(bytes ? bytes : 1);
  return *p ? cudaSuccess : fail(cudaErrorMemoryAllocation, "cudaMallocHost: out of memory");
}
cudaError_t cudaFreeHost(void* p) {
  std::free(p);
  return cudaSuccess;
}
cudaError_t cudaFree(void* p) {
  if (!p) return cudaSuccess;
  DeviceRange r = find_device_range(reinterpret_cast<std::uint64_t>(p));
  if (!r.info || r.begin != reinterpret_cast<std::uint64_t>(p) || r.info->freed)
    return fail(cudaErrorInvalidDevicePointer, "cudaFree: not a live cudaMalloc pointer");
  release_buffer_info(const_cast<BufferInfo*>(r.info));
  device_free(p);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind) {
  if (sticky != cudaSuccess) return sticky;
  if (bytes && (!dst || !src)) return fail(cudaErrorInvalidValue, "cudaMemcpy: null pointer");
  std::memmove(dst, src, bytes);
  host_wrote(dst, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind k, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, k);
}
cudaError_t cudaMemset(void* p, int value, size_t bytes) {
  if (bytes && !p) return fail(cudaErrorInvalidValue, "cudaMemset: null pointer");
  std::memset(p, value, bytes);
  host_wrote(p, bytes);
  return cudaSuccess;
}
cudaError_t tgsim_cuda_memcpy_symbol(void* symbol, size_t symbol_bytes, const void* src, size_t bytes,
                                     size_t offset, int to_symbol) {
  if (offset + bytes > symbol_bytes)
    return fail(cudaErrorInvalidValue, "cudaMemcpy{To,From}Symbol: " + std::to_string(bytes) +
                                           " bytes at offset " + std::to_string(offset) + " exceed the " +
                                           std::to_string(symbol_bytes) + "-byte symbol");
  if (to_symbol)
    std::memcpy(static_cast<char*>(symbol) + offset, src, bytes);
  else
    std::memcpy(const_cast<void*>(src), static_cast<char*>(symbol) + offset, bytes);
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void) { return sticky; }
cudaError_t cudaDeviceReset(void) {
  sticky = last_error = cudaSuccess;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : fail(cudaErrorInvalidValue, "one device: 0"); }
cudaError_t cudaGetDevice(int* d) {
  *d = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* n) {
  *n = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int) {
  const tgsim::DeviceProfile d = profile();
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "tgsim %s", d.name.c_str());
  p->totalGlobalMem = std::size_t(80) << 30;
  p->sharedMemPerBlock = d.max_static_shared_bytes;
  p->regsPerBlock = 65536;
  p->warpSize = static_cast<int>(d.warp_size);
  p->maxThreadsPerBlock = static_cast<int>(d.max_threads_per_group);
  p->maxThreadsDim[0] = static_cast<int>(d.max_block_x);
  p->maxThreadsDim[1] = static_cast<int>(d.max_block_y);
  p->maxThreadsDim[2] = static_cast<int>(d.max_block_z);
  p->maxGridSize[0] = static_cast<int>(std::min<std::uint64_t>(d.max_grid_x, 0x7FFFFFFF));
  p->maxGridSize[1] = static_cast<int>(d.max_grid_y);
  p->maxGridSize[2] = static_cast<int>(d.max_grid_z);
  p->major = 9;
  p->minor = 0;
  p->multiProcessorCount = static_cast<int>(d.sm_count);
  p->l2CacheSize = d.l2_bytes;
  p->maxThreadsPerMultiProcessor = 2048;
  p->sharedMemPerMultiprocessor = d.max_shared_bytes_per_group;
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
    default: return "cudaErrorUnknown";
  }
}
const char* cudaGetErrorString(cudaError_t e) {
  if (e == cudaSuccess) return "no error";
  if (e == last_error && !last_message.empty()) return last_message.c_str();
  return cudaGetErrorName(e);
}
cudaError_t cudaStreamCreate(cudaStream_t* s) {
  *s = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaEventCreate(cudaEvent_t* e) {
  *e = reinterpret_cast<cudaEvent_t>(new CudaEvent{});
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete reinterpret_cast<CudaEvent*>(e);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
  reinterpret_cast<CudaEvent*>(e)->t = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = std::chrono::duration<float, std::milli>(reinterpret_cast<CudaEvent*>(b)->t -
                                                 reinterpret_cast<CudaEvent*>(a)->t).count();
  return cudaSuccess;
}

cudaError_t tgsim_cuda_launch_kernel(const void* kernel, const unsigned* grid, const unsigned* block,
                                     size_t shared_bytes, void** args) {
  KernelRef k = find_kernel(kernel);
  if (!k.kernel)
    return fail(cudaErrorInvalidDeviceFunction,
                "launch of a function that tgsim's front end did not compile as a __global__ kernel");
  tgsim::LaunchConfig cfg;
  cfg.grid = tgsim::Dim3(grid[0], grid[1], grid[2]);
  cfg.block = tgsim::Dim3(block[0], block[1], block[2]);
  cfg.shared_bytes = shared_bytes;
  cfg.name = k.kernel->name;
  const char* check = std::getenv("TGSIM_CHECK");
  cfg.check = check && *check && std::strcmp(check, "0") != 0;
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
    return fail(cudaErrorInvalidConfiguration, std::string("launch of ") + cfg.name + ": " + e.what());
  } catch (const std::exception& e) {
    return fail(cudaErrorLaunchFailure, std::string("launch of ") + cfg.name + ": " + e.what());
  }
  std::fwrite(r.printed.data(), 1, r.printed.size(), stdout);
  std::fflush(stdout);
  if (!r.findings.empty()) {
    std::cerr << "tgsim: " << cfg.name << ": " << r.findings.size() << " finding(s)\n";
    for (const tgsim::Finding& f : r.findings)
      std::cerr << "  " << tgsim::to_string(f.kind) << " at " << f.file << ":" << f.line << ":"
                << tgsim_site_column(f.column) << tgsim::detail::also_line(f.column) << " (" << f.count
                << "x), e.g. block " << f.block.str() << " thread " << f.thread.str() << ": " << f.message << "\n";
  }
  if (const char* path = std::getenv("TGSIM_REPORT")) {
    static std::mutex mu;
    std::lock_guard lock(mu);
    std::ofstream(path, std::ios::app) << tgsim::to_json(r, -1) << "\n";
  }
  for (const tgsim::Finding& f : r.findings)
    if (f.kind == tgsim::FindingKind::kAssert || f.kind == tgsim::FindingKind::kTrap) {
      const bool assert_failed = f.kind == tgsim::FindingKind::kAssert;
      sticky = assert_failed ? cudaErrorAssert : cudaErrorLaunchFailure;
      return fail(sticky, std::string("launch of ") + cfg.name + " failed: " +
                              (assert_failed ? "device-side assert triggered" : "unspecified launch failure") +
                              " at " + f.file + ":" + std::to_string(f.line));
    }
  return cudaSuccess;
}

}  // extern "C"
