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

__forceinline__ const char* texel_at(const View& t, int x, int y, int z) {
  return t.data + static_cast<size_t>(z) * t.slice + static_cast<size_t>(y) * t.pitch +
         static_cast<size_t>(x) * static_cast<size_t>(t.texel_bytes);
}

// One texel's bytes, read with one load of its width (1 to 16 bytes): the counted global load.
__forceinline__ void load(const View& t, const char* p, unsigned (&w)[4]) {
  switch (t.texel_bytes) {
    case 1: w[0] = *reinterpret_cast<const unsigned char*>(p); break;
    case 2: w[0] = *reinterpret_cast<const unsigned short*>(p); break;
    case 4: w[0] = *reinterpret_cast<const unsigned*>(p); break;
    case 8: {
      const uint2 v = *reinterpret_cast<const uint2*>(p);
      w[0] = v.x, w[1] = v.y;
      break;
    }
    default: {
      const uint4 v = *reinterpret_cast<const uint4*>(p);
      w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    }
  }
}

// Channel c of a texel's bytes, sign-extended when signed.
__forceinline__ unsigned channel(const View& t, const unsigned (&w)[4], int c) {
  unsigned r = t.bits == 8 ? (w[c >> 2] >> (8 * (c & 3))) & 0xFFu
               : t.bits == 16 ? (w[c >> 1] >> (16 * (c & 1))) & 0xFFFFu
                              : w[c];
  if (t.kind == cudaChannelFormatKindSigned && t.bits < 32) {
    const unsigned s = 32u - static_cast<unsigned>(t.bits);
    r = static_cast<unsigned>(static_cast<int>(r << s) >> s);
  }
  return r;
}

__forceinline__ float half_to_float(unsigned h) {
  const unsigned s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0) {
    const float f = static_cast<float>(m) * 0x1p-24f;
    return s ? -f : f;
  }
  const unsigned b = e == 31 ? (s | 0x7F800000u | (m << 13)) : (s | ((e + 112u) << 23) | (m << 13));
  float f;
  __builtin_memcpy(&f, &b, 4);
  return f;
}

// A channel's value as a float: the float itself, a normalized integer, or the integer.
__forceinline__ float to_float(const View& t, unsigned r) {
  if (t.kind == cudaChannelFormatKindFloat) {
    if (t.bits == 16) return half_to_float(r);
    float f;
    __builtin_memcpy(&f, &r, 4);
    return f;
  }
  const bool sign = t.kind == cudaChannelFormatKindSigned;
  if (t.read_mode == cudaReadModeNormalizedFloat) {
    if (!sign) return static_cast<float>(r) / static_cast<float>((1u << t.bits) - 1u);
    const float f = static_cast<float>(static_cast<int>(r)) / static_cast<float>((1 << (t.bits - 1)) - 1);
    return f < -1.0f ? -1.0f : f;
  }
  return sign ? static_cast<float>(static_cast<int>(r)) : static_cast<float>(r);
}

// Texel index i of a dimension of n texels under address mode m: in [0, n), or -1 (border).
__forceinline__ int address(int i, int n, int m) {
  if (i >= 0 && i < n) return i;
  if (m == cudaAddressModeWrap) return (i % n + n) % n;
  if (m == cudaAddressModeMirror) {
    const int p = (i % (2 * n) + 2 * n) % (2 * n);
    return p < n ? p : 2 * n - 1 - p;
  }
  if (m == cudaAddressModeBorder) return -1;
  return i < 0 ? 0 : n - 1;
}

// The texel coordinate of u in a dimension of n texels: u * n when normalized (its fraction
// first under wrap mode), bounded so that its floor is an int.
__forceinline__ float coord(const View& t, float u, int n, int m) {
  if (t.normalized) {
    if (m == cudaAddressModeWrap) u -= __builtin_floorf(u);
    u *= static_cast<float>(n);
  }
  return u != u ? 0.0f : u < -1e9f ? -1e9f : u > 1e9f ? 1e9f : u;
}

// The raw channels of texel (x, y, z) (indices after addressing; z: slice or layer), or the
// border colour's bits when an index is -1.
__forceinline__ void texel(const View& t, int x, int y, int z, unsigned (&w)[4], bool& border) {
  border = (x | y | z) < 0;
  if (!border) load(t, texel_at(t, x, y, z), w);
}

__forceinline__ void texel_float(const View& t, int x, int y, int z, float (&f)[4]) {
  unsigned w[4] = {0, 0, 0, 0};
  bool border;
  texel(t, x, y, z, w, border);
  for (int c = 0; c < 4; ++c) f[c] = border ? t.border[c] : c < t.channels ? to_float(t, channel(t, w, c)) : 0.0f;
}

// A fetch at coordinates c[0..dims) of layer `layer` (-1: not layered) as floats: point
// sampling, or the weighted sum of the 2^dims neighbours (weights rounded to 1/256).
__forceinline__ void sample_float(const View& t, int dims, const float (&c)[3], int layer, float (&out)[4]) {
  const int n[3] = {t.width, t.height, t.depth};
  int i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
  float a[3] = {0, 0, 0};
  const bool linear = t.filter == cudaFilterModeLinear;
  for (int d = 0; d < dims; ++d) {
    float x = coord(t, c[d], n[d], t.address[d]);
    if (linear) x -= 0.5f;
    const float fl = __builtin_floorf(x);
    const int i = static_cast<int>(fl);
    a[d] = __builtin_rintf((x - fl) * 256.0f) * (1.0f / 256.0f);
    i0[d] = address(i, n[d], t.address[d]);
    i1[d] = address(i + 1, n[d], t.address[d]);
  }
  if (layer >= 0) i0[2] = i1[2] = layer < t.layers ? layer : (t.layers > 0 ? t.layers - 1 : 0);
  if (!linear) return texel_float(t, i0[0], i0[1], i0[2], out);
  for (int k = 0; k < 4; ++k) out[k] = 0.0f;
  for (int corner = 0; corner < (1 << dims); ++corner) {
    float w = 1.0f, f[4];
    int idx[3] = {i0[0], i0[1], i0[2]};
    for (int d = 0; d < dims; ++d) {
      const bool hi = (corner >> d) & 1;
      w *= hi ? a[d] : 1.0f - a[d];
      if (hi) idx[d] = i1[d];
    }
    texel_float(t, idx[0], idx[1], idx[2], f);
    for (int k = 0; k < 4; ++k) out[k] += w * f[k];
  }
}

// A point fetch's raw channels (an integer result: element type, never filtered).
__forceinline__ void sample_raw(const View& t, int dims, const float (&c)[3], int layer, unsigned (&w)[4]) {
  const int n[3] = {t.width, t.height, t.depth};
  int i[3] = {0, 0, 0};
  for (int d = 0; d < dims; ++d)
    i[d] = address(static_cast<int>(__builtin_floorf(coord(t, c[d], n[d], t.address[d]))), n[d], t.address[d]);
  if (layer >= 0) i[2] = layer < t.layers ? layer : (t.layers > 0 ? t.layers - 1 : 0);
  unsigned raw[4] = {0, 0, 0, 0};
  bool border;
  texel(t, i[0], i[1], i[2], raw, border);
  for (int k = 0; k < 4; ++k)
    w[k] = border ? static_cast<unsigned>(t.border[k]) : k < t.channels ? channel(t, raw, k) : 0u;
}

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

// The cubemap face (0..5, +x -x +y -y +z -z) of direction (x, y, z) and the normalized (u, v) on it.
__forceinline__ int cube_face(float x, float y, float z, float& u, float& v) {
  const float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y), az = __builtin_fabsf(z);
  float s, t, m;
  int face;
  if (ax >= ay && ax >= az) {
    m = ax, face = x >= 0 ? 0 : 1, s = x >= 0 ? -z : z, t = -y;
  } else if (ay >= az) {
    m = ay, face = y >= 0 ? 2 : 3, s = x, t = y >= 0 ? z : -z;
  } else {
    m = az, face = z >= 0 ? 4 : 5, s = z >= 0 ? x : -x, t = -y;
  }
  u = (s / m + 1.0f) * 0.5f;
  v = (t / m + 1.0f) * 0.5f;
  return face;
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
