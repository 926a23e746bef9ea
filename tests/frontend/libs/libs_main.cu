// A whole program using the CUDA libraries tgsim writes itself (issue 34): thrust vectors and
// algorithms, cub's two-phase device-wide scan, radix sort and reduce, cuBLAS level 1-3 and
// cublasLt, and a kernel using cub::BlockReduce, each checked against a host computation. With the argument
// "unsupported" it calls a cuBLAS function tgsim does not implement (a one-line error, exit 2).
#include <cub/cub.cuh>
#include <cublasLt.h>
#include <cublas_v2.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

static int checks = 0, wrong = 0;
static void check(bool ok, const char* what) {
  ++checks;
  if (!ok) ++wrong, std::printf("wrong: %s\n", what);
}

// One block of 128 sums its slice of in; out[block] = the sum.
__global__ void block_sums(const int* in, int* out) {
  typedef cub::BlockReduce<int, 128> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  const int sum = Reduce(temp).Sum(in[blockIdx.x * 128 + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

struct IsOdd {
  __host__ __device__ bool operator()(int v) const { return v % 2 != 0; }
};
struct Twice {
  __host__ __device__ int operator()(int v) const { return 2 * v; }
};

static void thrust_and_cub(const std::vector<int>& h) {
  const int n = static_cast<int>(h.size());
  thrust::device_vector<int> d(h.begin(), h.end());
  thrust::sort(d.begin(), d.end());
  std::vector<int> sorted = h;
  std::sort(sorted.begin(), sorted.end());
  thrust::host_vector<int> back = d;
  check(std::equal(back.begin(), back.end(), sorted.begin()), "thrust::sort");
  check(thrust::reduce(d.begin(), d.end()) == std::accumulate(h.begin(), h.end(), 0), "thrust::reduce");
  check(thrust::count_if(thrust::device, d.begin(), d.end(), IsOdd()) == std::count_if(h.begin(), h.end(), IsOdd()),
        "thrust::count_if");
  check(*thrust::max_element(d.begin(), d.end()) == sorted.back(), "thrust::max_element");
  thrust::device_vector<int> twice(n), odd(n), idx(n);
  thrust::transform(d.begin(), d.end(), twice.begin(), Twice());
  check(twice[n - 1] == 2 * sorted.back(), "thrust::transform");
  const int odds = static_cast<int>(thrust::copy_if(d.begin(), d.end(), odd.begin(), IsOdd()) - odd.begin());
  check(odds == std::count_if(h.begin(), h.end(), IsOdd()), "thrust::copy_if");
  thrust::device_vector<int> keys(h.begin(), h.end());
  thrust::sequence(idx.begin(), idx.end());
  thrust::sort_by_key(keys.begin(), keys.end(), idx.begin());
  bool by_key = true;
  for (int i = 0; i < n; ++i) by_key &= h[idx[i]] == sorted[i] && (i == 0 || keys[i - 1] != keys[i] || idx[i - 1] < idx[i]);
  check(by_key, "thrust::sort_by_key (stable)");

  // cub: the two-phase exclusive sum of the sorted keys, then a kernel's block sums of it.
  int* raw = thrust::raw_pointer_cast(d.data());
  int *scan = nullptr, *sums = nullptr;
  cudaMalloc(&scan, n * sizeof(int));
  cudaMalloc(&sums, (n / 128) * sizeof(int));
  void* temp = nullptr;
  size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(temp, bytes, raw, scan, n);
  check(bytes > 0, "cub temp size");
  cudaMalloc(&temp, bytes);
  cub::DeviceScan::ExclusiveSum(temp, bytes, raw, scan, n);
  std::vector<int> hscan(n), want(n);
  cudaMemcpy(hscan.data(), scan, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::exclusive_scan(sorted.begin(), sorted.end(), want.begin(), 0);
  check(hscan == want, "cub::DeviceScan::ExclusiveSum");
  block_sums<<<n / 128, 128>>>(scan, sums);
  std::vector<int> hsums(n / 128);
  cudaMemcpy(hsums.data(), sums, hsums.size() * sizeof(int), cudaMemcpyDeviceToHost);
  bool blocks = true;
  for (int b = 0; b < n / 128; ++b) blocks &= hsums[b] == std::accumulate(want.begin() + 128 * b, want.begin() + 128 * (b + 1), 0);
  check(blocks, "cub::BlockReduce in a kernel");
  int* total = nullptr;
  cudaMalloc(&total, sizeof(int));
  cub::DeviceReduce::Sum(nullptr, bytes, raw, total, n);
  cub::DeviceReduce::Sum(temp, bytes, raw, total, n);
  check(*total == std::accumulate(h.begin(), h.end(), 0), "cub::DeviceReduce::Sum");
  int *kout = nullptr;
  cudaMalloc(&kout, n * sizeof(int));
  thrust::device_vector<int> unsorted(h.begin(), h.end());
  cub::DeviceRadixSort::SortKeysDescending(temp, bytes, thrust::raw_pointer_cast(unsorted.data()), kout, n);
  check(kout[0] == sorted.back() && kout[n - 1] == sorted.front(), "cub::DeviceRadixSort::SortKeysDescending");
  // Run-length encoding of the sorted keys, with buffers from the CachingDeviceAllocator.
  cub::CachingDeviceAllocator alloc;
  int *unique = nullptr, *lengths = nullptr, *runs = nullptr;
  alloc.DeviceAllocate(reinterpret_cast<void**>(&unique), n * sizeof(int));
  alloc.DeviceAllocate(reinterpret_cast<void**>(&lengths), n * sizeof(int));
  alloc.DeviceAllocate(reinterpret_cast<void**>(&runs), sizeof(int));
  cub::DeviceRunLengthEncode::Encode(temp, bytes, raw, unique, lengths, runs, n);
  const int want_runs = static_cast<int>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
  check(*runs == want_runs && unique[want_runs - 1] == sorted[want_runs - 1] &&
            std::accumulate(lengths, lengths + *runs, 0) == n,
        "cub::DeviceRunLengthEncode::Encode");
  alloc.DeviceFree(unique), alloc.DeviceFree(lengths), alloc.DeviceFree(runs);
  cudaFree(temp), cudaFree(scan), cudaFree(sums), cudaFree(total), cudaFree(kout);
}

// C (m x n) = A (k x m)^T B (k x n), column-major, against a host loop; then axpy, dot, nrm2.
static void cublas_checks() {
  const int m = 5, n = 4, k = 3;
  std::vector<float> a(k * m), b(k * n), c(m * n, 1.0f), want(m * n);
  for (int i = 0; i < k * m; ++i) a[i] = float(i % 7 - 3);
  for (int i = 0; i < k * n; ++i) b[i] = float(i % 5 - 2);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float s = 0;
      for (int p = 0; p < k; ++p) s += a[p + i * k] * b[p + j * k];
      want[i + j * m] = 2.0f * s + 0.5f * c[i + j * m];
    }
  float *da, *db, *dc;
  cudaMalloc(&da, a.size() * 4), cudaMalloc(&db, b.size() * 4), cudaMalloc(&dc, c.size() * 4);
  cublasSetMatrix(k, m, 4, a.data(), k, da, k);
  cublasSetMatrix(k, n, 4, b.data(), k, db, k);
  cudaMemcpy(dc, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
  cublasHandle_t h;
  check(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
  const float alpha = 2.0f, beta = 0.5f;
  cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, da, k, db, k, &beta, dc, m);
  std::vector<float> got(m * n);
  cublasGetMatrix(m, n, 4, dc, m, got.data(), m);
  check(got == want, "cublasSgemm");
  float dot = 0, norm = 0;
  cublasSaxpy(h, 3, &alpha, da, 1, db, 1);  // b[0..2] += 2 a[0..2]
  cublasSdot(h, 3, da, 1, db, 1, &dot);
  const float want_dot = a[0] * (b[0] + 2 * a[0]) + a[1] * (b[1] + 2 * a[1]) + a[2] * (b[2] + 2 * a[2]);
  check(dot == want_dot, "cublasSaxpy + cublasSdot");
  float three_four[2] = {3, 4};
  cudaMemcpy(da, three_four, 8, cudaMemcpyHostToDevice);
  cublasSnrm2(h, 2, da, 1, &norm);
  check(norm == 5.0f, "cublasSnrm2");
  int at = 0;
  cublasIsamax(h, 2, da, 1, &at);
  check(at == 2, "cublasIsamax (1-based)");
  // LU with pivoting of [[2, 1], [4, 3]] and of a singular [[1, 2], [2, 4]] (column-major).
  float lu[8] = {2, 4, 1, 3, 1, 2, 2, 4};
  float* dlu;
  int *dpiv, *dinfo;
  cudaMalloc(&dlu, sizeof(lu)), cudaMalloc(&dpiv, 4 * sizeof(int)), cudaMalloc(&dinfo, 2 * sizeof(int));
  cudaMemcpy(dlu, lu, sizeof(lu), cudaMemcpyHostToDevice);
  float* mats[2] = {dlu, dlu + 4};
  float** dmats;
  cudaMalloc(&dmats, sizeof(mats));
  cudaMemcpy(dmats, mats, sizeof(mats), cudaMemcpyHostToDevice);
  cublasSgetrfBatched(h, 2, dmats, 2, dpiv, dinfo, 2);
  int piv[4], info[2];
  cudaMemcpy(lu, dlu, sizeof(lu), cudaMemcpyDeviceToHost);
  cudaMemcpy(piv, dpiv, sizeof(piv), cudaMemcpyDeviceToHost);
  cudaMemcpy(info, dinfo, sizeof(info), cudaMemcpyDeviceToHost);
  check(lu[0] == 4 && lu[1] == 0.5f && lu[2] == 3 && lu[3] == -0.5f && piv[0] == 2 && piv[1] == 2 && info[0] == 0 &&
            info[1] == 2,
        "cublasSgetrfBatched");
  cudaFree(dlu), cudaFree(dpiv), cudaFree(dinfo), cudaFree(dmats);
  cublasDestroy(h);
  cudaFree(da), cudaFree(db), cudaFree(dc);
}

// cublasLt: D (3 x 2) = relu(A (3 x 4) B (4 x 2) + bias), column-major, against a host loop.
static void cublaslt_checks() {
  const int m = 3, n = 2, k = 4;
  std::vector<float> a(m * k), b(k * n), bias = {-100.0f, 0.5f, 1.0f}, want(m * n), got(m * n);
  for (int i = 0; i < m * k; ++i) a[i] = float(i - 5);
  for (int i = 0; i < k * n; ++i) b[i] = float(3 - i);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float s = 0;
      for (int p = 0; p < k; ++p) s += a[i + p * m] * b[p + j * k];
      want[i + j * m] = std::max(s + bias[i], 0.0f);
    }
  float *da, *db, *dbias, *dd;
  cudaMalloc(&da, a.size() * 4), cudaMalloc(&db, b.size() * 4), cudaMalloc(&dbias, 12), cudaMalloc(&dd, got.size() * 4);
  cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dbias, bias.data(), 12, cudaMemcpyHostToDevice);
  cublasLtHandle_t h;
  cublasLtCreate(&h);
  cublasLtMatmulDesc_t desc;
  cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  const cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_RELU_BIAS;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dbias, sizeof(dbias));
  cublasLtMatrixLayout_t la, lb, ld;
  cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, m, k, m);
  cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, k, n, k);
  cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, m, n, m);
  const float one = 1.0f, zero = 0.0f;
  cublasLtMatmul(h, desc, &one, da, la, db, lb, &zero, dd, ld, dd, ld, nullptr, nullptr, 0, nullptr);
  cudaMemcpy(got.data(), dd, got.size() * 4, cudaMemcpyDeviceToHost);
  check(got == want, "cublasLtMatmul RELU_BIAS");
  cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb), cublasLtMatrixLayoutDestroy(ld);
  cublasLtMatmulDescDestroy(desc);
  cublasLtDestroy(h);
  cudaFree(da), cudaFree(db), cudaFree(dbias), cudaFree(dd);
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "unsupported") == 0) {
    cublasHandle_t h;
    cublasCreate(&h);
    cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 1, 1, nullptr, nullptr, 1,
                nullptr, 1);
    std::printf("not reached\n");
    return 0;
  }
  std::vector<int> h(1024);
  unsigned x = 12345;
  for (int& v : h) v = static_cast<int>((x = x * 1103515245u + 12345u) >> 20) % 1000;
  thrust_and_cub(h);
  cublas_checks();
  cublaslt_checks();
  std::printf("libs_main: %d checks, %d wrong\n", checks, wrong);
  return wrong ? 1 : 0;
}
