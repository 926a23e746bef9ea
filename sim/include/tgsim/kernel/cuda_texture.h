// Texture fetches and surface reads and writes in a kernel (tex2D<float>(tex, x, y),
// surf2Dwrite(v, surf, x_bytes, y)), as the CUDA Programming Guide's "Texture Fetching" appendix
// defines them: normalized or texel coordinates; wrap, clamp, mirror and border addressing;
// point sampling, or linear filtering of the 2, 4 or 8 nearest texels with weights in 9-bit
// fixed point (8 fractional bits), as the hardware computes them; 8- and 16-bit integers read
// as normalized floats (x / (2^n - 1), or max(x / (2^(n-1) - 1), -1) when signed); layered
// and cubemap arrays (the face from the coordinate of largest magnitude). Each texel is read
// from the array's device memory by this header's code, which the pass instruments: one global
// load per texel (4 for a bilinear fetch), counted and checked at the caller's line.
// Simplified: no texture cache (a fetch costs what the same global loads cost); no mipmaps
// (tex2DLod and tex2DGrad read level 0); wrap and mirror act on texel indices, so coordinates
// exactly on a texel boundary may pick the neighbour the hardware's fixed-point coordinates would not.
#ifndef TGSIM_KERNEL_CUDA_TEXTURE_H
#define TGSIM_KERNEL_CUDA_TEXTURE_H

#include <type_traits>

#include "abi.h"
#include "cuda_host_texture.h"
#include "cuda_vector_types.h"
#include "texel_core.h"

namespace tgsim_cuda {
// The element type and channel count of a fetch's or channel description's type T.
template <class T> struct ChannelOf { using E = T; static constexpr int n = 1; };
#define TGSIM_CHANNELS(V, Elem, N) \
  template <> struct ChannelOf<V> { using E = Elem; static constexpr int n = N; };
#define TGSIM_CHANNELS4(p, Elem) \
  TGSIM_CHANNELS(p##1, Elem, 1) TGSIM_CHANNELS(p##2, Elem, 2) TGSIM_CHANNELS(p##4, Elem, 4)
TGSIM_CHANNELS4(char, signed char)
TGSIM_CHANNELS4(uchar, unsigned char)
TGSIM_CHANNELS4(short, short)
TGSIM_CHANNELS4(ushort, unsigned short)
TGSIM_CHANNELS4(int, int)
TGSIM_CHANNELS4(uint, unsigned int)
TGSIM_CHANNELS4(float, float)
#undef TGSIM_CHANNELS4
#undef TGSIM_CHANNELS
template <class E> constexpr cudaChannelFormatKind channel_kind() {
  if constexpr (std::is_floating_point_v<E> || !std::is_arithmetic_v<E>) return cudaChannelFormatKindFloat;
  else return std::is_signed_v<E> ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned;
}
}  // namespace tgsim_cuda

// cudaCreateChannelDesc<T>(): T's channels of its element's width and kind (__half: 16-bit float).
template <class T> cudaChannelFormatDesc cudaCreateChannelDesc() {
  using C = tgsim_cuda::ChannelOf<T>;
  constexpr int b = static_cast<int>(sizeof(typename C::E)) * 8;
  return cudaCreateChannelDesc(b, C::n > 1 ? b : 0, C::n > 2 ? b : 0, C::n > 3 ? b : 0,
                               tgsim_cuda::channel_kind<typename C::E>());
}
template <> inline cudaChannelFormatDesc cudaCreateChannelDesc<void>() {
  return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}

// CUDA 12 removed texture and surface references; a program declaring one gets this one line.
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture {
  static_assert(sizeof(T) == 0, "texture references (texture<T, dim>) were removed in CUDA 12 and are not "
                                "modelled by tgsim: use a cudaTextureObject_t (cudaCreateTextureObject)");
};
template <class T, int dim = 1>
struct surface {
  static_assert(sizeof(T) == 0, "surface references (surface<void, dim>) were removed in CUDA 12 and are not "
                                "modelled by tgsim: use a cudaSurfaceObject_t (cudaCreateSurfaceObject)");
};

namespace tgsim_cuda::tex {
using View = tgsim_tex_view;

// The object's description (tgsim's own state, not counted), or null after a finding.
__forceinline__ const View* view(unsigned long long h, int surface) {
  const View* v = __tgsim_tex_view(h, surface);
  if (!v)
    __tgsim_unsupported(0, surface ? "a surface object that is not live (not made by cudaCreateSurfaceObject, "
                                     "or destroyed): the access was skipped"
                                   : "a texture object that is not live (not made by cudaCreateTextureObject, "
                                     "or destroyed): the fetch returned 0");
  return v;
}

using namespace tgsim_texel;
static_assert(kKindSigned == int{cudaChannelFormatKindSigned} && kKindFloat == int{cudaChannelFormatKindFloat} &&
              kWrap == int{cudaAddressModeWrap} && kMirror == int{cudaAddressModeMirror} &&
              kBorder == int{cudaAddressModeBorder} && kLinear == int{cudaFilterModeLinear} &&
              kReadNormalized == int{cudaReadModeNormalizedFloat});

template <class T, class V> __forceinline__ T make(const V (&v)[4]) {
  using C = ChannelOf<T>;
  typename C::E e[4];
  for (int k = 0; k < C::n; ++k) e[k] = static_cast<typename C::E>(v[k]);
  T r;
  __builtin_memcpy(&r, e, sizeof(T));
  return r;
}

// A fetch of type T: floats are sampled and filtered, integers point-sampled.
template <class T> __forceinline__ T fetch(unsigned long long h, int dims, float x, float y, float z, int layer) {
  const View* v = view(h, 0);
  if (!v) return T{};
  const float c[3] = {x, y, z};
  if constexpr (std::is_floating_point_v<typename ChannelOf<T>::E>) {
    float f[4];
    sample_float(*v, dims, c, layer, f);
    return make<T>(f);
  } else {
    unsigned w[4];
    sample_raw(*v, dims, c, layer, w);
    return make<T>(w);
  }
}

// A cubemap fetch: face `face` of cube `cube` sampled at normalized (u, v), clamped at its edges.
template <class T> __forceinline__ T cube(unsigned long long h, float x, float y, float z, int cube) {
  const View* v = view(h, 0);
  if (!v) return T{};
  View f = *v;
  f.normalized = 1;
  f.address[0] = f.address[1] = cudaAddressModeClamp;
  float u, w;
  const int face = cube_face(x, y, z, u, w);
  const float c[3] = {u, w, 0.0f};
  float out[4];
  sample_float(f, 2, c, cube * 6 + face, out);
  return make<T>(out);
}

// The surface texel at byte x of row y of plane z, or null (boundary mode zero). Out of range
// under cudaBoundaryModeTrap: a one-byte read just past the array, which the checker reports
// as out of bounds at the caller's line (the GPU would fault), and null.
template <class T>
__forceinline__ char* surface_at(const View& t, int x, int y, int z, int mode) {
  const int row = t.width * t.texel_bytes - static_cast<int>(sizeof(T));
  const int planes = t.layers > 0 ? t.layers : t.depth;
  if (x >= 0 && x <= row && y >= 0 && y < t.height && z >= 0 && z < planes)
    return t.data + static_cast<size_t>(z) * t.slice + static_cast<size_t>(y) * t.pitch + x;
  if (mode == cudaBoundaryModeClamp) {
    x = x < 0 ? 0 : x > row ? row : x;
    y = y < 0 ? 0 : y >= t.height ? t.height - 1 : y;
    z = z < 0 ? 0 : z >= planes ? planes - 1 : z;
    return t.data + static_cast<size_t>(z) * t.slice + static_cast<size_t>(y) * t.pitch + x;
  }
  if (mode == cudaBoundaryModeTrap) (void)*static_cast<volatile const char*>(t.data + t.slice * planes);
  return nullptr;
}
template <class T> __forceinline__ T surf_read(unsigned long long s, int x, int y, int z, int mode) {
  const View* v = view(s, 1);
  const char* p = v ? surface_at<T>(*v, x, y, z, mode) : nullptr;
  return p ? *reinterpret_cast<const T*>(p) : T{};
}
template <class T> __forceinline__ void surf_write(T value, unsigned long long s, int x, int y, int z, int mode) {
  const View* v = view(s, 1);
  if (char* p = v ? surface_at<T>(*v, x, y, z, mode) : nullptr) *reinterpret_cast<T*>(p) = value;
}
}  // namespace tgsim_cuda::tex

// ------------------------------------------------------------------ the CUDA API

template <class T> __forceinline__ T tex1Dfetch(cudaTextureObject_t t, int x) {
  // Linear memory: no addressing or filtering; outside the buffer reads 0.
  const tgsim_tex_view* v = tgsim_cuda::tex::view(t, 0);
  if (!v || x < 0 || x >= v->width) return T{};
  tgsim_tex_view p = *v;
  p.filter = cudaFilterModePoint;
  p.normalized = 0;
  if constexpr (std::is_floating_point_v<typename tgsim_cuda::ChannelOf<T>::E>) {
    float f[4];
    tgsim_cuda::tex::texel_float(p, x, 0, 0, f);
    return tgsim_cuda::tex::make<T>(f);
  } else {
    unsigned raw[4] = {0, 0, 0, 0}, w[4];
    bool border;
    tgsim_cuda::tex::texel(p, x, 0, 0, raw, border);
    for (int k = 0; k < 4; ++k) w[k] = k < p.channels ? tgsim_cuda::tex::channel(p, raw, k) : 0u;
    return tgsim_cuda::tex::make<T>(w);
  }
}
template <class T> __forceinline__ T tex1D(cudaTextureObject_t t, float x) {
  return tgsim_cuda::tex::fetch<T>(t, 1, x, 0, 0, -1);
}
template <class T> __forceinline__ T tex2D(cudaTextureObject_t t, float x, float y) {
  return tgsim_cuda::tex::fetch<T>(t, 2, x, y, 0, -1);
}
template <class T> __forceinline__ T tex3D(cudaTextureObject_t t, float x, float y, float z) {
  return tgsim_cuda::tex::fetch<T>(t, 3, x, y, z, -1);
}
template <class T> __forceinline__ T tex1DLayered(cudaTextureObject_t t, float x, int layer) {
  return tgsim_cuda::tex::fetch<T>(t, 1, x, 0, 0, layer < 0 ? 0 : layer);
}
template <class T> __forceinline__ T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer) {
  return tgsim_cuda::tex::fetch<T>(t, 2, x, y, 0, layer < 0 ? 0 : layer);
}
template <class T> __forceinline__ T texCubemap(cudaTextureObject_t t, float x, float y, float z) {
  return tgsim_cuda::tex::cube<T>(t, x, y, z, 0);
}
template <class T> __forceinline__ T texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer) {
  return tgsim_cuda::tex::cube<T>(t, x, y, z, layer < 0 ? 0 : layer);
}
// No mipmaps: level 0, the only one, whatever the level or gradient.
template <class T> __forceinline__ T tex1DLod(cudaTextureObject_t t, float x, float) { return tex1D<T>(t, x); }
template <class T> __forceinline__ T tex2DLod(cudaTextureObject_t t, float x, float y, float) {
  return tex2D<T>(t, x, y);
}
template <class T> __forceinline__ T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float) {
  return tex3D<T>(t, x, y, z);
}
template <class T> __forceinline__ T tex2DGrad(cudaTextureObject_t t, float x, float y, float2, float2) {
  return tex2D<T>(t, x, y);
}
// The forms that return through a pointer.
template <class T> __forceinline__ void tex1Dfetch(T* r, cudaTextureObject_t t, int x) { *r = tex1Dfetch<T>(t, x); }
template <class T> __forceinline__ void tex1D(T* r, cudaTextureObject_t t, float x) { *r = tex1D<T>(t, x); }
template <class T> __forceinline__ void tex2D(T* r, cudaTextureObject_t t, float x, float y) { *r = tex2D<T>(t, x, y); }
template <class T> __forceinline__ void tex3D(T* r, cudaTextureObject_t t, float x, float y, float z) {
  *r = tex3D<T>(t, x, y, z);
}

// Surfaces: x counts bytes, as on the GPU; the boundary mode says what an access outside does.
#define TGSIM_SURF(name, params, x, y, z)                                                                \
  template <class T>                                                                                     \
  __forceinline__ T name##read(cudaSurfaceObject_t s, TGSIM_UNPAREN params,                              \
                               cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {                       \
    return tgsim_cuda::tex::surf_read<T>(s, x, y, z, m);                                                 \
  }                                                                                                      \
  template <class T>                                                                                     \
  __forceinline__ void name##read(T* r, cudaSurfaceObject_t s, TGSIM_UNPAREN params,                     \
                                  cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {                    \
    *r = tgsim_cuda::tex::surf_read<T>(s, x, y, z, m);                                                   \
  }                                                                                                      \
  template <class T>                                                                                     \
  __forceinline__ void name##write(T v, cudaSurfaceObject_t s, TGSIM_UNPAREN params,                     \
                                   cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {                   \
    tgsim_cuda::tex::surf_write<T>(v, s, x, y, z, m);                                                    \
  }
#define TGSIM_UNPAREN(...) __VA_ARGS__
TGSIM_SURF(surf1D, (int x), x, 0, 0)
TGSIM_SURF(surf2D, (int x, int y), x, y, 0)
TGSIM_SURF(surf3D, (int x, int y, int z), x, y, z)
TGSIM_SURF(surf1DLayered, (int x, int layer), x, 0, layer)
TGSIM_SURF(surf2DLayered, (int x, int y, int layer), x, y, layer)
#undef TGSIM_UNPAREN
#undef TGSIM_SURF

#endif
