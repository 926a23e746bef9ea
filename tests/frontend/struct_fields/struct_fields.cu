// Structs passed by value, given field by field ({NAME=VALUE,...}) or as bytes (struct:FILE.bin)
// (struct_fields.sh): each kernel copies its struct's bytes to `out`, so the two ways compare.
#include <cuda_fp16.h>

enum Mode { kFirst = 1, kSecond = 7 };
struct Inner {
  short s;
  double d;
};
struct Params {  // 56 bytes: passed in memory
  int n;
  float scale;
  unsigned char flag;
  bool on;
  Mode mode;
  Inner in;
  int v[3];
  __half h;
  unsigned long long big;
};
struct Small {  // 8 bytes: passed in a register
  int a;
  float b;
};
struct Packed {  // a bit-field: no ARG names it
  unsigned lo : 4, hi : 4;
};

template <class T>
__device__ void copy_bytes(const T& p, unsigned char* out) {
  const unsigned i = threadIdx.x;
  if (i < sizeof(T)) out[i] = reinterpret_cast<const unsigned char*>(&p)[i];
}
__global__ void copy_params(Params p, unsigned char* out) { copy_bytes(p, out); }
__global__ void copy_small(Small s, unsigned char* out) { copy_bytes(s, out); }
__global__ void copy_packed(Packed p, unsigned char* out) { copy_bytes(p, out); }
