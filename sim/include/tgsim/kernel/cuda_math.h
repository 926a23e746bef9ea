/* The CUDA device math library for kernels that tgsim compiles as plain C++ on the CPU.
 *
 * Models the parts of the CUDA 13 Math API and device intrinsics that cuda-samples and
 * tutorials use, in the global namespace like CUDA's:
 *   cuda_math_float.h  float/double functions CUDA has beyond <cmath> (rsqrtf, sinpif, norm3df,
 *                      erfcinvf, normcdff, ...) and the fast intrinsics (__expf, __sinf, ...)
 *   cuda_math_round.h  rounding-mode arithmetic (__fadd_rz, __dmul_ru, __fmaf_rd, ...) and
 *                      conversions (__float2int_rn, __ll2float_ru, __float_as_int, ...)
 *   cuda_math_int.h    integer intrinsics (__popc, __clz, __brev, __byte_perm, __mul24,
 *                      __umul64hi, __sad, __hadd, __funnelshift_*, ...)
 *   cuda_math_minmax.h CUDA's min/max overload set and __ldg
 *   cuda_math_simd.h   the SIMD-within-a-word __v*2 / __v*4 family, __dp4a, __dp2a_lo/_hi
 * It also includes <cmath> (and so <math.h>), so sqrtf, expf, fmaf, fminf, ... are visible at
 * global scope as in CUDA.
 *
 * What it simplifies, in general: results are computed with the CPU's correctly rounded or
 * libm functions, so the fast intrinsics (__expf, __sinf, __fdividef outside its special range,
 * ...) return the precise value rather than the GPU's approximation; libm functions may differ
 * from CUDA's in the last ulp. Everything is inline; nothing depends on tgsim's library. */
#ifndef TGSIM_KERNEL_CUDA_MATH_H
#define TGSIM_KERNEL_CUDA_MATH_H

#include "cuda_math_float.h"
#include "cuda_math_round.h"
#include "cuda_math_int.h"
#include "cuda_math_minmax.h"
#include "cuda_math_simd.h"

#endif /* TGSIM_KERNEL_CUDA_MATH_H */
