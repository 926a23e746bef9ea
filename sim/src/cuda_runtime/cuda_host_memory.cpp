// The CUDA runtime's memory calls (cuda_host_api.h), for host code compiled by tgsim's front end.
// There is one memory: device, pinned (cudaMallocHost, cudaHostAlloc), managed and registered
// host memory are all registered device ranges (device_memory.hpp), so a kernel may use any of
// them, as a mapped or managed pointer on the GPU; copies are memmove. Pitched allocations pad
// each row to 512 bytes (the H100's cudaMallocPitch pitch for rows up to 512 bytes).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "cuda_runtime/cuda_host_graph.hpp"
#include "cuda_runtime/cuda_host_internal.hpp"
#include "memory/device_memory.hpp"

using namespace tgsim::detail;
using namespace tgsim::detail::cuda;

namespace {

std::atomic<std::size_t> held{0};  // bytes of live allocations (cudaMemGetInfo)
constexpr std::size_t kPitchAlign = 512;

// `bytes` of registered device memory named "WHAT #n (BYTES bytes)"; host_visible: the host
// writes it directly, unseen, so initcheck counts every byte as written.
cudaError_t allocate(void** p, std::size_t bytes, const char* what, bool host_visible) {
  static std::atomic<unsigned> n{0};
  if (!p) return fail(cudaErrorInvalidValue, std::string(what) + ": null pointer to the result");
  auto* info = acquire_buffer_info();
  info->name = std::string(what) + " #" + std::to_string(++n) + " (" + std::to_string(bytes) + " bytes)";
  info->count = bytes;
  info->elem_size = 1;
  info->assume_init = host_visible;
  try {
    *p = device_alloc(bytes, info);
  } catch (const std::exception& e) {
    release_buffer_info(info);
    return fail(cudaErrorMemoryAllocation, std::string(what) + ": " + e.what());
  }
  held += bytes;
  return cudaSuccess;
}

cudaError_t release(void* p, const char* what) {
  if (!p) return cudaSuccess;
  DeviceRange r = find_device_range(reinterpret_cast<std::uint64_t>(p));
  if (!r.info || r.begin != reinterpret_cast<std::uint64_t>(p) || r.info->freed || r.zone_begin == r.begin)
    return fail(cudaErrorInvalidDevicePointer, std::string(what) + ": not a live allocation's pointer");
  held -= std::min<std::size_t>(held, r.info->count);
  release_buffer_info(const_cast<BufferInfo*>(r.info));
  device_free(p);
  return cudaSuccess;
}

std::size_t round_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

}  // namespace

std::size_t tgsim::detail::cuda::allocated_bytes() { return held; }

extern "C" {

cudaError_t cudaMalloc(void** p, size_t bytes) { return allocate(p, bytes, "cudaMalloc", false); }
cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned) {
  return allocate(p, bytes, "cudaMallocManaged", true);
}
cudaError_t cudaMallocHost(void** p, size_t bytes) { return allocate(p, bytes, "cudaMallocHost", true); }
cudaError_t cudaHostAlloc(void** p, size_t bytes, unsigned) { return allocate(p, bytes, "cudaHostAlloc", true); }
cudaError_t cudaMallocAsync(void** p, size_t bytes, cudaStream_t s) {
  if (capturing(s)) return capture_malloc(s, p, bytes);  // a graph's allocation (cuda_host_capture.cpp)
  return allocate(p, bytes, "cudaMallocAsync", false);
}
cudaError_t cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
  if (!pitch) return fail(cudaErrorInvalidValue, "cudaMallocPitch: null pitch");
  *pitch = round_up(std::max<std::size_t>(width, 1), kPitchAlign);
  return allocate(p, *pitch * height, "cudaMallocPitch", false);
}
cudaError_t cudaMalloc3D(cudaPitchedPtr* p, cudaExtent e) {
  if (!p) return fail(cudaErrorInvalidValue, "cudaMalloc3D: null cudaPitchedPtr");
  p->pitch = round_up(std::max<std::size_t>(e.width, 1), kPitchAlign);
  p->xsize = e.width;
  p->ysize = e.height;
  return allocate(&p->ptr, p->pitch * e.height * e.depth, "cudaMalloc3D", false);
}
// A graph's allocation (cuda_host_graph_exec.cpp) ends its use and keeps its address.
cudaError_t cudaFree(void* p) { return free_graph_allocation(p) ? cudaSuccess : release(p, "cudaFree"); }
cudaError_t cudaFreeHost(void* p) { return release(p, "cudaFreeHost"); }
cudaError_t cudaFreeAsync(void* p, cudaStream_t s) {
  if (capturing(s)) return capture_free(s, p);
  return free_graph_allocation(p) ? cudaSuccess : release(p, "cudaFreeAsync");
}

cudaError_t cudaHostRegister(void* p, size_t bytes, unsigned) {
  if (!p || !bytes) return fail(cudaErrorInvalidValue, "cudaHostRegister: null pointer or 0 bytes");
  auto* info = acquire_buffer_info();
  info->name = "cudaHostRegister'd memory (" + std::to_string(bytes) + " bytes)";
  info->count = bytes;
  info->elem_size = 1;
  info->assume_init = true;
  register_device_range(p, bytes, info);
  return cudaSuccess;
}
cudaError_t cudaHostUnregister(void* p) {
  DeviceRange r = find_device_range(reinterpret_cast<std::uint64_t>(p));
  if (!r.info || r.begin != reinterpret_cast<std::uint64_t>(p) || r.zone_begin != r.begin)
    return fail(cudaErrorInvalidValue, "cudaHostUnregister: not a cudaHostRegister'd pointer");
  unregister_device_range(p);
  release_buffer_info(const_cast<BufferInfo*>(r.info));
  return cudaSuccess;
}
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned) {
  if (!device || !find_device_range(reinterpret_cast<std::uint64_t>(host)).info)
    return fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer: not pinned, mapped or registered host memory");
  *device = host;
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  const std::size_t used = std::min(allocated_bytes(), kGlobalBytes);
  if (free_bytes) *free_bytes = kGlobalBytes - used;
  if (total_bytes) *total_bytes = kGlobalBytes;
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (bytes && (!dst || !src)) return fail(cudaErrorInvalidValue, "cudaMemcpy: null pointer");
  std::memmove(dst, src, bytes);
  host_wrote(dst, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind k, cudaStream_t s) {
  if (capturing(s)) return capture_copy_2d(s, dst, bytes, src, bytes, bytes, 1, k);
  return cudaMemcpy(dst, src, bytes, k);
}
cudaError_t cudaMemcpyPeer(void* dst, int, const void* src, int, size_t bytes) {
  return cudaMemcpy(dst, src, bytes, cudaMemcpyDefault);
}
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (width > dpitch || width > spitch)
    return fail(cudaErrorInvalidPitchValue, "cudaMemcpy2D: a width of " + std::to_string(width) +
                                                " bytes exceeds the pitch (dpitch " + std::to_string(dpitch) +
                                                ", spitch " + std::to_string(spitch) + ")");
  if (width && height && (!dst || !src)) return fail(cudaErrorInvalidValue, "cudaMemcpy2D: null pointer");
  for (std::size_t row = 0; row < height; ++row) {
    char* d = static_cast<char*>(dst) + row * dpitch;
    std::memmove(d, static_cast<const char*>(src) + row * spitch, width);
    host_wrote(d, width);
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                              size_t height, cudaMemcpyKind k, cudaStream_t s) {
  if (capturing(s)) return capture_copy_2d(s, dst, dpitch, src, spitch, width, height, k);
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, k);
}
cudaError_t cudaMemset(void* p, int value, size_t bytes) {
  if (bytes && !p) return fail(cudaErrorInvalidValue, "cudaMemset: null pointer");
  std::memset(p, value, bytes);
  host_wrote(p, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t s) {
  if (capturing(s)) return capture_set_2d(s, p, bytes, value, bytes, 1);
  return cudaMemset(p, value, bytes);
}
cudaError_t cudaMemset2D(void* p, size_t pitch, int value, size_t width, size_t height) {
  if (width > pitch)
    return fail(cudaErrorInvalidPitchValue, "cudaMemset2D: a width of " + std::to_string(width) +
                                                " bytes exceeds the pitch " + std::to_string(pitch));
  for (std::size_t row = 0; row < height; ++row) {
    const cudaError_t e = cudaMemset(static_cast<char*>(p) + row * pitch, value, width);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
// Hints about where managed memory should live: one memory, nothing to move.
cudaError_t cudaMemPrefetchAsync(const void*, size_t, int, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, int) { return cudaSuccess; }
// The default pool of stream-ordered allocation (cudaMallocAsync): its attributes are accepted.
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  static int the_pool;
  if (device != 0) return fail(cudaErrorInvalidDevice, "cudaDeviceGetDefaultMemPool: one device: 0");
  *pool = reinterpret_cast<cudaMemPool_t>(&the_pool);
  return cudaSuccess;
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t, cudaMemPoolAttr, void*) { return cudaSuccess; }

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

}  // extern "C"
