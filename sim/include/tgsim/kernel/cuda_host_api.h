// The C declarations of the CUDA runtime subset (cuda_host.h), shared by the kernel side and
// the library that implements them (sim/src/cuda_runtime/cuda_host*.cpp); the types are in cuda_driver_types.h,
// the C++ overloads (typed pointers, default arguments) in cuda_host_overloads.h.
#ifndef TGSIM_KERNEL_CUDA_HOST_API_H
#define TGSIM_KERNEL_CUDA_HOST_API_H

#include <stddef.h>

#include "cuda_driver_types.h"
#include "cuda_host_texture.h"  // arrays, textures, surfaces, cudaMemcpy3D

#ifdef __cplusplus
extern "C" {
#endif

// Memory (sim/src/cuda_runtime/cuda_host_memory.cpp). Pinned and registered host memory is device memory
// too (one memory: a kernel may read it, as a mapped pointer on the GPU).
cudaError_t cudaMalloc(void** p, size_t bytes);
cudaError_t cudaMallocHost(void** p, size_t bytes);
cudaError_t cudaHostAlloc(void** p, size_t bytes, unsigned flags);
cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned flags);
cudaError_t cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height);
cudaError_t cudaMalloc3D(struct cudaPitchedPtr* p, struct cudaExtent extent);
cudaError_t cudaMallocAsync(void** p, size_t bytes, cudaStream_t s);
cudaError_t cudaFree(void* p);
cudaError_t cudaFreeHost(void* p);
cudaError_t cudaFreeAsync(void* p, cudaStream_t s);
cudaError_t cudaHostRegister(void* p, size_t bytes, unsigned flags);
cudaError_t cudaHostUnregister(void* p);
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned flags);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                              size_t height, cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t bytes);
cudaError_t cudaMemset(void* p, int value, size_t bytes);
cudaError_t cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t s);
cudaError_t cudaMemset2D(void* p, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemPrefetchAsync(const void* p, size_t bytes, int device, cudaStream_t s);
cudaError_t cudaMemAdvise(const void* p, size_t bytes, cudaMemoryAdvise advice, int device);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);
cudaError_t tgsim_cuda_memcpy_symbol(void* symbol, size_t symbol_bytes, const void* src, size_t bytes,
                                     size_t offset, int to_symbol);

// The device (sim/src/cuda_runtime/cuda_host_device.cpp): one, with the simulated profile's figures.
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaThreadExit(void);  // the deprecated name of cudaDeviceReset
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);
cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer);
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaFuncSetCacheConfig(const void* kernel, cudaFuncCache config);
cudaError_t cudaFuncSetSharedMemConfig(const void* kernel, cudaSharedMemConfig config);
cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attr, int value);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* kernel);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* kernel, int block_size,
                                                          size_t dynamic_shared);
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, const void* kernel,
                                               size_t dynamic_shared, int block_size_limit);

// Errors (sim/src/cuda_runtime/cuda_host.cpp).
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t e);
const char* cudaGetErrorName(cudaError_t e);

// Streams and events (sim/src/cuda_runtime/cuda_host_stream.cpp): in order and synchronous, so a
// stream or event is always complete; an event holds the host time it was recorded at.
cudaError_t cudaStreamCreate(cudaStream_t* s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t* e);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
// Stream capture and graphs: cuda_graph.h.
cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* graph);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, void* error_node, char* log,
                                 size_t log_size);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);

// The launch behind <<<...>>>: grid and block as 3 unsigned each, args[i] points at argument i.
cudaError_t tgsim_cuda_launch_kernel(const void* kernel, const unsigned* grid, const unsigned* block,
                                     size_t shared_bytes, void** args);
// cudaLaunchCooperativeKernel's launch: every block resident at once, grid.sync() allowed
// (cudaErrorCooperativeLaunchTooLarge for a grid the device cannot hold at once).
cudaError_t tgsim_cuda_launch_cooperative(const void* kernel, const unsigned* grid, const unsigned* block,
                                          size_t shared_bytes, void** args);
// The same on a stream (<<<...>>>, cudaLaunchKernel): recorded while the stream is captured
// (cuda_graph.h), else run now.
cudaError_t tgsim_cuda_launch_kernel_on(const void* kernel, const unsigned* grid, const unsigned* block,
                                        size_t shared_bytes, void** args, cudaStream_t s);
// The configuration of the next host call of a kernel (the <<<...>>> rewrite); pop_launch drops
// one that no call used.
void tgsim_cuda_push_launch(const unsigned* grid, const unsigned* block, size_t shared_bytes, cudaStream_t stream);
void tgsim_cuda_pop_launch(void);
#ifdef __cplusplus
}
#endif
#endif
