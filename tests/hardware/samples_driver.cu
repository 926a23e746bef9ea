// CUDA driver for the cuda-samples fixture (tests/hardware/samples_h100.json): builds the very
// same sample kernels that tgsim runs in tests/frontend_samples_test.cpp (tests/frontend/samples/,
// copied unchanged from NVIDIA/cuda-samples) and launches them on a real GPU, with the inputs,
// sizes and references of tests/hardware/samples_ref.h.
//
//   nvcc -std=c++17 -arch=sm_90 -O3 -I tests/frontend/samples tests/hardware/samples_driver.cu -o samples_driver
//   samples_driver count [--manifest FILE]
//
// Runs every entry once, in table order, checks every element against the CPU reference and
// writes a schema-2 manifest (the format of driver.cu, read by ncu_to_json.py): entries (name,
// launch indices, correct) and every launch in order (mangled symbol from cudaFuncGetName, grid,
// block). Meant to run under ncu: ncu ID i = manifest launch i.
#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "samples_ref.h"

// The sample kernels, as tgsim compiles them (each sample is its own translation unit there).
#include "vectorAdd.cu"
#include "matrixMul.cu"
#include "transpose.cu"
#include "reduction_kernel.cu"
#include "histogram64.cu"
#undef MERGE_THREADBLOCK_SIZE
#include "histogram256.cu"
#include "convolutionSeparable.cu"
#include "scan.cu"

#define CHECK(call)                                                                               \
  do {                                                                                            \
    cudaError_t err_ = (call);                                                                    \
    if (err_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(2);                                                                               \
    }                                                                                             \
  } while (0)

namespace {

std::string fmt(const char* f, ...) {
  char buf[4096];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

struct Launch {
  std::string symbol;
  dim3 grid, block;
};

// What an entry talks to: device buffers, launches, checks.
struct Runner {
  std::vector<Launch> launches;
  std::vector<void*> buffers;
  long long bad = 0;
  bool checked = false;

  template <class T> T* dev(const std::vector<T>& host) {
    T* p = nullptr;
    CHECK(cudaMalloc(&p, host.size() * sizeof(T)));
    CHECK(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    buffers.push_back(p);
    return p;
  }
  template <class T> T* dev_zero(size_t n) { return dev(std::vector<T>(n, T(0))); }
  template <class T> std::vector<T> host(const T* p, size_t n) {
    std::vector<T> h(n);
    CHECK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
  template <class... P, class... A>
  void launch(void (*k)(P...), dim3 grid, dim3 block, size_t shared, A... args) {
    Launch l{"", grid, block};
    const char* name = nullptr;
    if (cudaFuncGetName(&name, reinterpret_cast<const void*>(k)) == cudaSuccess && name) l.symbol = name;
    k<<<grid, block, shared>>>(args...);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    launches.push_back(l);
  }
  template <class T> void expect(const std::vector<T>& got, const std::vector<T>& want) {
    checked = true;
    for (size_t i = 0; i < want.size(); ++i)
      if (!(got[i] == want[i])) {
        if (bad < 5) std::fprintf(stderr, "  mismatch at %zu\n", i);
        ++bad;
      }
  }
  ~Runner() {
    for (void* p : buffers) cudaFree(p);
  }
};

using namespace samples;

void run_vector_add(Runner& r) {
  std::vector<float> a(kVecN), b(kVecN), want(kVecN);
  for (int i = 0; i < kVecN; ++i) a[i] = vec_a(i), b[i] = vec_b(i), want[i] = a[i] + b[i];
  float *A = r.dev(a), *B = r.dev(b), *C = r.dev_zero<float>(kVecN);
  r.launch(vectorAdd, dim3((kVecN + kVecBlock - 1) / kVecBlock), dim3(kVecBlock), 0, (const float*)A,
           (const float*)B, C, kVecN);
  r.expect(r.host(C, kVecN), want);
}

void run_matrix_mul(Runner& r) {
  std::vector<float> a(kMmHA * kMmWA), b(kMmWA * kMmWB);
  for (size_t i = 0; i < a.size(); ++i) a[i] = mm_a(int(i));
  for (size_t i = 0; i < b.size(); ++i) b[i] = mm_b(int(i));
  float *A = r.dev(a), *B = r.dev(b), *C = r.dev_zero<float>(kMmHA * kMmWB);
  r.launch(MatrixMulCUDA<32>, dim3(kMmWB / 32, kMmHA / 32), dim3(32, 32), 0, C, A, B, kMmWA, kMmWB);
  r.expect(r.host(C, kMmHA * kMmWB), ref_matmul(a, b));
}

template <int K> void run_transpose(Runner& r) {
  void (*const kernels[])(float*, float*, int, int) = {copy, copySharedMem, transposeNaive, transposeCoalesced,
                                                       transposeNoBankConflicts, transposeDiagonal,
                                                       transposeFineGrained, transposeCoarseGrained};
  const Tr kind[] = {Tr::kCopy, Tr::kCopy, Tr::kTranspose, Tr::kTranspose, Tr::kTranspose, Tr::kTranspose,
                     Tr::kFineGrained, Tr::kCoarseGrained};
  const int n = kTrN;
  std::vector<float> in(n * n), want(n * n);
  for (int i = 0; i < n * n; ++i) in[i] = tr_in(i);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) want[y * n + x] = ref_transpose(kind[K], in, x, y);
  float *I = r.dev(in), *O = r.dev_zero<float>(n * n);
  r.launch(kernels[K], dim3(n / TILE_DIM, n / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS), 0, O, I, n, n);
  r.expect(r.host(O, n * n), want);
}

template <int K> void run_reduce(Runner& r) {
  std::vector<int> in(kRedN);
  for (unsigned i = 0; i < kRedN; ++i) in[i] = red_int(i);
  const unsigned T = kRedThreads, blocks = K <= 2 ? kRedN / T : K <= 5 ? kRedN / (2 * T) : kRed6Blocks;
  int *I = r.dev(in), *O = r.dev_zero<int>(blocks);
  void (*const kernels[])(int*, int*, unsigned) = {reduce0<int>, reduce1<int>, reduce2<int>, reduce3<int>,
                                                   reduce4<int, 256>, reduce5<int, 256>, reduce6<int, 256, true>};
  r.launch(kernels[K], dim3(blocks), dim3(T), T * sizeof(int), I, O, kRedN);
  r.expect(r.host(O, blocks), K == 6 ? ref_reduce6(kRedN, T, blocks)
                                     : ref_block_sums<int>(red_int, kRedN, kRedN / blocks, blocks));
}

// reduce4<double>: `(i < n) ? g_idata[i] : 0` with an int 0 on a double array.
void run_reduce4_double(Runner& r) {
  std::vector<double> in(kRedN);
  for (unsigned i = 0; i < kRedN; ++i) in[i] = red_double(i);
  const unsigned T = kRedThreads, blocks = kRedN / (2 * T);
  double *I = r.dev(in), *O = r.dev_zero<double>(blocks);
  r.launch(reduce4<double, 256>, dim3(blocks), dim3(T), T * sizeof(double), I, O, kRedN);
  r.expect(r.host(O, blocks), ref_block_sums<double>(red_double, kRedN, 2 * T, blocks));
}

std::vector<unsigned> hist_input() {
  std::vector<unsigned> w(kHistBytes / 4);
  for (unsigned i = 0; i < w.size(); ++i) w[i] = hist_word(i);
  return w;
}

void run_histogram64(Runner& r) {
  unsigned* D = r.dev(hist_input());
  unsigned *P = r.dev_zero<unsigned>(kHist64Count * 64), *H = r.dev_zero<unsigned>(64);
  r.launch(histogram64Kernel, dim3(kHist64Count), dim3(HISTOGRAM64_THREADBLOCK_SIZE), 0, P,
           reinterpret_cast<uint4*>(D), kHistBytes / 16);
  r.launch(mergeHistogram64Kernel, dim3(HISTOGRAM64_BIN_COUNT), dim3(256), 0, H, P, kHist64Count);
  r.expect(r.host(H, 64), ref_histogram(64));
}

void run_histogram256(Runner& r) {
  unsigned* D = r.dev(hist_input());
  unsigned *P = r.dev_zero<unsigned>(kHist256Count * 256), *H = r.dev_zero<unsigned>(256);
  r.launch(histogram256Kernel, dim3(kHist256Count), dim3(HISTOGRAM256_THREADBLOCK_SIZE), 0, P, D, kHistBytes / 4);
  r.launch(mergeHistogram256Kernel, dim3(HISTOGRAM256_BIN_COUNT), dim3(256), 0, H, P, kHist256Count);
  r.expect(r.host(H, 256), ref_histogram(256));
}

void run_convolution(Runner& r) {
  float k[KERNEL_LENGTH];
  for (int i = 0; i < KERNEL_LENGTH; ++i) k[i] = conv_kernel(i);
  setConvolutionKernel(k);
  const int n = kConvW * kConvH;
  std::vector<float> src(n);
  for (int i = 0; i < n; ++i) src[i] = conv_src(i);
  float *S = r.dev(src), *B = r.dev_zero<float>(n), *D = r.dev_zero<float>(n);
  r.launch(convolutionRowsKernel, dim3(kConvW / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X), kConvH / ROWS_BLOCKDIM_Y),
           dim3(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y), 0, B, S, kConvW, kConvH, kConvW);
  r.launch(convolutionColumnsKernel,
           dim3(kConvW / COLUMNS_BLOCKDIM_X, kConvH / (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y)),
           dim3(COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y), 0, D, B, kConvW, kConvH, kConvW);
  const std::vector<float> rows = ref_conv_rows(src);
  r.expect(r.host(B, n), rows);
  r.expect(r.host(D, n), ref_conv_columns(rows));
}

void run_scan(Runner& r) {
  std::vector<unsigned> in(kScanN);
  for (unsigned i = 0; i < kScanN; ++i) in[i] = scan_in(i);
  unsigned *S = r.dev(in), *D = r.dev_zero<unsigned>(kScanN), *B = r.dev_zero<unsigned>(kScanN / 1024);
  const unsigned blocks = kScanN / (4 * THREADBLOCK_SIZE);
  r.launch(scanExclusiveShared, dim3(blocks), dim3(THREADBLOCK_SIZE), 0, reinterpret_cast<uint4*>(D),
           reinterpret_cast<uint4*>(S), 4u * THREADBLOCK_SIZE);
  r.launch(scanExclusiveShared2, dim3((blocks + THREADBLOCK_SIZE - 1) / THREADBLOCK_SIZE), dim3(THREADBLOCK_SIZE), 0,
           B, D, S, blocks, kScanN / (4 * THREADBLOCK_SIZE));
  r.launch(uniformUpdate, dim3(blocks), dim3(THREADBLOCK_SIZE), 0, reinterpret_cast<uint4*>(D), B);
  r.expect(r.host(D, kScanN), ref_scan_exclusive());
}

struct Entry {
  const char* name;
  void (*run)(Runner&);
};
// Order = launch order = ncu IDs. The names are the keys of samples_h100.json's "kernels".
const Entry kEntries[] = {
    {"vectorAdd", run_vector_add},
    {"matrixMul32", run_matrix_mul},
    {"transpose_copy", run_transpose<0>},
    {"transpose_copySharedMem", run_transpose<1>},
    {"transposeNaive", run_transpose<2>},
    {"transposeCoalesced", run_transpose<3>},
    {"transposeNoBankConflicts", run_transpose<4>},
    {"transposeDiagonal", run_transpose<5>},
    {"transposeFineGrained", run_transpose<6>},
    {"transposeCoarseGrained", run_transpose<7>},
    {"reduce0", run_reduce<0>},
    {"reduce1", run_reduce<1>},
    {"reduce2", run_reduce<2>},
    {"reduce3", run_reduce<3>},
    {"reduce4", run_reduce<4>},
    {"reduce5", run_reduce<5>},
    {"reduce6", run_reduce<6>},
    {"reduce4_double", run_reduce4_double},
    {"histogram64", run_histogram64},
    {"histogram256", run_histogram256},
    {"convolutionSeparable", run_convolution},
    {"scan", run_scan},
};

std::string json_str(const std::string& s) { return "\"" + s + "\""; }  // names hold no quotes
std::string dim_json(dim3 d) { return fmt("[%u, %u, %u]", d.x, d.y, d.z); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "count") != 0) {
    std::fprintf(stderr, "usage: samples_driver count [--manifest FILE]\n");
    return 2;
  }
  std::string manifest;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--manifest") == 0) manifest = argv[++i];
  int dev = 0;
  cudaDeviceProp p{};
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaGetDeviceProperties(&p, dev));
  std::string entries, launches;
  size_t launch_no = 0;
  bool all_ok = true;
  for (size_t e = 0; e < sizeof kEntries / sizeof kEntries[0]; ++e) {
    Runner r;
    kEntries[e].run(r);
    const bool correct = r.checked && r.bad == 0;
    all_ok = all_ok && correct;
    std::string ids;
    for (size_t j = 0; j < r.launches.size(); ++j, ++launch_no) {
      const Launch& l = r.launches[j];
      ids += fmt("%s%zu", j ? ", " : "", launch_no);
      launches += fmt("%s    {\"launch\": %zu, \"name\": %s, \"entry_launch\": %zu, \"entry_launches\": %zu, "
                      "\"symbol\": %s, \"symbol_runtime\": %s, \"n\": 0, \"grid\": %s, \"block\": %s, "
                      "\"correct\": %s, \"mismatches\": %lld, \"source_accesses\": null}",
                      launch_no ? ",\n" : "", launch_no, json_str(kEntries[e].name).c_str(), j, r.launches.size(),
                      json_str(l.symbol).c_str(), json_str(l.symbol).c_str(), dim_json(l.grid).c_str(),
                      dim_json(l.block).c_str(), correct ? "true" : "false", r.bad);
      std::fprintf(stderr, "count %-26s launch %zu/%zu %-40s %s\n", kEntries[e].name, j + 1, r.launches.size(),
                   l.symbol.c_str(), correct ? "correct" : "WRONG");
    }
    entries += fmt("%s    {\"name\": %s, \"n\": 0, \"launches\": [%s], \"correct\": %s, \"mismatches\": %lld, "
                   "\"problem\": null}",
                   e ? ",\n" : "", json_str(kEntries[e].name).c_str(), ids.c_str(), correct ? "true" : "false",
                   r.bad);
  }
  const std::string json = "{\n  \"schema\": 2,\n  \"device\": " +
                           fmt("{\"name\": \"%s\", \"cc\": \"%d.%d\", \"sm_count\": %d}", p.name, p.major, p.minor,
                               p.multiProcessorCount) +
                           ",\n  \"entries\": [\n" + entries + "\n  ],\n  \"launches\": [\n" + launches + "\n  ]\n}\n";
  if (!manifest.empty()) {
    FILE* f = std::fopen(manifest.c_str(), "w");
    if (!f) return 2;
    std::fputs(json.c_str(), f);
    std::fclose(f);
  }
  return all_ok ? 0 : 1;
}
