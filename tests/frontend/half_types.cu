// half, half2, bfloat16 and bfloat162 with their conversions and arithmetic (issue 34): loads and
// stores at their width (2 and 4 bytes), values as the GPU rounds them.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void half_axpy(const __half* x, __half* y, float a) {
  const int i = threadIdx.x;
  y[i] = __hfma(__float2half(a), x[i], y[i]);
  if (i == 3) printf("half %.6f %.6f %.6f\n", __half2float(y[i]), __half2float(__float2half(0.1f)),
                     __half2float(__hadd(__float2half(65504.0f), __float2half(32.0f))));
}

__global__ void half2_add(const __half2* x, __half2* y) {
  const int i = threadIdx.x;
  y[i] = __hadd2(x[i], y[i]);
  if (i == 0) printf("half2 %.4f %.4f\n", __low2float(y[i]), __high2float(y[i]));
}

__global__ void bf16_scale(const __nv_bfloat16* x, __nv_bfloat16* y) {
  const int i = threadIdx.x;
  y[i] = x[i] * __float2bfloat16(3.0f);
  if (i == 5) printf("bf16 %.6f %.6f\n", __bfloat162float(y[i]), __bfloat162float(__float2bfloat16(1.00390625f)));
}
