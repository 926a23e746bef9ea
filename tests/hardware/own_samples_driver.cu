// CUDA driver for the own-samples fixture (tests/hardware/own_samples_h100.json): builds the very
// same kernels that tgsim runs in tests/frontend_own_samples_test.cpp (tests/frontend/own_samples/,
// written for tgsim) and launches them on a real GPU, with the inputs, sizes and references of
// tests/hardware/own_samples_ref.h.
//
//   nvcc -std=c++17 -arch=sm_90 -O3 -I tests/frontend/own_samples -I tests/hardware \
//        tests/hardware/own_samples_driver.cu -o own_samples_driver
//   own_samples_driver count [--manifest FILE]
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

#include "own_samples_ref.h"

// The kernels, as tgsim compiles them (each file is its own translation unit there).
#include "vector_sum.cu"
#include "tiled_matmul.cu"
#include "transpose_tiles.cu"
#include "block_reduce.cu"
#include "byte_histogram.cu"
#include "separable_filter.cu"
#include "blelloch_scan.cu"

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

void run_vector_sum(Runner& r) {
  std::vector<float> a(kVecN), b(kVecN), want(kVecN);
  for (int i = 0; i < kVecN; ++i) a[i] = vec_a(i), b[i] = vec_b(i), want[i] = a[i] + b[i];
  float *A = r.dev(a), *B = r.dev(b), *C = r.dev_zero<float>(kVecN);
  r.launch(own_vector_sum, dim3((kVecN + kVecBlock - 1) / kVecBlock), dim3(kVecBlock), 0, (const float*)A,
           (const float*)B, C, kVecN);
  r.expect(r.host(C, kVecN), want);
}

void run_tiled_matmul(Runner& r) {
  std::vector<float> a(kMmHA * kMmWA), b(kMmWA * kMmWB);
  for (size_t i = 0; i < a.size(); ++i) a[i] = mm_a(int(i));
  for (size_t i = 0; i < b.size(); ++i) b[i] = mm_b(int(i));
  float *A = r.dev(a), *B = r.dev(b), *C = r.dev_zero<float>(kMmHA * kMmWB);
  r.launch(own_tiled_matmul<kMmTile>, dim3(kMmWB / kMmTile, kMmHA / kMmTile), dim3(kMmTile, kMmTile), 0,
           (const float*)A, (const float*)B, C, kMmWA, kMmWB);
  r.expect(r.host(C, kMmHA * kMmWB), ref_matmul(a, b));
}

template <int K> void run_transpose(Runner& r) {
  void (*const kernels[])(const float*, float*, int) = {own_copy_tiles, own_transpose_direct, own_transpose_tile_bank,
                                                        own_transpose_tile_pad};
  const int n = kTrN;
  std::vector<float> in(n * n), want(n * n);
  for (int i = 0; i < n * n; ++i) in[i] = tr_in(i);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) want[y * n + x] = ref_transpose(K != 0, in, x, y);
  float *I = r.dev(in), *O = r.dev_zero<float>(n * n);
  r.launch(kernels[K], dim3(n / kTile, n / kTile), dim3(kTile, kTileRows), 0, (const float*)I, O, n);
  r.expect(r.host(O, n * n), want);
}

// K: 0 modulo, 1 halving, 2 warp tail, 3 strided (int); the group sums of each. Every launch
// passes GROUP ints of dynamic shared memory (only halving and warp tail use it).
template <int K> void run_reduce(Runner& r) {
  std::vector<int> in(kRedN);
  for (unsigned i = 0; i < kRedN; ++i) in[i] = red_int(i);
  const unsigned T = kRedThreads, blocks = K == 0 ? kRedN / T : K <= 2 ? kRedN / (2 * T) : kRedStridedBlocks;
  int *I = r.dev(in), *O = r.dev_zero<int>(blocks);
  void (*const kernels[])(const int*, int*, unsigned) = {own_reduce_modulo<int, 256>, own_reduce_halving<int, 256>,
                                                         own_reduce_warp_tail<int, 256>, own_reduce_strided<int, 256>};
  r.launch(kernels[K], dim3(blocks), dim3(T), T * sizeof(int), (const int*)I, O, kRedN);
  r.expect(r.host(O, blocks), K == 3 ? ref_strided_sums(kRedN, T, blocks)
                                     : ref_block_sums<int>(red_int, kRedN, kRedN / blocks, blocks));
}

void run_reduce_double(Runner& r) {
  std::vector<double> in(kRedN);
  for (unsigned i = 0; i < kRedN; ++i) in[i] = red_double(i);
  const unsigned T = kRedThreads, blocks = kRedN / (2 * T);
  double *I = r.dev(in), *O = r.dev_zero<double>(blocks);
  r.launch(own_reduce_warp_tail<double, 256>, dim3(blocks), dim3(T), T * sizeof(double), (const double*)I, O, kRedN);
  r.expect(r.host(O, blocks), ref_block_sums<double>(red_double, kRedN, 2 * T, blocks));
}

std::vector<unsigned> hist_input() {
  std::vector<unsigned> w(kHistBytes / 4);
  for (unsigned i = 0; i < w.size(); ++i) w[i] = hist_word(i);
  return w;
}

void run_histogram256(Runner& r) {
  unsigned *D = r.dev(hist_input()), *H = r.dev_zero<unsigned>(256);
  r.launch(own_histogram256, dim3(kHist256Groups), dim3(kHist256Threads), 0, (const unsigned*)D, kHistBytes / 4, H);
  r.expect(r.host(H, 256), ref_histogram(256));
}

void run_histogram64(Runner& r) {
  unsigned* D = r.dev(hist_input());
  unsigned *P = r.dev_zero<unsigned>(kHist64Groups * 64), *H = r.dev_zero<unsigned>(64);
  r.launch(own_histogram64_warps, dim3(kHist64Groups), dim3(kHist64Threads), 0, (const uint4*)D, kHistBytes / 16, P);
  r.launch(own_histogram64_sum, dim3(1), dim3(64), 0, (const unsigned*)P, kHist64Groups, H);
  r.expect(r.host(H, 64), ref_histogram(64));
}

void run_filter(Runner& r) {
  float k[kOwnTaps];
  for (int i = 0; i < kOwnTaps; ++i) k[i] = conv_kernel(i);
  own_set_taps(k);
  const int n = kConvW * kConvH;
  std::vector<float> src(n);
  for (int i = 0; i < n; ++i) src[i] = conv_src(i);
  float *S = r.dev(src), *B = r.dev_zero<float>(n), *D = r.dev_zero<float>(n);
  r.launch(own_filter_rows, dim3(kConvW / kRowOut, kConvH / kRowLines), dim3(32, kRowLines), 0, (const float*)S, B,
           kConvW, kConvH);
  r.launch(own_filter_columns, dim3(kConvW / kColLines, kConvH / kColOut), dim3(kColLines, 16), 0, (const float*)B,
           D, kConvW, kConvH);
  const std::vector<float> rows = ref_conv_rows(src);
  r.expect(r.host(B, n), rows);
  r.expect(r.host(D, n), ref_conv_columns(rows));
}

void run_scan(Runner& r) {
  std::vector<unsigned> in(kScanN);
  for (unsigned i = 0; i < kScanN; ++i) in[i] = scan_in(i);
  const unsigned chunks = kScanN / kScanChunk;
  unsigned *S = r.dev(in), *D = r.dev_zero<unsigned>(kScanN), *T = r.dev_zero<unsigned>(chunks);
  unsigned *O = r.dev_zero<unsigned>(chunks), *G = r.dev_zero<unsigned>(1);
  r.launch(own_scan_chunks, dim3(chunks), dim3(256), 0, (const unsigned*)S, D, T, kScanN);
  r.launch(own_scan_chunks, dim3(1), dim3(256), 0, (const unsigned*)T, O, G, chunks);
  r.launch(own_scan_add_offsets, dim3(chunks), dim3(256), 0, D, (const unsigned*)O);
  r.expect(r.host(D, kScanN), ref_scan_exclusive());
}

struct Entry {
  const char* name;
  void (*run)(Runner&);
};
// Order = launch order = ncu IDs. The names are the keys of own_samples_h100.json's "kernels".
const Entry kEntries[] = {
    {"vector_sum", run_vector_sum},
    {"tiled_matmul16", run_tiled_matmul},
    {"copy_tiles", run_transpose<0>},
    {"transpose_direct", run_transpose<1>},
    {"transpose_tile_bank", run_transpose<2>},
    {"transpose_tile_pad", run_transpose<3>},
    {"reduce_modulo", run_reduce<0>},
    {"reduce_halving", run_reduce<1>},
    {"reduce_warp_tail", run_reduce<2>},
    {"reduce_strided", run_reduce<3>},
    {"reduce_warp_tail_double", run_reduce_double},
    {"histogram256", run_histogram256},
    {"histogram64", run_histogram64},
    {"separable_filter", run_filter},
    {"blelloch_scan", run_scan},
};

std::string json_str(const std::string& s) { return "\"" + s + "\""; }  // names hold no quotes
std::string dim_json(dim3 d) { return fmt("[%u, %u, %u]", d.x, d.y, d.z); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "count") != 0) {
    std::fprintf(stderr, "usage: own_samples_driver count [--manifest FILE]\n");
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
