#include "catalog.hpp"

#include <stdexcept>

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
