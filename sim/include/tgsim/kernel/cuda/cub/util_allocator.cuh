// cub::CachingDeviceAllocator, written for tgsim: DeviceAllocate and DeviceFree are cudaMalloc
// and cudaFree (nothing is cached; the simulated device has memory enough).
#pragma once
#include "util_type.cuh"

namespace cub {
struct CachingDeviceAllocator {
  explicit CachingDeviceAllocator(bool = false, bool = false) {}
  CachingDeviceAllocator(unsigned, unsigned, unsigned, size_t = 0, bool = false, bool = false) {}
  cudaError_t DeviceAllocate(void** p, size_t bytes, cudaStream_t = 0) { return cudaMalloc(p, bytes); }
  cudaError_t DeviceAllocate(int, void** p, size_t bytes, cudaStream_t = 0) { return cudaMalloc(p, bytes); }
  cudaError_t DeviceFree(void* p) { return cudaFree(p); }
  cudaError_t DeviceFree(int, void* p) { return cudaFree(p); }
  cudaError_t FreeAllCached() { return cudaSuccess; }
};
}  // namespace cub
