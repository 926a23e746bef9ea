// The CUDA runtime's device calls (cuda_host_api.h): one device, whose properties and
// attributes are the simulated profile's (TGSIM_PROFILE, else the H100 SXM: 132 SMs, 80 GiB,
// compute capability 9.0). Cache, shared-memory and limit settings are accepted and change
// nothing the model does. Occupancy follows the documented per-SM limits (blocks, warps, shared
// memory with 1 KiB reserved per block); registers are not modelled, so they never limit it.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "cuda_runtime/cuda_host_internal.hpp"
#include "memory/device_memory.hpp"
#include "frontend/modules.hpp"
#include "engine/occupancy.hpp"

using namespace tgsim::detail;
using namespace tgsim::detail::cuda;

namespace {

constexpr int kCcMajor = 9, kCcMinor = 0;
constexpr int kMemoryClockKhz = 2619000, kMemoryBusBits = 5120;  // H100 SXM: HBM3
int clamp_int(std::uint64_t v) { return static_cast<int>(std::min<std::uint64_t>(v, 0x7FFFFFFF)); }

int attribute(const tgsim::DeviceProfile& d, cudaDeviceAttr a) {
  switch (a) {
    case cudaDevAttrMaxThreadsPerBlock: return clamp_int(d.max_threads_per_group);
    case cudaDevAttrMaxBlockDimX: return clamp_int(d.max_block_x);
    case cudaDevAttrMaxBlockDimY: return clamp_int(d.max_block_y);
    case cudaDevAttrMaxBlockDimZ: return clamp_int(d.max_block_z);
    case cudaDevAttrMaxGridDimX: return clamp_int(d.max_grid_x);
    case cudaDevAttrMaxGridDimY: return clamp_int(d.max_grid_y);
    case cudaDevAttrMaxGridDimZ: return clamp_int(d.max_grid_z);
    case cudaDevAttrMaxSharedMemoryPerBlock: return clamp_int(d.max_static_shared_bytes);
    case cudaDevAttrTotalConstantMemory: return 64 * 1024;
    case cudaDevAttrWarpSize: return clamp_int(d.warp_size);
    case cudaDevAttrMaxPitch: return 0x7FFFFFFF;
    case cudaDevAttrMaxRegistersPerBlock: case cudaDevAttrMaxRegistersPerMultiprocessor: return 65536;
    case cudaDevAttrClockRate: return static_cast<int>(d.clock_hz / 1000);
    case cudaDevAttrTextureAlignment: return 512;
    case cudaDevAttrTexturePitchAlignment: return 32;
    case cudaDevAttrMultiProcessorCount: return clamp_int(d.sm_count);
    case cudaDevAttrComputeMode: return cudaComputeModeDefault;
    case cudaDevAttrMemoryClockRate: return kMemoryClockKhz;
    case cudaDevAttrGlobalMemoryBusWidth: return kMemoryBusBits;
    case cudaDevAttrL2CacheSize: return clamp_int(d.l2_bytes);
    case cudaDevAttrMaxThreadsPerMultiProcessor: return clamp_int(std::uint64_t(d.max_warps_per_sm) * d.warp_size);
    case cudaDevAttrAsyncEngineCount: return 3;
    case cudaDevAttrComputeCapabilityMajor: return kCcMajor;
    case cudaDevAttrComputeCapabilityMinor: return kCcMinor;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return clamp_int(shared_per_sm(d));
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: return 2;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: return clamp_int(d.max_shared_bytes_per_group);
    case cudaDevAttrMaxBlocksPerMultiprocessor: return clamp_int(d.max_groups_per_sm);
    case cudaDevAttrMaxPersistingL2CacheSize: return clamp_int(d.l2_bytes * 3 / 5);
    case cudaDevAttrMaxAccessPolicyWindowSize: return 134213632;
    case cudaDevAttrReservedSharedMemoryPerBlock: return static_cast<int>(kReservedSharedPerBlock);
    // Yes/no features: one device, no timeout, no ECC, no TCC, discrete, on PCI bus 0.
    case cudaDevAttrKernelExecTimeout: case cudaDevAttrIntegrated: case cudaDevAttrEccEnabled:
    case cudaDevAttrTccDriver: case cudaDevAttrIsMultiGpuBoard: case cudaDevAttrMultiGpuBoardGroupID:
    case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: case cudaDevAttrPciDomainId:
    case cudaDevAttrPageableMemoryAccess: case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
    case cudaDevAttrHostNativeAtomicSupported:
      return 0;
    default: return 1;  // the remaining features (managed memory, cooperative launch, ...): supported
  }
}

}  // namespace

extern "C" {

cudaError_t cudaDeviceSynchronize(void) { return sticky_error(); }
cudaError_t cudaThreadSynchronize(void) { return sticky_error(); }
cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
cudaError_t cudaSetDevice(int d) {
  return d == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice, "cudaSetDevice(" + std::to_string(d) + "): one device: 0");
}
cudaError_t cudaGetDevice(int* d) {
  *d = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* n) {
  *n = 1;
  return cudaSuccess;
}
cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (device != 0)
    return fail(cudaErrorInvalidDevice, "cudaDeviceGetAttribute: device " + std::to_string(device) + "; one device: 0");
  *value = attribute(profile(), attr);
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  if (device != 0)
    return fail(cudaErrorInvalidDevice, "cudaGetDeviceProperties: device " + std::to_string(device) + "; one device: 0");
  const tgsim::DeviceProfile d = profile();
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "tgsim %s", d.name.c_str());
  p->totalGlobalMem = kGlobalBytes;
  p->sharedMemPerBlock = d.max_static_shared_bytes;
  p->regsPerBlock = p->regsPerMultiprocessor = 65536;
  p->warpSize = static_cast<int>(d.warp_size);
  p->memPitch = 0x7FFFFFFF;
  p->maxThreadsPerBlock = attribute(d, cudaDevAttrMaxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) {
    p->maxThreadsDim[i] = attribute(d, static_cast<cudaDeviceAttr>(cudaDevAttrMaxBlockDimX + i));
    p->maxGridSize[i] = attribute(d, static_cast<cudaDeviceAttr>(cudaDevAttrMaxGridDimX + i));
  }
  p->clockRate = attribute(d, cudaDevAttrClockRate);
  p->totalConstMem = 64 * 1024;
  p->major = kCcMajor;
  p->minor = kCcMinor;
  p->textureAlignment = 512;
  p->texturePitchAlignment = 32;
  p->deviceOverlap = p->concurrentKernels = p->canMapHostMemory = p->unifiedAddressing = 1;
  p->multiProcessorCount = static_cast<int>(d.sm_count);
  p->maxTexture1D = 131072;
  p->maxTexture2D[0] = 131072, p->maxTexture2D[1] = 65536;
  p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
  p->asyncEngineCount = 3;
  p->memoryClockRate = kMemoryClockKhz;
  p->memoryBusWidth = kMemoryBusBits;
  p->l2CacheSize = attribute(d, cudaDevAttrL2CacheSize);
  p->persistingL2CacheMaxSize = attribute(d, cudaDevAttrMaxPersistingL2CacheSize);
  p->maxThreadsPerMultiProcessor = attribute(d, cudaDevAttrMaxThreadsPerMultiProcessor);
  p->streamPrioritiesSupported = p->globalL1CacheSupported = p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = shared_per_sm(d);
  p->managedMemory = p->concurrentManagedAccess = p->computePreemptionSupported = 1;
  p->canUseHostPointerForRegisteredMem = p->cooperativeLaunch = p->cooperativeMultiDeviceLaunch = 1;
  p->directManagedMemAccessFromHost = p->hostRegisterSupported = p->memoryPoolsSupported = 1;
  p->singleToDoublePrecisionPerfRatio = 2;
  p->sharedMemPerBlockOptin = d.max_shared_bytes_per_group;
  p->maxBlocksPerMultiProcessor = static_cast<int>(d.max_groups_per_sm);
  p->accessPolicyMaxWindowSize = attribute(d, cudaDevAttrMaxAccessPolicyWindowSize);
  p->reservedSharedMemPerBlock = kReservedSharedPerBlock;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* v) {
  *v = CUDART_VERSION;
  return cudaSuccess;
}

// Settings the model does not use: accepted.
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* c) {
  *c = cudaFuncCachePreferNone;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }
// The device heap's size is modelled (device_heap.cpp: kernel malloc returns NULL past it); the
// other limits are accepted.
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (limit == cudaLimitMallocHeapSize) tgsim::detail::set_device_heap_limit(value);
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t* v, cudaLimit limit) {
  *v = limit == cudaLimitStackSize               ? 1024
       : limit == cudaLimitMallocHeapSize         ? tgsim::detail::device_heap_limit()
       : limit == cudaLimitPrintfFifoSize         ? std::size_t(8) << 20
                                                  : 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceCanAccessPeer(int* can, int, int) {
  *can = 0;  // one device
  return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned) {
  return fail(cudaErrorInvalidDevice, "cudaDeviceEnablePeerAccess(" + std::to_string(peer) + "): one device: 0");
}
cudaError_t cudaDeviceDisablePeerAccess(int peer) {
  return fail(cudaErrorInvalidDevice, "cudaDeviceDisablePeerAccess(" + std::to_string(peer) + "): one device: 0");
}
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void*, cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaFuncSetSharedMemConfig(const void*, cudaSharedMemConfig) { return cudaSuccess; }
cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attr, int value) {
  if (!find_kernel(kernel).kernel)
    return fail(cudaErrorInvalidDeviceFunction, "cudaFuncSetAttribute: not a __global__ kernel tgsim compiled");
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize &&
      (value < 0 || static_cast<std::size_t>(value) > profile().max_shared_bytes_per_group))
    return fail(cudaErrorInvalidValue, "cudaFuncSetAttribute: cudaFuncAttributeMaxDynamicSharedMemorySize " +
                                           std::to_string(value) + " exceeds the device's " +
                                           std::to_string(profile().max_shared_bytes_per_group) + " bytes");
  return cudaSuccess;
}
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* a, const void* kernel) {
  const KernelRef k = find_kernel(kernel);
  if (!k.kernel)
    return fail(cudaErrorInvalidDeviceFunction, "cudaFuncGetAttributes: not a __global__ kernel tgsim compiled");
  const tgsim::DeviceProfile d = profile();
  std::memset(a, 0, sizeof *a);
  a->sharedSizeBytes = kernel_shared_bytes(k, 0);
  a->maxThreadsPerBlock = static_cast<int>(d.max_threads_per_group);
  a->ptxVersion = a->binaryVersion = kCcMajor * 10 + kCcMinor;
  a->maxDynamicSharedSizeBytes = static_cast<int>(d.max_shared_bytes_per_group - a->sharedSizeBytes);
  a->preferredShmemCarveout = -1;
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* kernel, int block_size,
                                                          size_t dynamic_shared) {
  const KernelRef k = find_kernel(kernel);
  if (!k.kernel)
    return fail(cudaErrorInvalidDeviceFunction,
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor: not a __global__ kernel tgsim compiled");
  *blocks = blocks_per_sm(profile(), block_size, kernel_shared_bytes(k, dynamic_shared));
  return cudaSuccess;
}
// The block size (a multiple of the warp) with the most resident warps per SM, the largest of
// equals, and the grid that fills every SM with it.
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, const void* kernel,
                                               size_t dynamic_shared, int limit) {
  const KernelRef k = find_kernel(kernel);
  if (!k.kernel)
    return fail(cudaErrorInvalidDeviceFunction,
                "cudaOccupancyMaxPotentialBlockSize: not a __global__ kernel tgsim compiled");
  const tgsim::DeviceProfile d = profile();
  const int most = static_cast<int>(limit > 0 ? std::min<unsigned>(limit, d.max_threads_per_group)
                                              : d.max_threads_per_group);
  const std::size_t shared = kernel_shared_bytes(k, dynamic_shared);
  int best = 0, best_blocks = 0, best_warps = -1;
  for (int bs = most / static_cast<int>(d.warp_size) * static_cast<int>(d.warp_size); bs > 0;
       bs -= static_cast<int>(d.warp_size)) {
    const int b = blocks_per_sm(d, bs, shared), warps = b * bs / static_cast<int>(d.warp_size);
    if (warps > best_warps) best = bs, best_blocks = b, best_warps = warps;
  }
  *block_size = best;
  *min_grid = best_blocks * static_cast<int>(d.sm_count);
  return cudaSuccess;
}

}  // extern "C"
