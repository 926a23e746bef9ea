// Compile-only check that the catalog's kernels are valid CUDA (nvcc -arch=sm_90 -c), all in
// one translation unit as tests/hardware/driver.cu includes them.
#include "blur.cu"
#include "buggy.cu"
#include "constant.cu"
#include "histogram.cu"
#include "int_matmul.cu"
#include "layers.cu"
#include "matmul.cu"
#include "neighbour.cu"
#include "peak.cu"
#include "reduce.cu"
#include "transpose.cu"
