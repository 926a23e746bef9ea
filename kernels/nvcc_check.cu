// Compile-only check that every portable kernel is valid CUDA (nvcc -arch=sm_90 -c).
#include "buggy.cuh"
#include "matmul.cuh"
#include "transpose.cuh"

template __global__ void matmul_tiled<8>(const float*, const float*, float*, int);
template __global__ void matmul_tiled<16>(const float*, const float*, float*, int);
template __global__ void matmul_tiled<32>(const float*, const float*, float*, int);
#include "layers.cuh"
#include "blur.cuh"
#include "neighbour.cuh"
#include "int_matmul.cuh"
