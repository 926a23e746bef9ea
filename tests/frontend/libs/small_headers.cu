// <cuda_fp8.h>, <cuComplex.h> and <math_constants.h> (issue 34): the values printed are the
// ones CUDA 13's headers give for the same kernels on an H100 (tests/CMakeLists.txt).
#include <cuComplex.h>
#include <cuda_fp8.h>
#include <math_constants.h>

#include <cstdio>

// Rounding to nearest even, saturation, subnormals and both formats; 1-byte stores.
__global__ void fp8(unsigned char* out) {
  const float in[6] = {0.1f, 500.0f, 1e-3f, -2.0f, 0.3f, 460.0f};
  const int t = threadIdx.x;
  if (t < 6) out[t] = __nv_cvt_float_to_fp8(in[t], __NV_SATFINITE, __NV_E4M3);
  if (t == 0) {
    const __nv_fp8_e4m3 a(0.1f);
    const __nv_fp8_e5m2 b(500.0f);
    const __nv_fp8x4_e4m3 q(make_float4(1.0f, -0.5f, 3.0f, 1000.0f));
    printf("fp8 %02x %02x %02x %02x %02x %02x nosat %02x %02x e5m2 %02x %02x back %.7f %.1f x4 %08x\n",
           __nv_cvt_float_to_fp8(0.1f, __NV_SATFINITE, __NV_E4M3), __nv_cvt_float_to_fp8(500.0f, __NV_SATFINITE, __NV_E4M3),
           __nv_cvt_float_to_fp8(1e-3f, __NV_SATFINITE, __NV_E4M3), __nv_cvt_float_to_fp8(-2.0f, __NV_SATFINITE, __NV_E4M3),
           __nv_cvt_float_to_fp8(0.3f, __NV_SATFINITE, __NV_E4M3), __nv_cvt_float_to_fp8(460.0f, __NV_SATFINITE, __NV_E4M3),
           __nv_cvt_float_to_fp8(500.0f, __NV_NOSAT, __NV_E4M3), __nv_cvt_float_to_fp8(1e6f, __NV_NOSAT, __NV_E5M2),
           __nv_cvt_float_to_fp8(500.0f, __NV_SATFINITE, __NV_E5M2), __nv_cvt_float_to_fp8(3e-6f, __NV_SATFINITE, __NV_E5M2),
           static_cast<float>(a), static_cast<float>(b), q.__x);
  }
}

// Complex arithmetic on float2/double2 (8- and 16-byte loads), and the math constants.
__global__ void complex_ops(const cuFloatComplex* a, cuDoubleComplex* out) {
  const cuFloatComplex x = a[threadIdx.x], y = make_cuFloatComplex(3.0f, -4.0f);
  const cuFloatComplex p = cuCmulf(x, y), q = cuCdivf(x, y);
  out[threadIdx.x] = cuComplexFloatToDouble(cuCaddf(p, q));
  if (threadIdx.x == 2)
    printf("complex %.6f %.6f %.6f %.6f %.1f %.6f %.6f\n", cuCrealf(p), cuCimagf(p), cuCrealf(q), cuCimagf(q),
           cuCabsf(y), CUDART_PI_F, CUDART_SQRT_TWO);
}
