// <simd/simd.h> as a Metal kernel sees it: the header Apple's samples share between their host
// code and their shaders (AAPLShaderTypes.h includes it). In Metal it names Metal's own types:
// simd_float4 and vector_float4 are float4, matrix_float4x4 and simd_float4x4 are float4x4, and
// so on for char, uchar, short, ushort, int, uint, long, ulong, half and float.
// Simplified: the simd_ functions of Apple's CPU library (simd_mul, simd_dot, ...) are not named.
#ifndef TGSIM_METAL_SIMD_SIMD_H
#define TGSIM_METAL_SIMD_SIMD_H

#include "../metal_types"

#define TGSIM_METAL_SIMD_VECTORS(T)                                                   \
  typedef metal::T##2 simd_##T##2; typedef metal::T##3 simd_##T##3;                   \
  typedef metal::T##4 simd_##T##4;                                                    \
  typedef metal::T##2 vector_##T##2; typedef metal::T##3 vector_##T##3;               \
  typedef metal::T##4 vector_##T##4;                                                  \
  typedef metal::packed_##T##2 simd_packed_##T##2;                                    \
  typedef metal::packed_##T##4 simd_packed_##T##4;
TGSIM_METAL_SIMD_VECTORS(char)
TGSIM_METAL_SIMD_VECTORS(uchar)
TGSIM_METAL_SIMD_VECTORS(short)
TGSIM_METAL_SIMD_VECTORS(ushort)
TGSIM_METAL_SIMD_VECTORS(int)
TGSIM_METAL_SIMD_VECTORS(uint)
TGSIM_METAL_SIMD_VECTORS(long)
TGSIM_METAL_SIMD_VECTORS(ulong)
TGSIM_METAL_SIMD_VECTORS(half)
TGSIM_METAL_SIMD_VECTORS(float)
#undef TGSIM_METAL_SIMD_VECTORS
typedef char simd_char;
typedef unsigned char simd_uchar;
typedef short simd_short;
typedef unsigned short simd_ushort;
typedef int simd_int;
typedef unsigned int simd_uint;
typedef long simd_long;
typedef unsigned long simd_ulong;
typedef metal::half simd_half;
typedef float simd_float;

#define TGSIM_METAL_SIMD_MATRIX(T, C, R)                                              \
  typedef metal::T##C##x##R simd_##T##C##x##R; typedef metal::T##C##x##R matrix_##T##C##x##R;
#define TGSIM_METAL_SIMD_MATRICES(T)                                                  \
  TGSIM_METAL_SIMD_MATRIX(T, 2, 2) TGSIM_METAL_SIMD_MATRIX(T, 2, 3) TGSIM_METAL_SIMD_MATRIX(T, 2, 4) \
  TGSIM_METAL_SIMD_MATRIX(T, 3, 2) TGSIM_METAL_SIMD_MATRIX(T, 3, 3) TGSIM_METAL_SIMD_MATRIX(T, 3, 4) \
  TGSIM_METAL_SIMD_MATRIX(T, 4, 2) TGSIM_METAL_SIMD_MATRIX(T, 4, 3) TGSIM_METAL_SIMD_MATRIX(T, 4, 4)
TGSIM_METAL_SIMD_MATRICES(float)
TGSIM_METAL_SIMD_MATRICES(half)
#undef TGSIM_METAL_SIMD_MATRICES
#undef TGSIM_METAL_SIMD_MATRIX

#endif
