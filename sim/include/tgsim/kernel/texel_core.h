// The texel arithmetic shared by CUDA's texture fetches (cuda_texture.h) and Metal's textures
// (metal/metal_texture): a texel's address and its one counted load of its width, its channels
// as floats (normalized integers, half, float), addressing (wrap, clamp, mirror, border) and
// point or linear sampling with weights in 9-bit fixed point (cuda_texture.h's head says how
// the hardware computes them). Works on a struct tgsim_tex_view; the constants below have the
// values of CUDA's enums (cudaChannelFormatKind, cudaTextureAddressMode, ...).
#ifndef TGSIM_KERNEL_TEXEL_CORE_H
#define TGSIM_KERNEL_TEXEL_CORE_H

#include <stddef.h>

#include "tex_view.h"

#define TGSIM_TEXEL_INLINE inline __attribute__((always_inline))

namespace tgsim_texel {
using View = tgsim_tex_view;
enum : int { kKindSigned = 0, kKindUnsigned = 1, kKindFloat = 2 };
enum : int { kWrap = 0, kClamp = 1, kMirror = 2, kBorder = 3 };
enum : int { kPoint = 0, kLinear = 1 };
enum : int { kReadElement = 0, kReadNormalized = 1 };
typedef unsigned Bits2 __attribute__((vector_size(8)));  // GCC and Clang
typedef unsigned Bits4 __attribute__((vector_size(16)));

TGSIM_TEXEL_INLINE const char* texel_at(const View& t, int x, int y, int z) {
  return t.data + static_cast<size_t>(z) * t.slice + static_cast<size_t>(y) * t.pitch +
         static_cast<size_t>(x) * static_cast<size_t>(t.texel_bytes);
}

// One texel's bytes, read with one load of its width (1 to 16 bytes): the counted global load.
TGSIM_TEXEL_INLINE void load(const View& t, const char* p, unsigned (&w)[4]) {
  switch (t.texel_bytes) {
    case 1: w[0] = *reinterpret_cast<const unsigned char*>(p); break;
    case 2: w[0] = *reinterpret_cast<const unsigned short*>(p); break;
    case 4: w[0] = *reinterpret_cast<const unsigned*>(p); break;
    case 8: {
      const Bits2 v = *reinterpret_cast<const Bits2*>(p);
      w[0] = v[0], w[1] = v[1];
      break;
    }
    default: {
      const Bits4 v = *reinterpret_cast<const Bits4*>(p);
      w[0] = v[0], w[1] = v[1], w[2] = v[2], w[3] = v[3];
    }
  }
}

// Channel c of a texel's bytes, sign-extended when signed.
TGSIM_TEXEL_INLINE unsigned channel(const View& t, const unsigned (&w)[4], int c) {
  unsigned r = t.bits == 8 ? (w[c >> 2] >> (8 * (c & 3))) & 0xFFu
               : t.bits == 16 ? (w[c >> 1] >> (16 * (c & 1))) & 0xFFFFu
                              : w[c];
  if (t.kind == kKindSigned && t.bits < 32) {
    const unsigned s = 32u - static_cast<unsigned>(t.bits);
    r = static_cast<unsigned>(static_cast<int>(r << s) >> s);
  }
  return r;
}

TGSIM_TEXEL_INLINE float half_to_float(unsigned h) {
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
TGSIM_TEXEL_INLINE float to_float(const View& t, unsigned r) {
  if (t.kind == kKindFloat) {
    if (t.bits == 16) return half_to_float(r);
    float f;
    __builtin_memcpy(&f, &r, 4);
    return f;
  }
  const bool sign = t.kind == kKindSigned;
  if (t.read_mode == kReadNormalized) {
    if (!sign) return static_cast<float>(r) / static_cast<float>((1u << t.bits) - 1u);
    const float f = static_cast<float>(static_cast<int>(r)) / static_cast<float>((1 << (t.bits - 1)) - 1);
    return f < -1.0f ? -1.0f : f;
  }
  return sign ? static_cast<float>(static_cast<int>(r)) : static_cast<float>(r);
}

// Texel index i of a dimension of n texels under address mode m: in [0, n), or -1 (border).
TGSIM_TEXEL_INLINE int address(int i, int n, int m) {
  if (i >= 0 && i < n) return i;
  if (m == kWrap) return (i % n + n) % n;
  if (m == kMirror) {
    const int p = (i % (2 * n) + 2 * n) % (2 * n);
    return p < n ? p : 2 * n - 1 - p;
  }
  if (m == kBorder) return -1;
  return i < 0 ? 0 : n - 1;
}

// The texel coordinate of u in a dimension of n texels: u * n when normalized (its fraction
// first under wrap mode), bounded so that its floor is an int.
TGSIM_TEXEL_INLINE float coord(const View& t, float u, int n, int m) {
  if (t.normalized) {
    if (m == kWrap) u -= __builtin_floorf(u);
    u *= static_cast<float>(n);
  }
  return u != u ? 0.0f : u < -1e9f ? -1e9f : u > 1e9f ? 1e9f : u;
}

// The raw channels of texel (x, y, z) (indices after addressing; z: slice or layer), or the
// border colour's bits when an index is -1.
TGSIM_TEXEL_INLINE void texel(const View& t, int x, int y, int z, unsigned (&w)[4], bool& border) {
  border = (x | y | z) < 0;
  if (!border) load(t, texel_at(t, x, y, z), w);
}

TGSIM_TEXEL_INLINE void texel_float(const View& t, int x, int y, int z, float (&f)[4]) {
  unsigned w[4] = {0, 0, 0, 0};
  bool border;
  texel(t, x, y, z, w, border);
  for (int c = 0; c < 4; ++c) f[c] = border ? t.border[c] : c < t.channels ? to_float(t, channel(t, w, c)) : 0.0f;
}

// A fetch at coordinates c[0..dims) of layer `layer` (-1: not layered) as floats: point
// sampling, or the weighted sum of the 2^dims neighbours (weights rounded to 1/256).
TGSIM_TEXEL_INLINE void sample_float(const View& t, int dims, const float (&c)[3], int layer, float (&out)[4]) {
  const int n[3] = {t.width, t.height, t.depth};
  int i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
  float a[3] = {0, 0, 0};
  const bool linear = t.filter == kLinear;
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
TGSIM_TEXEL_INLINE void sample_raw(const View& t, int dims, const float (&c)[3], int layer, unsigned (&w)[4]) {
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
// The cubemap face (0..5, +x -x +y -y +z -z) of direction (x, y, z) and the normalized (u, v) on it.
TGSIM_TEXEL_INLINE int cube_face(float x, float y, float z, float& u, float& v) {
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

}  // namespace tgsim_texel

#endif
