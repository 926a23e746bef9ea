// The front end (sim/pass, tgsim/kernel/abi.h): plain CUDA kernels compiled by Clang with tgsim's
// pass, launched from C++ with raw device pointers, counted exactly.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cerrno>

#include <algorithm>
#include <fstream>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <tgsim/kernel/cuda_host_api.h>
#include <tgsim/kernel/cuda_vector_types.h>
#include <tgsim/tgsim.hpp>

void matmul_tiled_fe(const float* A, const float* B, float* C, int n);
void overrun(const int* in, int* out, int n);
void block_sum(const float* in, float* out, int n);
struct alignas(8) Pair {
  float v;
  int i;
};
void copy_pair(const Pair* in, float* vals, int* idx);
void sum_float4(const float4* in, float* out);
void stage_no_barrier(const float* in, float* out);
void half_overrun(const int* in, int* out);
void shared_overrun(int* out, int k);
void first_group_stores(int* out);
void const_and_alias(const int* in, int* out);
void store_through_const(const int* in, int* out);
void through_table(const int* in, int** table);
struct Pair4 { int a, b; };
void pair_diff(const Pair4* q, int* out);
void odd_even_sources(const int* a, const short* b, int* out);
void far_copy(const int* in, int* out, long stride);
void wild_copy(const int* in, int* out, long stride);
void wait_for_last_fe(int* data, int* flag, int* out);
// Seed 001's Metal kernels (tests/metal/seed001_matmul.metal), as the Metal adapter declares them.
void relu(float* data);
void matmul(const float* A, const float* B, float* C, unsigned M, unsigned K, unsigned N);

namespace {

TEST(FrontEnd, TiledMatmulCountsAndResult) {
  const int n = 64;
  tgsim::Device dev;
  auto a = dev.alloc<float>(n * n, "A"), b = dev.alloc<float>(n * n, "B"), c = dev.alloc<float>(n * n, "C");
  for (int i = 0; i < n * n; ++i) a[i] = float(i % 7), b[i] = float(i % 5);
  tgsim::Report r = tgsim::launch(matmul_tiled_fe, tgsim::Dim3(n / 16, n / 16), tgsim::Dim3(16, 16), 0,
                                  a.data(), b.data(), c.data(), n);
  for (int i = 0; i < n; i += 7)
    for (int j = 0; j < n; j += 5) {
      float ref = 0;
      for (int k = 0; k < n; ++k) ref += a[i * n + k] * b[k * n + j];
      ASSERT_EQ(c[i * n + j], ref) << i << "," << j;
    }
  EXPECT_EQ(r.kernel, "matmul_tiled_fe");
  // 16 groups x 8 warps x 4 tiles: 2 global loads and 2 shared stores per tile, 20 shared loads:
  // the 16-trip loop over k is unrolled as nvcc unrolls it, As[ty][k..k+3] one LDS.128 (2
  // wavefronts: the warp's two rows) and Bs[k][tx] 16 LDS.
  EXPECT_EQ(r.counters.global_load.instructions, 1024u);
  EXPECT_EQ(r.counters.global_load.sectors, 4096u);
  EXPECT_EQ(r.counters.global_store.instructions, 128u);
  EXPECT_EQ(r.counters.shared_store.wavefronts, 1024u);
  EXPECT_EQ(r.counters.shared_load.instructions, 10240u);
  EXPECT_EQ(r.counters.shared_load.wavefronts, 12288u);
  EXPECT_EQ(r.counters.barriers, 1024u);
  EXPECT_TRUE(r.findings.empty());
  // Sites name the .cu file's lines.
  bool saw = false;
  for (const tgsim::SiteCounters& s : r.sites)
    if (s.kind == tgsim::SiteKind::kSharedLoad) saw = saw || (s.line == 14 && s.file.ends_with("basics.cu"));
  EXPECT_TRUE(saw) << [&] { std::string s; for (auto& x : r.sites) s += x.where() + " " + tgsim::to_string(x.kind) + "\n"; return s; }();
}

// LaunchConfig::count off: the kernel runs (same result), nothing is counted, with the cache
// model asked for or not.
// Block 0 spins until the last block sets a flag: it is parked and resumed once the last block
// ran (engine/coresident.cpp), so the launch completes with one report for any worker count,
// schedule and checker; the spin counts as one atomic. (Before, one worker ended it in a
// watchdog finding and more workers could succeed.)
TEST(FrontEnd, BlocksWaitingForLaterBlocksCompleteWithOneReport) {
  tgsim::Device dev;
  auto data = dev.alloc<int>(1, "data"), flag = dev.alloc<int>(1, "flag"), out = dev.alloc<int>(32, "out");
  for (bool check : {false, true}) {
    std::string first;
    for (unsigned threads : {1u, 2u, 8u}) {
      for (auto s : {tgsim::Schedule::kInOrder, tgsim::Schedule::kReverse, tgsim::Schedule::kShuffle}) {
        data[0] = flag[0] = 0;
        tgsim::LaunchConfig cfg;
        cfg.grid = tgsim::Dim3(4);
        cfg.block = tgsim::Dim3(32);
        cfg.threads = threads;
        cfg.schedule = s;
        cfg.check = check;
        tgsim::Report r = dev.launch(cfg, wait_for_last_fe, data.data(), flag.data(), out.data());
        for (int i = 0; i < 32; ++i) ASSERT_EQ(out[i], 42 + i) << threads;
        EXPECT_TRUE(r.findings.empty()) << tgsim::to_json(r);
        EXPECT_EQ(r.counters.global_atomic.instructions, 2u);
        const std::string j = tgsim::to_json(r);
        if (first.empty()) first = j;
        EXPECT_EQ(j, first) << "threads " << threads << " check " << check;
      }
    }
  }
}

TEST(FrontEnd, CountOffRunsTheKernelAndCountsNothing) {
  const int n = 32;
  tgsim::Device dev;
  auto a = dev.alloc<float>(n * n, "A"), b = dev.alloc<float>(n * n, "B"), c = dev.alloc<float>(n * n, "C");
  for (int i = 0; i < n * n; ++i) a[i] = float(i % 7), b[i] = float(i % 5);
  for (bool cache : {false, true}) {
    tgsim::LaunchConfig cfg;
    cfg.grid = tgsim::Dim3(n / 16, n / 16);
    cfg.block = tgsim::Dim3(16, 16);
    cfg.count = false;
    cfg.cache_model = cache;
    std::fill(c.data(), c.data() + n * n, -1.0f);
    tgsim::Report r = dev.launch(cfg, matmul_tiled_fe, a.data(), b.data(), c.data(), n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float ref = 0;
        for (int k = 0; k < n; ++k) ref += a[i * n + k] * b[k * n + j];
        ASSERT_EQ(c[i * n + j], ref) << i << "," << j;
      }
    EXPECT_EQ(r.counters.global_load.thread_accesses, 0u);
    EXPECT_EQ(r.counters.shared_load.instructions, 0u);
    EXPECT_EQ(r.counters.barriers, 0u);
    EXPECT_FALSE(r.counters.cache_modelled);
    EXPECT_TRUE(r.findings.empty());
  }
}

// Lanes whose logs have equal lengths but different sites form one warp instruction per site
// (flush_warp's uniform fast path must notice the tags differ).
TEST(FrontEnd, EqualLengthLogsOfDifferentSitesAreSeparateInstructions) {
  tgsim::Device dev;
  auto a = dev.alloc<int>(32, "a");
  auto b = dev.alloc<short>(32, "b");
  auto out = dev.alloc<int>(32, "out");
  for (int i = 0; i < 32; ++i) a[i] = i, b[i] = short(100 + i);
  tgsim::Report r = tgsim::launch(odd_even_sources, tgsim::Dim3(1), tgsim::Dim3(32), 0, a.data(), b.data(), out.data());
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], i & 1 ? 3 * i : 101 + i) << i;
  EXPECT_EQ(r.counters.global_load.instructions, 2u);
  EXPECT_EQ(r.counters.global_load.thread_accesses, 32u);
  EXPECT_EQ(r.counters.global_load.bytes, 16u * 4 + 16u * 2);
  EXPECT_EQ(r.counters.global_store.instructions, 1u);
}

TEST(FrontEnd, OverrunIsAFindingNamingTheBuffer) {
  tgsim::Device dev;
  auto in = dev.alloc<int>(64, "in"), out = dev.alloc<int>(64, "out");
  tgsim::Report r = tgsim::launch(overrun, tgsim::Dim3(2), tgsim::Dim3(32), 0, in.data(), out.data(), 32);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, tgsim::FindingKind::kOutOfBounds);
  EXPECT_EQ(r.findings[0].count, 32u);  // the second group's 32 lanes
  EXPECT_NE(r.findings[0].message.find("'in'"), std::string::npos) << r.findings[0].message;
  EXPECT_EQ(r.findings[0].line, 23u);
}

// An index far past the end (lane l at l * 2^20 ints, up to 124 MiB out) lands in the buffer's
// red zone: findings with the index, the same in run and check mode and on any worker count.
TEST(FrontEnd, FarOverrunIsAFindingWithTheIndex) {
  for (bool check : {false, true})
    for (unsigned threads : {1u, 2u}) {
      tgsim::Device dev;
      auto in = dev.alloc<int>(64, "in"), out = dev.alloc<int>(64, "out");
      tgsim::LaunchConfig cfg;
      cfg.grid = tgsim::Dim3(1);
      cfg.block = tgsim::Dim3(32);
      cfg.check = check;
      cfg.threads = threads;
      in[0] = 41;
      tgsim::Report r = dev.launch(cfg, far_copy, in.data(), out.data(), 1L << 20);
      EXPECT_EQ(out[0], 42);  // lane 0 is in bounds
      std::set<std::string> bufs;
      for (const tgsim::Finding& f : r.findings) {
        EXPECT_EQ(f.kind, tgsim::FindingKind::kOutOfBounds) << f.message;
        EXPECT_EQ(f.count, 31u) << f.message;
        EXPECT_EQ(f.lane, 1u);
        EXPECT_EQ(f.line, 107u);
        EXPECT_NE(f.message.find("(index 1048576)"), std::string::npos) << f.message;
        bufs.insert(f.message.substr(f.message.find("buffer '")));
      }
      EXPECT_EQ(bufs, (std::set<std::string>{"buffer 'in' (64 elements of 4 bytes)",
                                             "buffer 'out' (64 elements of 4 bytes)"}));
      EXPECT_EQ(r.counters.global_load.thread_accesses, 1u);  // the lanes out of bounds are not counted
    }
}

// The middle of the largest unmapped gap of the address space (/proc/self/maps), 1 MiB aligned:
// far from where the heap grows up and the mappings grow down, in any build (0x600000000000,
// free in a plain process, is AddressSanitizer's allocator).
void* middle_of_largest_gap() {
  std::ifstream maps("/proc/self/maps");
  std::uint64_t prev_end = 1ull << 32, best = 0, best_size = 0;
  for (std::string line; std::getline(maps, line);) {
    const std::uint64_t lo = std::stoull(line.substr(0, line.find('-')), nullptr, 16);
    const std::uint64_t hi = std::stoull(line.substr(line.find('-') + 1, line.find(' ')), nullptr, 16);
    if (lo > prev_end && lo - prev_end > best_size && lo < (1ull << 47)) best = prev_end, best_size = lo - prev_end;
    prev_end = std::max(prev_end, hi);
  }
  return reinterpret_cast<void*>((best + best_size / 2) & ~((std::uint64_t(1) << 20) - 1));
}

// A pointer into memory that is no mapping at all (the test checks it is unmapped): the
// accesses fault, tgsim stands a zero page in for each and reports them, naming the nearest
// buffer; loads read zeros. The pages are gone after the launch.
TEST(FrontEnd, WildPointerIsAFindingNotACrash) {
  void* hole = middle_of_largest_gap();
  unsigned char probe;
  for (int l = 0; l < 32; ++l)  // mincore fails with ENOMEM on an unmapped page
    ASSERT_EQ(::mincore(static_cast<char*>(hole) + l * 65536, 4096, &probe), -1) << "page of lane " << l << " at " << hole;
  for (bool check : {false, true}) {
    tgsim::Device dev;
    auto out = dev.alloc<int>(64, "out");
    tgsim::LaunchConfig cfg;
    cfg.grid = tgsim::Dim3(1);
    cfg.block = tgsim::Dim3(32);
    cfg.check = check;
    int* wild = static_cast<int*>(hole);
    tgsim::Report r = dev.launch(cfg, wild_copy, wild, wild, 16384L);  // 64 KiB apart
    ASSERT_EQ(r.findings.size(), 2u);  // the load and the store
    for (const tgsim::Finding& f : r.findings) {
      EXPECT_EQ(f.kind, tgsim::FindingKind::kOutOfBounds) << f.message;
      EXPECT_EQ(f.count, 32u);
      EXPECT_EQ(f.line, 113u);
      EXPECT_NE(f.message.find("beyond its red zone; tgsim stood a zero page in for it"), std::string::npos)
          << f.message;
    }
    EXPECT_EQ(r.counters.global_load.thread_accesses, 0u);
    EXPECT_EQ(::mincore(hole, 4096, &probe), -1);  // the zero pages were unmapped
    EXPECT_EQ(errno, ENOMEM);
  }
}

// A launch through the CUDA host API (<<<...>>> becomes tgsim_cuda_launch_kernel) under the
// checker (TGSIM_CHECK, as `tgsim check prog.cu` sets it): the kernel's pointer arguments name
// their buffers, so a load of cudaMalloc'd bytes that no cudaMemcpy or cudaMemset wrote is an
// uninitialised read, as compute-sanitizer's initcheck reports it; written bytes are not.
std::string checked_cuda_copy(std::size_t host_bytes, bool memset_all = false) {
  int *in = nullptr, *out = nullptr;
  EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&in), 64 * sizeof(int)), cudaSuccess);
  EXPECT_EQ(cudaMalloc(reinterpret_cast<void**>(&out), 64 * sizeof(int)), cudaSuccess);
  std::vector<int> host(64, 7);
  if (host_bytes) {
    EXPECT_EQ(cudaMemcpy(in, host.data(), host_bytes, cudaMemcpyHostToDevice), cudaSuccess);
  }
  if (memset_all) {
    EXPECT_EQ(cudaMemset(in, 0, 64 * sizeof(int)), cudaSuccess);
  }
  int n = 0;
  void* args[] = {&in, &out, &n};
  const unsigned grid[3] = {2, 1, 1}, block[3] = {32, 1, 1};
  ::setenv("TGSIM_CHECK", "1", 1);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(tgsim_cuda_launch_kernel(reinterpret_cast<const void*>(&overrun), grid, block, 0, args), cudaSuccess);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ::unsetenv("TGSIM_CHECK");
  cudaFree(in);
  cudaFree(out);
  return err;
}

TEST(FrontEnd, CudaHostLaunchFindsUninitialisedDeviceMemory) {
  const std::string none = checked_cuda_copy(0);
  EXPECT_NE(none.find("uninitialized-read at"), std::string::npos) << none;
  EXPECT_NE(none.find("(64x)"), std::string::npos) << none;  // every lane of both groups
  const std::string half = checked_cuda_copy(32 * sizeof(int));
  EXPECT_NE(half.find("(32x)"), std::string::npos) << half;  // the second group's lanes only
  EXPECT_EQ(checked_cuda_copy(64 * sizeof(int)), "");
  EXPECT_EQ(checked_cuda_copy(0, true), "");  // cudaMemset writes too
}

TEST(FrontEnd, DynamicSharedShuffleAndAtomic) {
  tgsim::Device dev;
  const int n = 1000;
  auto in = dev.alloc<float>(n, "in"), out = dev.alloc<float>(1, "out");
  for (int i = 0; i < n; ++i) in[i] = 1.0f;
  tgsim::Report r = tgsim::launch(block_sum, tgsim::Dim3(4), tgsim::Dim3(256), 8 * sizeof(float), in.data(),
                                  out.data(), n);
  EXPECT_EQ(out[0], 1000.0f);
  EXPECT_TRUE(r.findings.empty()) << r.findings[0].message;
  EXPECT_EQ(r.counters.shfl, 4u * 8 * 5);          // 5 steps per warp
  EXPECT_EQ(r.counters.global_atomic.instructions, 4u);
  EXPECT_EQ(r.counters.shared_store.instructions, 4u * 8);
}

TEST(FrontEnd, DynamicSharedBeyondTheLimitIsALaunchError) {
  tgsim::Device dev;
  auto in = dev.alloc<float>(1, "in"), out = dev.alloc<float>(1, "out");
  EXPECT_THROW(tgsim::launch(block_sum, tgsim::Dim3(1), tgsim::Dim3(32), 1 << 20, in.data(), out.data(), 1),
               tgsim::LaunchError);
}

// A struct or float4 copied from global memory, then read member by member, is one access of
// its full width (LDG.64 / LDG.128), not one per member: the pass keeps the copy whole even
// when the optimiser splits the local copy into registers.
TEST(FrontEnd, StructAndFloat4CopiesAreOneAccess) {
  tgsim::Device dev;
  auto pairs = dev.alloc<Pair>(64, "pairs");
  auto vals = dev.alloc<float>(64, "vals");
  auto idx = dev.alloc<int>(64, "idx");
  for (int i = 0; i < 64; ++i) pairs[i] = Pair{float(i) / 2, 3 * i};
  tgsim::Report r = tgsim::launch(copy_pair, tgsim::Dim3(2), tgsim::Dim3(32), 0, pairs.data(), vals.data(), idx.data());
  for (int i = 0; i < 64; ++i) ASSERT_TRUE(vals[i] == float(i) / 2 && idx[i] == 3 * i) << i;
  EXPECT_EQ(r.counters.global_load.instructions, 2u);  // one 8-byte load per warp
  EXPECT_EQ(r.counters.global_load.sectors, 16u);      // 32 lanes x 8 bytes = 8 sectors
  EXPECT_EQ(r.counters.global_store.instructions, 4u);

  auto in = dev.alloc<float4>(64, "in");
  auto out = dev.alloc<float>(64, "out");
  for (int i = 0; i < 64; ++i) in[i] = make_float4(float(i), 1, 2, 3);
  r = tgsim::launch(sum_float4, tgsim::Dim3(2), tgsim::Dim3(32), 0, in.data(), out.data());
  for (int i = 0; i < 64; ++i) ASSERT_EQ(out[i], float(i) + 6) << i;
  EXPECT_EQ(r.counters.global_load.instructions, 2u);  // one 16-byte load per warp
  EXPECT_EQ(r.counters.global_load.sectors, 32u);      // 32 lanes x 16 bytes = 16 sectors
  EXPECT_TRUE(r.findings.empty());
}

// The checker names a front-end kernel's shared arrays (its module registers them per kernel): a
// static 2-D array with its element, and an extern __shared__ array sized by the launch.
TEST(FrontEnd, FindingsNameSharedArrays) {
  tgsim::Device dev;
  auto in = dev.alloc<float>(64, "in"), out = dev.alloc<float>(64, "out");
  tgsim::LaunchConfig cfg;
  cfg.grid = tgsim::Dim3(1);
  cfg.block = tgsim::Dim3(64);
  cfg.shared_bytes = 64 * sizeof(float);
  cfg.check = true;
  tgsim::Report r = dev.launch(cfg, stage_no_barrier, in.data(), out.data());
  std::set<std::string> objects;
  for (const tgsim::Finding& f : r.findings)
    if (f.kind == tgsim::FindingKind::kRaw) objects.insert(f.object);
  EXPECT_EQ(objects, (std::set<std::string>{"tile", "spill"}));
  bool element = false;
  for (const tgsim::Finding& f : r.findings)
    element = element || (f.object == "tile" && f.message.find("shared tile[") != std::string::npos);
  EXPECT_TRUE(element) << r.findings[0].message;
}

// Shared initialisation is per group: loads in an interval without stores (which the checker
// skips when the group initialised every word) are uninitialised in groups that stored nothing,
// on one worker after a group that stored everything, and on two.
TEST(FrontEnd, SharedWordsStoredByAnotherGroupAreUninitialised) {
  for (unsigned threads : {1u, 2u}) {
    tgsim::Device dev;
    auto out = dev.alloc<int>(3 * 64, "out");
    tgsim::LaunchConfig cfg;
    cfg.grid = tgsim::Dim3(3);
    cfg.block = tgsim::Dim3(64);
    cfg.check = true;
    cfg.threads = threads;
    tgsim::Report r = dev.launch(cfg, first_group_stores, out.data());
    ASSERT_EQ(r.findings.size(), 1u) << threads;
    EXPECT_EQ(r.findings[0].kind, tgsim::FindingKind::kUninitialized);
    EXPECT_EQ(r.findings[0].count, 128u);  // groups 1 and 2, 64 loads each
    EXPECT_EQ(r.findings[0].object, "s");
    EXPECT_EQ(out[0], 63);
  }
}

// A raw pointer to numbers names the one buffer it points into: a buffer passed only as a
// pointer to const is read-only (the checker does not log its loads), one also passed as a
// pointer to non-const is not, and a pointer to pointers leaves no buffer read-only.
TEST(FrontEnd, RawPointersToConstAreReadOnly) {
  tgsim::Device dev;
  auto a = dev.alloc<int>(64, "a"), b = dev.alloc<int>(64, "b");
  std::vector<tgsim::detail::BufferSpan> spans;
  tgsim::detail::collect_buffers<decltype(const_and_alias)&>(spans, std::index_sequence_for<int, int>{},
                                                             a.data(), b.data());
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_TRUE(spans[0].read_only);
  EXPECT_FALSE(spans[1].read_only);
  spans.clear();
  int* table = b.data();
  tgsim::detail::collect_buffers<decltype(through_table)&>(spans, std::index_sequence_for<int, int>{},
                                                           a.data(), &table);
  ASSERT_GE(spans.size(), 1u);
  EXPECT_FALSE(spans[0].read_only);

  tgsim::LaunchConfig cfg;
  cfg.grid = tgsim::Dim3(8);
  cfg.block = tgsim::Dim3(32);
  cfg.check = true;
  for (int i = 0; i < 64; ++i) a[std::size_t(i)] = i;
  // The alias: group 3's store races with the other groups' loads of a[0].
  tgsim::Report alias = dev.launch(cfg, const_and_alias, a.data(), a.data());
  ASSERT_FALSE(alias.findings.empty());
  EXPECT_TRUE(std::any_of(alias.findings.begin(), alias.findings.end(), [](const tgsim::Finding& f) {
    return (f.kind == tgsim::FindingKind::kWar || f.kind == tgsim::FindingKind::kRaw) && f.object == "a";
  }));
  // Two buffers: nothing to report.
  tgsim::Report two = dev.launch(cfg, const_and_alias, a.data(), b.data());
  EXPECT_TRUE(two.findings.empty()) << two.findings[0].message;
  // A store through the cast-away const is said, not hidden: the buffer's loads went unchecked.
  auto c = dev.alloc<int>(8 * 32, "c");
  tgsim::Report cast = dev.launch(cfg, store_through_const, a.data(), c.data());
  ASSERT_EQ(cast.findings.size(), 1u);
  EXPECT_EQ(cast.findings[0].kind, tgsim::FindingKind::kUnsupported);
  EXPECT_EQ(cast.findings[0].object, "a");
  EXPECT_EQ(cast.findings[0].count, 1u);
  EXPECT_NE(cast.findings[0].message.find("a[5]"), std::string::npos) << cast.findings[0].message;
  EXPECT_NE(cast.findings[0].message.find("pointer to const"), std::string::npos);
  EXPECT_EQ(a[5], 9);
}

TEST(FrontEnd, StraddlingInstructionCountsTheLanesInBounds) {
  tgsim::Device dev;
  auto in = dev.alloc<int>(32, "in"), out = dev.alloc<int>(32, "out");
  tgsim::Report r = tgsim::launch(half_overrun, tgsim::Dim3(1), tgsim::Dim3(32), 0, in.data(), out.data());
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].count, 16u);  // lanes 16-31, indices 32-47
  EXPECT_EQ(r.findings[0].lane, 16u);
  EXPECT_NE(r.findings[0].message.find("index 32"), std::string::npos) << r.findings[0].message;
  EXPECT_EQ(r.counters.global_load.instructions, 1u);
  EXPECT_EQ(r.counters.global_load.thread_accesses, 16u);
  EXPECT_EQ(r.counters.global_load.sectors, 2u);  // in[16..31]: 64 bytes
  EXPECT_EQ(r.counters.global_store.thread_accesses, 32u);
}

TEST(FrontEnd, SharedIndexPastTheArenaIsAFinding) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(32, "out");
  tgsim::Report ok = tgsim::launch(shared_overrun, tgsim::Dim3(1), tgsim::Dim3(32), 0, out.data(), 0);
  EXPECT_TRUE(ok.findings.empty());
  EXPECT_EQ(out[31], 31);
  // s[32 + 100]: 528 bytes into an arena whose kernel declared 128.
  tgsim::Report r = tgsim::launch(shared_overrun, tgsim::Dim3(1), tgsim::Dim3(32), 0, out.data(), 100);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, tgsim::FindingKind::kOutOfBounds);
  EXPECT_EQ(r.findings[0].count, 32u);
  EXPECT_NE(r.findings[0].message.find("outside the 128 bytes of shared memory"), std::string::npos)
      << r.findings[0].message;
}

TEST(FrontEnd, StructOfFourByteAlignmentIsTwoAccesses) {
  tgsim::Device dev;
  auto q = dev.alloc<Pair4>(32, "q");
  auto out = dev.alloc<int>(32, "out");
  for (int i = 0; i < 32; ++i) q[i] = Pair4{3 * i, i};
  tgsim::Report r = tgsim::launch(pair_diff, tgsim::Dim3(1), tgsim::Dim3(32), 0, q.data(), out.data());
  EXPECT_EQ(out[7], 14);
  // Two 4-byte warp loads over 256 bytes with a stride of 8: 8 sectors each.
  EXPECT_EQ(r.counters.global_load.instructions, 2u);
  EXPECT_EQ(r.counters.global_load.thread_accesses, 64u);
  EXPECT_EQ(r.counters.global_load.sectors, 16u);
  EXPECT_EQ(r.counters.global_store.sectors, 4u);
}

TEST(FrontEnd, SeedMetalKernelsFromCpp) {
  tgsim::Device dev;
  // relu over 1000 floats with dispatchThreads(1000) in groups of 256: the last 24 threads of the
  // fourth group do not run, so nothing overruns.
  auto data = dev.alloc<float>(1000, "data");
  for (int i = 0; i < 1000; ++i) data[i] = float(i % 7) - 3.0f;
  tgsim::LaunchConfig cfg;
  cfg.grid = tgsim::Dim3(4);
  cfg.block = tgsim::Dim3(256);
  cfg.grid_threads = tgsim::Dim3(1000);
  tgsim::Report r = dev.launch(cfg, relu, data.data());
  EXPECT_TRUE(r.findings.empty());
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(data[i], std::max(0.0f, float(i % 7) - 3.0f)) << i;
  // 1000 threads: 31 full warps and one of 8 lanes, one load and one store each.
  EXPECT_EQ(r.counters.global_load.instructions, 32u);
  EXPECT_EQ(r.counters.global_load.thread_accesses, 1000u);
  EXPECT_EQ(r.counters.global_store.thread_accesses, 1000u);
  // The naive matmul, M = K = N = 32 on 16x16 groups: every thread reads 32 A and 32 B values.
  const unsigned n = 32;
  auto a = dev.alloc<float>(n * n, "A"), b = dev.alloc<float>(n * n, "B"), c = dev.alloc<float>(n * n, "C");
  for (unsigned i = 0; i < n * n; ++i) a[i] = float(i % 5), b[i] = float(i % 3);
  tgsim::Report m = tgsim::launch(matmul, tgsim::Dim3(2, 2), tgsim::Dim3(16, 16), 0, a.data(), b.data(),
                                  c.data(), n, n, n);
  float ref = 0;
  for (unsigned k = 0; k < n; ++k) ref += a[5 * n + k] * b[k * n + 7];
  EXPECT_EQ(c[5 * n + 7], ref);
  EXPECT_EQ(m.counters.global_load.thread_accesses, 2u * n * n * n);
  EXPECT_TRUE(m.findings.empty());
}

TEST(FrontEnd, SameReportForAnyWorkerCountAndSchedule) {
  const int n = 64;
  tgsim::Device dev;
  auto a = dev.alloc<float>(n * n, "A"), b = dev.alloc<float>(n * n, "B"), c = dev.alloc<float>(n * n, "C");
  for (int i = 0; i < n * n; ++i) a[i] = float(i % 11), b[i] = float(i % 13);
  std::string first;
  for (unsigned threads : {1u, 2u, 3u})
    for (tgsim::Schedule s : {tgsim::Schedule::kInOrder, tgsim::Schedule::kReverse, tgsim::Schedule::kShuffle}) {
      tgsim::LaunchConfig cfg;
      cfg.grid = tgsim::Dim3(n / 16, n / 16);
      cfg.block = tgsim::Dim3(16, 16);
      cfg.threads = threads;
      cfg.schedule = s;
      cfg.name = "m";
      const std::string json = tgsim::to_json(dev.launch(cfg, matmul_tiled_fe, a.data(), b.data(), c.data(), n));
      if (first.empty()) first = json;
      EXPECT_EQ(json, first) << threads << " workers, schedule " << int(s);
    }
}

TEST(FrontEnd, ProxyKernelWithRawPointersSaysNoAccessWasSeen) {
  tgsim::Device dev;
  auto buf = dev.alloc<int>(32, "buf");
  tgsim::LaunchConfig cfg;
  cfg.grid = tgsim::Dim3(1);
  cfg.block = tgsim::Dim3(32);
  tgsim::Report r = dev.launch(cfg, +[](int* p) { p[tgsim::this_thread().linear_tid] = 1; }, buf.data());
  EXPECT_EQ(buf[5], 1);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("no access was seen"), std::string::npos);
}

}  // namespace
