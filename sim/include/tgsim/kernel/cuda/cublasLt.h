// <cublasLt.h> for a program built by tgsim's front end (written for tgsim): cublasLtMatmul as
// a reference host loop over the simulated device memory, like cuBLAS's calls (cublas_api.h:
// correct results, not simulated or counted). Column-major layouts with batch count and
// stride; transposes; alpha/beta in the scale type; the epilogues RELU, GELU (tanh form) and
// BIAS (a per-row vector) and their combinations; fp8 scale pointers (A, B, C, D) and AMAX_D.
// The heuristic returns one algorithm needing no workspace. Row-major layouts are an error.
#pragma once
#include <algorithm>
#include <cmath>

#include "cublas_v2.h"
#include "cuda_fp8.h"

typedef enum {
  CUBLASLT_EPILOGUE_DEFAULT = 1, CUBLASLT_EPILOGUE_RELU = 2, CUBLASLT_EPILOGUE_BIAS = 4,
  CUBLASLT_EPILOGUE_RELU_BIAS = 6, CUBLASLT_EPILOGUE_GELU = 32, CUBLASLT_EPILOGUE_GELU_BIAS = 36
} cublasLtEpilogue_t;
typedef enum {
  CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0, CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1, CUBLASLT_MATMUL_DESC_POINTER_MODE = 2,
  CUBLASLT_MATMUL_DESC_TRANSA = 3, CUBLASLT_MATMUL_DESC_TRANSB = 4, CUBLASLT_MATMUL_DESC_TRANSC = 5,
  CUBLASLT_MATMUL_DESC_FILL_MODE = 6, CUBLASLT_MATMUL_DESC_EPILOGUE = 7, CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,
  CUBLASLT_MATMUL_DESC_A_SCALE_POINTER = 17, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER = 18,
  CUBLASLT_MATMUL_DESC_C_SCALE_POINTER = 19, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER = 20,
  CUBLASLT_MATMUL_DESC_AMAX_D_POINTER = 21, CUBLASLT_MATMUL_DESC_FAST_ACCUM = 25,
  CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26
} cublasLtMatmulDescAttributes_t;
typedef enum {
  CUBLASLT_MATRIX_LAYOUT_TYPE = 0, CUBLASLT_MATRIX_LAYOUT_ORDER = 1, CUBLASLT_MATRIX_LAYOUT_ROWS = 2,
  CUBLASLT_MATRIX_LAYOUT_COLS = 3, CUBLASLT_MATRIX_LAYOUT_LD = 4, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6
} cublasLtMatrixLayoutAttribute_t;
typedef enum { CUBLASLT_ORDER_COL = 0, CUBLASLT_ORDER_ROW = 1 } cublasLtOrder_t;
typedef enum { CUBLASLT_MATMUL_PREF_SEARCH_MODE = 0, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1 } cublasLtMatmulPreferenceAttributes_t;

struct cublasLtContext {};
typedef cublasLtContext* cublasLtHandle_t;
struct cublasLtMatrixLayoutOpaque_t {
  cudaDataType type;
  unsigned long long rows, cols;
  long long ld, stride = 0;
  int batch = 1, order = CUBLASLT_ORDER_COL;
};
typedef cublasLtMatrixLayoutOpaque_t* cublasLtMatrixLayout_t;
struct cublasLtMatmulDescOpaque_t {
  cublasComputeType_t compute;
  cudaDataType scale;
  cublasOperation_t ta = CUBLAS_OP_N, tb = CUBLAS_OP_N;
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const void* bias = nullptr;
  const float *a_scale = nullptr, *b_scale = nullptr, *c_scale = nullptr, *d_scale = nullptr;
  float* amax_d = nullptr;
};
typedef cublasLtMatmulDescOpaque_t* cublasLtMatmulDesc_t;
struct cublasLtMatmulPreferenceOpaque_t {
  size_t workspace = 0;
};
typedef cublasLtMatmulPreferenceOpaque_t* cublasLtMatmulPreference_t;
struct cublasLtMatmulAlgo_t {
  unsigned long long data[8];
};
struct cublasLtMatmulHeuristicResult_t {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
};

inline cublasStatus_t cublasLtCreate(cublasLtHandle_t* h) { *h = new cublasLtContext(); return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasLtDestroy(cublasLtHandle_t h) { delete h; return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasLtMatrixLayoutInit(cublasLtMatrixLayoutOpaque_t* l, cudaDataType t, unsigned long long rows,
                                               unsigned long long cols, long long ld) {
  *l = cublasLtMatrixLayoutOpaque_t{t, rows, cols, ld};
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* l, cudaDataType t, unsigned long long rows,
                                                 unsigned long long cols, long long ld) {
  *l = new cublasLtMatrixLayoutOpaque_t{t, rows, cols, ld};
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t l) { delete l; return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t l, cublasLtMatrixLayoutAttribute_t a,
                                                       const void* v, size_t) {
  switch (a) {
    case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: l->batch = *static_cast<const int*>(v); break;
    case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: l->stride = *static_cast<const long long*>(v); break;
    case CUBLASLT_MATRIX_LAYOUT_ORDER: l->order = *static_cast<const int*>(v); break;
    default: tgsim_cublas::unsupported("cublasLtMatrixLayoutSetAttribute with this attribute");
  }
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulDescInit(cublasLtMatmulDescOpaque_t* d, cublasComputeType_t c, cudaDataType s) {
  *d = cublasLtMatmulDescOpaque_t{c, s};
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* d, cublasComputeType_t c, cudaDataType s) {
  *d = new cublasLtMatmulDescOpaque_t{c, s};
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t d) { delete d; return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t a,
                                                     const void* v, size_t) {
  switch (a) {
    case CUBLASLT_MATMUL_DESC_TRANSA: d->ta = *static_cast<const cublasOperation_t*>(v); break;
    case CUBLASLT_MATMUL_DESC_TRANSB: d->tb = *static_cast<const cublasOperation_t*>(v); break;
    case CUBLASLT_MATMUL_DESC_EPILOGUE: d->epilogue = *static_cast<const cublasLtEpilogue_t*>(v); break;
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER: d->bias = *static_cast<const void* const*>(v); break;
    case CUBLASLT_MATMUL_DESC_A_SCALE_POINTER: d->a_scale = *static_cast<const float* const*>(v); break;
    case CUBLASLT_MATMUL_DESC_B_SCALE_POINTER: d->b_scale = *static_cast<const float* const*>(v); break;
    case CUBLASLT_MATMUL_DESC_C_SCALE_POINTER: d->c_scale = *static_cast<const float* const*>(v); break;
    case CUBLASLT_MATMUL_DESC_D_SCALE_POINTER: d->d_scale = *static_cast<const float* const*>(v); break;
    case CUBLASLT_MATMUL_DESC_AMAX_D_POINTER: d->amax_d = *static_cast<float* const*>(v); break;
    case CUBLASLT_MATMUL_DESC_FAST_ACCUM: case CUBLASLT_MATMUL_DESC_POINTER_MODE: break;
    case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE: break;
    default: tgsim_cublas::unsupported("cublasLtMatmulDescSetAttribute with this attribute");
  }
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulPreferenceInit(cublasLtMatmulPreferenceOpaque_t* p) {
  *p = cublasLtMatmulPreferenceOpaque_t{};
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* p) {
  *p = new cublasLtMatmulPreferenceOpaque_t();
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t p) { delete p; return CUBLAS_STATUS_SUCCESS; }
inline cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t p,
                                                           cublasLtMatmulPreferenceAttributes_t a, const void* v, size_t) {
  if (a == CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES) p->workspace = *static_cast<const size_t*>(v);
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
                                                     cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                                                     cublasLtMatrixLayout_t, cublasLtMatmulPreference_t, int requested,
                                                     cublasLtMatmulHeuristicResult_t* results, int* returned) {
  if (requested > 0) results[0] = cublasLtMatmulHeuristicResult_t{{}, 0, CUBLAS_STATUS_SUCCESS, 1.0f, {}};
  *returned = requested > 0 ? 1 : 0;
  return CUBLAS_STATUS_SUCCESS;
}

namespace tgsim_cublas {
inline double lt_load(const void* p, cudaDataType t, long i) {
  if (t == CUDA_R_8F_E4M3 || t == CUDA_R_8F_E5M2)
    return tgsim_fp8::to_float(static_cast<const unsigned char*>(p)[i], t == CUDA_R_8F_E4M3 ? __NV_E4M3 : __NV_E5M2);
  return load(p, t, i);
}
inline void lt_store(void* p, cudaDataType t, long i, double v) {
  switch (t) {
    case CUDA_R_32F: static_cast<float*>(p)[i] = static_cast<float>(v); break;
    case CUDA_R_64F: static_cast<double*>(p)[i] = v; break;
    case CUDA_R_16F: static_cast<__half*>(p)[i] = __half(static_cast<float>(v)); break;
    case CUDA_R_16BF: static_cast<__nv_bfloat16*>(p)[i] = __nv_bfloat16(static_cast<float>(v)); break;
    case CUDA_R_32I: static_cast<int*>(p)[i] = static_cast<int>(v); break;
    case CUDA_R_8I: static_cast<signed char*>(p)[i] = static_cast<signed char>(v); break;
    case CUDA_R_8F_E4M3: static_cast<unsigned char*>(p)[i] = tgsim_fp8::from_double(v, __NV_SATFINITE, __NV_E4M3); break;
    case CUDA_R_8F_E5M2: static_cast<unsigned char*>(p)[i] = tgsim_fp8::from_double(v, __NV_SATFINITE, __NV_E5M2); break;
    default: unsupported("cublasLtMatmul with this output type");
  }
}
inline double epilogue(cublasLtEpilogue_t e, double x) {
  if (e == CUBLASLT_EPILOGUE_RELU || e == CUBLASLT_EPILOGUE_RELU_BIAS) return x > 0 ? x : 0;
  if (e == CUBLASLT_EPILOGUE_GELU || e == CUBLASLT_EPILOGUE_GELU_BIAS)
    return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
  return x;
}
}  // namespace tgsim_cublas

// D = epilogue(alpha scaleA scaleB op(A) op(B) + beta scaleC C + bias) * scaleD, per batch.
inline cublasStatus_t cublasLtMatmul(cublasLtHandle_t, cublasLtMatmulDesc_t d, const void* alpha, const void* A,
                                     cublasLtMatrixLayout_t la, const void* B, cublasLtMatrixLayout_t lb,
                                     const void* beta, const void* C, cublasLtMatrixLayout_t lc, void* D,
                                     cublasLtMatrixLayout_t ld, const cublasLtMatmulAlgo_t*, void*, size_t, cudaStream_t) {
  using namespace tgsim_cublas;
  if (la->order != CUBLASLT_ORDER_COL || lb->order != CUBLASLT_ORDER_COL || lc->order != CUBLASLT_ORDER_COL ||
      ld->order != CUBLASLT_ORDER_COL)
    unsupported("cublasLtMatmul with a row-major layout");
  const int m = static_cast<int>(ld->rows), n = static_cast<int>(ld->cols);
  const int k = static_cast<int>(d->ta == CUBLAS_OP_N ? la->cols : la->rows);
  const double a = scalar(alpha, d->scale == CUDA_R_16F ? CUBLAS_COMPUTE_16F : static_cast<int>(d->scale));
  const double b = scalar(beta, d->scale == CUDA_R_16F ? CUBLAS_COMPUTE_16F : static_cast<int>(d->scale));
  const double sa = d->a_scale ? *d->a_scale : 1, sb = d->b_scale ? *d->b_scale : 1;
  const double sc = d->c_scale ? *d->c_scale : 1, sd = d->d_scale ? *d->d_scale : 1;
  const bool bias = d->epilogue == CUBLASLT_EPILOGUE_BIAS || d->epilogue == CUBLASLT_EPILOGUE_RELU_BIAS ||
                    d->epilogue == CUBLASLT_EPILOGUE_GELU_BIAS;
  const bool f64 = accumulator(d->compute) == Acc::F64;
  double amax = 0;
  for (int batch = 0; batch < ld->batch; ++batch)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double s = 0;
        float sf = 0;
        for (int p = 0; p < k; ++p) {
          const double x = lt_load(A, la->type, batch * la->stride + index(d->ta, i, p, static_cast<int>(la->ld)));
          const double y = lt_load(B, lb->type, batch * lb->stride + index(d->tb, p, j, static_cast<int>(lb->ld)));
          if (f64 || accumulator(d->compute) == Acc::I32) s += x * y;
          else sf += static_cast<float>(x) * static_cast<float>(y);
        }
        if (!f64 && accumulator(d->compute) != Acc::I32) s = sf;
        double v = a * sa * sb * s;
        if (b != 0) v += b * sc * lt_load(C, lc->type, batch * lc->stride + i + static_cast<long>(j) * lc->ld);
        if (bias) v += lt_load(d->bias, ld->type == CUDA_R_8F_E4M3 || ld->type == CUDA_R_8F_E5M2 ? CUDA_R_16BF : ld->type, i);
        v = epilogue(d->epilogue, v);
        amax = std::max(amax, std::fabs(v));
        lt_store(D, ld->type, batch * ld->stride + i + static_cast<long>(j) * ld->ld, v * sd);
      }
  if (d->amax_d) *d->amax_d = static_cast<float>(amax), wrote(d->amax_d, sizeof(float));
  if (m > 0 && n > 0) wrote(D, ((ld->batch - 1) * ld->stride + static_cast<long>(n - 1) * ld->ld + m) * bytes_of(ld->type));
  return CUBLAS_STATUS_SUCCESS;
}
