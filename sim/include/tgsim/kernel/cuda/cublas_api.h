// cuBLAS (<cublas_api.h>, <cublas_v2.h>) for a program built by tgsim's front end, written for
// tgsim: reference host implementations over the simulated device memory (device pointers are
// host addresses in tgsim), column-major as cuBLAS. They give correct results but are NOT
// simulated or counted as kernels. Each call runs at once (the handle's stream is ignored);
// scalars are read through their pointer in either pointer mode. A cuBLAS function this file
// does not implement is a one-line error naming it (exit 2), never a silent wrong result.
// Level 3 (gemm, geam, batched) is in cublas_v2.h.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "cuComplex.h"
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "library_types.h"

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_INITIALIZED = 1, CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7, CUBLAS_STATUS_ARCH_MISMATCH = 8, CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13, CUBLAS_STATUS_INTERNAL_ERROR = 14, CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2, CUBLAS_OP_HERMITAN = 2, CUBLAS_OP_CONJG = 3 } cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_ATOMICS_NOT_ALLOWED = 0, CUBLAS_ATOMICS_ALLOWED = 1 } cublasAtomicsMode_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum {
  CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_PEDANTIC_MATH = 2, CUBLAS_TF32_TENSOR_OP_MATH = 3,
  CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;
typedef enum {
  CUBLAS_COMPUTE_16F = 64, CUBLAS_COMPUTE_16F_PEDANTIC = 65, CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_32F_FAST_16F = 74, CUBLAS_COMPUTE_32F_FAST_16BF = 75, CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
  CUBLAS_COMPUTE_64F = 70, CUBLAS_COMPUTE_64F_PEDANTIC = 71, CUBLAS_COMPUTE_32I = 72, CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;
typedef enum {
  CUBLAS_GEMM_DFALT = -1, CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_ALGO0 = 0, CUBLAS_GEMM_ALGO1 = 1,
  CUBLAS_GEMM_ALGO23 = 23, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99, CUBLAS_GEMM_DFALT_TENSOR_OP = 99,
  CUBLAS_GEMM_ALGO0_TENSOR_OP = 100, CUBLAS_GEMM_ALGO15_TENSOR_OP = 115
} cublasGemmAlgo_t;
typedef cudaDataType cublasDataType_t;

#define CUBLAS_VER_MAJOR 12
#define CUBLAS_VER_MINOR 0
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 1000 + CUBLAS_VER_MINOR * 100)

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cublasMath_t math_mode = CUBLAS_DEFAULT_MATH;
};
typedef cublasContext* cublasHandle_t;

namespace tgsim_cublas {
[[noreturn]] inline void unsupported(const char* what) {
  std::fprintf(stderr, "tgsim: %s is not modelled (tgsim's cuBLAS implements the calls listed in cublas_api.h)\n", what);
  std::exit(2);
}
// Element i of a strided vector as BLAS addresses it (a negative increment starts at the end).
template <class T> inline T& at(T* x, int n, int inc, int i) {
  return inc >= 0 ? x[static_cast<long>(i) * inc] : x[static_cast<long>(n - 1 - i) * -inc];
}
template <class T> inline double to_double(const T& v) { return static_cast<double>(static_cast<float>(v)); }
inline double to_double(const double& v) { return v; }
inline double to_double(const int& v) { return v; }
inline double to_double(const signed char& v) { return v; }
// An element of a typed buffer as double, and back.
// The host wrote these bytes of device memory: initcheck counts them as written, as after a
// kernel's stores (a cudaMemcpy of the range onto itself).
inline void wrote(const void* p, long bytes) {
  if (bytes > 0) cudaMemcpy(const_cast<void*>(p), p, static_cast<size_t>(bytes), cudaMemcpyDeviceToDevice);
}
template <class T> inline void wrote_vector(T* x, int n, int inc) {
  if (n > 0) wrote(inc >= 0 ? x : x + static_cast<long>(n - 1) * inc, (static_cast<long>(n - 1) * (inc >= 0 ? inc : -inc) + 1) * sizeof(T));
}
template <class T> inline void wrote_matrix(T* c, int m, int n, int ld) {
  if (m > 0 && n > 0) wrote(c, (static_cast<long>(n - 1) * ld + m) * sizeof(T));
}
inline long bytes_of(cudaDataType t) {
  switch (t) {
    case CUDA_R_64F: return 8;
    case CUDA_R_32F: case CUDA_R_32I: return 4;
    case CUDA_R_16F: case CUDA_R_16BF: return 2;
    default: return 1;
  }
}
inline double load(const void* p, cudaDataType t, long i) {
  switch (t) {
    case CUDA_R_32F: return static_cast<const float*>(p)[i];
    case CUDA_R_64F: return static_cast<const double*>(p)[i];
    case CUDA_R_16F: return float(static_cast<const __half*>(p)[i]);
    case CUDA_R_16BF: return float(static_cast<const __nv_bfloat16*>(p)[i]);
    case CUDA_R_8I: return static_cast<const signed char*>(p)[i];
    case CUDA_R_32I: return static_cast<const int*>(p)[i];
    default: unsupported("a cuBLAS data type other than 32F, 64F, 16F, 16BF, 8I, 32I");
  }
}
}  // namespace tgsim_cublas

inline cublasStatus_t cublasCreate(cublasHandle_t* h) { *h = new cublasContext(); return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasDestroy(cublasHandle_t h) { delete h; return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t s) { h->stream = s; return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasGetStream(cublasHandle_t h, cudaStream_t* s) { *s = h->stream; return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t m) { h->math_mode = m; return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasGetMathMode(cublasHandle_t h, cublasMath_t* m) { *m = h->math_mode; return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasSetPointerMode(cublasHandle_t h, cublasPointerMode_t m) {
  h->pointer_mode = m;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetPointerMode(cublasHandle_t h, cublasPointerMode_t* m) {
  *m = h->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetAtomicsMode(cublasHandle_t, cublasAtomicsMode_t) { return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasSetWorkspace(cublasHandle_t, void*, size_t) { return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasGetVersion(cublasHandle_t, int* v) { *v = CUBLAS_VERSION; return CUBLAS_STATUS_SUCCESS; }
inline const char* cublasGetStatusName(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "CUBLAS_STATUS_INTERNAL_ERROR";
  }
}
inline const char* cublasGetStatusString(cublasStatus_t s) { return cublasGetStatusName(s); }

// ---- moving data (cudaMemcpy with strides)
inline cublasStatus_t cublasSetVector(int n, int size, const void* x, int incx, void* y, int incy) {
  for (int i = 0; i < n; ++i)
    cudaMemcpy(static_cast<char*>(y) + static_cast<long>(i) * incy * size,
               static_cast<const char*>(x) + static_cast<long>(i) * incx * size, size, cudaMemcpyHostToDevice);
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetVector(int n, int size, const void* x, int incx, void* y, int incy) {
  return cublasSetVector(n, size, x, incx, y, incy);
}
inline cublasStatus_t cublasSetMatrix(int rows, int cols, int size, const void* a, int lda, void* b, int ldb) {
  for (int j = 0; j < cols; ++j)
    cudaMemcpy(static_cast<char*>(b) + static_cast<long>(j) * ldb * size,
               static_cast<const char*>(a) + static_cast<long>(j) * lda * size, static_cast<size_t>(rows) * size,
               cudaMemcpyHostToDevice);
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetMatrix(int rows, int cols, int size, const void* a, int lda, void* b, int ldb) {
  return cublasSetMatrix(rows, cols, size, a, lda, b, ldb);
}
inline cublasStatus_t cublasSetVectorAsync(int n, int s, const void* x, int ix, void* y, int iy, cudaStream_t) {
  return cublasSetVector(n, s, x, ix, y, iy);
}
inline cublasStatus_t cublasGetVectorAsync(int n, int s, const void* x, int ix, void* y, int iy, cudaStream_t) {
  return cublasGetVector(n, s, x, ix, y, iy);
}

// ---- level 1, for float (S) and double (D); sums in the element type, in index order.
#define TGSIM_CUBLAS_LEVEL1(P, p, T)                                                                        \
  inline cublasStatus_t cublas##P##copy(cublasHandle_t, int n, const T* x, int incx, T* y, int incy) {      \
    for (int i = 0; i < n; ++i) tgsim_cublas::at(y, n, incy, i) = tgsim_cublas::at(x, n, incx, i);         \
    tgsim_cublas::wrote_vector(y, n, incy);                                                                \
    return CUBLAS_STATUS_SUCCESS;                                                                          \
  }                                                                                                        \
  inline cublasStatus_t cublas##P##swap(cublasHandle_t, int n, T* x, int incx, T* y, int incy) {            \
    for (int i = 0; i < n; ++i) {                                                                          \
      T t = tgsim_cublas::at(x, n, incx, i);                                                               \
      tgsim_cublas::at(x, n, incx, i) = tgsim_cublas::at(y, n, incy, i);                                   \
      tgsim_cublas::at(y, n, incy, i) = t;                                                                 \
    }                                                                                                      \
    return CUBLAS_STATUS_SUCCESS;                                                                          \
  }                                                                                                        \
  inline cublasStatus_t cublas##P##axpy(cublasHandle_t, int n, const T* a, const T* x, int incx, T* y,      \
                                        int incy) {                                                        \
    for (int i = 0; i < n; ++i) tgsim_cublas::at(y, n, incy, i) += *a * tgsim_cublas::at(x, n, incx, i);   \
    tgsim_cublas::wrote_vector(y, n, incy);                                                                \
    return CUBLAS_STATUS_SUCCESS;                                                                          \
  }                                                                                                        \
  inline cublasStatus_t cublas##P##scal(cublasHandle_t, int n, const T* a, T* x, int incx) {                \
    for (int i = 0; i < n; ++i) x[static_cast<long>(i) * incx] *= *a;                                       \
    tgsim_cublas::wrote_vector(x, n, incx);                                                                \
    return CUBLAS_STATUS_SUCCESS;                                                                          \
  }                                                                                                        \
  inline cublasStatus_t cublas##P##dot(cublasHandle_t, int n, const T* x, int incx, const T* y, int incy,   \
                                       T* r) {                                                             \
    T s = 0;                                                                                               \
    for (int i = 0; i < n; ++i) s += tgsim_cublas::at(x, n, incx, i) * tgsim_cublas::at(y, n, incy, i);     \
    *r = s;                                                                                                \
    tgsim_cublas::wrote(r, sizeof(*r));                                                                    \
    return CUBLAS_STATUS_SUCCESS;                                                                          \
  }                                                                                                        \
  inline cublasStatus_t cublas##P##nrm2(cublasHandle_t, int n, const T* x, int incx, T* r) {                \
    double s = 0;                                                                                          \
    for (int i = 0; i < n; ++i) s += double(x[static_cast<long>(i) * incx]) * x[static_cast<long>(i) * incx]; \
    *r = static_cast<T>(std::sqrt(s));                                                                     \
    tgsim_cublas::wrote(r, sizeof(*r));                                                                    \
    return CUBLAS_STATUS_SUCCESS;                                                                          \
  }                                                                                                        \
  inline cublasStatus_t cublas##P##asum(cublasHandle_t, int n, const T* x, int incx, T* r) {                \
    T s = 0;                                                                                               \
    for (int i = 0; i < n; ++i) s += std::fabs(x[static_cast<long>(i) * incx]);                            \
    *r = s;                                                                                                \
    tgsim_cublas::wrote(r, sizeof(*r));                                                                    \
    return CUBLAS_STATUS_SUCCESS;                                                                          \
  }                                                                                                        \
  inline cublasStatus_t cublasI##p##amax(cublasHandle_t, int n, const T* x, int incx, int* r) {             \
    int best = n > 0 ? 1 : 0;                                                                              \
    for (int i = 1; i < n; ++i)                                                                            \
      if (std::fabs(x[static_cast<long>(i) * incx]) > std::fabs(x[static_cast<long>(best - 1) * incx])) best = i + 1; \
    *r = best;                                                                                             \
    tgsim_cublas::wrote(r, sizeof(*r));                                                                    \
    return CUBLAS_STATUS_SUCCESS;                                                                          \
  }                                                                                                        \
  inline cublasStatus_t cublasI##p##amin(cublasHandle_t, int n, const T* x, int incx, int* r) {             \
    int best = n > 0 ? 1 : 0;                                                                              \
    for (int i = 1; i < n; ++i)                                                                            \
      if (std::fabs(x[static_cast<long>(i) * incx]) < std::fabs(x[static_cast<long>(best - 1) * incx])) best = i + 1; \
    *r = best;                                                                                             \
    tgsim_cublas::wrote(r, sizeof(*r));                                                                    \
    return CUBLAS_STATUS_SUCCESS;                                                                          \
  }                                                                                                        \
  /* y = alpha op(A) x + beta y; A is m x n, column-major */                                               \
  inline cublasStatus_t cublas##P##gemv(cublasHandle_t, cublasOperation_t op, int m, int n, const T* alpha, \
                                        const T* A, int lda, const T* x, int incx, const T* beta, T* y,    \
                                        int incy) {                                                        \
    const bool t = op != CUBLAS_OP_N;                                                                      \
    const int ny = t ? n : m, nx = t ? m : n;                                                              \
    for (int i = 0; i < ny; ++i) {                                                                         \
      T s = 0;                                                                                             \
      for (int j = 0; j < nx; ++j)                                                                         \
        s += (t ? A[i * static_cast<long>(lda) + j] : A[j * static_cast<long>(lda) + i]) *                 \
             tgsim_cublas::at(x, nx, incx, j);                                                             \
      T& yi = tgsim_cublas::at(y, ny, incy, i);                                                            \
      yi = *beta == T(0) ? *alpha * s : *alpha * s + *beta * yi;                                           \
    }                                                                                                      \
    tgsim_cublas::wrote_vector(y, t ? n : m, incy);                                                        \
    return CUBLAS_STATUS_SUCCESS;                                                                          \
  }
TGSIM_CUBLAS_LEVEL1(S, s, float)
TGSIM_CUBLAS_LEVEL1(D, d, double)
#undef TGSIM_CUBLAS_LEVEL1

// result = x . y over typed vectors, accumulated in double, stored as resultType.
inline cublasStatus_t cublasDotEx(cublasHandle_t, int n, const void* x, cudaDataType xt, int incx, const void* y,
                                  cudaDataType yt, int incy, void* result, cudaDataType rt, cudaDataType) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += tgsim_cublas::load(x, xt, static_cast<long>(i) * incx) * tgsim_cublas::load(y, yt, static_cast<long>(i) * incy);
  switch (rt) {
    case CUDA_R_32F: *static_cast<float*>(result) = static_cast<float>(s); break;
    case CUDA_R_64F: *static_cast<double*>(result) = s; break;
    case CUDA_R_16F: *static_cast<__half*>(result) = __half(static_cast<float>(s)); break;
    case CUDA_R_16BF: *static_cast<__nv_bfloat16*>(result) = __nv_bfloat16(static_cast<float>(s)); break;
    default: tgsim_cublas::unsupported("cublasDotEx with this result type");
  }
  tgsim_cublas::wrote(result, tgsim_cublas::bytes_of(rt));
  return CUBLAS_STATUS_SUCCESS;
}

// LU with partial pivoting (LAPACK's getf2 order) of each n x n matrix in place; P (1-based
// row swaps, n per matrix) may be null for no pivoting; info = j when U(j, j) is exactly zero.
namespace tgsim_cublas {
template <class T> void getrf(int n, T* a, int lda, int* piv, int* info) {
  *info = 0;
  auto at = [&](int i, int j) -> T& { return a[i + static_cast<long>(j) * lda]; };
  for (int j = 0; j < n; ++j) {
    if (piv) {
      int p = j;
      for (int i = j + 1; i < n; ++i)
        if (std::fabs(at(i, j)) > std::fabs(at(p, j))) p = i;
      piv[j] = p + 1;
      if (p != j)
        for (int c = 0; c < n; ++c) std::swap(at(j, c), at(p, c));
    }
    if (at(j, j) != T(0)) {
      for (int i = j + 1; i < n; ++i) at(i, j) /= at(j, j);
    } else if (*info == 0) {
      *info = j + 1;
    }
    for (int c = j + 1; c < n; ++c)
      for (int i = j + 1; i < n; ++i) at(i, c) -= at(i, j) * at(j, c);
  }
  wrote_matrix(a, n, n, lda);
}
}  // namespace tgsim_cublas
#define TGSIM_CUBLAS_GETRF(P, T)                                                                             \
  inline cublasStatus_t cublas##P##getrfBatched(cublasHandle_t, int n, T* const A[], int lda, int* piv,       \
                                                int* info, int batch) {                                      \
    for (int b = 0; b < batch; ++b) tgsim_cublas::getrf(n, A[b], lda, piv ? piv + b * n : nullptr, info + b); \
    if (piv) tgsim_cublas::wrote(piv, static_cast<long>(batch) * n * sizeof(int));                         \
    tgsim_cublas::wrote(info, static_cast<long>(batch) * sizeof(int));                                      \
    return CUBLAS_STATUS_SUCCESS;                                                                            \
  }
TGSIM_CUBLAS_GETRF(S, float)
TGSIM_CUBLAS_GETRF(D, double)
#undef TGSIM_CUBLAS_GETRF

// Calls that are not modelled: one line naming the function, exit 2.
#define TGSIM_CUBLAS_UNSUPPORTED(name) \
  template <class... A> cublasStatus_t name(A...) { tgsim_cublas::unsupported(#name); }
TGSIM_CUBLAS_UNSUPPORTED(cublasSgetriBatched)
TGSIM_CUBLAS_UNSUPPORTED(cublasDgetriBatched)
TGSIM_CUBLAS_UNSUPPORTED(cublasSgelsBatched)
TGSIM_CUBLAS_UNSUPPORTED(cublasDgelsBatched)
TGSIM_CUBLAS_UNSUPPORTED(cublasCgelsBatched)
TGSIM_CUBLAS_UNSUPPORTED(cublasZgelsBatched)
TGSIM_CUBLAS_UNSUPPORTED(cublasStrsm)
TGSIM_CUBLAS_UNSUPPORTED(cublasDtrsm)
TGSIM_CUBLAS_UNSUPPORTED(cublasSsyrk)
TGSIM_CUBLAS_UNSUPPORTED(cublasDsyrk)
TGSIM_CUBLAS_UNSUPPORTED(cublasSsymm)
TGSIM_CUBLAS_UNSUPPORTED(cublasDsymm)
TGSIM_CUBLAS_UNSUPPORTED(cublasSger)
TGSIM_CUBLAS_UNSUPPORTED(cublasDger)
TGSIM_CUBLAS_UNSUPPORTED(cublasCgemm)
TGSIM_CUBLAS_UNSUPPORTED(cublasZgemm)
#undef TGSIM_CUBLAS_UNSUPPORTED
