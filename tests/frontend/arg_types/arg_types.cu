// Scalars and buffers of the C spellings a kernel declares, as ARGs (arg_types.sh): each value
// is stored into `out` as a 64-bit integer or as the float the 2-byte type holds.
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void scalars(long long* out, int64_t a, size_t b, unsigned char c, uint16_t d, int8_t e) {
  out[0] = a;
  out[1] = static_cast<long long>(b);
  out[2] = c;
  out[3] = d;
  out[4] = e;
}

__global__ void two_byte_floats(float* out, __half h, __nv_bfloat16 bf) {
  out[0] = __half2float(h);
  out[1] = __bfloat162float(bf);
}

struct Params {
  int n;
  float scale;
};

__global__ void by_value(float* out, Params p) { out[0] = p.n + p.scale; }

// A buffer of __half elements filled with the ARG's =iota: element i holds i as a half.
__global__ void half_buffer(float* out, const __half* in) { out[threadIdx.x] = __half2float(in[threadIdx.x]); }
