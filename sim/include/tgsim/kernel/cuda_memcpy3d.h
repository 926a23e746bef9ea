// cudaMemcpy3D and its parameter struct (CUDA 12's names and fields): a copy of extent.depth
// slices of extent.height rows between pitched pointers (extent.width bytes), or to or from a
// CUDA array (positions and width in texels; sim/src/cuda_runtime/cuda_host_texture.cpp). The struct is also
// a graph's memcpy node (cuda_graph.h).
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
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms* p, cudaStream_t s);
#ifdef __cplusplus
}
inline cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms* p) { return cudaMemcpy3DAsync(p, nullptr); }
#endif

#endif
