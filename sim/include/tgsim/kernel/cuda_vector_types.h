/* CUDA's built-in vector types for kernels that tgsim compiles as plain C++.
 *
 * Models CUDA 13's vector_types.h / vector_functions.h on LP64 (Linux x86-64 and AArch64):
 * char1..4 through double1..4 with CUDA's member names, sizes and alignments (short4, int2,
 * uint2, float2 align 8; int4, uint4, float4, long4, longlong2/4, double2/4 align 16; long2
 * aligns to 2 * sizeof(long); the *_16a / *_32a variants CUDA 13 adds for the 4-element 64-bit
 * types), uint3, dim3 (x, y, z default to 1; from uint3; to uint3) and every make_<type>().
 *
 * Types live in the global namespace, are aggregates (dim3 excepted, as in CUDA: it has
 * constructors), are trivially copyable and standard layout, so they can cross extern "C"
 * boundaries like CUDA's.
 *
 * Simplifications: CUDA 13 marks long4, ulong4, longlong4, ulonglong4 and double4 deprecated
 * (in favour of the _16a / _32a variants); tgsim does not, so kernels built with -Werror keep
 * building. C++ only (kernels are C++). No __device_builtin__ / __host__ __device__ annotations: everything is host code. */
#ifndef TGSIM_KERNEL_CUDA_VECTOR_TYPES_H
#define TGSIM_KERNEL_CUDA_VECTOR_TYPES_H

#include <type_traits>

/* The types: TGSIM_VEC<n>(name, element, alignment); alignment 0 means the element's own. */
#define TGSIM_VEC_ALIGN_0
#define TGSIM_VEC_ALIGN_2 __attribute__((aligned(2)))
#define TGSIM_VEC_ALIGN_4 __attribute__((aligned(4)))
#define TGSIM_VEC_ALIGN_8 __attribute__((aligned(8)))
#define TGSIM_VEC_ALIGN_16 __attribute__((aligned(16)))
#define TGSIM_VEC_ALIGN_32 __attribute__((aligned(32)))

#define TGSIM_VEC1(name, T, A) struct TGSIM_VEC_ALIGN_##A name { T x; };
#define TGSIM_VEC2(name, T, A) struct TGSIM_VEC_ALIGN_##A name { T x, y; };
#define TGSIM_VEC3(name, T, A) struct TGSIM_VEC_ALIGN_##A name { T x, y, z; };
#define TGSIM_VEC4(name, T, A) struct TGSIM_VEC_ALIGN_##A name { T x, y, z, w; };

TGSIM_VEC1(char1, signed char, 0)
TGSIM_VEC1(uchar1, unsigned char, 0)
TGSIM_VEC2(char2, signed char, 2)
TGSIM_VEC2(uchar2, unsigned char, 2)
TGSIM_VEC3(char3, signed char, 0)
TGSIM_VEC3(uchar3, unsigned char, 0)
TGSIM_VEC4(char4, signed char, 4)
TGSIM_VEC4(uchar4, unsigned char, 4)

TGSIM_VEC1(short1, short, 0)
TGSIM_VEC1(ushort1, unsigned short, 0)
TGSIM_VEC2(short2, short, 4)
TGSIM_VEC2(ushort2, unsigned short, 4)
TGSIM_VEC3(short3, short, 0)
TGSIM_VEC3(ushort3, unsigned short, 0)
TGSIM_VEC4(short4, short, 8)
TGSIM_VEC4(ushort4, unsigned short, 8)

TGSIM_VEC1(int1, int, 0)
TGSIM_VEC1(uint1, unsigned int, 0)
TGSIM_VEC2(int2, int, 8)
TGSIM_VEC2(uint2, unsigned int, 8)
TGSIM_VEC3(int3, int, 0)
TGSIM_VEC3(uint3, unsigned int, 0)
TGSIM_VEC4(int4, int, 16)
TGSIM_VEC4(uint4, unsigned int, 16)

/* long2 aligns to 2 * sizeof(long): 16 on LP64. */
TGSIM_VEC1(long1, long, 0)
TGSIM_VEC1(ulong1, unsigned long, 0)
TGSIM_VEC2(long2, long, 16)
TGSIM_VEC2(ulong2, unsigned long, 16)
TGSIM_VEC3(long3, long, 0)
TGSIM_VEC3(ulong3, unsigned long, 0)
TGSIM_VEC4(long4, long, 16)
TGSIM_VEC4(ulong4, unsigned long, 16)
TGSIM_VEC4(long4_16a, long, 16)
TGSIM_VEC4(ulong4_16a, unsigned long, 16)
TGSIM_VEC4(long4_32a, long, 32)
TGSIM_VEC4(ulong4_32a, unsigned long, 32)

TGSIM_VEC1(float1, float, 0)
TGSIM_VEC2(float2, float, 8)
TGSIM_VEC3(float3, float, 0)
TGSIM_VEC4(float4, float, 16)

TGSIM_VEC1(longlong1, long long, 0)
TGSIM_VEC1(ulonglong1, unsigned long long, 0)
TGSIM_VEC2(longlong2, long long, 16)
TGSIM_VEC2(ulonglong2, unsigned long long, 16)
TGSIM_VEC3(longlong3, long long, 0)
TGSIM_VEC3(ulonglong3, unsigned long long, 0)
TGSIM_VEC4(longlong4, long long, 16)
TGSIM_VEC4(ulonglong4, unsigned long long, 16)
TGSIM_VEC4(longlong4_16a, long long, 16)
TGSIM_VEC4(ulonglong4_16a, unsigned long long, 16)
TGSIM_VEC4(longlong4_32a, long long, 32)
TGSIM_VEC4(ulonglong4_32a, unsigned long long, 32)

TGSIM_VEC1(double1, double, 0)
TGSIM_VEC2(double2, double, 16)
TGSIM_VEC3(double3, double, 0)
TGSIM_VEC4(double4, double, 16)
TGSIM_VEC4(double4_16a, double, 16)
TGSIM_VEC4(double4_32a, double, 32)

/* dim3: the launch-shape type; unspecified extents are 1. */
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

/* make_<type>(...): brace-initialised; one macro per arity. */
#define TGSIM_MAKE1(name, T) \
  inline constexpr name make_##name(T x) { return name{x}; }
#define TGSIM_MAKE2(name, T) \
  inline constexpr name make_##name(T x, T y) { return name{x, y}; }
#define TGSIM_MAKE3(name, T) \
  inline constexpr name make_##name(T x, T y, T z) { return name{x, y, z}; }
#define TGSIM_MAKE4(name, T) \
  inline constexpr name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
#define TGSIM_MAKE_1_TO_4(stem, T) \
  TGSIM_MAKE1(stem##1, T) TGSIM_MAKE2(stem##2, T) TGSIM_MAKE3(stem##3, T) TGSIM_MAKE4(stem##4, T)

TGSIM_MAKE_1_TO_4(char, signed char)
TGSIM_MAKE_1_TO_4(uchar, unsigned char)
TGSIM_MAKE_1_TO_4(short, short)
TGSIM_MAKE_1_TO_4(ushort, unsigned short)
TGSIM_MAKE_1_TO_4(int, int)
TGSIM_MAKE_1_TO_4(uint, unsigned int)
TGSIM_MAKE_1_TO_4(long, long)
TGSIM_MAKE_1_TO_4(ulong, unsigned long)
TGSIM_MAKE_1_TO_4(longlong, long long)
TGSIM_MAKE_1_TO_4(ulonglong, unsigned long long)
TGSIM_MAKE_1_TO_4(float, float)
TGSIM_MAKE_1_TO_4(double, double)
TGSIM_MAKE4(long4_16a, long)
TGSIM_MAKE4(long4_32a, long)
TGSIM_MAKE4(ulong4_16a, unsigned long)
TGSIM_MAKE4(ulong4_32a, unsigned long)
TGSIM_MAKE4(longlong4_16a, long long)
TGSIM_MAKE4(longlong4_32a, long long)
TGSIM_MAKE4(ulonglong4_16a, unsigned long long)
TGSIM_MAKE4(ulonglong4_32a, unsigned long long)
TGSIM_MAKE4(double4_16a, double)
TGSIM_MAKE4(double4_32a, double)

/* CUDA's sizes and alignments (LP64). */
#define TGSIM_VEC_CHECK(name, bytes, align) \
  static_assert(sizeof(name) == (bytes), #name " has CUDA's size"); \
  static_assert(alignof(name) == (align), #name " has CUDA's alignment");
TGSIM_VEC_CHECK(char1, 1, 1) TGSIM_VEC_CHECK(char2, 2, 2) TGSIM_VEC_CHECK(char3, 3, 1) TGSIM_VEC_CHECK(char4, 4, 4)
TGSIM_VEC_CHECK(uchar1, 1, 1) TGSIM_VEC_CHECK(uchar2, 2, 2) TGSIM_VEC_CHECK(uchar3, 3, 1) TGSIM_VEC_CHECK(uchar4, 4, 4)
TGSIM_VEC_CHECK(short1, 2, 2) TGSIM_VEC_CHECK(short2, 4, 4) TGSIM_VEC_CHECK(short3, 6, 2) TGSIM_VEC_CHECK(short4, 8, 8)
TGSIM_VEC_CHECK(ushort1, 2, 2) TGSIM_VEC_CHECK(ushort2, 4, 4) TGSIM_VEC_CHECK(ushort3, 6, 2) TGSIM_VEC_CHECK(ushort4, 8, 8)
TGSIM_VEC_CHECK(int1, 4, 4) TGSIM_VEC_CHECK(int2, 8, 8) TGSIM_VEC_CHECK(int3, 12, 4) TGSIM_VEC_CHECK(int4, 16, 16)
TGSIM_VEC_CHECK(uint1, 4, 4) TGSIM_VEC_CHECK(uint2, 8, 8) TGSIM_VEC_CHECK(uint3, 12, 4) TGSIM_VEC_CHECK(uint4, 16, 16)
TGSIM_VEC_CHECK(long1, 8, 8) TGSIM_VEC_CHECK(long2, 16, 16) TGSIM_VEC_CHECK(long3, 24, 8) TGSIM_VEC_CHECK(long4, 32, 16)
TGSIM_VEC_CHECK(ulong1, 8, 8) TGSIM_VEC_CHECK(ulong2, 16, 16) TGSIM_VEC_CHECK(ulong3, 24, 8) TGSIM_VEC_CHECK(ulong4, 32, 16)
TGSIM_VEC_CHECK(long4_16a, 32, 16) TGSIM_VEC_CHECK(long4_32a, 32, 32)
TGSIM_VEC_CHECK(ulong4_16a, 32, 16) TGSIM_VEC_CHECK(ulong4_32a, 32, 32)
TGSIM_VEC_CHECK(float1, 4, 4) TGSIM_VEC_CHECK(float2, 8, 8) TGSIM_VEC_CHECK(float3, 12, 4) TGSIM_VEC_CHECK(float4, 16, 16)
TGSIM_VEC_CHECK(longlong1, 8, 8) TGSIM_VEC_CHECK(longlong2, 16, 16) TGSIM_VEC_CHECK(longlong3, 24, 8)
TGSIM_VEC_CHECK(longlong4, 32, 16) TGSIM_VEC_CHECK(longlong4_16a, 32, 16) TGSIM_VEC_CHECK(longlong4_32a, 32, 32)
TGSIM_VEC_CHECK(ulonglong1, 8, 8) TGSIM_VEC_CHECK(ulonglong2, 16, 16) TGSIM_VEC_CHECK(ulonglong3, 24, 8)
TGSIM_VEC_CHECK(ulonglong4, 32, 16) TGSIM_VEC_CHECK(ulonglong4_16a, 32, 16) TGSIM_VEC_CHECK(ulonglong4_32a, 32, 32)
TGSIM_VEC_CHECK(double1, 8, 8) TGSIM_VEC_CHECK(double2, 16, 16) TGSIM_VEC_CHECK(double3, 24, 8)
TGSIM_VEC_CHECK(double4, 32, 16) TGSIM_VEC_CHECK(double4_16a, 32, 16) TGSIM_VEC_CHECK(double4_32a, 32, 32)
TGSIM_VEC_CHECK(dim3, 12, 4)
static_assert(std::is_aggregate_v<float4> && std::is_trivially_copyable_v<float4> &&
              std::is_standard_layout_v<float4> && std::is_trivially_copyable_v<dim3>);

#undef TGSIM_VEC_CHECK
#undef TGSIM_MAKE_1_TO_4
#undef TGSIM_MAKE1
#undef TGSIM_MAKE2
#undef TGSIM_MAKE3
#undef TGSIM_MAKE4
#undef TGSIM_VEC1
#undef TGSIM_VEC2
#undef TGSIM_VEC3
#undef TGSIM_VEC4
#undef TGSIM_VEC_ALIGN_0
#undef TGSIM_VEC_ALIGN_2
#undef TGSIM_VEC_ALIGN_4
#undef TGSIM_VEC_ALIGN_8
#undef TGSIM_VEC_ALIGN_16
#undef TGSIM_VEC_ALIGN_32

#endif /* TGSIM_KERNEL_CUDA_VECTOR_TYPES_H */
