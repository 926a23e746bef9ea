// CUDA driver for the hardware fixture: builds the very same kernel headers that tgsim runs
// (kernels/*.cu, plain CUDA) and launches them on a real GPU.
//
//   nvcc -std=c++20 -arch=sm_90 -O3 -I kernels -I sim/include tests/hardware/driver.cu -o driver
//
//   driver count [--manifest FILE] [ENTRY...]
//       Runs each entry (all, or the named ones) once, in table order, at its default n: the
//       entry's launcher fills the inputs exactly as kernels/catalog.cpp does, launches one or
//       more kernels, and checks every element of the result against a CPU reference. Writes a
//       JSON manifest: the entries, and every kernel launch in order (tgsim entry name, mangled
//       symbol, n, grid, block, correct, static-SASS expectations). Meant to run under ncu:
//       profiled launch i (ncu "ID" i) is manifest launch i; a multi-launch entry owns several.
//   driver time [ENTRY...]
//       Times every launch of each entry (CUDA events, median of 15 launches after 2 warm-ups)
//       at the entry's time sizes and prints JSON on stdout. Buffers a kernel writes are
//       restored (device-to-device, outside the timed region) before every timed launch, so
//       in-place kernels see the same input each time and the final result can be checked.
//       Results are spot-checked.
//   driver list
//       Prints each entry's name, default n and the mangled symbols it launches.
//
// Adding a kernel: include its header, write a launcher `void run_x(Runner& r, int n)` that
// allocates with r.in / r.inout / r.out, launches with r.launch (one or more times), checks
// with r.mismatches(...), and add one row to entries() below (name, launcher, default n, the
// mangled symbols it launches in order with their expected static SASS, time sizes).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "blur.cu"
#include "buggy.cu"  // warp_reduce_syncwarp (the only non-buggy kernel there)
#include "constant.cu"
#include "histogram.cu"
#include "int_matmul.cu"
#include "layers.cu"
#include "matmul.cu"
#include "neighbour.cu"
#include "peak.cu"
#include "reduce.cu"
#include "transpose.cu"

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

// ---------------------------------------------------------------------------------------------
// Table types
// ---------------------------------------------------------------------------------------------

// Static SASS instructions the source asks for in one kernel: one per source-level access,
// __syncthreads, shuffle, vote or atomic. Written to the manifest; ncu_to_json.py compares
// them with cuobjdump's listing (`one_instruction_per_access`). known = false: no expectation.
// cnst: source-level reads of __constant__ data; each should be one SASS instruction that reads
// the user constant bank c[0x3] (an LDC/ULDC, or a c[0x3][..] operand of an arithmetic
// instruction). Kernel parameters (c[0x0]) are not counted.
struct SourceAccesses {
  int ldg = 0, stg = 0, lds = 0, sts = 0, bar = 0;
  int shfl = 0, vote = 0, atoms = 0, atomg = 0, red = 0;
  int cnst = 0;
  bool known = true;
};
const SourceAccesses kUnknown{.known = false};

// One kernel an entry launches: mangled name (as ncu --print-kernel-base mangled and
// cuobjdump show it, and as cudaFuncGetName returns it) and its expected static SASS.
struct Launched {
  const char* symbol;
  SourceAccesses source;
};

class Runner;
using RunFn = void (*)(Runner&, int n);

struct Entry {
  const char* name;                // tgsim catalog name
  RunFn run;                       // allocates/fills like the catalog, launches, checks, frees
  int default_n;                   // size for `count` (the ncu fixture)
  std::vector<Launched> launches;  // kernels it launches, in order (a multi-launch entry sums them)
  std::vector<int> time_sizes;     // sizes for `time` (empty: not timed)
};

enum class Mode { Count, Time };

constexpr int kWarmup = 2, kReps = 15;

// ---------------------------------------------------------------------------------------------
// Runner: what a launcher talks to (buffers, launches, checks, work for throughput numbers)
// ---------------------------------------------------------------------------------------------

struct LaunchRecord {
  const void* fn = nullptr;
  std::string symbol_runtime;  // cudaFuncGetName (empty if unavailable)
  dim3 grid, block;
  std::vector<float> ms;  // time mode: the kReps timed launches
};

class Runner {
 public:
  explicit Runner(Mode mode) : mode_(mode) {
    if (mode_ == Mode::Time) {
      CHECK(cudaEventCreate(&e0_));
      CHECK(cudaEventCreate(&e1_));
    }
  }
  ~Runner() {
    release();
    if (mode_ == Mode::Time) {
      CHECK(cudaEventDestroy(e0_));
      CHECK(cudaEventDestroy(e1_));
    }
  }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // Count mode checks every element; time mode spot-checks.
  bool full_check() const { return mode_ == Mode::Count; }

  // A buffer no kernel writes.
  template <class T>
  T* in(const std::vector<T>& host) {
    return upload(host, false);
  }
  // A buffer a kernel reads and writes (or whose initial contents matter otherwise).
  template <class T>
  T* inout(const std::vector<T>& host) {
    return upload(host, true);
  }
  // An output buffer, filled with 0xFF bytes (NaN / -1) by a host copy, so that no extra kernel
  // is launched (ncu IDs stay = table launches) and an element left unwritten fails the check.
  template <class T>
  T* out(size_t count) {
    size_t bytes = count * sizeof(T);
    void* d = nullptr;
    CHECK(cudaMalloc(&d, bytes));
    std::vector<unsigned char> junk(bytes, 0xFF);
    CHECK(cudaMemcpy(d, junk.data(), bytes, cudaMemcpyHostToDevice));
    bufs_.push_back({d, bytes, true, nullptr});
    return static_cast<T*>(d);
  }
  template <class T>
  std::vector<T> get(const T* dev, size_t count) {
    std::vector<T> h(count);
    CHECK(cudaMemcpy(h.data(), dev, count * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }

  // Launches kernel k once (count mode) or kWarmup + kReps times (time mode, each timed alone,
  // written buffers restored before each). Arguments are converted to the kernel's parameter
  // types, so `r.launch(relu, grid, block, data, total)` works as in a <<<>>> launch.
  template <class... P, class... A>
  void launch(void (*k)(P...), dim3 grid, dim3 block, A... a) {
    static_assert(sizeof...(P) == sizeof...(A), "wrong number of kernel arguments");
    std::tuple<P...> vals(static_cast<P>(a)...);
    std::apply(
        [&](auto&... v) {
          void* args[] = {static_cast<void*>(&v)..., nullptr};
          do_launch(reinterpret_cast<const void*>(k), grid, block, args);
        },
        vals);
  }

  // Indices to check out of [0, total): all in count mode, `spot` pseudo-random ones in time mode.
  std::vector<size_t> picks(size_t total, size_t spot) const {
    std::vector<size_t> out;
    if (full_check() || spot >= total) {
      out.resize(total);
      for (size_t i = 0; i < total; ++i) out[i] = i;
      return out;
    }
    out.reserve(spot);
    for (size_t s = 0; s < spot; ++s) {
      unsigned long long h = static_cast<unsigned long long>(s) * 0x9E3779B97F4A7C15ull + 12345u;
      h ^= h >> 29;
      out.push_back(static_cast<size_t>(h % total));
    }
    return out;
  }
  void mismatches(long long bad) {
    bad_ += bad;
    checked_ = true;
  }
  // Work per run of the entry, for `time`: flops (or integer ops) and/or bytes moved.
  void work(double ops, double bytes, bool integer_ops = false) {
    ops_ = ops;
    bytes_ = bytes;
    integer_ops_ = integer_ops;
  }

  // Frees every buffer (also done by the destructor).
  void release() {
    for (auto& b : bufs_) {
      if (b.dev) CHECK(cudaFree(b.dev));
      if (b.shadow) CHECK(cudaFree(b.shadow));
    }
    bufs_.clear();
  }

  const std::vector<LaunchRecord>& launches() const { return launches_; }
  long long bad() const { return bad_; }
  bool checked() const { return checked_; }
  double ops() const { return ops_; }
  double bytes() const { return bytes_; }
  bool integer_ops() const { return integer_ops_; }

 private:
  struct Buf {
    void* dev;
    size_t bytes;
    bool written;  // may be written by a kernel: snapshot/restore in time mode
    void* shadow;
  };

  template <class T>
  T* upload(const std::vector<T>& host, bool written) {
    size_t bytes = host.size() * sizeof(T);
    void* d = nullptr;
    CHECK(cudaMalloc(&d, bytes));
    CHECK(cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice));
    bufs_.push_back({d, bytes, written, nullptr});
    return static_cast<T*>(d);
  }

  void do_launch(const void* fn, dim3 grid, dim3 block, void** args) {
    LaunchRecord rec;
    rec.fn = fn;
    rec.grid = grid;
    rec.block = block;
#if CUDART_VERSION >= 12030
    const char* rt_name = nullptr;
    if (cudaFuncGetName(&rt_name, fn) == cudaSuccess && rt_name) rec.symbol_runtime = rt_name;
#endif
    if (mode_ == Mode::Count) {
      CHECK(cudaLaunchKernel(fn, grid, block, args, 0, nullptr));
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
    } else {
      for (auto& b : bufs_)
        if (b.written) {
          if (!b.shadow) CHECK(cudaMalloc(&b.shadow, b.bytes));
          CHECK(cudaMemcpy(b.shadow, b.dev, b.bytes, cudaMemcpyDeviceToDevice));
        }
      for (int rep = 0; rep < kWarmup + kReps; ++rep) {
        for (auto& b : bufs_)
          if (b.written) CHECK(cudaMemcpyAsync(b.dev, b.shadow, b.bytes, cudaMemcpyDeviceToDevice));
        CHECK(cudaEventRecord(e0_));
        CHECK(cudaLaunchKernel(fn, grid, block, args, 0, nullptr));
        CHECK(cudaEventRecord(e1_));
        CHECK(cudaGetLastError());
        CHECK(cudaEventSynchronize(e1_));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, e0_, e1_));
        if (rep >= kWarmup) rec.ms.push_back(t);
      }
    }
    launches_.push_back(std::move(rec));
  }

  Mode mode_;
  cudaEvent_t e0_{}, e1_{};
  std::vector<Buf> bufs_;
  std::vector<LaunchRecord> launches_;
  long long bad_ = 0;
  bool checked_ = false;
  double ops_ = 0, bytes_ = 0;
  bool integer_ops_ = false;
};

// ---------------------------------------------------------------------------------------------
// Launchers. Inputs are small integers, so every float sum is an exact integer and the check
// is equality. The new entries use kernels/catalog.cpp's inputs verbatim.
// ---------------------------------------------------------------------------------------------

unsigned ceil_div(long long n, int d) { return static_cast<unsigned>((n + d - 1) / d); }

// Checks C = A x B (n x n, row-major): in count mode every element against an i-k-j
// reference in Acc, in time mode 512 sampled elements.
template <class T, class Acc>
long long check_matmul(Runner& r, const std::vector<T>& A, const std::vector<T>& B, const T* dC,
                       int n) {
  std::vector<T> C = r.get(dC, static_cast<size_t>(n) * n);
  long long bad = 0;
  if (r.full_check()) {
    std::vector<Acc> row(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      std::fill(row.begin(), row.end(), Acc(0));
      for (int k = 0; k < n; ++k) {
        Acc av = A[static_cast<size_t>(i) * n + k];
        const T* brow = &B[static_cast<size_t>(k) * n];
        for (int j = 0; j < n; ++j) row[j] += av * static_cast<Acc>(brow[j]);
      }
      for (int j = 0; j < n; ++j)
        if (static_cast<Acc>(C[static_cast<size_t>(i) * n + j]) != row[j]) ++bad;
    }
  } else {
    for (size_t e : r.picks(C.size(), 512)) {
      size_t i = e / n, j = e % n;
      Acc ref = 0;
      for (int k = 0; k < n; ++k)
        ref += static_cast<Acc>(A[i * n + k]) * static_cast<Acc>(B[static_cast<size_t>(k) * n + j]);
      if (static_cast<Acc>(C[e]) != ref) ++bad;
    }
  }
  return bad;
}

// matmul_*: A[i] = (7i+3) mod 13 - 6, B[i] = (5i+1) mod 11 - 5; T x T blocks, ceil(n/T)^2 grid.
template <int T>
void run_matmul(Runner& r, int n, void (*kernel)(const float*, const float*, float*, int)) {
  size_t elems = static_cast<size_t>(n) * n;
  std::vector<float> ha(elems), hb(elems);
  for (size_t i = 0; i < elems; ++i) {
    long long ii = static_cast<long long>(i);
    ha[i] = static_cast<float>((ii * 7 + 3) % 13 - 6);
    hb[i] = static_cast<float>((ii * 5 + 1) % 11 - 5);
  }
  const float* a = r.in(ha);
  const float* b = r.in(hb);
  float* c = r.out<float>(elems);
  r.launch(kernel, dim3(ceil_div(n, T), ceil_div(n, T)), dim3(T, T), a, b, c, n);
  r.mismatches(check_matmul<float, double>(r, ha, hb, c, n));
  double nn = n;
  r.work(2.0 * nn * nn * nn, 0);
}
void run_matmul_naive(Runner& r, int n) { run_matmul<16>(r, n, matmul_naive); }
void run_matmul_tiled8(Runner& r, int n) { run_matmul<8>(r, n, matmul_tiled<8>); }
void run_matmul_tiled16(Runner& r, int n) { run_matmul<16>(r, n, matmul_tiled<16>); }
void run_matmul_tiled32(Runner& r, int n) { run_matmul<32>(r, n, matmul_tiled<32>); }

// transpose_*: in[i] = 3i+1 (the catalog uses in[i] = i; values do not change any count);
// 32 x 32 blocks, ceil(n/32)^2 grid.
void run_transpose(Runner& r, int n, void (*kernel)(const int*, int*, int)) {
  size_t elems = static_cast<size_t>(n) * n;
  std::vector<int> hin(elems);
  for (size_t i = 0; i < elems; ++i) hin[i] = static_cast<int>(static_cast<long long>(i) * 3 + 1);
  const int* in = r.in(hin);
  int* out = r.out<int>(elems);
  r.launch(kernel, dim3(ceil_div(n, 32), ceil_div(n, 32)), dim3(32, 32), in, out, n);
  std::vector<int> ho = r.get(out, elems);
  long long bad = 0;
  for (size_t e : r.picks(elems, 1 << 20)) {
    size_t y = e / n, x = e % n;  // out[y][x] = in[x][y]
    if (ho[e] != hin[x * n + y]) ++bad;
  }
  r.mismatches(bad);
  double nn = n;
  r.work(0, 2.0 * 4.0 * nn * nn);
}
void run_transpose_naive(Runner& r, int n) { run_transpose(r, n, transpose_naive); }
void run_transpose_shared(Runner& r, int n) { run_transpose(r, n, transpose_shared); }
void run_transpose_padded(Runner& r, int n) { run_transpose(r, n, transpose_padded); }

// kernels/catalog.cpp's small_value (size_t arithmetic, as there).
float small_value(size_t i, int mul, int mod) {
  return float(int((i * mul + 3) % mod) - mod / 2);
}

// relu: n x n floats, data[i] = small_value(i, 7, 13), in place; 256-thread 1-D groups.
void run_relu(Runner& r, int n) {
  const int total = n * n;
  std::vector<float> h(static_cast<size_t>(total));
  for (int i = 0; i < total; ++i) h[i] = small_value(i, 7, 13);
  float* data = r.inout(h);
  r.launch(relu, dim3(ceil_div(total, 256)), dim3(256), data, total);
  std::vector<float> got = r.get(data, h.size());
  long long bad = 0;
  for (size_t i : r.picks(h.size(), 1 << 20))
    if (got[i] != (h[i] > 0.0f ? h[i] : 0.0f)) ++bad;
  r.mismatches(bad);
  r.work(0, 8.0 * total);
}

// add_bias: matrix[i] = small_value(i, 7, 13) (n x n), bias[j] = small_value(j, 5, 11);
// matrix[i] += bias[i % n]; 256-thread 1-D groups.
void run_add_bias(Runner& r, int n) {
  const int total = n * n;
  std::vector<float> hm(static_cast<size_t>(total)), hb(static_cast<size_t>(n));
  for (int i = 0; i < total; ++i) hm[i] = small_value(i, 7, 13);
  for (int j = 0; j < n; ++j) hb[j] = small_value(j, 5, 11);
  float* m = r.inout(hm);
  const float* bias = r.in(hb);
  r.launch(add_bias, dim3(ceil_div(total, 256)), dim3(256), m, bias, n, total);
  std::vector<float> got = r.get(m, hm.size());
  long long bad = 0;
  for (size_t i : r.picks(hm.size(), 1 << 20))
    if (got[i] != hm[i] + hb[i % n]) ++bad;
  r.mismatches(bad);
  r.work(0, 8.0 * total + 4.0 * n);
}

// layer_relu: y = ReLU(W x + b) as three launches: matvec (128-thread groups), add_bias and
// relu (256-thread groups). W[i] = small_value(i, 7, 5), x[i] = small_value(i, 3, 7),
// b[i] = 4 * small_value(i, 5, 9).
void run_layer_relu(Runner& r, int n) {
  size_t elems = static_cast<size_t>(n) * n;
  std::vector<float> hW(elems), hx(static_cast<size_t>(n)), hb(static_cast<size_t>(n));
  for (size_t i = 0; i < elems; ++i) hW[i] = small_value(i, 7, 5);
  for (int i = 0; i < n; ++i) {
    hx[i] = small_value(i, 3, 7);
    hb[i] = small_value(i, 5, 9) * 4.0f;
  }
  const float* W = r.in(hW);
  const float* x = r.in(hx);
  const float* b = r.in(hb);
  // Written by matvec, then updated in place by add_bias and relu (NaN at first).
  float* y = r.inout(std::vector<float>(static_cast<size_t>(n), std::nanf("")));
  r.launch(matvec, dim3(ceil_div(n, 128)), dim3(128), W, x, y, n, n);
  r.launch(add_bias, dim3(ceil_div(n, 256)), dim3(256), y, b, n, n);
  r.launch(relu, dim3(ceil_div(n, 256)), dim3(256), y, n);
  std::vector<float> got = r.get(y, static_cast<size_t>(n));
  long long bad = 0;
  for (size_t i : r.picks(static_cast<size_t>(n), 4096)) {
    float s = 0.0f;
    for (int k = 0; k < n; ++k) s += hW[i * n + k] * hx[k];
    s += hb[i];
    if (got[i] != (s > 0.0f ? s : 0.0f)) ++bad;
  }
  r.mismatches(bad);
  double nn = n;
  r.work(2.0 * nn * nn, 4.0 * nn * nn);
}

// blur3x3: n x n image, image[i] = small_value(i, 11, 17); 16 x 16 groups, ceil(n/16)^2 grid;
// the reference clamps at the edges.
void run_blur3x3(Runner& r, int n) {
  size_t elems = static_cast<size_t>(n) * n;
  std::vector<float> himg(elems);
  for (size_t i = 0; i < elems; ++i) himg[i] = small_value(i, 11, 17);
  const float* img = r.in(himg);
  float* out = r.out<float>(elems);
  r.launch(blur3x3, dim3(ceil_div(n, 16), ceil_div(n, 16)), dim3(16, 16), img, out, n, n);
  std::vector<float> got = r.get(out, elems);
  auto at = [&](int yy, int xx) {
    xx = xx < 0 ? 0 : (xx >= n ? n - 1 : xx);
    yy = yy < 0 ? 0 : (yy >= n ? n - 1 : yy);
    return himg[static_cast<size_t>(yy) * n + xx];
  };
  long long bad = 0;
  for (size_t e : r.picks(elems, 1 << 20)) {
    int yy = static_cast<int>(e / n), xx = static_cast<int>(e % n);
    float s = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) s += at(yy + dy, xx + dx);
    if (got[e] != s / 9.0f) ++bad;
  }
  r.mismatches(bad);
  r.work(9.0 * static_cast<double>(elems), 8.0 * static_cast<double>(elems));
}

// neighbour_sum: n elements (a multiple of 256), input[i] = small_value(i, 7, 101); n/256
// groups of 256; out[i] = in[i] + in[next in the group, wrapping].
void run_neighbour_sum(Runner& r, int n) {
  if (n % 256 != 0) {
    std::fprintf(stderr, "neighbour_sum needs n to be a multiple of 256\n");
    std::exit(2);
  }
  std::vector<float> hin(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) hin[i] = small_value(i, 7, 101);
  const float* in = r.in(hin);
  float* out = r.out<float>(static_cast<size_t>(n));
  r.launch(neighbour_sum, dim3(static_cast<unsigned>(n / 256)), dim3(256), in, out);
  std::vector<float> got = r.get(out, static_cast<size_t>(n));
  long long bad = 0;
  for (size_t i : r.picks(static_cast<size_t>(n), 1 << 20))
    if (got[i] != hin[i] + hin[(i / 256) * 256 + (i % 256 + 1) % 256]) ++bad;
  r.mismatches(bad);
  r.work(n, 8.0 * n);
}

// int_matmul_*: a[i] = (7i+3) mod 11 - 5, b[i] = (5i+1) mod 7 - 3 (the catalog's values, size_t
// arithmetic as there); dim3(32, 32) blocks, 1-D grid of ceil(n/32); kernel(c, a, b, n).
void run_int_matmul(Runner& r, int n, void (*kernel)(int*, const int*, const int*, int)) {
  size_t elems = static_cast<size_t>(n) * n;
  std::vector<int> ha(elems), hb(elems);
  for (size_t i = 0; i < elems; ++i) {
    ha[i] = int((i * 7 + 3) % 11) - 5;
    hb[i] = int((i * 5 + 1) % 7) - 3;
  }
  const int* a = r.in(ha);
  const int* b = r.in(hb);
  int* c = r.out<int>(elems);
  r.launch(kernel, dim3(ceil_div(n, INT_MATMUL_NT)), dim3(INT_MATMUL_NT, INT_MATMUL_NT), c, a, b, n);
  r.mismatches(check_matmul<int, int>(r, ha, hb, c, n));  // |sums| < 2^31, as on the GPU
  double nn = n;
  r.work(2.0 * nn * nn * nn, 0, true);
}
void run_int_matmul_global(Runner& r, int n) { run_int_matmul(r, n, int_matmul_global); }
void run_int_matmul_shared(Runner& r, int n) { run_int_matmul(r, n, int_matmul_shared); }

// warp_reduce_syncwarp: n floats, in[i] = (i mod 17) - 8; 64-thread groups, ceil(n/64) of them;
// out[b] = sum of block b's 64 inputs (the catalog's run_1d / run_reduce).
void run_warp_reduce_syncwarp(Runner& r, int n) {
  std::vector<float> hin(static_cast<size_t>(n));
  for (size_t i = 0; i < hin.size(); ++i) hin[i] = float(int(i % 17) - 8);
  const size_t blocks = ceil_div(n, 64);
  const float* in = r.in(hin);
  float* out = r.out<float>(blocks);
  r.launch(warp_reduce_syncwarp, dim3(static_cast<unsigned>(blocks)), dim3(64), in, out, n);
  std::vector<float> got = r.get(out, blocks);
  long long bad = 0;
  for (size_t b : r.picks(blocks, 1 << 20)) {
    float s = 0.0f;
    for (size_t i = b * 64; i < std::min(static_cast<size_t>(n), b * 64 + 64); ++i) s += hin[i];
    if (got[b] != s) ++bad;
  }
  r.mismatches(bad);
  r.work(n, 4.0 * n);
}

// Seed 003 (kernels/peak.cu): the catalog's fill_peak_input, a surface of n floats with one
// clear peak: src[i] = ((i * 2654435761) mod 1000) / 1000 in size_t arithmetic (as there),
// src[n/3 + 17] = 5.
std::vector<float> peak_input(int n) {
  std::vector<float> h(static_cast<size_t>(n));
  for (size_t i = 0; i < h.size(); ++i) h[i] = float(int((i * 2654435761u) % 1000)) / 1000.0f;
  h[h.size() / 3 + 17] = 5.0f;
  return h;
}

// block_peak[_reviewed]: 256-thread groups, ceil(n/256) of them, one Peak per group. The
// catalog's check: each block's Peak is its first largest element (index and value).
void run_block_peak(Runner& r, int n, void (*kernel)(const float*, int, Peak*)) {
  std::vector<float> hsrc = peak_input(n);
  const unsigned blocks = ceil_div(n, 256);
  const float* src = r.in(hsrc);
  Peak* out = r.out<Peak>(blocks);
  r.launch(kernel, dim3(blocks), dim3(256), src, n, out);
  std::vector<Peak> got = r.get(out, blocks);
  long long bad = 0;
  for (size_t b : r.picks(blocks, 1 << 20)) {
    int best = int(b * 256);
    for (int i = int(b * 256); i < std::min(n, int(b * 256 + 256)); ++i)
      if (hsrc[i] > hsrc[best]) best = i;
    if (got[b].idx != best || got[b].val != hsrc[best]) ++bad;
  }
  r.mismatches(bad);
  r.work(n, 4.0 * n + 8.0 * blocks);
}
void run_block_peak_plain(Runner& r, int n) { run_block_peak(r, n, block_peak); }
void run_block_peak_reviewed(Runner& r, int n) { run_block_peak(r, n, block_peak_reviewed); }

// peak_centroid[_reviewed]: block_peak[_reviewed] (256-thread groups, ceil(n/256) of them) then
// final_peak_and_centroid[_reviewed] with ONE group of 1024 threads over the block peaks, on a
// 1024-wide surface of n/1024 rows (n a multiple of 1024, as the catalog demands). Checked as the
// catalog does: the overall peak index and the 5x5 moments m00, m10, m01 around it. nvcc contracts
// `m10 += v * x` into an FFMA, so the moments are also accepted when they equal a reference
// computed with fmaf (same order); the log says which reference matched.
void run_peak_centroid(Runner& r, int n, void (*peak)(const float*, int, Peak*),
                       void (*final)(const Peak*, int, const float*, int, int, Peak*, float*)) {
  const int width = 1024, height = (n + width - 1) / width;
  if (n % width != 0) {
    std::fprintf(stderr, "peak_centroid needs n to be a multiple of 1024\n");
    std::exit(2);
  }
  std::vector<float> hsrc = peak_input(n);
  const unsigned blocks = ceil_div(n, 256);
  const float* src = r.in(hsrc);
  Peak* peaks = r.out<Peak>(blocks);
  Peak* out_peak = r.out<Peak>(1);
  float* out_c = r.out<float>(3);  // m00, m10, m01
  r.launch(peak, dim3(blocks), dim3(256), src, n, peaks);
  r.launch(final, dim3(1), dim3(1024), peaks, int(blocks), src, width, height, out_peak, out_c);
  std::vector<Peak> gp = r.get(out_peak, 1);
  std::vector<float> gc = r.get(out_c, 3);
  int best = 0;
  for (int i = 0; i < n; ++i)
    if (hsrc[i] > hsrc[best]) best = i;
  int px = best % width, py = best / width;
  float m00 = 0, m10 = 0, m01 = 0, f00 = 0, f10 = 0, f01 = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      int x = px + dx, y = py + dy;
      if (x < 0 || x >= width || y < 0 || y >= height) continue;
      float v = hsrc[static_cast<size_t>(y) * width + x];
      m00 += v;
      m10 += v * float(x);
      m01 += v * float(y);
      f00 += v;
      f10 = std::fmaf(v, float(x), f10);
      f01 = std::fmaf(v, float(y), f01);
    }
  bool plain = gc[0] == m00 && gc[1] == m10 && gc[2] == m01;
  bool fused = gc[0] == f00 && gc[1] == f10 && gc[2] == f01;
  long long bad = (gp[0].idx != best ? 1 : 0) + (plain || fused ? 0 : 1);
  if (r.full_check())
    std::fprintf(stderr,
                 "peak_centroid: peak %d (want %d); moments %.9g %.9g %.9g match the %s reference "
                 "(plain %.9g %.9g %.9g, fmaf %.9g %.9g %.9g)\n",
                 gp[0].idx, best, gc[0], gc[1], gc[2],
                 plain ? (fused ? "plain and the fmaf" : "plain") : (fused ? "fmaf" : "NO"), m00, m10,
                 m01, f00, f10, f01);
  r.mismatches(bad);
  r.work(n, 4.0 * n + 16.0 * blocks);
}
void run_peak_centroid_plain(Runner& r, int n) {
  run_peak_centroid(r, n, block_peak, final_peak_and_centroid);
}
void run_peak_centroid_reviewed(Runner& r, int n) {
  run_peak_centroid(r, n, block_peak_reviewed, final_peak_and_centroid_reviewed);
}

// reduce_* (kernels/reduce.cu): block sums of n ints (n a multiple of 256), in[i] =
// (7i+1) mod 19 - 9; n/256 groups of 256 threads, one int per group.
void run_block_sum(Runner& r, int n, void (*kernel)(const int*, int*)) {
  if (n % REDUCE_BLOCK != 0) {
    std::fprintf(stderr, "reduce_* needs n to be a multiple of 256\n");
    std::exit(2);
  }
  std::vector<int> hin(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) hin[i] = int((i * 7 + 1) % 19) - 9;
  const unsigned blocks = static_cast<unsigned>(n / REDUCE_BLOCK);
  const int* in = r.in(hin);
  int* out = r.out<int>(blocks);
  r.launch(kernel, dim3(blocks), dim3(REDUCE_BLOCK), in, out);
  std::vector<int> got = r.get(out, blocks);
  long long bad = 0;
  for (size_t b : r.picks(blocks, 1 << 20)) {
    int s = 0;
    for (int i = 0; i < REDUCE_BLOCK; ++i) s += hin[b * REDUCE_BLOCK + i];
    if (got[b] != s) ++bad;
  }
  r.mismatches(bad);
  r.work(n, 4.0 * n, true);
}
void run_reduce_interleaved(Runner& r, int n) { run_block_sum(r, n, reduce_interleaved); }
void run_reduce_sequential(Runner& r, int n) { run_block_sum(r, n, reduce_sequential); }
void run_reduce_shuffle(Runner& r, int n) { run_block_sum(r, n, reduce_shuffle); }

// histogram256 (kernels/histogram.cu): n bytes, data[i] = (i * 2654435761u) >> 13 (32-bit
// unsigned arithmetic, as the catalog's int * unsigned), 256 zeroed bins; grid ceil(n/2048),
// 256 threads (8 bytes per thread). Every bin is checked (in both modes: the bins are restored
// to zero before each timed launch).
void run_histogram256(Runner& r, int n) {
  std::vector<unsigned char> hdata(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) hdata[i] = static_cast<unsigned char>((unsigned(i) * 2654435761u) >> 13);
  const unsigned char* data = r.in(hdata);
  unsigned* hist = r.inout(std::vector<unsigned>(256, 0u));
  r.launch(histogram256, dim3(ceil_div(n, 256 * 8)), dim3(256), data, n, hist);
  std::vector<unsigned> got = r.get(hist, 256);
  std::vector<unsigned> want(256, 0u);
  for (unsigned char b : hdata) ++want[b];
  long long bad = 0;
  for (int b = 0; b < 256; ++b)
    if (got[b] != want[b]) ++bad;
  r.mismatches(bad);
  r.work(n, 1.0 * n, true);
}

// constant.cu: the catalog's set_poly_coeffs(), through cudaMemcpyToSymbol (no kernel launch).
void set_poly_coeffs(float* host_copy) {
  const float c[POLY_DEGREE] = {1.0f, -0.5f, 0.25f, 2.0f, -1.0f, 0.125f, 0.5f, -0.25f};
  CHECK(cudaMemcpyToSymbol(poly_coeffs, c, sizeof c));
  std::memcpy(host_copy, c, sizeof c);
}

// poly_eval: x[i] = (i mod 16)/8 - 1, y = sum c[k] x^k by Horner; 256-thread groups,
// ceil(n/256) of them. nvcc contracts `acc * xi + c[k]` into an FFMA; every value here is a
// short dyadic fraction, so the fused and the plain reference agree (both are accepted).
void run_poly_eval(Runner& r, int n) {
  float c[POLY_DEGREE];
  set_poly_coeffs(c);
  std::vector<float> hx(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) hx[i] = float(i % 16) / 8.0f - 1.0f;
  const float* x = r.in(hx);
  float* y = r.out<float>(static_cast<size_t>(n));
  r.launch(poly_eval, dim3(ceil_div(n, 256)), dim3(256), x, y, n);
  std::vector<float> got = r.get(y, static_cast<size_t>(n));
  long long bad = 0;
  for (size_t i : r.picks(static_cast<size_t>(n), 1 << 20)) {
    float acc = 0.0f, fused = 0.0f;
    for (int k = POLY_DEGREE - 1; k >= 0; --k) {
      acc = acc * hx[i] + c[k];
      fused = std::fmaf(fused, hx[i], c[k]);
    }
    if (got[i] != acc && got[i] != fused) ++bad;
  }
  r.mismatches(bad);
  r.work(2.0 * POLY_DEGREE * n, 8.0 * n);
}

// lane_coeff: y[i] = c[threadIdx.x % 8] = c[(i mod 256) mod 8]; 256-thread groups.
void run_lane_coeff(Runner& r, int n) {
  float c[POLY_DEGREE];
  set_poly_coeffs(c);
  float* y = r.out<float>(static_cast<size_t>(n));
  r.launch(lane_coeff, dim3(ceil_div(n, 256)), dim3(256), y, n);
  std::vector<float> got = r.get(y, static_cast<size_t>(n));
  long long bad = 0;
  for (size_t i : r.picks(static_cast<size_t>(n), 1 << 20))
    if (got[i] != c[(i % 256) % POLY_DEGREE]) ++bad;
  r.mismatches(bad);
  r.work(0, 4.0 * n);
}

// ---------------------------------------------------------------------------------------------
// The table. Order = launch order of `driver count` = ncu IDs; append new entries at the end.
// ---------------------------------------------------------------------------------------------

const std::vector<Entry>& entries() {
  static const SourceAccesses kMatmulNaive{.ldg = 2, .stg = 1};
  static const SourceAccesses kMatmulTiled{.ldg = 2, .stg = 1, .lds = 2, .sts = 2, .bar = 2};
  static const SourceAccesses kTransposeNaive{.ldg = 1, .stg = 1};
  static const SourceAccesses kTransposeTile{.ldg = 1, .stg = 1, .lds = 1, .sts = 1, .bar = 1};
  static const SourceAccesses kMatvec{.ldg = 2, .stg = 1};
  static const SourceAccesses kAddBias{.ldg = 2, .stg = 1};
  static const SourceAccesses kRelu{.ldg = 1, .stg = 1};
  static const Launched kReluL{"_Z4reluPfi", kRelu};
  static const Launched kAddBiasL{"_Z8add_biasPfPKfii", kAddBias};
  // block_peak: src[idx]; warp_val/warp_idx stores and loads; the Peak as one 8-byte store;
  // warp_argmax twice, its loop (not unrolled) shuffling the value and the index.
  static const SourceAccesses kBlockPeak{.ldg = 1, .stg = 1, .lds = 2, .sts = 2, .bar = 1, .shfl = 4};
  static const Launched kBlockPeakL{"_Z10block_peakPKfiP4Peak", kBlockPeak};
  static const Launched kBlockPeakReviewedL{"_Z19block_peak_reviewedPKfiP4Peak", kBlockPeak};
  // in[..]; sdata[tid] = ..; sdata[a] += sdata[b] (2 LDS + 1 STS); sdata[0]; two barriers.
  static const SourceAccesses kTreeReduce{.ldg = 1, .stg = 1, .lds = 3, .sts = 2, .bar = 2};
  static const std::vector<Entry> k = {
      {"matmul_naive", run_matmul_naive, 256, {{"_Z12matmul_naivePKfS0_Pfi", kMatmulNaive}},
       {2048, 4096}},
      {"matmul_tiled8", run_matmul_tiled8, 256, {{"_Z12matmul_tiledILi8EEvPKfS1_Pfi", kMatmulTiled}},
       {2048, 4096}},
      {"matmul_tiled16", run_matmul_tiled16, 256,
       {{"_Z12matmul_tiledILi16EEvPKfS1_Pfi", kMatmulTiled}}, {2048, 4096}},
      {"matmul_tiled32", run_matmul_tiled32, 256,
       {{"_Z12matmul_tiledILi32EEvPKfS1_Pfi", kMatmulTiled}}, {2048, 4096}},
      {"transpose_naive", run_transpose_naive, 1024, {{"_Z15transpose_naivePKiPii", kTransposeNaive}},
       {8192}},
      {"transpose_shared", run_transpose_shared, 1024, {{"_Z16transpose_sharedPKiPii", kTransposeTile}},
       {8192}},
      {"transpose_padded", run_transpose_padded, 1024, {{"_Z16transpose_paddedPKiPii", kTransposeTile}},
       {8192}},
      {"relu", run_relu, 256, {kReluL}, {8192}},
      {"add_bias", run_add_bias, 256, {kAddBiasL}, {8192}},
      {"layer_relu", run_layer_relu, 1024, {{"_Z6matvecPKfS0_Pfii", kMatvec}, kAddBiasL, kReluL},
       {8192}},
      {"blur3x3", run_blur3x3, 512,
       {{"_Z7blur3x3PKfPfii", {.ldg = 1, .stg = 1, .lds = 1, .sts = 1, .bar = 1}}}, {8192}},
      {"neighbour_sum", run_neighbour_sum, 65536,
       {{"_Z13neighbour_sumPKfPf", {.ldg = 1, .stg = 1, .lds = 2, .sts = 1, .bar = 2}}}, {1 << 24}},
      {"int_matmul_global", run_int_matmul_global, 1000,
       {{"_Z17int_matmul_globalPiPKiS1_i", {.ldg = 2, .stg = 1}}}, {2048}},
      {"int_matmul_shared", run_int_matmul_shared, 1000,
       {{"_Z17int_matmul_sharedPiPKiS1_i", {.ldg = 2, .stg = 1, .lds = 2, .sts = 2, .bar = 2}}},
       {2048}},
      {"warp_reduce_syncwarp", run_warp_reduce_syncwarp, 4096,
       {{"_Z20warp_reduce_syncwarpPKfPfi", {.ldg = 1, .stg = 1, .lds = 4, .sts = 3, .bar = 1}}},
       {1 << 24}},
      // Seed 003 peaks, tree reductions, histogram, constant memory (appended: earlier ncu IDs
      // keep their numbers).
      {"block_peak", run_block_peak_plain, 1 << 20, {kBlockPeakL}, {1 << 24}},
      {"block_peak_reviewed", run_block_peak_reviewed, 1 << 20, {kBlockPeakReviewedL}, {1 << 24}},
      {"peak_centroid", run_peak_centroid_plain, 1 << 20,
       {kBlockPeakL,
        {"_Z23final_peak_and_centroidPK4PeakiPKfiiPS_Pf",
         {.ldg = 3, .stg = 4, .lds = 2, .sts = 2, .bar = 2, .shfl = 4}}},
       {1 << 24}},
      {"peak_centroid_reviewed", run_peak_centroid_reviewed, 1 << 20,
       {kBlockPeakReviewedL,
        {"_Z32final_peak_and_centroid_reviewedPK4PeakiPKfiiPS_Pf",
         {.ldg = 2, .stg = 4, .lds = 3, .sts = 3, .bar = 2, .shfl = 4}}},
       {1 << 24}},
      {"reduce_interleaved", run_reduce_interleaved, 1 << 20,
       {{"_Z18reduce_interleavedPKiPi", kTreeReduce}}, {1 << 24}},
      {"reduce_sequential", run_reduce_sequential, 1 << 20,
       {{"_Z17reduce_sequentialPKiPi", kTreeReduce}}, {1 << 24}},
      {"reduce_shuffle", run_reduce_shuffle, 1 << 20,
       {{"_Z14reduce_shufflePKiPi", {.ldg = 1, .stg = 1, .lds = 1, .sts = 1, .bar = 1, .shfl = 2}}},
       {1 << 24}},
      {"histogram256", run_histogram256, 1 << 22,
       {{"_Z12histogram256PKhiPj", {.ldg = 1, .lds = 1, .sts = 1, .bar = 2, .atoms = 1, .red = 1}}},
       {1 << 26}},
      {"poly_eval", run_poly_eval, 1 << 20, {{"_Z9poly_evalPKfPfi", {.ldg = 1, .stg = 1, .cnst = 1}}},
       {1 << 24}},
      {"lane_coeff", run_lane_coeff, 1 << 20, {{"_Z10lane_coeffPfi", {.stg = 1, .cnst = 1}}},
       {1 << 24}},
  };
  return k;
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

const Entry* find_entry(const std::string& name) {
  for (const auto& e : entries())
    if (name == e.name) return &e;
  return nullptr;
}

void usage() {
  std::fprintf(stderr,
               "usage: driver count [--manifest FILE] [ENTRY...]\n"
               "       driver time [ENTRY...]\n"
               "       driver list\n");
}

std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char buf[4096];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

std::string dim_json(dim3 d) { return fmt("[%u, %u, %u]", d.x, d.y, d.z); }

std::string source_json(const SourceAccesses& s) {
  if (!s.known) return "null";
  return fmt("{\"LDG\": %d, \"STG\": %d, \"LDS\": %d, \"STS\": %d, \"BAR\": %d, \"SHFL\": %d, "
             "\"VOTE\": %d, \"ATOMS\": %d, \"ATOMG\": %d, \"RED\": %d, \"CONST\": %d}",
             s.ldg, s.stg, s.lds, s.sts, s.bar, s.shfl, s.vote, s.atoms, s.atomg, s.red, s.cnst);
}

std::string device_json() {
  int dev = 0, drv = 0, rt = 0;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, dev));
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rt));
  return fmt("{\"name\": %s, \"cc\": \"%d.%d\", \"sm_count\": %d, \"l2_bytes\": %d, "
             "\"shared_per_sm_bytes\": %zu, \"global_mem_bytes\": %zu, "
             "\"cuda_driver_version\": %d, \"cuda_runtime_version\": %d}",
             json_str(p.name).c_str(), p.major, p.minor, p.multiProcessorCount, p.l2CacheSize,
             p.sharedMemPerMultiprocessor, p.totalGlobalMem, drv, rt);
}

// Did the entry launch exactly its table symbols, in order? (Empty string: yes.)
std::string symbol_problem(const Entry& e, const Runner& r) {
  const auto& L = r.launches();
  if (L.size() != e.launches.size())
    return fmt("launched %zu kernels, the table lists %zu", L.size(), e.launches.size());
  for (size_t j = 0; j < L.size(); ++j)
    if (!L[j].symbol_runtime.empty() && L[j].symbol_runtime != e.launches[j].symbol)
      return fmt("launch %zu is %s, the table says %s", j, L[j].symbol_runtime.c_str(),
                 e.launches[j].symbol);
  return "";
}

std::vector<const Entry*> choose(int argc, char** argv, int first, bool* ok) {
  std::vector<const Entry*> chosen;
  *ok = true;
  for (int i = first; i < argc; ++i) {
    if (const Entry* e = find_entry(argv[i])) {
      chosen.push_back(e);
    } else {
      std::fprintf(stderr, "unknown entry: %s\n", argv[i]);
      *ok = false;
    }
  }
  if (chosen.empty())
    for (const auto& e : entries()) chosen.push_back(&e);
  return chosen;
}

int cmd_count(int argc, char** argv) {
  std::string manifest_path;
  std::vector<char*> names;
  for (int i = 0; i < argc; ++i) {
    if (std::string(argv[i]) == "--manifest" && i + 1 < argc)
      manifest_path = argv[++i];
    else
      names.push_back(argv[i]);
  }
  bool ok = true;
  auto chosen = choose(static_cast<int>(names.size()), names.data(), 0, &ok);
  if (!ok) {
    usage();
    return 2;
  }

  std::string launches_json, entries_json;
  bool all_ok = true;
  size_t launch_no = 0;
  for (size_t ei = 0; ei < chosen.size(); ++ei) {
    const Entry& e = *chosen[ei];
    const int n = e.default_n;
    Runner r(Mode::Count);
    e.run(r, n);
    r.release();
    std::string problem = symbol_problem(e, r);
    if (!r.checked()) problem += (problem.empty() ? "" : "; ") + std::string("no result check");
    bool correct = r.checked() && r.bad() == 0;
    all_ok = all_ok && correct && problem.empty();
    std::string ids;
    const auto& L = r.launches();
    for (size_t j = 0; j < L.size(); ++j, ++launch_no) {
      const char* symbol = j < e.launches.size() ? e.launches[j].symbol : "?";
      SourceAccesses src = j < e.launches.size() ? e.launches[j].source : kUnknown;
      ids += fmt("%s%zu", j ? ", " : "", launch_no);
      launches_json += fmt(
          "%s    {\"launch\": %zu, \"name\": %s, \"entry_launch\": %zu, \"entry_launches\": %zu, "
          "\"symbol\": %s, \"symbol_runtime\": %s, \"n\": %d, \"grid\": %s, \"block\": %s, "
          "\"correct\": %s, \"mismatches\": %lld, \"source_accesses\": %s}",
          launch_no ? ",\n" : "", launch_no, json_str(e.name).c_str(), j, L.size(),
          json_str(symbol).c_str(),
          L[j].symbol_runtime.empty() ? "null" : json_str(L[j].symbol_runtime).c_str(), n,
          dim_json(L[j].grid).c_str(), dim_json(L[j].block).c_str(), correct ? "true" : "false",
          r.bad(), source_json(src).c_str());
      std::fprintf(stderr, "count %-18s n=%-6d launch %zu/%zu %-32s grid=(%u,%u,%u) block=(%u,%u,%u) %s\n",
                   e.name, n, j + 1, L.size(), symbol, L[j].grid.x, L[j].grid.y, L[j].grid.z,
                   L[j].block.x, L[j].block.y, L[j].block.z, correct ? "correct" : "WRONG");
    }
    entries_json += fmt(
        "%s    {\"name\": %s, \"n\": %d, \"launches\": [%s], \"correct\": %s, \"mismatches\": %lld, "
        "\"problem\": %s}",
        ei ? ",\n" : "", json_str(e.name).c_str(), n, ids.c_str(), correct ? "true" : "false",
        r.bad(), problem.empty() ? "null" : json_str(problem).c_str());
    if (!problem.empty()) std::fprintf(stderr, "count %s: PROBLEM: %s\n", e.name, problem.c_str());
  }
  std::string json = "{\n  \"schema\": 2,\n  \"device\": " + device_json() + ",\n  \"entries\": [\n" +
                     entries_json + "\n  ],\n  \"launches\": [\n" + launches_json + "\n  ]\n}\n";
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

struct Stats {
  double median = 0, min = 0, max = 0;
};
Stats stats(std::vector<float> ms) {
  Stats s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  s.median = ms[ms.size() / 2];
  s.min = ms.front();
  s.max = ms.back();
  return s;
}

int cmd_time(int argc, char** argv) {
  bool ok = true;
  auto chosen = choose(argc, argv, 0, &ok);
  if (!ok) {
    usage();
    return 2;
  }
  std::string json = "{\n  \"device\": " + device_json() +
                     ",\n  \"method\": \"CUDA events around each launch; median (and min/max) of "
                     "15 launches after 2 warm-ups; buffers the kernels write are restored "
                     "device-to-device before each launch, outside the timed region; for a "
                     "multi-launch entry the top-level numbers are sums over its launches; "
                     "default clocks (not locked)\",\n"
                     "  \"kernels\": {\n";
  bool all_ok = true;
  bool first_entry = true;
  for (const Entry* ep : chosen) {
    const Entry& e = *ep;
    if (e.time_sizes.empty()) continue;
    json += std::string(first_entry ? "" : ",\n") + "    " + json_str(e.name) + ": {";
    first_entry = false;
    bool first_size = true;
    for (int n : e.time_sizes) {
      Runner r(Mode::Time);
      e.run(r, n);
      r.release();
      bool spot_ok = r.checked() && r.bad() == 0 && symbol_problem(e, r).empty();
      all_ok = all_ok && spot_ok;
      Stats total;
      std::string per_launch;
      const auto& L = r.launches();
      for (size_t j = 0; j < L.size(); ++j) {
        Stats s = stats(L[j].ms);
        total.median += s.median;
        total.min += s.min;
        total.max += s.max;
        per_launch += fmt("%s{\"symbol\": %s, \"grid\": %s, \"block\": %s, \"ms_median\": %.6f, "
                          "\"ms_min\": %.6f, \"ms_max\": %.6f}",
                          j ? ", " : "",
                          json_str(j < e.launches.size() ? e.launches[j].symbol : "?").c_str(),
                          dim_json(L[j].grid).c_str(), dim_json(L[j].block).c_str(), s.median,
                          s.min, s.max);
      }
      std::string line = fmt("%s\"%d\": {\"ms_median\": %.6f, \"ms_min\": %.6f, \"ms_max\": %.6f",
                             first_size ? "" : ", ", n, total.median, total.min, total.max);
      if (r.ops() > 0 && total.median > 0)
        line += fmt(", \"%s\": %.2f", r.integer_ops() ? "gops" : "gflops",
                    r.ops() / (total.median * 1e-3) / 1e9);
      if (r.bytes() > 0 && total.median > 0)
        line += fmt(", \"gbytes_per_s\": %.2f", r.bytes() / (total.median * 1e-3) / 1e9);
      line += fmt(", \"spot_check_ok\": %s", spot_ok ? "true" : "false");
      if (L.size() > 1) line += ", \"launches\": [" + per_launch + "]";
      line += "}";
      json += line;
      first_size = false;
      std::fprintf(stderr, "time  %-18s n=%-8d median %.4f ms %s\n", e.name, n, total.median,
                   spot_ok ? "ok" : "WRONG");
    }
    json += "}";
  }
  json += "\n  }\n}\n";
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
  if (mode == "time") return cmd_time(argc - 2, argv + 2);
  if (mode == "list") {
    for (const auto& e : entries()) {
      std::printf("%s %d", e.name, e.default_n);
      for (const auto& l : e.launches) std::printf(" %s", l.symbol);
      std::printf("\n");
    }
    return 0;
  }
  usage();
  return 2;
}
