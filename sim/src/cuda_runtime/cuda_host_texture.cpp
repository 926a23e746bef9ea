// CUDA arrays, texture and surface objects (cuda_host_texture.h) and cudaMemcpy3D
// (cuda_memcpy3d.h), for host code compiled by tgsim's front end. An array is registered device
// memory holding its texels row after row, then layer after layer (or cubemap face, or depth
// slice): a kernel's fetch (cuda_texture.h) reads it as global memory and the checker bounds it.
// The GPU's block-linear layout is not modelled. A texture or surface object is an index + 1
// into a table of descriptions that kernels read through __tgsim_tex_view; host calls change the
// table only between launches (launches are synchronous), so kernels read it without a lock.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <mutex>
#include <set>
#include <string>

#include "cuda_runtime/cuda_host_graph.hpp"
#include "cuda_runtime/cuda_host_internal.hpp"
#include "memory/device_memory.hpp"

struct cudaArray {
  char* data = nullptr;
  cudaChannelFormatDesc desc{};
  std::size_t width = 0, height = 0, depth = 0;  // texels; height and depth at least 1
  unsigned flags = 0;
  std::size_t texel = 0;  // bytes
  std::size_t pitch() const { return width * texel; }
  std::size_t slice() const { return pitch() * height; }
  std::size_t bytes() const { return slice() * depth; }
};

using namespace tgsim::detail;
using namespace tgsim::detail::cuda;

namespace {

struct Object {
  bool live = false, surface = false;
  tgsim_tex_view view{};
  cudaResourceDesc res{};
  cudaTextureDesc desc{};
};
std::mutex table_mutex;
std::deque<Object> table;  // handle h is table[h - 1]; a deque keeps entries in place

// The texel size of `d`, or 0 with `why` set: 1, 2 or 4 channels of 8, 16 or 32 bits each.
std::size_t texel_bytes(const cudaChannelFormatDesc& d, std::string& why) {
  const int bits[4] = {d.x, d.y, d.z, d.w};
  int n = 0;
  while (n < 4 && bits[n] != 0) ++n;
  for (int i = 1; i < n; ++i)
    if (bits[i] != d.x) n = -1;
  if (n != 1 && n != 2 && n != 4) {
    why = "1, 2 or 4 channels of equal width (the GPU has no 3-channel textures)";
    return 0;
  }
  const bool float_ok = d.f != cudaChannelFormatKindFloat || d.x == 16 || d.x == 32;
  if ((d.x != 8 && d.x != 16 && d.x != 32) || !float_ok || d.f > cudaChannelFormatKindFloat) {
    why = "channels of 8, 16 or 32 bits, signed, unsigned or float (16 or 32 bits)";
    return 0;
  }
  return static_cast<std::size_t>(n * d.x / 8);
}

// The live arrays: a program that never frees one (the runtime frees them at exit) still holds
// it here, as cudaMalloc's blocks are held by the allocation registry.
std::mutex arrays_mu;
std::set<cudaArray*>& live_arrays() {
  static auto* s = new std::set<cudaArray*>;  // never destroyed: no exit order
  return *s;
}

cudaError_t make_array(cudaArray_t* out, const cudaChannelFormatDesc* desc, cudaExtent e, unsigned flags,
                       const char* what) {
  static std::atomic<unsigned> n{0};
  std::string why;
  if (!out || !desc) return fail(cudaErrorInvalidValue, std::string(what) + ": null pointer");
  const std::size_t texel = texel_bytes(*desc, why);
  if (!texel) return fail(cudaErrorInvalidValue, std::string(what) + ": a channel format of " + why);
  if ((flags & cudaArrayCubemap) && (e.width != e.height || e.depth == 0 || e.depth % 6 != 0))
    return fail(cudaErrorInvalidValue, std::string(what) + ": a cubemap is width x width x 6 (or 6 per layer)");
  auto* a = new cudaArray;
  {
    std::lock_guard<std::mutex> lock(arrays_mu);
    live_arrays().insert(a);
  }
  a->desc = *desc;
  a->width = std::max<std::size_t>(e.width, 1);
  a->height = std::max<std::size_t>(e.height, 1);
  a->depth = std::max<std::size_t>(e.depth, 1);
  a->flags = flags;
  a->texel = texel;
  auto* info = acquire_buffer_info();
  info->name = "cudaArray #" + std::to_string(++n) + " (" + std::to_string(a->width) + "x" +
               std::to_string(a->height) + "x" + std::to_string(a->depth) + " texels of " + std::to_string(texel) +
               " bytes)";
  info->count = a->width * a->height * a->depth;
  info->elem_size = texel;
  try {
    a->data = static_cast<char*>(device_alloc(a->bytes(), info));
  } catch (const std::exception& ex) {
    release_buffer_info(info);
    {
      std::lock_guard<std::mutex> lock(arrays_mu);
      live_arrays().erase(a);
    }
    delete a;
    return fail(cudaErrorMemoryAllocation, std::string(what) + ": " + ex.what());
  }
  *out = a;
  return cudaSuccess;
}

// Copies `rows` rows of `width` bytes between an array at byte (x, y, z) and linear memory.
cudaError_t array_rows(cudaArray_t a, std::size_t x, std::size_t y, std::size_t z, char* mem, std::size_t mem_pitch,
                       std::size_t mem_slice, std::size_t width, std::size_t rows, std::size_t slices, bool to_array,
                       const char* what) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (!a || (!mem && width && rows && slices)) return fail(cudaErrorInvalidValue, std::string(what) + ": null pointer");
  if (x + width > a->pitch() || y + rows > a->height || z + slices > a->depth)
    return fail(cudaErrorInvalidValue, std::string(what) + ": the copy (" + std::to_string(width) + " bytes x " +
                                           std::to_string(rows) + " rows x " + std::to_string(slices) +
                                           " at byte " + std::to_string(x) + ", row " + std::to_string(y) +
                                           ", slice " + std::to_string(z) + ") is outside the array");
  for (std::size_t s = 0; s < slices; ++s)
    for (std::size_t r = 0; r < rows; ++r) {
      char* arr = a->data + (z + s) * a->slice() + (y + r) * a->pitch() + x;
      char* lin = mem + s * mem_slice + r * mem_pitch;
      std::memmove(to_array ? arr : lin, to_array ? lin : arr, width);
      if (to_array) host_wrote(arr, width);
    }
  return cudaSuccess;
}

// A bytes-long copy from byte (x, y) of an array on, row after row (cudaMemcpyToArray's form).
cudaError_t array_span(cudaArray_t a, std::size_t x, std::size_t y, char* mem, std::size_t bytes, bool to_array,
                       const char* what) {
  if (!a) return fail(cudaErrorInvalidValue, std::string(what) + ": null array");
  const std::size_t at = y * a->pitch() + x;
  if (at + bytes > a->bytes())
    return fail(cudaErrorInvalidValue, std::string(what) + ": " + std::to_string(bytes) + " bytes at byte " +
                                           std::to_string(at) + " exceed the array's " + std::to_string(a->bytes()));
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (bytes && !mem) return fail(cudaErrorInvalidValue, std::string(what) + ": null pointer");
  std::memmove(to_array ? a->data + at : mem, to_array ? mem : a->data + at, bytes);
  if (to_array) host_wrote(a->data + at, bytes);
  return cudaSuccess;
}

// The view a fetch reads of resource `r`, or an empty string error.
std::string view_of(const cudaResourceDesc& r, tgsim_tex_view& v) {
  const cudaChannelFormatDesc* d = nullptr;
  v.depth = 1;
  v.layers = 0;
  if (r.resType == cudaResourceTypeArray) {
    const cudaArray* a = r.res.array.array;
    if (!a) return "a null cudaArray";
    d = &a->desc;
    v.data = a->data;
    v.width = static_cast<int>(a->width);
    v.height = static_cast<int>(a->height);
    if (a->flags & (cudaArrayLayered | cudaArrayCubemap))
      v.layers = static_cast<int>(a->depth);
    else
      v.depth = static_cast<int>(a->depth);
    v.pitch = a->pitch();
    v.slice = a->slice();
  } else if (r.resType == cudaResourceTypeLinear || r.resType == cudaResourceTypePitch2D) {
    const bool lin = r.resType == cudaResourceTypeLinear;
    d = lin ? &r.res.linear.desc : &r.res.pitch2D.desc;
    v.data = static_cast<char*>(lin ? r.res.linear.devPtr : r.res.pitch2D.devPtr);
    if (!v.data) return "a null devPtr";
  } else {
    return "a mipmapped array (not modelled by tgsim)";
  }
  std::string why;
  const std::size_t texel = texel_bytes(*d, why);
  if (!texel) return "a channel format of " + why;
  if (r.resType == cudaResourceTypeLinear) {
    v.width = static_cast<int>(r.res.linear.sizeInBytes / texel);
    v.height = 1;
    v.pitch = v.slice = r.res.linear.sizeInBytes;
  } else if (r.resType == cudaResourceTypePitch2D) {
    v.width = static_cast<int>(r.res.pitch2D.width);
    v.height = static_cast<int>(r.res.pitch2D.height);
    v.pitch = r.res.pitch2D.pitchInBytes;
    v.slice = v.pitch * r.res.pitch2D.height;
    if (v.pitch < v.width * texel) return "a pitchInBytes below width * texel bytes";
  }
  if (v.width <= 0 || v.height <= 0) return "an empty resource (no texel)";
  v.texel_bytes = static_cast<int>(texel);
  v.bits = d->x;
  v.channels = static_cast<int>(texel * 8 / static_cast<std::size_t>(d->x));
  v.kind = d->f;
  return {};
}

cudaError_t add_object(unsigned long long* handle, const Object& o) {
  std::lock_guard<std::mutex> lock(table_mutex);
  table.push_back(o);
  *handle = table.size();
  return cudaSuccess;
}

Object* find_object(unsigned long long h, bool surface) {
  if (h == 0 || h > table.size()) return nullptr;
  Object& o = table[h - 1];
  return o.live && o.surface == surface ? &o : nullptr;
}

}  // namespace

extern "C" {

cudaChannelFormatDesc tgsim_cuda_channel_desc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}
cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                            unsigned int flags) {
  return make_array(array, desc, make_cudaExtent(width, height, 1), flags, "cudaMallocArray");
}
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent e, unsigned flags) {
  return make_array(array, desc, e, flags, "cudaMalloc3DArray");
}
cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t*, const cudaChannelFormatDesc*, cudaExtent, unsigned,
                                     unsigned) {
  return fail(cudaErrorNotSupported, "cudaMallocMipmappedArray: mipmapped arrays are not modelled by tgsim");
}
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t) {
  return fail(cudaErrorNotSupported, "cudaFreeMipmappedArray: mipmapped arrays are not modelled by tgsim");
}
cudaError_t cudaFreeArray(cudaArray_t a) {
  if (!a) return cudaSuccess;
  DeviceRange r = find_device_range(reinterpret_cast<std::uint64_t>(a->data));
  if (!r.info || r.info->freed) return fail(cudaErrorInvalidValue, "cudaFreeArray: not a live cudaArray");
  release_buffer_info(const_cast<BufferInfo*>(r.info));
  device_free(a->data);
  {
    std::lock_guard<std::mutex> lock(arrays_mu);
    live_arrays().erase(a);
  }
  delete a;
  return cudaSuccess;
}
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned* flags, cudaArray_t a) {
  if (!a) return fail(cudaErrorInvalidValue, "cudaArrayGetInfo: null array");
  if (desc) *desc = a->desc;
  if (extent) *extent = make_cudaExtent(a->width, a->height, a->depth);
  if (flags) *flags = a->flags;
  return cudaSuccess;
}
cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t a) {
  if (!a || !desc) return fail(cudaErrorInvalidValue, "cudaGetChannelDesc: null pointer");
  *desc = a->desc;
  return cudaSuccess;
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t x, size_t y, const void* src, size_t bytes, cudaMemcpyKind) {
  return array_span(dst, x, y, const_cast<char*>(static_cast<const char*>(src)), bytes, true, "cudaMemcpyToArray");
}
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t x, size_t y, const void* src, size_t bytes,
                                   cudaMemcpyKind k, cudaStream_t) {
  return cudaMemcpyToArray(dst, x, y, src, bytes, k);
}
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t x, size_t y, size_t bytes, cudaMemcpyKind) {
  return array_span(const_cast<cudaArray_t>(src), x, y, static_cast<char*>(dst), bytes, false, "cudaMemcpyFromArray");
}
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t x, size_t y, const void* src, size_t spitch, size_t width,
                                size_t height, cudaMemcpyKind) {
  if (width > spitch) return fail(cudaErrorInvalidPitchValue, "cudaMemcpy2DToArray: width exceeds spitch");
  return array_rows(dst, x, y, 0, const_cast<char*>(static_cast<const char*>(src)), spitch, 0, width, height, 1,
                    true, "cudaMemcpy2DToArray");
}
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t x, size_t y, const void* src, size_t spitch,
                                     size_t width, size_t height, cudaMemcpyKind k, cudaStream_t) {
  return cudaMemcpy2DToArray(dst, x, y, src, spitch, width, height, k);
}
cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t x, size_t y, size_t width,
                                  size_t height, cudaMemcpyKind) {
  if (width > dpitch) return fail(cudaErrorInvalidPitchValue, "cudaMemcpy2DFromArray: width exceeds dpitch");
  return array_rows(const_cast<cudaArray_t>(src), x, y, 0, static_cast<char*>(dst), dpitch, 0, width, height, 1,
                    false, "cudaMemcpy2DFromArray");
}
cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t dx, size_t dy, cudaArray_const_t src, size_t sx,
                                   size_t sy, size_t bytes, cudaMemcpyKind) {
  if (!src) return fail(cudaErrorInvalidValue, "cudaMemcpyArrayToArray: null array");
  const std::size_t at = sy * src->pitch() + sx;
  if (at + bytes > src->bytes()) return fail(cudaErrorInvalidValue, "cudaMemcpyArrayToArray: outside the source");
  return array_span(dst, dx, dy, src->data + at, bytes, true, "cudaMemcpyArrayToArray");
}


cudaError_t cudaCreateTextureObject(cudaTextureObject_t* tex, const cudaResourceDesc* res, const cudaTextureDesc* desc,
                                    const cudaResourceViewDesc*) {
  if (!tex || !res || !desc) return fail(cudaErrorInvalidValue, "cudaCreateTextureObject: null pointer");
  Object o;
  o.res = *res;
  o.desc = *desc;
  tgsim_tex_view& v = o.view;
  if (std::string why = view_of(*res, v); !why.empty())
    return fail(cudaErrorInvalidValue, "cudaCreateTextureObject: " + why);
  const bool ints = v.kind != cudaChannelFormatKindFloat &&
                    (desc->readMode == cudaReadModeElementType || v.bits == 32);
  if (desc->filterMode == cudaFilterModeLinear && ints)
    return fail(cudaErrorInvalidValue, "cudaCreateTextureObject: linear filtering of integer texels read as "
                                       "elements (the GPU filters floats only: use cudaReadModeNormalizedFloat)");
  for (int i = 0; i < 3; ++i) {
    // Wrap and mirror need normalized coordinates; with unnormalized ones the GPU clamps.
    const cudaTextureAddressMode m = desc->addressMode[i];
    v.address[i] = !desc->normalizedCoords && m != cudaAddressModeBorder ? cudaAddressModeClamp : m;
  }
  v.filter = desc->filterMode;
  v.read_mode = v.bits == 32 ? cudaReadModeElementType : desc->readMode;
  v.normalized = desc->normalizedCoords != 0;
  std::memcpy(v.border, desc->borderColor, sizeof v.border);
  o.live = true;
  return add_object(tex, o);
}
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* surf, const cudaResourceDesc* res) {
  if (!surf || !res) return fail(cudaErrorInvalidValue, "cudaCreateSurfaceObject: null pointer");
  if (res->resType != cudaResourceTypeArray || !res->res.array.array ||
      !(res->res.array.array->flags & cudaArraySurfaceLoadStore))
    return fail(cudaErrorInvalidValue, "cudaCreateSurfaceObject: a surface is a cudaArray allocated with "
                                       "cudaArraySurfaceLoadStore");
  Object o;
  o.res = *res;
  if (std::string why = view_of(*res, o.view); !why.empty())
    return fail(cudaErrorInvalidValue, "cudaCreateSurfaceObject: " + why);
  o.live = o.surface = true;
  return add_object(surf, o);
}
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex) {
  std::lock_guard<std::mutex> lock(table_mutex);
  Object* o = find_object(tex, false);
  if (!o) return fail(cudaErrorInvalidValue, "cudaDestroyTextureObject: not a live texture object");
  o->live = false;
  return cudaSuccess;
}
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf) {
  std::lock_guard<std::mutex> lock(table_mutex);
  Object* o = find_object(surf, true);
  if (!o) return fail(cudaErrorInvalidValue, "cudaDestroySurfaceObject: not a live surface object");
  o->live = false;
  return cudaSuccess;
}
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* res, cudaTextureObject_t tex) {
  std::lock_guard<std::mutex> lock(table_mutex);
  const Object* o = find_object(tex, false);
  if (!o || !res) return fail(cudaErrorInvalidValue, "cudaGetTextureObjectResourceDesc: not a live texture object");
  *res = o->res;
  return cudaSuccess;
}
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* desc, cudaTextureObject_t tex) {
  std::lock_guard<std::mutex> lock(table_mutex);
  const Object* o = find_object(tex, false);
  if (!o || !desc) return fail(cudaErrorInvalidValue, "cudaGetTextureObjectTextureDesc: not a live texture object");
  *desc = o->desc;
  return cudaSuccess;
}
cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* res, cudaSurfaceObject_t surf) {
  std::lock_guard<std::mutex> lock(table_mutex);
  const Object* o = find_object(surf, true);
  if (!o || !res) return fail(cudaErrorInvalidValue, "cudaGetSurfaceObjectResourceDesc: not a live surface object");
  *res = o->res;
  return cudaSuccess;
}

// A kernel's fetch: read without the lock (the table changes only between launches).
const tgsim_tex_view* __tgsim_tex_view(unsigned long long handle, int surface) {
  const Object* o = find_object(handle, surface != 0);
  return o ? &o->view : nullptr;
}

}  // extern "C"

namespace tgsim::detail::cuda {

// cudaMemcpy3D where a side is a CUDA array (copy_3d, cuda_host_peer.cpp, calls it): the array's
// position in texels, the extent's width in texels; the other side pitched linear memory.
cudaError_t array_copy_3d(const cudaMemcpy3DParms* p) {
  if (!p) return fail(cudaErrorInvalidValue, "cudaMemcpy3D: null parameters");
  if (p->srcArray && p->dstArray) {
    return fail(cudaErrorNotSupported, "cudaMemcpy3D: array to array is not modelled by tgsim");
  }
  const cudaArray* a = p->srcArray ? p->srcArray : p->dstArray;
  const std::size_t texel = a ? a->texel : 1;
  const std::size_t width = p->extent.width * texel, rows = std::max<std::size_t>(p->extent.height, 1),
                    slices = std::max<std::size_t>(p->extent.depth, 1);
  const cudaPitchedPtr& lin = p->srcArray ? p->dstPtr : p->srcPtr;
  const cudaPos& lp = p->srcArray ? p->dstPos : p->srcPos;
  const std::size_t lslice = lin.pitch * lin.ysize;
  char* mem = static_cast<char*>(lin.ptr);
  if (!mem) return fail(cudaErrorInvalidValue, "cudaMemcpy3D: null pointer");
  if (width > lin.pitch) return fail(cudaErrorInvalidPitchValue, "cudaMemcpy3D: the width exceeds the pitch");
  mem += lp.z * lslice + lp.y * lin.pitch + lp.x;
  if (a) {
    const cudaPos& ap = p->srcArray ? p->srcPos : p->dstPos;
    return array_rows(const_cast<cudaArray_t>(a), ap.x * texel, ap.y, ap.z, mem, lin.pitch, lslice, width, rows,
                      slices, p->dstArray != nullptr, "cudaMemcpy3D");
  }
  if (sticky_error() != cudaSuccess) return sticky_error();
  const cudaPitchedPtr& d = p->dstPtr;
  if (!d.ptr || width > d.pitch) return fail(cudaErrorInvalidValue, "cudaMemcpy3D: null pointer or width > pitch");
  char* dst = static_cast<char*>(d.ptr) + p->dstPos.z * d.pitch * d.ysize + p->dstPos.y * d.pitch + p->dstPos.x;
  for (std::size_t s = 0; s < slices; ++s)
    for (std::size_t r = 0; r < rows; ++r) {
      char* out = dst + s * d.pitch * d.ysize + r * d.pitch;
      std::memmove(out, mem + s * lslice + r * lin.pitch, width);
      host_wrote(out, width);
    }
  return cudaSuccess;
}
}  // namespace tgsim::detail::cuda

