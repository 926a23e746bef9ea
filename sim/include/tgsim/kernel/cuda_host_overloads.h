// The CUDA runtime's C++ overloads, as cuda_runtime.h gives them to nvcc's host code: typed
// pointers (cudaMalloc(&float_ptr, ...)), a kernel passed as itself (cudaFuncSetAttribute(k, ...)),
// the stream arguments that default to stream 0, and cudaLaunchKernel. Included by cuda_host.h.
#ifndef TGSIM_KERNEL_CUDA_HOST_OVERLOADS_H
#define TGSIM_KERNEL_CUDA_HOST_OVERLOADS_H

#include "cuda_host_api.h"

template <class T> cudaError_t cudaMalloc(T** p, size_t bytes) {
  return cudaMalloc(static_cast<void**>(static_cast<void*>(p)), bytes);  // T may be const, as (void**) allows
}
template <class T> cudaError_t cudaMallocHost(T** p, size_t bytes, unsigned flags = 0) {
  return cudaHostAlloc(reinterpret_cast<void**>(p), bytes, flags);
}
template <class T> cudaError_t cudaHostAlloc(T** p, size_t bytes, unsigned flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(p), bytes, flags);
}
template <class T> cudaError_t cudaMallocManaged(T** p, size_t bytes, unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void**>(p), bytes, flags);
}
inline cudaError_t cudaMallocManaged(void** p, size_t bytes) { return cudaMallocManaged(p, bytes, cudaMemAttachGlobal); }
template <class T> cudaError_t cudaMallocPitch(T** p, size_t* pitch, size_t width, size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(p), pitch, width, height);
}
template <class T> cudaError_t cudaMallocAsync(T** p, size_t bytes, cudaStream_t s) {
  return cudaMallocAsync(reinterpret_cast<void**>(p), bytes, s);
}
template <class T> cudaError_t cudaHostGetDevicePointer(T** device, void* host, unsigned flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(device), host, flags);
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  return cudaMemcpyAsync(dst, src, bytes, kind, nullptr);
}
inline cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, nullptr);
}
inline cudaError_t cudaMemsetAsync(void* p, int value, size_t bytes) { return cudaMemsetAsync(p, value, bytes, nullptr); }
inline cudaError_t cudaMemPrefetchAsync(const void* p, size_t bytes, int device) {
  return cudaMemPrefetchAsync(p, bytes, device, nullptr);
}
inline cudaError_t cudaEventRecord(cudaEvent_t e) { return cudaEventRecord(e, nullptr); }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e) { return cudaStreamWaitEvent(s, e, 0); }
inline cudaError_t cudaStreamBeginCapture(cudaStream_t s) {
  return cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
}
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long = 0) {
  return cudaGraphInstantiate(exec, graph, nullptr, nullptr, 0);
}

template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t bytes, size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice) {
  return tgsim_cuda_memcpy_symbol(const_cast<void*>(static_cast<const volatile void*>(&symbol)), sizeof(T),
                                  src, bytes, offset, 1);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  return tgsim_cuda_memcpy_symbol(const_cast<void*>(static_cast<const volatile void*>(&symbol)), sizeof(T),
                                  dst, bytes, offset, 0);
}
// The async forms: the copy is done when they return, as every stream is synchronous.
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t bytes, size_t offset = 0,
                                    cudaMemcpyKind k = cudaMemcpyHostToDevice, cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, k);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                      cudaMemcpyKind k = cudaMemcpyDeviceToHost, cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, k);
}
template <class T> cudaError_t cudaGetSymbolAddress(void** p, const T& symbol) {
  *p = const_cast<void*>(static_cast<const volatile void*>(&symbol));
  return cudaSuccess;
}
template <class T> cudaError_t cudaGetSymbolSize(size_t* bytes, const T&) {
  *bytes = sizeof(T);
  return cudaSuccess;
}

// A kernel named as itself (a function, or a template's instance).
template <class F> cudaError_t cudaFuncSetCacheConfig(F* kernel, cudaFuncCache config) {
  return cudaFuncSetCacheConfig(reinterpret_cast<const void*>(kernel), config);
}
template <class F> cudaError_t cudaFuncSetSharedMemConfig(F* kernel, cudaSharedMemConfig config) {
  return cudaFuncSetSharedMemConfig(reinterpret_cast<const void*>(kernel), config);
}
template <class F> cudaError_t cudaFuncSetAttribute(F* kernel, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), attr, value);
}
template <class F> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, F* kernel) {
  return cudaFuncGetAttributes(attr, reinterpret_cast<const void*>(kernel));
}
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F* kernel, int block_size,
                                                          size_t dynamic_shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(kernel), block_size,
                                                       dynamic_shared);
}
template <class F>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, F* kernel, size_t dynamic_shared = 0,
                                               int block_size_limit = 0) {
  return cudaOccupancyMaxPotentialBlockSize(min_grid, block_size, reinterpret_cast<const void*>(kernel),
                                            dynamic_shared, block_size_limit);
}

// cudaLaunchKernel(kernel, grid, block, args, shared, stream): args[i] points at argument i, as
// the launch behind <<<...>>> takes them.
template <class F>
cudaError_t cudaLaunchKernel(F* kernel, dim3 grid, dim3 block, void** args, size_t shared = 0,
                             cudaStream_t stream = nullptr) {
  const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  return tgsim_cuda_launch_kernel_on(reinterpret_cast<const void*>(kernel), g, b, shared, args, stream);
}
// cudaLaunchCooperativeKernel: the same, with the grid's blocks resident together (grid.sync()).
template <class F>
cudaError_t cudaLaunchCooperativeKernel(F* kernel, dim3 grid, dim3 block, void** args, size_t shared = 0,
                                        cudaStream_t = nullptr) {
  const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  return tgsim_cuda_launch_cooperative(reinterpret_cast<const void*>(kernel), g, b, shared, args);
}

#endif
