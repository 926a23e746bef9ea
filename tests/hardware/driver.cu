// CUDA driver for the hardware fixture: builds the very same kernel headers that tgsim runs
// (kernels/*.cuh with <tgsim/cuda.hpp> in its nvcc mode) and launches them on a real GPU.
//
//   nvcc -std=c++20 -arch=sm_90 -O3 -I kernels -I sim/include tests/hardware/driver.cu -o driver
//
//   driver count [--manifest FILE] [KERNEL...]
//       Launches each kernel (all, or the named ones) once, in table order, at its default size,
//       checks every result against a CPU reference and writes a JSON manifest (launch order,
//       tgsim name, mangled symbol, n, grid, block, correct, static-SASS expectations).
//       Meant to run under ncu: profiled launch i (ncu "ID" i) is manifest entry i.
//   driver time
//       Times the kernels (CUDA events, median of 15 launches after 2 warm-ups) at the sizes in
//       the table's time_sizes and prints JSON on stdout. Results are spot-checked.
//
// Adding a kernel: include its header and add one row to kKernels below.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "matmul.cuh"
#include "transpose.cuh"

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cudaError_t err_ = (call);                                                         \
    if (err_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,               \
                   cudaGetErrorString(err_));                                          \
      std::exit(2);                                                                    \
    }                                                                                  \
  } while (0)

namespace {

enum class Family { Matmul, Transpose };

using MatmulFn = void (*)(const float*, const float*, float*, int);
using TransposeFn = void (*)(const int*, int*, int);

// Static SASS instructions the source asks for, one per source-level access / __syncthreads.
struct SourceAccesses {
  int ldg, stg, lds, sts, bar;
};

struct KernelEntry {
  const char* name;    // tgsim kernel name
  const char* symbol;  // mangled name, as ncu (--print-kernel-base mangled) and cuobjdump show it
  Family family;
  const void* fn;      // the __global__ function
  int block_x, block_y;
  int default_n;                // size for `count` (the ncu fixture)
  std::vector<int> time_sizes;  // sizes for `time`
  SourceAccesses source;        // expected static SASS per kernel
};

const std::vector<KernelEntry>& kernels() {
  static const std::vector<KernelEntry> k = {
      {"matmul_naive", "_Z12matmul_naivePKfS0_Pfi", Family::Matmul,
       reinterpret_cast<const void*>(static_cast<MatmulFn>(matmul_naive)), 16, 16, 256,
       {2048, 4096}, {2, 1, 0, 0, 0}},
      {"matmul_tiled8", "_Z12matmul_tiledILi8EEvPKfS1_Pfi", Family::Matmul,
       reinterpret_cast<const void*>(static_cast<MatmulFn>(matmul_tiled<8>)), 8, 8, 256,
       {2048, 4096}, {2, 1, 2, 2, 2}},
      {"matmul_tiled16", "_Z12matmul_tiledILi16EEvPKfS1_Pfi", Family::Matmul,
       reinterpret_cast<const void*>(static_cast<MatmulFn>(matmul_tiled<16>)), 16, 16, 256,
       {2048, 4096}, {2, 1, 2, 2, 2}},
      {"matmul_tiled32", "_Z12matmul_tiledILi32EEvPKfS1_Pfi", Family::Matmul,
       reinterpret_cast<const void*>(static_cast<MatmulFn>(matmul_tiled<32>)), 32, 32, 256,
       {2048, 4096}, {2, 1, 2, 2, 2}},
      {"transpose_naive", "_Z15transpose_naivePKiPii", Family::Transpose,
       reinterpret_cast<const void*>(static_cast<TransposeFn>(transpose_naive)), 32, 32, 1024,
       {8192}, {1, 1, 0, 0, 0}},
      {"transpose_shared", "_Z16transpose_sharedPKiPii", Family::Transpose,
       reinterpret_cast<const void*>(static_cast<TransposeFn>(transpose_shared)), 32, 32, 1024,
       {8192}, {1, 1, 1, 1, 1}},
      {"transpose_padded", "_Z16transpose_paddedPKiPii", Family::Transpose,
       reinterpret_cast<const void*>(static_cast<TransposeFn>(transpose_padded)), 32, 32, 1024,
       {8192}, {1, 1, 1, 1, 1}},
  };
  return k;
}

// Inputs: small integers, so every float partial sum is an exact integer (|sum| < 2^24).
float a_value(long long i) { return static_cast<float>((i * 7 + 3) % 13 - 6); }
float b_value(long long i) { return static_cast<float>((i * 5 + 1) % 11 - 5); }
int t_value(long long i) { return static_cast<int>(i * 3 + 1); }

dim3 grid_for(const KernelEntry& k, int n) {
  return dim3((n + k.block_x - 1) / k.block_x, (n + k.block_y - 1) / k.block_y, 1);
}

// Device buffers for one size; reused by every kernel of that size.
struct Buffers {
  int n = 0;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  int *tin = nullptr, *tout = nullptr;
  std::vector<float> ha, hb;
  std::vector<int> hin;
  bool have_matmul = false, have_transpose = false;

  void ensure(Family f, int size) {
    if (size != n) release();
    n = size;
    size_t elems = static_cast<size_t>(n) * n;
    if (f == Family::Matmul && !have_matmul) {
      ha.resize(elems);
      hb.resize(elems);
      for (size_t i = 0; i < elems; ++i) {
        ha[i] = a_value(static_cast<long long>(i));
        hb[i] = b_value(static_cast<long long>(i));
      }
      CHECK(cudaMalloc(&a, elems * sizeof(float)));
      CHECK(cudaMalloc(&b, elems * sizeof(float)));
      CHECK(cudaMalloc(&c, elems * sizeof(float)));
      CHECK(cudaMemcpy(a, ha.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(b, hb.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
      have_matmul = true;
    }
    if (f == Family::Transpose && !have_transpose) {
      hin.resize(elems);
      for (size_t i = 0; i < elems; ++i) hin[i] = t_value(static_cast<long long>(i));
      CHECK(cudaMalloc(&tin, elems * sizeof(int)));
      CHECK(cudaMalloc(&tout, elems * sizeof(int)));
      CHECK(cudaMemcpy(tin, hin.data(), elems * sizeof(int), cudaMemcpyHostToDevice));
      have_transpose = true;
    }
  }
  // Fill the output with a sentinel (NaN / -1) by a host copy, so no extra kernel is launched
  // (ncu IDs stay = table launches) and an unwritten element fails the check.
  void poison_output(Family f) {
    size_t bytes = static_cast<size_t>(n) * n * 4;
    std::vector<unsigned char> junk(bytes, 0xFF);
    CHECK(cudaMemcpy(f == Family::Matmul ? static_cast<void*>(c) : static_cast<void*>(tout),
                     junk.data(), bytes, cudaMemcpyHostToDevice));
  }
  void release() {
    if (a) CHECK(cudaFree(a));
    if (b) CHECK(cudaFree(b));
    if (c) CHECK(cudaFree(c));
    if (tin) CHECK(cudaFree(tin));
    if (tout) CHECK(cudaFree(tout));
    a = b = c = nullptr;
    tin = tout = nullptr;
    ha.clear();
    hb.clear();
    hin.clear();
    have_matmul = have_transpose = false;
    n = 0;
  }
};

void launch(const KernelEntry& k, Buffers& buf) {
  int n = buf.n;
  dim3 grid = grid_for(k, n);
  dim3 block(k.block_x, k.block_y, 1);
  if (k.family == Family::Matmul) {
    const float* a = buf.a;
    const float* b = buf.b;
    float* c = buf.c;
    void* args[] = {&a, &b, &c, &n};
    CHECK(cudaLaunchKernel(k.fn, grid, block, args, 0, nullptr));
  } else {
    const int* in = buf.tin;
    int* out = buf.tout;
    void* args[] = {&in, &out, &n};
    CHECK(cudaLaunchKernel(k.fn, grid, block, args, 0, nullptr));
  }
  CHECK(cudaGetLastError());
}

// Checks the output against the CPU reference: every element when `samples` is 0, else
// `samples` pseudo-random elements. Returns the number of mismatches.
long long check(const KernelEntry& k, Buffers& buf, long long samples) {
  int n = buf.n;
  size_t elems = static_cast<size_t>(n) * n;
  long long bad = 0;
  auto pick = [&](long long s) -> size_t {
    if (samples == 0) return static_cast<size_t>(s);
    unsigned long long h = static_cast<unsigned long long>(s) * 0x9E3779B97F4A7C15ull + 12345u;
    h ^= h >> 29;
    return static_cast<size_t>(h % elems);
  };
  long long count = samples == 0 ? static_cast<long long>(elems) : samples;
  if (k.family == Family::Matmul) {
    std::vector<float> hc(elems);
    CHECK(cudaMemcpy(hc.data(), buf.c, elems * sizeof(float), cudaMemcpyDeviceToHost));
    if (samples == 0) {
      // Full reference, i-k-j order in double (exact here: all values are small integers).
      std::vector<double> ref(elems, 0.0);
      for (int i = 0; i < n; ++i)
        for (int kk = 0; kk < n; ++kk) {
          double av = buf.ha[static_cast<size_t>(i) * n + kk];
          const float* brow = &buf.hb[static_cast<size_t>(kk) * n];
          double* rrow = &ref[static_cast<size_t>(i) * n];
          for (int j = 0; j < n; ++j) rrow[j] += av * brow[j];
        }
      for (size_t e = 0; e < elems; ++e)
        if (static_cast<double>(hc[e]) != ref[e]) ++bad;
    } else {
      for (long long s = 0; s < count; ++s) {
        size_t e = pick(s);
        int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
        double ref = 0.0;
        for (int kk = 0; kk < n; ++kk)
          ref += static_cast<double>(buf.ha[static_cast<size_t>(i) * n + kk]) *
                 buf.hb[static_cast<size_t>(kk) * n + j];
        if (static_cast<double>(hc[e]) != ref) ++bad;
      }
    }
  } else {
    std::vector<int> ho(elems);
    CHECK(cudaMemcpy(ho.data(), buf.tout, elems * sizeof(int), cudaMemcpyDeviceToHost));
    for (long long s = 0; s < count; ++s) {
      size_t e = pick(s);
      size_t y = e / n, x = e % n;  // out[y][x] = in[x][y]
      if (ho[e] != buf.hin[x * n + y]) ++bad;
    }
  }
  return bad;
}

const KernelEntry* find_kernel(const std::string& name) {
  for (const auto& k : kernels())
    if (name == k.name) return &k;
  return nullptr;
}

void usage() {
  std::fprintf(stderr,
               "usage: driver count [--manifest FILE] [KERNEL...]\n"
               "       driver time\n"
               "       driver list\n");
}

std::string json_str(const char* s) {
  std::string out = "\"";
  for (const char* p = s; *p; ++p) {
    if (*p == '"' || *p == '\\') out += '\\';
    out += *p;
  }
  return out + "\"";
}

std::string device_json() {
  int dev = 0, drv = 0, rt = 0;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, dev));
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rt));
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "{\"name\": %s, \"cc\": \"%d.%d\", \"sm_count\": %d, \"l2_bytes\": %d, "
                "\"shared_per_sm_bytes\": %zu, \"global_mem_bytes\": %zu, "
                "\"cuda_driver_version\": %d, \"cuda_runtime_version\": %d}",
                json_str(p.name).c_str(), p.major, p.minor, p.multiProcessorCount, p.l2CacheSize,
                p.sharedMemPerMultiprocessor, p.totalGlobalMem, drv, rt);
  return buf;
}

int cmd_count(int argc, char** argv) {
  std::string manifest_path;
  std::vector<const KernelEntry*> chosen;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--manifest" && i + 1 < argc) {
      manifest_path = argv[++i];
    } else if (const KernelEntry* k = find_kernel(a)) {
      chosen.push_back(k);
    } else {
      std::fprintf(stderr, "unknown kernel or option: %s\n", a.c_str());
      usage();
      return 2;
    }
  }
  if (chosen.empty())
    for (const auto& k : kernels()) chosen.push_back(&k);

  std::string json = "{\n  \"device\": " + device_json() + ",\n  \"launches\": [\n";
  Buffers buf;
  bool all_ok = true;
  for (size_t li = 0; li < chosen.size(); ++li) {
    const KernelEntry& k = *chosen[li];
    buf.ensure(k.family, k.default_n);
    buf.poison_output(k.family);
    launch(k, buf);
    CHECK(cudaDeviceSynchronize());
    long long bad = check(k, buf, 0);
    all_ok = all_ok && bad == 0;
    const char* rt_name = nullptr;
#if CUDART_VERSION >= 12030
    if (cudaFuncGetName(&rt_name, k.fn) != cudaSuccess) rt_name = nullptr;
#endif
    dim3 g = grid_for(k, buf.n);
    char line[1024];
    std::snprintf(
        line, sizeof line,
        "    {\"launch\": %zu, \"name\": %s, \"symbol\": %s, \"symbol_runtime\": %s, \"n\": %d, "
        "\"grid\": [%u, %u, %u], \"block\": [%d, %d, 1], \"correct\": %s, \"mismatches\": %lld, "
        "\"source_accesses\": {\"LDG\": %d, \"STG\": %d, \"LDS\": %d, \"STS\": %d, \"BAR\": "
        "%d}}%s\n",
        li, json_str(k.name).c_str(), json_str(k.symbol).c_str(),
        rt_name ? json_str(rt_name).c_str() : "null", buf.n, g.x, g.y, g.z, k.block_x, k.block_y,
        bad == 0 ? "true" : "false", bad, k.source.ldg, k.source.stg, k.source.lds, k.source.sts,
        k.source.bar, li + 1 < chosen.size() ? "," : "");
    json += line;
    std::fprintf(stderr, "count %-18s n=%-5d grid=(%u,%u) block=(%d,%d) %s\n", k.name, buf.n, g.x,
                 g.y, k.block_x, k.block_y, bad == 0 ? "correct" : "WRONG");
  }
  json += "  ]\n}\n";
  buf.release();
  if (!manifest_path.empty()) {
    FILE* f = std::fopen(manifest_path.c_str(), "w");
    if (!f) {
      std::perror(manifest_path.c_str());
      return 2;
    }
    std::fputs(json.c_str(), f);
    std::fclose(f);
  } else {
    std::fputs(json.c_str(), stdout);
  }
  return all_ok ? 0 : 1;
}

int cmd_time() {
  constexpr int kWarmup = 2, kReps = 15;
  std::string json = "{\n  \"device\": " + device_json() +
                     ",\n  \"method\": \"CUDA events around each launch; median (and min/max) of "
                     "15 launches after 2 warm-ups; default clocks (not locked)\",\n"
                     "  \"kernels\": {\n";
  bool all_ok = true;
  bool first_kernel = true;
  Buffers buf;
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  for (const auto& k : kernels()) {
    if (k.time_sizes.empty()) continue;
    json += std::string(first_kernel ? "" : ",\n") + "    " + json_str(k.name) + ": {";
    first_kernel = false;
    bool first_size = true;
    for (int n : k.time_sizes) {
      buf.ensure(k.family, n);
      buf.poison_output(k.family);
      for (int w = 0; w < kWarmup; ++w) launch(k, buf);
      CHECK(cudaDeviceSynchronize());
      std::vector<float> ms;
      for (int r = 0; r < kReps; ++r) {
        CHECK(cudaEventRecord(e0));
        launch(k, buf);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, e0, e1));
        ms.push_back(t);
      }
      std::vector<float> sorted = ms;
      std::sort(sorted.begin(), sorted.end());
      double med = sorted[sorted.size() / 2];
      long long bad = check(k, buf, k.family == Family::Matmul ? 512 : 1 << 20);
      all_ok = all_ok && bad == 0;
      double nn = static_cast<double>(n);
      char line[512];
      if (k.family == Family::Matmul) {
        std::snprintf(line, sizeof line,
                      "%s\"%d\": {\"ms_median\": %.6f, \"ms_min\": %.6f, \"ms_max\": %.6f, "
                      "\"gflops\": %.2f, \"spot_check_ok\": %s}",
                      first_size ? "" : ", ", n, med, sorted.front(), sorted.back(),
                      2.0 * nn * nn * nn / (med * 1e-3) / 1e9, bad == 0 ? "true" : "false");
      } else {
        std::snprintf(line, sizeof line,
                      "%s\"%d\": {\"ms_median\": %.6f, \"ms_min\": %.6f, \"ms_max\": %.6f, "
                      "\"gbytes_per_s\": %.2f, \"spot_check_ok\": %s}",
                      first_size ? "" : ", ", n, med, sorted.front(), sorted.back(),
                      2.0 * 4.0 * nn * nn / (med * 1e-3) / 1e9, bad == 0 ? "true" : "false");
      }
      json += line;
      first_size = false;
      std::fprintf(stderr, "time  %-18s n=%-5d median %.4f ms %s\n", k.name, n, med,
                   bad == 0 ? "ok" : "WRONG");
    }
    json += "}";
  }
  json += "\n  }\n}\n";
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  buf.release();
  std::fputs(json.c_str(), stdout);
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage();
    return 2;
  }
  std::string mode = argv[1];
  if (mode == "count") return cmd_count(argc - 2, argv + 2);
  if (mode == "time") return cmd_time();
  if (mode == "list") {
    for (const auto& k : kernels()) std::printf("%s %s\n", k.name, k.symbol);
    return 0;
  }
  usage();
  return 2;
}
