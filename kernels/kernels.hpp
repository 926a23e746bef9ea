// The catalog's kernels (kernels/*.cu, plain CUDA compiled by tgsim's front end and by nvcc):
// the types and sizes that the kernels and their host code share, and, for host code compiled
// by the project's C++ compiler (kernels/catalog.cpp, tests, `tgsim bench`), the kernels' plain
// prototypes. A kernel is called through tgsim::Device::launch with raw device pointers
// (`dev.launch(cfg, matmul_naive, a.data(), b.data(), c.data(), n)`).
#pragma once

#define INT_MATMUL_NT 32  // int_matmul.cu: NT x NT threads per block
#define REDUCE_BLOCK 256  // reduce.cu: threads (and elements) per block
#define POLY_DEGREE 8     // constant.cu: coefficients in __constant__ memory

// peak.cu: a value and its index, written and read whole (one 8-byte access).
struct alignas(8) Peak {
  float val;
  int idx;
};

// In a .cu (nvcc: __CUDACC__, tgsim's front end: __TGSIM__) the definitions declare the kernels.
#if !defined(__CUDACC__) && !defined(__TGSIM__)

// matmul.cu (TILE: 8, 16 or 32)
void matmul_naive(const float* A, const float* B, float* C, int n);
template <int TILE> void matmul_tiled(const float* A, const float* B, float* C, int n);
extern template void matmul_tiled<8>(const float*, const float*, float*, int);
extern template void matmul_tiled<16>(const float*, const float*, float*, int);
extern template void matmul_tiled<32>(const float*, const float*, float*, int);

// transpose.cu
void transpose_naive(const int* in, int* out, int n);
void transpose_shared(const int* in, int* out, int n);
void transpose_padded(const int* in, int* out, int n);

// layers.cu
void matvec(const float* W, const float* x, float* y, int rows, int cols);
void add_bias(float* matrix, const float* bias, int n, int total);
void relu(float* data, int total);

// blur.cu, neighbour.cu
void blur3x3(const float* image, float* out, int w, int h);
void neighbour_sum(const float* input, float* output);

// int_matmul.cu
void int_matmul_global(int* c_dev, const int* a_dev, const int* b_dev, int n);
void int_matmul_shared(int* c_dev, const int* a_dev, const int* b_dev, int n);

// peak.cu
void block_peak(const float* src, int n, Peak* block_out);
void block_peak_reviewed(const float* src, int n, Peak* block_out);
void final_peak_and_centroid(const Peak* block_peaks, int block_count, const float* corr, int width, int height,
                             Peak* out_peak, float* out_centroid);
void final_peak_and_centroid_reviewed(const Peak* block_peaks, int block_count, const float* corr, int width,
                                      int height, Peak* out_peak, float* out_centroid);

// reduce.cu
void reduce_interleaved(const int* in, int* out);
void reduce_sequential(const int* in, int* out);
void reduce_shuffle(const int* in, int* out);

// histogram.cu
void histogram256(const unsigned char* data, int n, unsigned* hist);

// constant.cu: upload_poly_coeffs copies POLY_DEGREE floats into __constant__ poly_coeffs.
void poly_eval(const float* x, float* y, int n);
void lane_coeff(float* y, int n);
void upload_poly_coeffs(const float* coeffs);

// buggy.cu: one classic mistake each (warp_reduce_syncwarp is the corrected reduction).
void matmul_tiled16_nobarrier1(const float* A, const float* B, float* C, int n);
void matmul_tiled16_nobarrier2(const float* A, const float* B, float* C, int n);
void neighbor_nobarrier(const float* input, float* output, int n);
void divergent_barrier(const float* in, float* out, int n);
void transpose_oob(const int* in, int* out, int n);
void warp_reduce_nosync(const float* in, float* out, int n);
void warp_reduce_syncwarp(const float* in, float* out, int n);

#endif
