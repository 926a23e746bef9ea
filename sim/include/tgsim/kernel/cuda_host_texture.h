// CUDA arrays, texture and surface objects as the runtime API declares them (CUDA 12's names and
// values), for host code compiled by tgsim's front end; the library side is
// sim/src/cuda_runtime/cuda_host_texture.cpp, the fetches kernels make are in cuda_texture.h.
// An array is registered device memory, its texels row after row (rows of width * texel bytes,
// then the next layer, cubemap face or depth slice), so a fetch reads it as a global load.
// A texture or surface object is a handle into the library's table of descriptions (struct
// tgsim_tex_view); a kernel reads its description through __tgsim_tex_view.
// Not modelled: mipmapped arrays and CUDA 11's texture references (texture<T, dim>).
#ifndef TGSIM_KERNEL_CUDA_HOST_TEXTURE_H
#define TGSIM_KERNEL_CUDA_HOST_TEXTURE_H

#include <stddef.h>

#include "cuda_driver_types.h"
#include "cuda_memcpy3d.h"  // cudaArray_t, cudaMemcpy3DParms

#ifndef __TEXTURE_TYPES_H__
#define __TEXTURE_TYPES_H__
#endif
#ifndef __SURFACE_TYPES_H__
#define __SURFACE_TYPES_H__
#endif

typedef enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
} cudaChannelFormatKind;

struct cudaChannelFormatDesc {
  int x, y, z, w;  // bits of each channel (0: absent)
  enum cudaChannelFormatKind f;
};

typedef struct cudaMipmappedArray* cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray* cudaMipmappedArray_const_t;

enum { cudaArrayDefault = 0, cudaArrayLayered = 1, cudaArraySurfaceLoadStore = 2, cudaArrayCubemap = 4,
       cudaArrayTextureGather = 8 };

typedef enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
} cudaResourceType;

struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct { void* devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct {
      void* devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
  } res;
  unsigned int flags;
};

typedef enum cudaResourceViewFormat { cudaResViewFormatNone = 0 } cudaResourceViewFormat;
struct cudaResourceViewDesc {  // accepted; a view other than the whole resource is not modelled
  enum cudaResourceViewFormat format;
  size_t width, height, depth;
  unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
};

typedef enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
} cudaTextureAddressMode;
typedef enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 } cudaTextureFilterMode;
typedef enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1
} cudaTextureReadMode;
typedef enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
} cudaSurfaceBoundaryMode;

struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

#include "tex_view.h"  // struct tgsim_tex_view: what a fetch needs of a texture or surface object


#ifdef __cplusplus
#define TGSIM_DEFAULT(v) = v  // the C++ API's default arguments
extern "C" {
#else
#define TGSIM_DEFAULT(v)
#endif

cudaError_t cudaMallocArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc, size_t width,
                            size_t height TGSIM_DEFAULT(0), unsigned int flags TGSIM_DEFAULT(0));
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc, struct cudaExtent extent,
                              unsigned int flags TGSIM_DEFAULT(0));
cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t* array, const struct cudaChannelFormatDesc* desc,
                                     struct cudaExtent extent, unsigned int levels, unsigned int flags);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t array);
cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc* desc, struct cudaExtent* extent, unsigned int* flags,
                             cudaArray_t array);
cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc* desc, cudaArray_const_t array);
struct cudaChannelFormatDesc tgsim_cuda_channel_desc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t bytes,
                              enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t w_offset, size_t h_offset, size_t bytes,
                                enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t dw, size_t dh, cudaArray_const_t src, size_t sw,
                                   size_t sh, size_t bytes, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t bytes,
                                   enum cudaMemcpyKind kind, cudaStream_t s TGSIM_DEFAULT(0));
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src,
                                     size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t s TGSIM_DEFAULT(0));
cudaError_t cudaCreateTextureObject(cudaTextureObject_t* tex, const struct cudaResourceDesc* res,
                                    const struct cudaTextureDesc* desc, const struct cudaResourceViewDesc* view);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex);
cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc* res, cudaTextureObject_t tex);
cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc* desc, cudaTextureObject_t tex);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surf, const struct cudaResourceDesc* res);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf);
cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc* res, cudaSurfaceObject_t surf);
// The description of a live texture (surface 0) or surface (surface 1) object, for a fetch in a
// kernel (tgsim's own state: the pass does not count reads of it); null when the handle is not one.
const struct tgsim_tex_view* __tgsim_tex_view(unsigned long long handle, int surface);
#undef TGSIM_DEFAULT

#ifdef __cplusplus
}

// cudaCreateChannelDesc(x, y, z, w, kind); cudaCreateChannelDesc<T>() is in cuda_texture.h.
inline cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return tgsim_cuda_channel_desc(x, y, z, w, f);
}
#endif
#endif
