// The C declarations of the CUDA runtime subset (cuda_host.h), shared by the kernel side and
// the library that implements them (sim/src/cuda_host.cpp).
#ifndef TGSIM_KERNEL_CUDA_HOST_API_H
#define TGSIM_KERNEL_CUDA_HOST_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorAssert = 710,
  cudaErrorUnknown = 999
} cudaError_t;

typedef enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
} cudaMemcpyKind;

typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  int major;
  int minor;
  int multiProcessorCount;
  size_t l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
};

cudaError_t cudaMalloc(void** p, size_t bytes);
cudaError_t cudaMallocHost(void** p, size_t bytes);
cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned flags);
cudaError_t cudaFree(void* p);
cudaError_t cudaFreeHost(void* p);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemset(void* p, int value, size_t bytes);
cudaError_t tgsim_cuda_memcpy_symbol(void* symbol, size_t symbol_bytes, const void* src, size_t bytes,
                                     size_t offset, int to_symbol);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t e);
const char* cudaGetErrorName(cudaError_t e);
cudaError_t cudaStreamCreate(cudaStream_t* s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaEventCreate(cudaEvent_t* e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

// The launch behind <<<...>>>: grid and block as 3 unsigned each, args[i] points at argument i.
cudaError_t tgsim_cuda_launch_kernel(const void* kernel, const unsigned* grid, const unsigned* block,
                                     size_t shared_bytes, void** args);
// The configuration of the next host call of a kernel (the <<<...>>> rewrite); pop_launch drops
// one that no call used.
void tgsim_cuda_push_launch(const unsigned* grid, const unsigned* block, size_t shared_bytes, cudaStream_t stream);
void tgsim_cuda_pop_launch(void);
#ifdef __cplusplus
}
#endif
#endif
