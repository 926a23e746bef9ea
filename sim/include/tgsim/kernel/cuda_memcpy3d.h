// cudaMemcpy3D's parameters (CUDA 12's struct) and the call, between CUDA arrays and pitched
// linear memory (sim/src/cuda_host_texture.cpp). Positions and widths count texels in an array
// and bytes in linear memory, as on the GPU.
#ifndef TGSIM_KERNEL_CUDA_MEMCPY3D_H
#define TGSIM_KERNEL_CUDA_MEMCPY3D_H

#include "cuda_driver_types.h"

typedef struct cudaArray* cudaArray_t;
typedef const struct cudaArray* cudaArray_const_t;

struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};

#ifdef __cplusplus
extern "C" {
#endif
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms* p);
#ifdef __cplusplus
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms* p, cudaStream_t s = 0);
#else
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms* p, cudaStream_t s);
#endif
#ifdef __cplusplus
}
#endif
#endif
