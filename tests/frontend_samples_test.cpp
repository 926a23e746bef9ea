// Public NVIDIA cuda-samples kernels run unchanged through tgsim's front end
// (tests/frontend/samples/: vectorAdd, matrixMul, transpose, reduction, histogram64/256,
// convolutionSeparable, scan, copied from NVIDIA/cuda-samples at commit c94ff366), at the sizes and
// with the inputs of tests/hardware/samples_ref.h. Each result is checked against a CPU reference
// written for tgsim (exact: the inputs keep every float sum exact), and each launch's counters
// against what Nsight Compute counted for the same launch on an H100
// (tests/hardware/samples_h100.json, recorded by tests/hardware/record_samples.sh with
// tests/hardware/samples_driver.cu). Every counter is equal, except the differences listed in
// kExpectedDifferences, each with its measured value on both sides and its cause.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <tgsim/tgsim.hpp>

#include "samples_ref.h"

struct uint4;  // CUDA's (tgsim/kernel/cuda_vector_types.h): only passed through here
using uint = unsigned int;

// The sample kernels (compiled by the front end; see tests/frontend/sample_instances.cu).
void vectorAdd(const float* A, const float* B, float* C, int numElements);
template <int BLOCK_SIZE> void MatrixMulCUDA(float* C, float* A, float* B, int wA, int wB);
void copy(float* odata, float* idata, int width, int height);
void copySharedMem(float* odata, float* idata, int width, int height);
void transposeNaive(float* odata, float* idata, int width, int height);
void transposeCoalesced(float* odata, float* idata, int width, int height);
void transposeNoBankConflicts(float* odata, float* idata, int width, int height);
void transposeDiagonal(float* odata, float* idata, int width, int height);
void transposeFineGrained(float* odata, float* idata, int width, int height);
void transposeCoarseGrained(float* odata, float* idata, int width, int height);
template <class T> void reduce0(T*, T*, unsigned int);
template <class T> void reduce1(T*, T*, unsigned int);
template <class T> void reduce2(T*, T*, unsigned int);
template <class T> void reduce3(T*, T*, unsigned int);
template <class T, unsigned int blockSize> void reduce4(T*, T*, unsigned int);
template <class T, unsigned int blockSize> void reduce5(T*, T*, unsigned int);
template <class T, unsigned int blockSize, bool nIsPow2> void reduce6(T*, T*, unsigned int);
void histogram64Kernel(uint* d_PartialHistograms, uint4* d_Data, uint dataCount);
void mergeHistogram64Kernel(uint* d_Histogram, uint* d_PartialHistograms, uint histogramCount);
void histogram256Kernel(uint* d_PartialHistograms, uint* d_Data, uint dataCount);
void mergeHistogram256Kernel(uint* d_Histogram, uint* d_PartialHistograms, uint histogramCount);
extern "C" void setConvolutionKernel(float* h_Kernel);
void convolutionRowsKernel(float* d_Dst, float* d_Src, int imageW, int imageH, int pitch);
void convolutionColumnsKernel(float* d_Dst, float* d_Src, int imageW, int imageH, int pitch);
void scanExclusiveShared(uint4* d_Dst, uint4* d_Src, uint size);
void scanExclusiveShared2(uint* d_Buf, uint* d_Dst, uint* d_Src, uint N, uint arrayLength);
void uniformUpdate(uint4* d_Data, uint* d_Buffer);

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

SampleRun run_vector_add() {
  tgsim::Device dev;
  auto a = fill<float>(dev, kVecN, "A", [](std::size_t i) { return vec_a(int(i)); });
  auto b = fill<float>(dev, kVecN, "B", [](std::size_t i) { return vec_b(int(i)); });
  auto c = dev.alloc<float>(kVecN, "C");
  SampleRun r;
  r.launches.push_back(tgsim::launch(vectorAdd, tgsim::Dim3((kVecN + kVecBlock - 1) / kVecBlock), tgsim::Dim3(kVecBlock),
                                     0, a.data(), b.data(), c.data(), kVecN));
  std::vector<float> want(kVecN);
  for (int i = 0; i < kVecN; ++i) want[i] = a[i] + b[i];
  r.expect(c.data(), want);
  return r;
}

SampleRun run_matrix_mul() {
  tgsim::Device dev;
  auto a = fill<float>(dev, kMmHA * kMmWA, "A", [](std::size_t i) { return mm_a(int(i)); });
  auto b = fill<float>(dev, kMmWA * kMmWB, "B", [](std::size_t i) { return mm_b(int(i)); });
  auto c = dev.alloc<float>(kMmHA * kMmWB, "C");
  SampleRun r;
  r.launches.push_back(tgsim::launch(MatrixMulCUDA<32>, tgsim::Dim3(kMmWB / 32, kMmHA / 32), tgsim::Dim3(32, 32), 0,
                                     c.data(), a.data(), b.data(), kMmWA, kMmWB));
  r.expect(c.data(), ref_matmul(std::vector<float>(a.data(), a.data() + a.size()),
                                std::vector<float>(b.data(), b.data() + b.size())));
  return r;
}

template <int K> SampleRun run_transpose() {
  void (*const kernels[])(float*, float*, int, int) = {copy, copySharedMem, transposeNaive, transposeCoalesced,
                                                       transposeNoBankConflicts, transposeDiagonal,
                                                       transposeFineGrained, transposeCoarseGrained};
  const Tr kind[] = {Tr::kCopy, Tr::kCopy, Tr::kTranspose, Tr::kTranspose, Tr::kTranspose, Tr::kTranspose,
                     Tr::kFineGrained, Tr::kCoarseGrained};
  const int n = kTrN;
  tgsim::Device dev;
  auto in = fill<float>(dev, n * n, "idata", [](std::size_t i) { return tr_in(int(i)); });
  auto out = dev.alloc<float>(n * n, "odata");
  SampleRun r;
  r.launches.push_back(
      tgsim::launch(kernels[K], tgsim::Dim3(n / 32, n / 32), tgsim::Dim3(32, 16), 0, out.data(), in.data(), n, n));
  const std::vector<float> src(in.data(), in.data() + in.size());
  std::vector<float> want(n * n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) want[y * n + x] = ref_transpose(kind[K], src, x, y);
  r.expect(out.data(), want);
  return r;
}

template <int K> SampleRun run_reduce() {
  void (*const kernels[])(int*, int*, unsigned) = {reduce0<int>, reduce1<int>, reduce2<int>, reduce3<int>,
                                                   reduce4<int, 256>, reduce5<int, 256>, reduce6<int, 256, true>};
  const unsigned T = kRedThreads, blocks = K <= 2 ? kRedN / T : K <= 5 ? kRedN / (2 * T) : kRed6Blocks;
  tgsim::Device dev;
  auto in = fill<int>(dev, kRedN, "g_idata", [](std::size_t i) { return red_int(unsigned(i)); });
  auto out = dev.alloc<int>(blocks, "g_odata");
  SampleRun r;
  r.launches.push_back(
      tgsim::launch(kernels[K], tgsim::Dim3(blocks), tgsim::Dim3(T), T * sizeof(int), in.data(), out.data(), kRedN));
  r.expect(out.data(), K == 6 ? ref_reduce6(kRedN, T, blocks)
                              : ref_block_sums<int>(red_int, kRedN, kRedN / blocks, blocks));
  return r;
}

SampleRun run_reduce4_double() {
  const unsigned T = kRedThreads, blocks = kRedN / (2 * T);
  tgsim::Device dev;
  auto in = fill<double>(dev, kRedN, "g_idata", [](std::size_t i) { return red_double(unsigned(i)); });
  auto out = dev.alloc<double>(blocks, "g_odata");
  SampleRun r;
  r.launches.push_back(tgsim::launch(reduce4<double, 256>, tgsim::Dim3(blocks), tgsim::Dim3(T), T * sizeof(double),
                                     in.data(), out.data(), kRedN));
  r.expect(out.data(), ref_block_sums<double>(red_double, kRedN, 2 * T, blocks));
  return r;
}

SampleRun run_histogram(bool h64) {
  tgsim::Device dev;
  auto data = fill<uint>(dev, kHistBytes / 4, "d_Data", [](std::size_t i) { return hist_word(unsigned(i)); });
  const unsigned bins = h64 ? 64 : 256, count = h64 ? kHist64Count : kHist256Count;
  auto partial = dev.alloc<uint>(count * bins, "d_PartialHistograms");
  auto hist = dev.alloc<uint>(bins, "d_Histogram");
  SampleRun r;
  if (h64) {
    r.launches.push_back(tgsim::launch(histogram64Kernel, tgsim::Dim3(count), tgsim::Dim3(64), 0, partial.data(),
                                       reinterpret_cast<uint4*>(data.data()), kHistBytes / 16));
    r.launches.push_back(tgsim::launch(mergeHistogram64Kernel, tgsim::Dim3(64), tgsim::Dim3(256), 0, hist.data(),
                                       partial.data(), count));
  } else {
    r.launches.push_back(tgsim::launch(histogram256Kernel, tgsim::Dim3(count), tgsim::Dim3(192), 0, partial.data(),
                                       data.data(), kHistBytes / 4));
    r.launches.push_back(tgsim::launch(mergeHistogram256Kernel, tgsim::Dim3(256), tgsim::Dim3(256), 0, hist.data(),
                                       partial.data(), count));
  }
  r.expect(hist.data(), ref_histogram(bins));
  return r;
}

SampleRun run_convolution() {
  float k[2 * kConvRadius + 1];
  for (int i = 0; i < 2 * kConvRadius + 1; ++i) k[i] = conv_kernel(i);
  setConvolutionKernel(k);  // cudaMemcpyToSymbol(c_Kernel, ...) in the sample's own code
  const int n = kConvW * kConvH;
  tgsim::Device dev;
  auto src = fill<float>(dev, n, "d_Src", [](std::size_t i) { return conv_src(int(i)); });
  auto buf = dev.alloc<float>(n, "d_Buffer"), dst = dev.alloc<float>(n, "d_Dst");
  SampleRun r;
  r.launches.push_back(tgsim::launch(convolutionRowsKernel, tgsim::Dim3(kConvW / 128, kConvH / 4), tgsim::Dim3(16, 4), 0,
                                     buf.data(), src.data(), kConvW, kConvH, kConvW));
  r.launches.push_back(tgsim::launch(convolutionColumnsKernel, tgsim::Dim3(kConvW / 16, kConvH / 64),
                                     tgsim::Dim3(16, 8), 0, dst.data(), buf.data(), kConvW, kConvH, kConvW));
  const std::vector<float> rows = ref_conv_rows(std::vector<float>(src.data(), src.data() + n));
  r.expect(buf.data(), rows);
  r.expect(dst.data(), ref_conv_columns(rows));
  return r;
}

SampleRun run_scan() {
  tgsim::Device dev;
  auto src = fill<uint>(dev, kScanN, "d_Src", [](std::size_t i) { return scan_in(unsigned(i)); });
  auto dst = dev.alloc<uint>(kScanN, "d_Dst"), buf = dev.alloc<uint>(kScanN / 1024, "d_Buf");
  const unsigned blocks = kScanN / 1024;
  SampleRun r;
  r.launches.push_back(tgsim::launch(scanExclusiveShared, tgsim::Dim3(blocks), tgsim::Dim3(256), 0,
                                     reinterpret_cast<uint4*>(dst.data()), reinterpret_cast<uint4*>(src.data()),
                                     1024u));
  r.launches.push_back(tgsim::launch(scanExclusiveShared2, tgsim::Dim3((blocks + 255) / 256), tgsim::Dim3(256), 0,
                                     buf.data(), dst.data(), src.data(), blocks, kScanN / 1024));
  r.launches.push_back(tgsim::launch(uniformUpdate, tgsim::Dim3(blocks), tgsim::Dim3(256), 0,
                                     reinterpret_cast<uint4*>(dst.data()), buf.data()));
  r.expect(dst.data(), ref_scan_exclusive());
  return r;
}

struct Entry {
  const char* name;  // key in samples_h100.json
  SampleRun (*run)();
};
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
    {"histogram64", [] { return run_histogram(true); }},
    {"histogram256", [] { return run_histogram(false); }},
    {"convolutionSeparable", run_convolution},
    {"scan", run_scan},
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
#include "frontend_samples_differences.inc"

const nlohmann::json& fixture() {
  static const nlohmann::json fx = [] {
    std::ifstream in(TGSIM_SAMPLES_FIXTURE);
    if (!in) throw std::runtime_error("cannot open " TGSIM_SAMPLES_FIXTURE);
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

INSTANTIATE_TEST_SUITE_P(CudaSamples, Sample, testing::ValuesIn(kEntries),
                         [](const testing::TestParamInfo<Entry>& i) { return std::string(i.param.name); });

TEST(CudaSamples, FixtureHoldsEveryEntryAndComesFromAnH100) {
  EXPECT_NE(fixture().at("gpu").value("name", "").find("H100"), std::string::npos);
  for (const Entry& e : kEntries) EXPECT_TRUE(fixture().at("kernels").contains(e.name)) << e.name;
  for (const Difference& d : kExpectedDifferences) {
    bool known = false;
    for (const Entry& e : kEntries) known = known || std::string(e.name) == d.entry;
    EXPECT_TRUE(known) << d.entry;
  }
}

}  // namespace
