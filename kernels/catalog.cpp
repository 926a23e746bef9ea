#include "catalog.hpp"

#include <algorithm>
#include <stdexcept>

#include "buggy.cuh"
#include "matmul.cuh"
#include "transpose.cuh"

namespace tgsim::catalog {

namespace {

LaunchConfig config(const char* name, Dim3 grid, Dim3 block, const RunOptions& opt) {
  LaunchConfig c;
  c.name = name;
  c.grid = grid;
  c.block = block;
  c.threads = opt.threads;
  c.schedule = opt.schedule;
  c.shuffle_seed = opt.shuffle_seed;
  c.check = opt.check;
  c.report_same_value_waw = opt.report_same_value_waw;
  return c;
}

std::uint32_t ceil_div(int n, int d) { return static_cast<std::uint32_t>((n + d - 1) / d); }

// Small integers: every float sum below is exact, so the check is equality.
template <class K>
Result run_matmul(const Device& dev, const RunOptions& opt, const char* name, int tile, K kernel) {
  const int n = opt.n;
  auto A = dev.alloc<float>(std::size_t(n) * n, "A");
  auto B = dev.alloc<float>(std::size_t(n) * n, "B");
  auto C = dev.alloc<float>(std::size_t(n) * n, "C");
  for (std::size_t i = 0; i < A.size(); ++i) {
    A[i] = float(int((i * 7 + 3) % 13) - 6);
    B[i] = float(int((i * 5 + 1) % 11) - 5);
  }
  Result r;
  r.n = n;
  r.report = dev.launch(config(name, Dim3(ceil_div(n, tile), ceil_div(n, tile)),
                               Dim3(std::uint32_t(tile), std::uint32_t(tile)), opt),
                        kernel, A, B, C, n);
  r.correct = true;
  std::vector<float> row(static_cast<std::size_t>(n));
  for (int i = 0; i < n && r.correct; ++i) {
    std::fill(row.begin(), row.end(), 0.0f);
    for (int k = 0; k < n; ++k) {
      float a = A[std::size_t(i) * n + k];
      const float* b = &B[std::size_t(k) * n];
      for (int j = 0; j < n; ++j) row[j] += a * b[j];
    }
    for (int j = 0; j < n; ++j)
      if (C[std::size_t(i) * n + j] != row[j]) r.correct = false;
  }
  return r;
}

template <class K>
Result run_transpose(const Device& dev, const RunOptions& opt, const char* name, K kernel) {
  const int n = opt.n;
  auto in = dev.alloc<int>(std::size_t(n) * n, "in");
  auto out = dev.alloc<int>(std::size_t(n) * n, "out");
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = int(i);
  Result r;
  r.n = n;
  r.report = dev.launch(config(name, Dim3(ceil_div(n, 32), ceil_div(n, 32)), Dim3(32, 32), opt),
                        kernel, in, out, n);
  r.correct = true;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (out[std::size_t(y) * n + x] != in[std::size_t(x) * n + y]) r.correct = false;
  return r;
}

// 1-D kernels over n floats: out[i] = f(in, i) checked against `ref`.
template <class K, class Ref>
Result run_1d(const Device& dev, const RunOptions& opt, const char* name, std::uint32_t block,
              std::size_t outputs, K kernel, Ref ref) {
  const int n = opt.n;
  auto in = dev.alloc<float>(std::size_t(n), "in");
  auto out = dev.alloc<float>(outputs, "out");
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(int(i % 17) - 8);
  Result r;
  r.n = n;
  r.report = dev.launch(config(name, Dim3(ceil_div(n, int(block))), Dim3(block), opt), kernel, in,
                        out, n);
  r.correct = true;
  for (std::size_t i = 0; i < outputs; ++i)
    if (out[i] != ref(in, i)) r.correct = false;
  return r;
}

Result run_neighbor(const Device& d, const RunOptions& o) {
  return run_1d(d, o, "neighbor_nobarrier", 256, std::size_t(o.n), neighbor_nobarrier,
                [n = std::size_t(o.n)](const Buffer<float>& in, std::size_t i) {
                  return i % 256 != 255 && i + 1 < n ? in[i + 1] : 0.0f;
                });
}

Result run_divergent(const Device& d, const RunOptions& o) {
  return run_1d(d, o, "divergent_barrier", 64, std::size_t(o.n), divergent_barrier,
                [](const Buffer<float>& in, std::size_t i) { return 2.0f * in[i]; });
}

template <class K>
Result run_reduce(const Device& d, const RunOptions& o, const char* name, K kernel) {
  return run_1d(d, o, name, 64, std::size_t(ceil_div(o.n, 64)), kernel,
                [n = std::size_t(o.n)](const Buffer<float>& in, std::size_t b) {
                  float s = 0.0f;
                  for (std::size_t i = b * 64; i < std::min(n, b * 64 + 64); ++i) s += in[i];
                  return s;
                });
}

}  // namespace

const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {"matmul_naive", "matmul", "seed 001: one thread per element, all operands from global memory",
       256, 4096,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_naive", 16, matmul_naive); }},
      {"matmul_tiled8", "matmul", "seed 000: 8x8 tiles of A and B staged in shared memory", 256, 4096,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_tiled8", 8, matmul_tiled<8>); }},
      {"matmul_tiled16", "matmul", "seed 000: 16x16 tiles of A and B staged in shared memory", 256, 4096,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_tiled16", 16, matmul_tiled<16>); }},
      {"matmul_tiled32", "matmul", "seed 000: 32x32 tiles of A and B staged in shared memory", 256, 4096,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_tiled32", 32, matmul_tiled<32>); }},
      {"transpose_naive", "transpose", "seed 002: strided global loads, coalesced stores", 1024, 16384,
       [](const Device& d, const RunOptions& o) { return run_transpose(d, o, "transpose_naive", transpose_naive); }},
      {"transpose_shared", "transpose", "seed 002: through a [32][32] shared tile (column store: 32-way conflict)",
       1024, 16384,
       [](const Device& d, const RunOptions& o) { return run_transpose(d, o, "transpose_shared", transpose_shared); }},
      {"transpose_padded", "transpose", "seed 002: through a padded [32][33] shared tile (conflict-free)", 1024,
       16384,
       [](const Device& d, const RunOptions& o) { return run_transpose(d, o, "transpose_padded", transpose_padded); }},
      {"warp_reduce_syncwarp", "reduce", "a block sum whose last warp steps are ordered by __syncwarp",
       4096, 1 << 24,
       [](const Device& d, const RunOptions& o) { return run_reduce(d, o, "warp_reduce_syncwarp", warp_reduce_syncwarp); }},
      // Deliberately broken kernels (kernels/buggy.cuh), for `tgsim check`; the tour skips them.
      {"matmul_tiled16_nobarrier1", "buggy", "matmul_tiled16 without the first __syncthreads (RAW)", 256, 4096,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_tiled16_nobarrier1", 16, matmul_tiled16_nobarrier1); },
       true},
      {"matmul_tiled16_nobarrier2", "buggy", "matmul_tiled16 without the second __syncthreads (WAR)", 256, 4096,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_tiled16_nobarrier2", 16, matmul_tiled16_nobarrier2); },
       true},
      {"neighbor_nobarrier", "buggy", "seed 000's bad example: a neighbour's shared element read with no barrier",
       1024, 1 << 24, run_neighbor, true},
      {"divergent_barrier", "buggy", "__syncthreads() inside if (threadIdx.x < 16)", 1024, 1 << 24, run_divergent,
       true},
      {"transpose_oob", "buggy", "transpose_naive with an off-by-one load index (out of bounds)", 1024, 16384,
       [](const Device& d, const RunOptions& o) { return run_transpose(d, o, "transpose_oob", transpose_oob); }, true},
      {"warp_reduce_nosync", "buggy", "the classic last-warp unroll of a sum without __syncwarp", 4096, 1 << 24,
       [](const Device& d, const RunOptions& o) { return run_reduce(d, o, "warp_reduce_nosync", warp_reduce_nosync); },
       true},
  };
  return list;
}

const Entry* find(std::string_view name) {
  for (const Entry& e : entries())
    if (e.name == name) return &e;
  return nullptr;
}

Result run(const Device& dev, std::string_view name, const RunOptions& opt) {
  const Entry* e = find(name);
  if (!e) {
    std::string known;
    for (const Entry& k : entries()) known += (known.empty() ? "" : ", ") + k.name;
    throw std::invalid_argument("unknown kernel '" + std::string(name) + "' (known: " + known + ")");
  }
  RunOptions o = opt;
  if (o.n == 0) o.n = e->default_n;
  if (o.n < 1 || o.n > e->max_n)
    throw std::invalid_argument("size " + std::to_string(o.n) + " for " + e->name +
                                " is outside 1.." + std::to_string(e->max_n));
  return e->run(dev, o);
}

}  // namespace tgsim::catalog
