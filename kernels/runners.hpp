// How each catalog kernel is launched and checked: its inputs (small integers, so every float
// sum is exact and the check is equality), its grid and block, and its CPU reference. Included
// by catalog.cpp only (the entries name these runners).
#pragma once
#include <algorithm>
#include <type_traits>
#include <vector>

#include "catalog.hpp"
#include "kernels.hpp"

namespace tgsim::catalog::runners {


inline LaunchConfig config(const char* name, Dim3 grid, Dim3 block, const RunOptions& opt) {
  LaunchConfig c = opt;
  c.name = name;
  c.grid = grid;
  c.block = block;
  return c;
}

inline std::uint32_t ceil_div(int n, int d) { return static_cast<std::uint32_t>((n + d - 1) / d); }

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
                        kernel, A.data(), B.data(), C.data(), n);
  if (r.report.sampling.on) return r;  // most groups did not run: nothing to check (n^3 work)
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
                        kernel, in.data(), out.data(), n);
  if (r.report.sampling.on) return r;  // most groups did not run: nothing to check
  r.correct = true;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (out[std::size_t(y) * n + x] != in[std::size_t(x) * n + y]) r.correct = false;
  return r;
}


// A launch that ran whole, as a sample of all its groups (intervals of width 0).
inline Sampling exact_sampling(const Report& r) {
  Sampling s;
  s.on = true;
  s.groups_simulated = s.groups_total = r.grid.volume();
  auto add = [&](std::string path, std::uint64_t v) {
    if (v) s.intervals.push_back({std::move(path), double(v), double(v), double(v)});
  };
  Counters::fields([&](const char* path, auto m) {
    using T = std::remove_cvref_t<decltype(r.counters.*m)>;
    if constexpr (std::is_same_v<T, AccessCounters>)
      AccessCounters::fields([&](const char* name, auto f) { add(std::string(path) + "." + name, (r.counters.*m).*f); });
    else if constexpr (std::is_same_v<T, std::uint64_t>)
      add(path, r.counters.*m);
  });
  return s;
}

// Several launches reported as one: counters add up, sites and findings are listed together.
// Sampled launches: groups add up, and so do the intervals of each counter (the sum of the
// launches' counters lies in the sum of their intervals when each lies in its own); a launch
// that ran whole beside a sampled one counts as a sample of all its groups.
inline void append(Report& into, const Report& r) {
  if (into.sampling.on || r.sampling.on) {
    Sampling s = into.sampling.on ? into.sampling : exact_sampling(into);
    const Sampling& t = r.sampling.on ? r.sampling : exact_sampling(r);
    s.automatic = s.automatic || t.automatic;
    s.replicates = std::max(s.replicates, t.replicates);
    s.share_asked = std::max(s.share_asked, t.share_asked);
    s.full_events += t.full_events;
    s.strata += t.strata;
    s.path_splits += t.path_splits;
    s.pilot_groups += t.pilot_groups;
    s.groups_simulated += t.groups_simulated;
    s.groups_total += t.groups_total;
    for (const Sampling::Interval& i : t.intervals) {
      auto it = std::find_if(s.intervals.begin(), s.intervals.end(), [&](const auto& x) { return x.counter == i.counter; });
      if (it == s.intervals.end()) s.intervals.push_back(i);
      else it->estimate += i.estimate, it->low += i.low, it->high += i.high;
    }
    into.sampling = std::move(s);
  }
  into.counters += r.counters;
  if (!into.captured.present) into.captured = r.captured;
  into.sites.insert(into.sites.end(), r.sites.begin(), r.sites.end());
  into.findings.insert(into.findings.end(), r.findings.begin(), r.findings.end());
}

inline float small_value(std::size_t i, int mul, int mod) { return float(int((i * mul + 3) % mod) - mod / 2); }

// Seed 001: relu and add_bias on an n x n matrix, 256 threads per group.
inline Result run_relu(const Device& dev, const RunOptions& opt) {
  const int n = opt.n, total = n * n;
  auto data = dev.alloc<float>(std::size_t(total), "data");
  for (int i = 0; i < total; ++i) data[i] = small_value(i, 7, 13);
  std::vector<float> want(data.begin(), data.end());
  for (float& v : want) v = v > 0.0f ? v : 0.0f;
  Result r;
  r.n = n;
  r.report = dev.launch(config("relu", Dim3(ceil_div(total, 256)), Dim3(256), opt), relu, data.data(), total);
  r.correct = std::equal(want.begin(), want.end(), data.begin());
  return r;
}

inline Result run_add_bias(const Device& dev, const RunOptions& opt) {
  const int n = opt.n, total = n * n;
  auto m = dev.alloc<float>(std::size_t(total), "matrix");
  auto bias = dev.alloc<float>(std::size_t(n), "bias");
  for (int i = 0; i < total; ++i) m[i] = small_value(i, 7, 13);
  for (int j = 0; j < n; ++j) bias[j] = small_value(j, 5, 11);
  std::vector<float> want(m.begin(), m.end());
  for (int i = 0; i < total; ++i) want[i] += bias[i % n];
  Result r;
  r.n = n;
  r.report = dev.launch(config("add_bias", Dim3(ceil_div(total, 256)), Dim3(256), opt), add_bias,
                        m.data(), bias.data(), n, total);
  r.correct = std::equal(want.begin(), want.end(), m.begin());
  return r;
}

// Seed 001's layer ReLU(W x + b): three launches, reported together.
inline Result run_layer(const Device& dev, const RunOptions& opt) {
  const int n = opt.n;
  auto W = dev.alloc<float>(std::size_t(n) * n, "W");
  auto x = dev.alloc<float>(std::size_t(n), "x");
  auto b = dev.alloc<float>(std::size_t(n), "b");
  auto y = dev.alloc<float>(std::size_t(n), "y");
  for (std::size_t i = 0; i < W.size(); ++i) W[i] = small_value(i, 7, 5);
  for (int i = 0; i < n; ++i) {
    x[i] = small_value(i, 3, 7);
    b[i] = small_value(i, 5, 9) * 4.0f;
  }
  Result r;
  r.n = n;
  r.report = dev.launch(config("matvec", Dim3(ceil_div(n, 128)), Dim3(128), opt), matvec, W.data(), x.data(), y.data(), n, n);
  append(r.report, dev.launch(config("add_bias", Dim3(ceil_div(n, 256)), Dim3(256), opt), add_bias, y.data(), b.data(), n, n));
  append(r.report, dev.launch(config("relu", Dim3(ceil_div(n, 256)), Dim3(256), opt), relu, y.data(), n));
  r.report.kernel = "layer_relu";
  r.correct = true;
  for (int i = 0; i < n; ++i) {
    float s = 0.0f;
    for (int k = 0; k < n; ++k) s += W[std::size_t(i) * n + k] * x[k];
    s += b[i];
    if (y[i] != (s > 0.0f ? s : 0.0f)) r.correct = false;
  }
  return r;
}

// Seed 001's 18x18 halo blur on an n x n image; the reference clamps at the edges too.
inline Result run_blur(const Device& dev, const RunOptions& opt) {
  const int n = opt.n;
  auto img = dev.alloc<float>(std::size_t(n) * n, "image");
  auto out = dev.alloc<float>(std::size_t(n) * n, "out");
  for (std::size_t i = 0; i < img.size(); ++i) img[i] = small_value(i, 11, 17);
  Result r;
  r.n = n;
  r.report = dev.launch(config("blur3x3", Dim3(ceil_div(n, 16), ceil_div(n, 16)), Dim3(16, 16), opt),
                        blur3x3, img.data(), out.data(), n, n);
  r.correct = true;
  auto at = [&](int yy, int xx) {
    xx = xx < 0 ? 0 : (xx >= n ? n - 1 : xx);
    yy = yy < 0 ? 0 : (yy >= n ? n - 1 : yy);
    return img[std::size_t(yy) * n + xx];
  };
  for (int yy = 0; yy < n; ++yy)
    for (int xx = 0; xx < n; ++xx) {
      float s = 0.0f;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) s += at(yy + dy, xx + dx);
      if (out[std::size_t(yy) * n + xx] != s / 9.0f) r.correct = false;
    }
  return r;
}

// Seed 000: n elements in groups of 256 (n must be a multiple of 256).
inline Result run_neighbour(const Device& dev, const RunOptions& opt) {
  const int n = opt.n;
  if (n % 256 != 0)
    throw std::invalid_argument("neighbour_sum needs n to be a multiple of 256 (one group of 256 per 256 elements)");
  auto in = dev.alloc<float>(std::size_t(n), "input");
  auto out = dev.alloc<float>(std::size_t(n), "output");
  for (int i = 0; i < n; ++i) in[i] = small_value(i, 7, 101);
  Result r;
  r.n = n;
  r.report = dev.launch(config("neighbour_sum", Dim3(std::uint32_t(n / 256)), Dim3(256), opt), neighbour_sum, in.data(), out.data());
  r.correct = true;
  for (int i = 0; i < n; ++i)
    if (out[i] != in[i] + in[(i / 256) * 256 + (i % 256 + 1) % 256]) r.correct = false;
  return r;
}

// Seed 004: int matmul with dim3(NT, NT) blocks over ceil(n / NT) row blocks.
template <class K>
Result run_int_matmul(const Device& dev, const RunOptions& opt, const char* name, K kernel) {
  const int n = opt.n;
  auto a = dev.alloc<int>(std::size_t(n) * n, "a_dev");
  auto b = dev.alloc<int>(std::size_t(n) * n, "b_dev");
  auto c = dev.alloc<int>(std::size_t(n) * n, "c_dev");
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = int((i * 7 + 3) % 11) - 5;
    b[i] = int((i * 5 + 1) % 7) - 3;
  }
  Result r;
  r.n = n;
  r.report = dev.launch(config(name, Dim3(ceil_div(n, INT_MATMUL_NT)), Dim3(INT_MATMUL_NT, INT_MATMUL_NT), opt),
                        kernel, c.data(), a.data(), b.data(), n);
  if (r.report.sampling.on) return r;  // most groups did not run: nothing to check (n^3 work)
  r.correct = true;
  std::vector<int> row(static_cast<std::size_t>(n));
  for (int i = 0; i < n && r.correct; ++i) {
    std::fill(row.begin(), row.end(), 0);
    for (int k = 0; k < n; ++k) {
      int av = a[std::size_t(i) * n + k];
      for (int j = 0; j < n; ++j) row[j] += av * b[std::size_t(k) * n + j];
    }
    for (int j = 0; j < n; ++j)
      if (c[std::size_t(i) * n + j] != row[j]) r.correct = false;
  }
  return r;
}

// Seed 003: a correlation surface of n floats (a 1024-wide image) with one clear peak.
inline void fill_peak_input(Buffer<float>& src) {
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = float(int((i * 2654435761u) % 1000)) / 1000.0f;
  src[src.size() / 3 + 17] = 5.0f;
}

template <class K>
Result run_block_peak(const Device& dev, const RunOptions& opt, const char* name, K kernel) {
  const int n = opt.n;
  auto src = dev.alloc<float>(std::size_t(n), "src");
  fill_peak_input(src);
  const std::uint32_t blocks = ceil_div(n, 256);
  auto out = dev.alloc<Peak>(blocks, "block_out");
  Result r;
  r.n = n;
  r.report = dev.launch(config(name, Dim3(blocks), Dim3(256), opt), kernel, src.data(), n, out.data());
  r.correct = true;
  for (std::uint32_t b = 0; b < blocks; ++b) {
    int best = int(b * 256);
    for (int i = int(b * 256); i < std::min(n, int(b * 256 + 256)); ++i)
      if (src[i] > src[best]) best = i;
    if (out[b].idx != best || out[b].val != src[best]) r.correct = false;
  }
  return r;
}

// block_peak then final_peak_and_centroid (one group of 1024 threads) on a 1024-wide surface.
template <class K1, class K2>
Result run_peak_centroid(const Device& dev, const RunOptions& opt, const char* name, K1 peak, K2 final) {
  const int n = opt.n, width = 1024, height = (n + width - 1) / width;
  if (n % width != 0) throw std::invalid_argument(std::string(name) + " needs n to be a multiple of 1024 (the surface width)");
  auto src = dev.alloc<float>(std::size_t(n), "corr");
  fill_peak_input(src);
  const std::uint32_t blocks = ceil_div(n, 256);
  auto peaks = dev.alloc<Peak>(blocks, "block_peaks");
  auto out_peak = dev.alloc<Peak>(1, "out_peak");
  auto out_c = dev.alloc<float>(3, "out_centroid");  // m00, m10, m01
  Result r;
  r.n = n;
  r.report = dev.launch(config("block_peak", Dim3(blocks), Dim3(256), opt), peak, src.data(), n, peaks.data());
  append(r.report, dev.launch(config(name, Dim3(1), Dim3(1024), opt), final, peaks.data(), int(blocks),
                              src.data(), width, height, out_peak.data(), out_c.data()));
  r.report.kernel = name;
  int best = 0;
  for (int i = 0; i < n; ++i)
    if (src[i] > src[best]) best = i;
  int px = best % width, py = best / width;
  float m00 = 0, m10 = 0, m01 = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      int x = px + dx, y = py + dy;
      if (x < 0 || x >= width || y < 0 || y >= height) continue;
      float v = src[std::size_t(y) * width + x];
      m00 += v;
      m10 += v * float(x);
      m01 += v * float(y);
    }
  r.correct = out_peak[0].idx == best && out_c[0] == m00 && out_c[1] == m10 && out_c[2] == m01;
  return r;
}

// Block sums of n ints (256 per group).
template <class K>
Result run_block_sum(const Device& dev, const RunOptions& opt, const char* name, K kernel) {
  const int n = opt.n;
  if (n % REDUCE_BLOCK != 0) throw std::invalid_argument(std::string(name) + " needs n to be a multiple of 256");
  auto in = dev.alloc<int>(std::size_t(n), "in");
  auto out = dev.alloc<int>(std::size_t(n / REDUCE_BLOCK), "out");
  for (int i = 0; i < n; ++i) in[i] = int((i * 7 + 1) % 19) - 9;
  Result r;
  r.n = n;
  r.report = dev.launch(config(name, Dim3(std::uint32_t(n / REDUCE_BLOCK)), Dim3(REDUCE_BLOCK), opt), kernel, in.data(), out.data());
  r.correct = true;
  for (int b = 0; b < n / REDUCE_BLOCK; ++b) {
    int s = 0;
    for (int i = 0; i < REDUCE_BLOCK; ++i) s += in[b * REDUCE_BLOCK + i];
    if (out[b] != s) r.correct = false;
  }
  return r;
}

// 256-bin histogram of n bytes: 8 bytes per thread, shared atomics, global merge.
inline Result run_histogram(const Device& dev, const RunOptions& opt) {
  const int n = opt.n;
  auto data = dev.alloc<unsigned char>(std::size_t(n), "data");
  auto hist = dev.alloc<unsigned>(256, "hist");
  for (int i = 0; i < n; ++i) data[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  Result r;
  r.n = n;
  r.report = dev.launch(config("histogram256", Dim3(ceil_div(n, 256 * 8)), Dim3(256), opt), histogram256,
                        data.data(), n, hist.data());
  std::vector<unsigned> want(256, 0);
  for (int i = 0; i < n; ++i) ++want[data[i]];
  r.correct = std::equal(want.begin(), want.end(), hist.begin());
  return r;
}

// Constant memory: a degree-7 polynomial (all lanes read one coefficient at a time) and a
// per-lane coefficient lookup (8 different addresses per warp instruction).
const float kPolyCoeffs[POLY_DEGREE] = {1.0f, -0.5f, 0.25f, 2.0f, -1.0f, 0.125f, 0.5f, -0.25f};
inline void set_poly_coeffs() { upload_poly_coeffs(kPolyCoeffs); }

inline Result run_poly(const Device& dev, const RunOptions& opt) {
  const int n = opt.n;
  set_poly_coeffs();
  auto x = dev.alloc<float>(std::size_t(n), "x");
  auto y = dev.alloc<float>(std::size_t(n), "y");
  for (int i = 0; i < n; ++i) x[i] = float(i % 16) / 8.0f - 1.0f;
  Result r;
  r.n = n;
  r.report = dev.launch(config("poly_eval", Dim3(ceil_div(n, 256)), Dim3(256), opt), poly_eval, x.data(), y.data(), n);
  const float* c = kPolyCoeffs;
  r.correct = true;
  for (int i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (int k = POLY_DEGREE - 1; k >= 0; --k) acc = acc * x[i] + c[k];
    if (y[i] != acc) r.correct = false;
  }
  return r;
}

inline Result run_lane_coeff(const Device& dev, const RunOptions& opt) {
  const int n = opt.n;
  set_poly_coeffs();
  auto y = dev.alloc<float>(std::size_t(n), "y");
  Result r;
  r.n = n;
  r.report = dev.launch(config("lane_coeff", Dim3(ceil_div(n, 256)), Dim3(256), opt), lane_coeff, y.data(), n);
  r.correct = true;
  for (int i = 0; i < n; ++i)
    if (y[i] != kPolyCoeffs[(i % 256) % POLY_DEGREE]) r.correct = false;
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
  r.report = dev.launch(config(name, Dim3(ceil_div(n, int(block))), Dim3(block), opt), kernel,
                        in.data(), out.data(), n);
  r.correct = true;
  for (std::size_t i = 0; i < outputs; ++i)
    if (out[i] != ref(in, i)) r.correct = false;
  return r;
}

inline Result run_neighbor(const Device& d, const RunOptions& o) {
  return run_1d(d, o, "neighbor_nobarrier", 256, std::size_t(o.n), neighbor_nobarrier,
                [n = std::size_t(o.n)](const Buffer<float>& in, std::size_t i) {
                  return i % 256 != 255 && i + 1 < n ? in[i + 1] : 0.0f;
                });
}

inline Result run_divergent(const Device& d, const RunOptions& o) {
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

}  // namespace tgsim::catalog::runners
