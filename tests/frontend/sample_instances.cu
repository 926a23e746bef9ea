// The template kernels of tests/frontend/samples/ (copied unchanged from NVIDIA/cuda-samples)
// instantiated for tests/frontend_samples_test.cpp, as the samples' host code does by launching
// them: MatrixMulCUDA<32> (matrixMul.cu), reduce0-6<int> and reduce4<double> (reduction.cpp).
#include "samples/matrixMul.cu"
#include "samples/reduction_kernel.cu"

template void MatrixMulCUDA<32>(float*, float*, float*, int, int);
template void reduce0<int>(int*, int*, unsigned int);
template void reduce1<int>(int*, int*, unsigned int);
template void reduce2<int>(int*, int*, unsigned int);
template void reduce3<int>(int*, int*, unsigned int);
template void reduce4<int, 256>(int*, int*, unsigned int);
template void reduce5<int, 256>(int*, int*, unsigned int);
template void reduce6<int, 256, true>(int*, int*, unsigned int);
template void reduce4<double, 256>(double*, double*, unsigned int);
