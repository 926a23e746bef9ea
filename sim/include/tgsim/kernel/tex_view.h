// The description of a texture a kernel reads (a CUDA texture or surface object's, through
// __tgsim_tex_view; a Metal texture parameter's, made in the kernel by metal/metal_texture).
// Plain C, as cuda_host_texture.h, which the library also compiles.
#ifndef TGSIM_KERNEL_TEX_VIEW_H
#define TGSIM_KERNEL_TEX_VIEW_H

#include <stddef.h>

struct tgsim_tex_view {
  char* data;                 // texel (0, 0) of layer, face or slice 0
  size_t pitch, slice;        // bytes from a row to the next, from a layer/face/slice to the next
  int width, height, depth;   // texels; depth: slices of a 3D array, else 1
  int layers;                 // layers of a layered array (6 per cubemap; 0: not layered)
  int channels, bits, kind;   // channels of `bits` bits each, of cudaChannelFormatKind `kind`
  int texel_bytes;
  int address[3], filter, read_mode, normalized;
  float border[4];
};

#endif
