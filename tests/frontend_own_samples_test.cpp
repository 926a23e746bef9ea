// Kernels written for tgsim (tests/frontend/own_samples/) exercising the idioms of everyday CUDA
// code: an element-wise sum with a partial last warp, a tiled matmul template, four transposes
// (copy, direct, shared tile with and without padding), four reductions (divergent tree,
// halving tree, shuffle tail in int and double, grid-stride with warp shuffles), shared-memory
// histograms with shared and global atomics and 16-byte loads, a separable convolution with halo
// loads and constant taps, and a work-efficient scan. They run at the sizes and with the inputs
// of tests/hardware/own_samples_ref.h. Each result is checked against a CPU reference (exact: the
// inputs keep every float sum exact), and each launch's counters against what Nsight Compute
// counted for the same launch on an H100 (tests/hardware/own_samples_h100.json, recorded by
// tests/hardware/record_own_samples.sh with tests/hardware/own_samples_driver.cu). Every counter
// is equal, except the differences listed in kExpectedDifferences, each with its measured value
// on both sides and its cause.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <tgsim/tgsim.hpp>

#include "own_samples_ref.h"

struct uint4;  // CUDA's (tgsim/kernel/cuda_vector_types.h): only passed through here
using uint = unsigned int;

// The kernels (compiled by the front end from tests/frontend/own_samples/).
void own_vector_sum(const float* lhs, const float* rhs, float* total, int count);
template <int EDGE> void own_tiled_matmul(const float*, const float*, float*, int, int);
void own_copy_tiles(const float* src, float* dst, int side);
void own_transpose_direct(const float* src, float* dst, int side);
void own_transpose_tile_bank(const float* src, float* dst, int side);
void own_transpose_tile_pad(const float* src, float* dst, int side);
template <class T, int GROUP> void own_reduce_modulo(const T*, T*, unsigned);
template <class T, int GROUP> void own_reduce_halving(const T*, T*, unsigned);
template <class T, int GROUP> void own_reduce_warp_tail(const T*, T*, unsigned);
template <class T, int GROUP> void own_reduce_strided(const T*, T*, unsigned);
void own_histogram256(const uint* words, uint count, uint* hist);
void own_histogram64_warps(const uint4* quads, uint count, uint* partials);
void own_histogram64_sum(const uint* partials, uint groups, uint* hist);
extern "C" void own_set_taps(const float* taps);
void own_filter_rows(const float* src, float* dst, int width, int height);
void own_filter_columns(const float* src, float* dst, int width, int height);
void own_scan_chunks(const uint* in, uint* out, uint* totals, uint n);
void own_scan_add_offsets(uint* data, const uint* offsets);

namespace {

using namespace samples;

// One entry of the fixture: its launches' reports, in order, and whether every result was right.
struct SampleRun {
  std::vector<tgsim::Report> launches;
  long long bad = 0;
  bool checked = false;
  template <class T, class U> void expect(const T* got, const std::vector<U>& want) {
    checked = true;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (!(got[i] == want[i])) ++bad;
  }
};

template <class T> tgsim::Buffer<T> fill(tgsim::Device& dev, std::size_t n, const char* name, auto f) {
  tgsim::Buffer<T> b = dev.alloc<T>(n, name);
  for (std::size_t i = 0; i < n; ++i) b[i] = f(i);
  return b;
}

SampleRun run_vector_sum() {
  tgsim::Device dev;
  auto a = fill<float>(dev, kVecN, "lhs", [](std::size_t i) { return vec_a(int(i)); });
  auto b = fill<float>(dev, kVecN, "rhs", [](std::size_t i) { return vec_b(int(i)); });
  auto c = dev.alloc<float>(kVecN, "total");
  SampleRun r;
  r.launches.push_back(tgsim::launch(own_vector_sum, tgsim::Dim3((kVecN + kVecBlock - 1) / kVecBlock),
                                     tgsim::Dim3(kVecBlock), 0, a.data(), b.data(), c.data(), kVecN));
  std::vector<float> want(kVecN);
  for (int i = 0; i < kVecN; ++i) want[i] = a[i] + b[i];
  r.expect(c.data(), want);
  return r;
}

SampleRun run_tiled_matmul() {
  tgsim::Device dev;
  auto a = fill<float>(dev, kMmHA * kMmWA, "left", [](std::size_t i) { return mm_a(int(i)); });
  auto b = fill<float>(dev, kMmWA * kMmWB, "right", [](std::size_t i) { return mm_b(int(i)); });
  auto c = dev.alloc<float>(kMmHA * kMmWB, "out");
  SampleRun r;
  r.launches.push_back(tgsim::launch(own_tiled_matmul<kMmTile>, tgsim::Dim3(kMmWB / kMmTile, kMmHA / kMmTile),
                                     tgsim::Dim3(kMmTile, kMmTile), 0, a.data(), b.data(), c.data(), kMmWA, kMmWB));
  r.expect(c.data(), ref_matmul(std::vector<float>(a.data(), a.data() + a.size()),
                                std::vector<float>(b.data(), b.data() + b.size())));
  return r;
}

template <int K> SampleRun run_transpose() {
  void (*const kernels[])(const float*, float*, int) = {own_copy_tiles, own_transpose_direct, own_transpose_tile_bank,
                                                        own_transpose_tile_pad};
  const int n = kTrN;
  tgsim::Device dev;
  auto in = fill<float>(dev, n * n, "src", [](std::size_t i) { return tr_in(int(i)); });
  auto out = dev.alloc<float>(n * n, "dst");
  SampleRun r;
  r.launches.push_back(
      tgsim::launch(kernels[K], tgsim::Dim3(n / 32, n / 32), tgsim::Dim3(32, 8), 0, in.data(), out.data(), n));
  const std::vector<float> src(in.data(), in.data() + in.size());
  std::vector<float> want(n * n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) want[y * n + x] = ref_transpose(K != 0, src, x, y);
  r.expect(out.data(), want);
  return r;
}

// K: 0 modulo, 1 halving, 2 warp tail, 3 strided (int); GROUP ints of dynamic shared memory each.
template <int K> SampleRun run_reduce() {
  void (*const kernels[])(const int*, int*, unsigned) = {own_reduce_modulo<int, 256>, own_reduce_halving<int, 256>,
                                                         own_reduce_warp_tail<int, 256>, own_reduce_strided<int, 256>};
  const unsigned T = kRedThreads, blocks = K == 0 ? kRedN / T : K <= 2 ? kRedN / (2 * T) : kRedStridedBlocks;
  tgsim::Device dev;
  auto in = fill<int>(dev, kRedN, "in", [](std::size_t i) { return red_int(unsigned(i)); });
  auto out = dev.alloc<int>(blocks, "sums");
  SampleRun r;
  r.launches.push_back(
      tgsim::launch(kernels[K], tgsim::Dim3(blocks), tgsim::Dim3(T), T * sizeof(int), in.data(), out.data(), kRedN));
  r.expect(out.data(), K == 3 ? ref_strided_sums(kRedN, T, blocks)
                              : ref_block_sums<int>(red_int, kRedN, kRedN / blocks, blocks));
  return r;
}

SampleRun run_reduce_double() {
  const unsigned T = kRedThreads, blocks = kRedN / (2 * T);
  tgsim::Device dev;
  auto in = fill<double>(dev, kRedN, "in", [](std::size_t i) { return red_double(unsigned(i)); });
  auto out = dev.alloc<double>(blocks, "sums");
  SampleRun r;
  r.launches.push_back(tgsim::launch(own_reduce_warp_tail<double, 256>, tgsim::Dim3(blocks), tgsim::Dim3(T),
                                     T * sizeof(double), in.data(), out.data(), kRedN));
  r.expect(out.data(), ref_block_sums<double>(red_double, kRedN, 2 * T, blocks));
  return r;
}

SampleRun run_histogram(bool h64) {
  tgsim::Device dev;
  auto words = fill<uint>(dev, kHistBytes / 4, "words", [](std::size_t i) { return hist_word(unsigned(i)); });
  const unsigned bins = h64 ? 64 : 256;
  auto partials = dev.alloc<uint>(kHist64Groups * 64, "partials");
  auto hist = fill<uint>(dev, bins, "hist", [](std::size_t) { return 0u; });
  SampleRun r;
  if (h64) {
    r.launches.push_back(tgsim::launch(own_histogram64_warps, tgsim::Dim3(kHist64Groups), tgsim::Dim3(kHist64Threads),
                                       0, reinterpret_cast<const uint4*>(words.data()), kHistBytes / 16,
                                       partials.data()));
    r.launches.push_back(tgsim::launch(own_histogram64_sum, tgsim::Dim3(1), tgsim::Dim3(64), 0, partials.data(),
                                       kHist64Groups, hist.data()));
  } else {
    r.launches.push_back(tgsim::launch(own_histogram256, tgsim::Dim3(kHist256Groups), tgsim::Dim3(kHist256Threads), 0,
                                       words.data(), kHistBytes / 4, hist.data()));
  }
  r.expect(hist.data(), ref_histogram(bins));
  return r;
}

SampleRun run_filter() {
  float k[2 * kConvRadius + 1];
  for (int i = 0; i < 2 * kConvRadius + 1; ++i) k[i] = conv_kernel(i);
  own_set_taps(k);  // cudaMemcpyToSymbol(own_taps, ...) in the kernel file
  const int n = kConvW * kConvH;
  tgsim::Device dev;
  auto src = fill<float>(dev, n, "src", [](std::size_t i) { return conv_src(int(i)); });
  auto buf = dev.alloc<float>(n, "rows"), dst = dev.alloc<float>(n, "dst");
  SampleRun r;
  r.launches.push_back(tgsim::launch(own_filter_rows, tgsim::Dim3(kConvW / 64, kConvH / 4), tgsim::Dim3(32, 4), 0,
                                     src.data(), buf.data(), kConvW, kConvH));
  r.launches.push_back(tgsim::launch(own_filter_columns, tgsim::Dim3(kConvW / 16, kConvH / 32), tgsim::Dim3(16, 16), 0,
                                     buf.data(), dst.data(), kConvW, kConvH));
  const std::vector<float> rows = ref_conv_rows(std::vector<float>(src.data(), src.data() + n));
  r.expect(buf.data(), rows);
  r.expect(dst.data(), ref_conv_columns(rows));
  return r;
}

SampleRun run_scan() {
  const unsigned chunks = kScanN / kScanChunk;
  tgsim::Device dev;
  auto src = fill<uint>(dev, kScanN, "in", [](std::size_t i) { return scan_in(unsigned(i)); });
  auto dst = dev.alloc<uint>(kScanN, "out"), totals = dev.alloc<uint>(chunks, "totals");
  auto offsets = dev.alloc<uint>(chunks, "offsets"), grand = dev.alloc<uint>(1, "grand_total");
  SampleRun r;
  r.launches.push_back(tgsim::launch(own_scan_chunks, tgsim::Dim3(chunks), tgsim::Dim3(256), 0, src.data(),
                                     dst.data(), totals.data(), kScanN));
  r.launches.push_back(tgsim::launch(own_scan_chunks, tgsim::Dim3(1), tgsim::Dim3(256), 0, totals.data(),
                                     offsets.data(), grand.data(), chunks));
  r.launches.push_back(
      tgsim::launch(own_scan_add_offsets, tgsim::Dim3(chunks), tgsim::Dim3(256), 0, dst.data(), offsets.data()));
  r.expect(dst.data(), ref_scan_exclusive());
  return r;
}

struct Entry {
  const char* name;  // key in own_samples_h100.json
  SampleRun (*run)();
};
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
    {"histogram256", [] { return run_histogram(false); }},
    {"histogram64", [] { return run_histogram(true); }},
    {"separable_filter", run_filter},
    {"blelloch_scan", run_scan},
};

// The compared counters: tgsim's counter and the Nsight Compute metric it is.
struct Counter {
  const char* name;
  const char* metric;  // "a+b": the sum of two metrics
  std::uint64_t (*get)(const tgsim::Counters&);
};
const Counter kCounters[] = {
    {"global.load.requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
     [](const tgsim::Counters& c) { return c.global_load.requests(); }},
    {"global.load.sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
     [](const tgsim::Counters& c) { return c.global_load.sectors; }},
    {"global.store.requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
     [](const tgsim::Counters& c) { return c.global_store.requests(); }},
    {"global.store.sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
     [](const tgsim::Counters& c) { return c.global_store.sectors; }},
    {"shared.load.instructions", "smsp__sass_inst_executed_op_shared_ld.sum",
     [](const tgsim::Counters& c) { return c.shared_load.instructions; }},
    {"shared.load.wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
     [](const tgsim::Counters& c) { return c.shared_load.wavefronts; }},
    {"shared.store.instructions", "smsp__sass_inst_executed_op_shared_st.sum",
     [](const tgsim::Counters& c) { return c.shared_store.instructions; }},
    {"shared.store.wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
     [](const tgsim::Counters& c) { return c.shared_store.wavefronts; }},
    {"barriers", "sass__inst_executed_per_opcode[BAR]", [](const tgsim::Counters& c) { return c.barriers; }},
    {"shfl", "sass__inst_executed_per_opcode[SHFL]", [](const tgsim::Counters& c) { return c.shfl; }},
    {"shared.atomic.instructions", "smsp__sass_inst_executed_op_shared_atom.sum",
     [](const tgsim::Counters& c) { return c.shared_atomic.instructions; }},
    // Per warp instruction, the most distinct 4-byte words in one bank (docs/hardware-model.md 3).
    {"shared.atomic.wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
     [](const tgsim::Counters& c) { return c.shared_atomic.wavefronts; }},
    {"global.atomic.instructions", "smsp__sass_inst_executed_op_global_atom.sum+smsp__sass_inst_executed_op_global_red.sum",
     [](const tgsim::Counters& c) { return c.global_atomic.instructions; }},
};

// A counter that differs from the H100, with both measured values and the measured cause.
struct Difference {
  const char* entry;
  int launch;
  const char* counter;
  std::uint64_t tgsim, h100;
  const char* cause;
};
#include "frontend_own_samples_differences.inc"

const nlohmann::json& fixture() {
  static const nlohmann::json fx = [] {
    std::ifstream in(TGSIM_OWN_SAMPLES_FIXTURE);
    if (!in) throw std::runtime_error("cannot open " TGSIM_OWN_SAMPLES_FIXTURE);
    return nlohmann::json::parse(in);
  }();
  return fx;
}

std::uint64_t metric(const nlohmann::json& m, const std::string& names) {
  std::uint64_t sum = 0;
  for (std::size_t a = 0; a <= names.size();) {
    std::size_t b = names.find('+', a);
    if (b == std::string::npos) b = names.size();
    const std::string n = names.substr(a, b - a);
    if (!m.contains(n) || !m.at(n).is_number()) throw std::runtime_error("fixture lacks metric " + n);
    sum += m.at(n).get<std::uint64_t>();
    a = b + 1;
  }
  return sum;
}

class Sample : public testing::TestWithParam<Entry> {};

TEST_P(Sample, ResultAndCountersEqualH100) {
  const Entry& e = GetParam();
  const SampleRun r = e.run();
  EXPECT_TRUE(r.checked);
  EXPECT_EQ(r.bad, 0) << e.name << ": elements that differ from the CPU reference";
  const nlohmann::json& k = fixture().at("kernels").at(e.name);
  EXPECT_TRUE(k.at("correct").get<bool>()) << e.name << " was wrong on the H100";
  std::vector<const nlohmann::json*> metrics;
  if (k.contains("launches"))
    for (const nlohmann::json& l : k.at("launches")) metrics.push_back(&l.at("metrics"));
  else
    metrics.push_back(&k.at("metrics"));
  ASSERT_EQ(metrics.size(), r.launches.size()) << e.name;
  for (std::size_t j = 0; j < r.launches.size(); ++j) {
    EXPECT_TRUE(r.launches[j].findings.empty()) << e.name << ": " << r.launches[j].findings[0].message;
    for (const Counter& c : kCounters) {
      const std::uint64_t ours = c.get(r.launches[j].counters), h100 = metric(*metrics[j], c.metric);
      const Difference* d = nullptr;
      for (const Difference& x : kExpectedDifferences)
        if (e.name == std::string(x.entry) && int(j) == x.launch && c.name == std::string(x.counter)) d = &x;
      if (d) {  // a known difference: both sides must still be exactly the recorded values
        EXPECT_EQ(ours, d->tgsim) << e.name << " launch " << j << " " << c.name << " (" << d->cause << ")";
        EXPECT_EQ(h100, d->h100) << e.name << " launch " << j << " " << c.name << " (" << d->cause << ")";
      } else {
        EXPECT_EQ(ours, h100) << e.name << " launch " << j << " " << c.name << " vs " << c.metric;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(OwnSamples, Sample, testing::ValuesIn(kEntries),
                         [](const testing::TestParamInfo<Entry>& i) { return std::string(i.param.name); });

TEST(OwnSamples, FixtureHoldsEveryEntryAndComesFromAnH100) {
  EXPECT_NE(fixture().at("gpu").value("name", "").find("H100"), std::string::npos);
  for (const Entry& e : kEntries) EXPECT_TRUE(fixture().at("kernels").contains(e.name)) << e.name;
  for (const Difference& d : kExpectedDifferences) {
    bool known = false;
    for (const Entry& e : kEntries) known = known || std::string(e.name) == d.entry;
    EXPECT_TRUE(known) << d.entry;
  }
}

}  // namespace
