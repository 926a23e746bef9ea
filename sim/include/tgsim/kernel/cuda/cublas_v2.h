// <cublas_v2.h> for a program built by tgsim's front end (written for tgsim): the handle and
// level 1/2 calls are in cublas_api.h; here level 3 — gemm (S, D, H, Ex), their Batched and
// StridedBatched forms, geam. Reference host loops over the simulated device memory,
// column-major: C = alpha op(A) op(B) + beta C, summed over k in order in the compute type
// (float for 32F, 16F and the tensor-op modes, double for 64F, integer for 32I); beta == 0
// does not read C. Not simulated, not counted; TF32 and tensor-op rounding are not modelled.
#pragma once
#include <algorithm>
#include <vector>

#include "cublas_api.h"

namespace tgsim_cublas {
// op(X)(r, c) of a column-major matrix with leading dimension ld.
inline long index(cublasOperation_t op, int r, int c, int ld) {
  return op == CUBLAS_OP_N ? r + static_cast<long>(c) * ld : c + static_cast<long>(r) * ld;
}
template <class Acc, class TA, class TB, class TC>
void gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, Acc alpha, const TA* A, int lda,
          const TB* B, int ldb, Acc beta, TC* C, int ldc) {
  // Column by column, k outermost (each sum still runs over k in order): A's columns stream.
  std::vector<Acc> s(static_cast<size_t>(m > 0 ? m : 0));
  for (int j = 0; j < n; ++j) {
    std::fill(s.begin(), s.end(), Acc(0));
    for (int p = 0; p < k; ++p) {
      const Acc b = static_cast<Acc>(to_double(B[index(tb, p, j, ldb)]));
      for (int i = 0; i < m; ++i) s[i] += static_cast<Acc>(to_double(A[index(ta, i, p, lda)])) * b;
    }
    for (int i = 0; i < m; ++i) {
      TC& c = C[i + static_cast<long>(j) * ldc];
      const Acc prior = beta == Acc(0) ? Acc(0) : static_cast<Acc>(to_double(c));
      c = TC(alpha * s[i] + beta * prior);
    }
  }
  wrote_matrix(C, m, n, ldc);
}
enum class Acc { F32, F64, I32 };
inline Acc accumulator(int compute) {
  switch (compute) {
    case CUBLAS_COMPUTE_64F: case CUBLAS_COMPUTE_64F_PEDANTIC: case CUDA_R_64F: return Acc::F64;
    case CUBLAS_COMPUTE_32I: case CUBLAS_COMPUTE_32I_PEDANTIC: case CUDA_R_32I: return Acc::I32;
    default: return Acc::F32;
  }
}
// alpha or beta: a half for 16F compute, a float for 32F, a double for 64F, an int for 32I.
inline double scalar(const void* p, int compute) {
  if (compute == CUBLAS_COMPUTE_16F || compute == CUBLAS_COMPUTE_16F_PEDANTIC || compute == CUDA_R_16F)
    return float(*static_cast<const __half*>(p));
  switch (accumulator(compute)) {
    case Acc::F64: return *static_cast<const double*>(p);
    case Acc::I32: return *static_cast<const int*>(p);
    default: return *static_cast<const float*>(p);
  }
}
template <class Acc, class TA, class TC>
void gemm_as(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, double alpha, const void* A, int lda,
             const void* B, int ldb, double beta, void* C, int ldc) {
  gemm<Acc>(ta, tb, m, n, k, static_cast<Acc>(alpha), static_cast<const TA*>(A), lda, static_cast<const TA*>(B), ldb,
            static_cast<Acc>(beta), static_cast<TC*>(C), ldc);
}
// The type combinations of cublasGemmEx's table that programs use; others are an error.
inline void gemm_ex(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const void* alpha, const void* A,
                    cudaDataType at, int lda, const void* B, cudaDataType bt, int ldb, const void* beta, void* C,
                    cudaDataType ct, int ldc, int compute) {
  const double a = scalar(alpha, compute), b = scalar(beta, compute);
  const Acc acc = accumulator(compute);
  if (at != bt) unsupported("cublasGemmEx with different A and B types");
  if (acc == Acc::F64 && at == CUDA_R_64F && ct == CUDA_R_64F)
    return gemm_as<double, double, double>(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
  if (acc == Acc::I32 && at == CUDA_R_8I && ct == CUDA_R_32I)
    return gemm_as<long long, signed char, int>(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
  if (acc == Acc::F32) {
    if (at == CUDA_R_32F && ct == CUDA_R_32F) return gemm_as<float, float, float>(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
    if (at == CUDA_R_16F && ct == CUDA_R_16F) return gemm_as<float, __half, __half>(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
    if (at == CUDA_R_16F && ct == CUDA_R_32F) return gemm_as<float, __half, float>(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
    if (at == CUDA_R_16BF && ct == CUDA_R_16BF)
      return gemm_as<float, __nv_bfloat16, __nv_bfloat16>(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
    if (at == CUDA_R_16BF && ct == CUDA_R_32F)
      return gemm_as<float, __nv_bfloat16, float>(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
    if (at == CUDA_R_8I && ct == CUDA_R_32F) return gemm_as<float, signed char, float>(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);
  }
  unsupported("cublasGemmEx with this combination of data and compute types");
}
}  // namespace tgsim_cublas

#define TGSIM_CUBLAS_GEMM(P, T)                                                                                  \
  inline cublasStatus_t cublas##P##gemm(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, \
                                        int k, const T* alpha, const T* A, int lda, const T* B, int ldb,         \
                                        const T* beta, T* C, int ldc) {                                          \
    tgsim_cublas::gemm<tgsim_cublas_acc_##P>(ta, tb, m, n, k, tgsim_cublas_acc_##P(tgsim_cublas::to_double(*alpha)), \
                                             A, lda, B, ldb, tgsim_cublas_acc_##P(tgsim_cublas::to_double(*beta)), C, ldc); \
    return CUBLAS_STATUS_SUCCESS;                                                                                \
  }                                                                                                              \
  inline cublasStatus_t cublas##P##gemmStridedBatched(                                                           \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,          \
      const T* A, int lda, long long sa, const T* B, int ldb, long long sb, const T* beta, T* C, int ldc,         \
      long long sc, int batch) {                                                                                 \
    for (int i = 0; i < batch; ++i)                                                                              \
      cublas##P##gemm(h, ta, tb, m, n, k, alpha, A + i * sa, lda, B + i * sb, ldb, beta, C + i * sc, ldc);         \
    return CUBLAS_STATUS_SUCCESS;                                                                                \
  }                                                                                                              \
  inline cublasStatus_t cublas##P##gemmBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,       \
                                               int m, int n, int k, const T* alpha, const T* const A[], int lda,  \
                                               const T* const B[], int ldb, const T* beta, T* const C[], int ldc, \
                                               int batch) {                                                      \
    for (int i = 0; i < batch; ++i) cublas##P##gemm(h, ta, tb, m, n, k, alpha, A[i], lda, B[i], ldb, beta, C[i], ldc); \
    return CUBLAS_STATUS_SUCCESS;                                                                                \
  }
typedef float tgsim_cublas_acc_S;
typedef double tgsim_cublas_acc_D;
typedef float tgsim_cublas_acc_H;
TGSIM_CUBLAS_GEMM(S, float)
TGSIM_CUBLAS_GEMM(D, double)
TGSIM_CUBLAS_GEMM(H, __half)
#undef TGSIM_CUBLAS_GEMM

#define TGSIM_CUBLAS_GEAM(P, T)                                                                                  \
  inline cublasStatus_t cublas##P##geam(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, \
                                        const T* alpha, const T* A, int lda, const T* beta, const T* B, int ldb,  \
                                        T* C, int ldc) {                                                         \
    for (int j = 0; j < n; ++j)                                                                                  \
      for (int i = 0; i < m; ++i) {                                                                              \
        const T a = *alpha == T(0) ? T(0) : *alpha * A[tgsim_cublas::index(ta, i, j, lda)];                      \
        const T b = *beta == T(0) ? T(0) : *beta * B[tgsim_cublas::index(tb, i, j, ldb)];                        \
        C[i + static_cast<long>(j) * ldc] = a + b;                                                               \
      }                                                                                                          \
    tgsim_cublas::wrote_matrix(C, m, n, ldc);                                                                    \
    return CUBLAS_STATUS_SUCCESS;                                                                                \
  }
TGSIM_CUBLAS_GEAM(S, float)
TGSIM_CUBLAS_GEAM(D, double)
#undef TGSIM_CUBLAS_GEAM

// computeType may be a cublasComputeType_t or (CUDA 10 style) a cudaDataType.
template <class Compute, class Algo>
cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const void* alpha, const void* A, cudaDataType at, int lda, const void* B,
                            cudaDataType bt, int ldb, const void* beta, void* C, cudaDataType ct, int ldc,
                            Compute compute, Algo) {
  tgsim_cublas::gemm_ex(ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc, static_cast<int>(compute));
  return CUBLAS_STATUS_SUCCESS;
}
template <class Compute, class Algo>
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                          int k, const void* alpha, const void* A, cudaDataType at, int lda,
                                          long long sa, const void* B, cudaDataType bt, int ldb, long long sb,
                                          const void* beta, void* C, cudaDataType ct, int ldc, long long sc,
                                          int batch, Compute compute, Algo) {
  using tgsim_cublas::bytes_of;
  for (int i = 0; i < batch; ++i)
    tgsim_cublas::gemm_ex(ta, tb, m, n, k, alpha, static_cast<const char*>(A) + i * sa * bytes_of(at), at, lda,
                          static_cast<const char*>(B) + i * sb * bytes_of(bt), bt, ldb, beta,
                          static_cast<char*>(C) + i * sc * bytes_of(ct), ct, ldc, static_cast<int>(compute));
  return CUBLAS_STATUS_SUCCESS;
}
template <class Compute, class Algo>
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                   const void* alpha, const void* const A[], cudaDataType at, int lda,
                                   const void* const B[], cudaDataType bt, int ldb, const void* beta, void* const C[],
                                   cudaDataType ct, int ldc, int batch, Compute compute, Algo) {
  for (int i = 0; i < batch; ++i)
    tgsim_cublas::gemm_ex(ta, tb, m, n, k, alpha, A[i], at, lda, B[i], bt, ldb, beta, C[i], ct, ldc,
                          static_cast<int>(compute));
  return CUBLAS_STATUS_SUCCESS;
}
// cublasSgemmEx: float scalars and compute, typed A, B, C.
inline cublasStatus_t cublasSgemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                    const float* alpha, const void* A, cudaDataType at, int lda, const void* B,
                                    cudaDataType bt, int ldb, const float* beta, void* C, cudaDataType ct, int ldc) {
  return cublasGemmEx(h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc, CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT);
}
