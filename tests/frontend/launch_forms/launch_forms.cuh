// A header (starting with a UTF-8 byte order mark) with a kernel and its launch, as libraries ship them (launch_forms.cu includes it).
#pragma once

__global__ void negate(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = -v[i];
}

inline void negate_all(float* v, int n) {
  negate<<<(n + 255) / 256, 256>>>(v, n);
}
