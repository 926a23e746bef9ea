// Tests of the checker (LaunchConfig::check) and of the tgsim::testing matchers: every buggy
// kernel of kernels/buggy.cu gives exactly the expected kinds at the lines tagged
// `// check: TAG` there, identically for both schedules and 1, 2 and 8 worker threads; every
// clean catalog kernel gives none; plus small kernels for uninitialised reads, same-value
// WAW, global hazards inside and between groups, and __syncwarp.
#include "dialect/cuda.hpp"
#include <tgsim/launch.hpp>
#include <tgsim/testing.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "catalog.hpp"

namespace {

using tgsim::Finding;
using tgsim::FindingKind;
using tgsim::Report;
using namespace tgsim::testing;
using ::testing::Not;

// Line of `// check: TAG` in kernels/buggy.cu.
std::uint32_t line_of(const std::string& tag) {
  static const std::map<std::string, std::uint32_t> lines = [] {
    std::map<std::string, std::uint32_t> m;
    std::ifstream in(TGSIM_KERNELS_DIR "/buggy.cu");
    std::string s;
    for (std::uint32_t n = 1; std::getline(in, s); ++n) {
      auto p = s.find("// check: ");
      if (p != std::string::npos) m[s.substr(p + 10)] = n;
    }
    return m;
  }();
  auto it = lines.find(tag);
  if (it == lines.end()) ADD_FAILURE() << "no `// check: " << tag << "` in buggy.cu";
  return it == lines.end() ? 0 : it->second;
}

tgsim::catalog::Result check_run(const std::string& kernel, tgsim::Schedule s, unsigned threads,
                                 int n = 0) {
  tgsim::catalog::RunOptions o;
  o.n = n;
  o.threads = threads;
  o.schedule = s;
  o.check = true;
  return tgsim::catalog::run(tgsim::Device{}, kernel, o);
}

// (kind, line, line2) of every finding: what a kernel author cares about.
using Shape = std::set<std::tuple<FindingKind, std::uint32_t, std::uint32_t>>;
Shape shape(const Report& r) {
  Shape s;
  for (const Finding& f : r.findings) s.insert({f.kind, f.line, f.line2});
  return s;
}

struct Expected {
  std::string kernel;
  int n;
  Shape findings;  // exactly these (kind, line, line2)
};

std::vector<Expected> expectations() {
  auto L = line_of;
  std::vector<Expected> e;
  // RAW between each tile store and the k loop; tileA's rows belong to one warp each, so its
  // hazards are warp-sync ones; tileB's columns span warps.
  e.push_back({"matmul_tiled16_nobarrier1", 64,
               {{FindingKind::kRaw, L("nb1_store_b"), L("nb1_load")},
                {FindingKind::kWarpRaw, L("nb1_store_a"), L("nb1_load")},
                {FindingKind::kWarpRaw, L("nb1_store_b"), L("nb1_load")}}});
  e.push_back({"matmul_tiled16_nobarrier2", 64,
               {{FindingKind::kWar, L("nb2_load"), L("nb2_store_b")},
                {FindingKind::kWarpWar, L("nb2_load"), L("nb2_store_a")},
                {FindingKind::kWarpWar, L("nb2_load"), L("nb2_store_b")}}});
  e.push_back({"neighbor_nobarrier", 1024,
               {{FindingKind::kRaw, L("nb_store"), L("nb_load")},
                {FindingKind::kWarpRaw, L("nb_store"), L("nb_load")}}});
  e.push_back({"divergent_barrier", 1024, {{FindingKind::kBarrierDivergence, L("div_barrier"), 0}}});
  e.push_back({"transpose_oob", 128, {{FindingKind::kOutOfBounds, L("oob_load"), 0}}});
  // As racecheck on an H100 (warnings): each step's store and the next step's load (RAW);
  // plus the load of a neighbour's word and that neighbour's store in the same step (WAR),
  // which only lockstep execution used to order.
  Shape wr;
  const char* steps[] = {"wr_32", "wr_16", "wr_8", "wr_4", "wr_2", "wr_1"};
  for (int i = 1; i < 6; ++i) {
    wr.insert({FindingKind::kWarpRaw, L(steps[i - 1]), L(steps[i])});
    wr.insert({FindingKind::kWarpWar, L(steps[i]), L(steps[i])});
  }
  e.push_back({"warp_reduce_nosync", 4096, wr});
  return e;
}

void PrintTo(const Expected& e, std::ostream* os) { *os << e.kernel << " n=" << e.n; }

class BuggyKernel : public ::testing::TestWithParam<Expected> {};

TEST_P(BuggyKernel, ExactFindingsSameForEveryScheduleAndWorkerCount) {
  const Expected& e = GetParam();
  auto base = check_run(e.kernel, tgsim::Schedule::kInOrder, 1, e.n);
  EXPECT_EQ(shape(base.report), e.findings) << ::testing::PrintToString(base.report);
  // A seeded shuffle too: the checker pairs by lockstep order, not by the order fibers ran.
  for (auto s : {tgsim::Schedule::kInOrder, tgsim::Schedule::kReverse, tgsim::Schedule::kShuffle})
    for (unsigned t : {1u, 2u, 8u}) {
      auto r = check_run(e.kernel, s, t, e.n);
      // Identical: order, examples, counts, messages.
      EXPECT_EQ(r.report.findings, base.report.findings)
          << "schedule " << int(s) << ", " << t << " worker threads";
    }
}

INSTANTIATE_TEST_SUITE_P(Check, BuggyKernel, ::testing::ValuesIn(expectations()),
                         [](const auto& info) { return info.param.kernel; });

TEST(Check, TiledMatmulMissingBarrierPrintsAHandfulOfLines) {
  auto r = check_run("matmul_tiled16_nobarrier1", tgsim::Schedule::kInOrder, 0, 256);
  EXPECT_LE(r.report.findings.size(), 4u);
  EXPECT_THAT(r.report, HasFinding(FindingKind::kRaw,
                                   ::testing::AllOf(AtLines(line_of("nb1_store_b"), line_of("nb1_load")),
                                                    OnObject("tileB"), InFile("buggy.cu"))));
  const Finding& f = r.report.findings[0];
  EXPECT_GT(f.count, 1000u);  // grouped: one entry, many hazards
  EXPECT_NE(f.thread, f.thread2);
  EXPECT_EQ(f.block, f.block2);
  EXPECT_GE(f.index, 0);
}

TEST(Check, CleanCatalogKernelsHaveNoFindings) {
  const std::map<std::string, int> sizes = {{"matmul", 70},     {"transpose", 100}, {"reduce", 1000},
                                            {"layer", 70},      {"blur", 100},      {"neighbour", 1024},
                                            {"int_matmul", 70}, {"peak", 1 << 16},    {"tree_reduce", 4096},
                                            {"histogram", 1 << 16}, {"constant", 4096}};
  int tested = 0;
  for (const auto& e : tgsim::catalog::entries()) {
    if (e.buggy) continue;
    for (auto s : {tgsim::Schedule::kInOrder, tgsim::Schedule::kReverse}) {
      auto r = check_run(e.name, s, 0, sizes.at(e.family));
      EXPECT_THAT(r.report, HasNoFindings()) << e.name;
      EXPECT_TRUE(r.correct) << e.name;
    }
    ++tested;
  }
  EXPECT_GE(tested, 8);
  // And at a default size, where every tile is full.
  EXPECT_THAT(check_run("matmul_tiled16", tgsim::Schedule::kReverse, 0).report, HasNoFindings());
}

TEST(Check, OffByDefault) {
  tgsim::catalog::RunOptions o;
  o.n = 64;
  auto r = tgsim::catalog::run(tgsim::Device{}, "matmul_tiled16_nobarrier1", o);
  EXPECT_THAT(r.report, HasNoFindings());
}

TEST(Check, CheckerLeavesCountersAlone) {
  tgsim::catalog::RunOptions o;
  o.n = 64;
  auto plain = tgsim::catalog::run(tgsim::Device{}, "matmul_tiled16", o);
  o.check = true;
  auto checked = tgsim::catalog::run(tgsim::Device{}, "matmul_tiled16", o);
  EXPECT_EQ(plain.report.counters, checked.report.counters);
  EXPECT_EQ(plain.report.sites, checked.report.sites);
}

TEST(Check, DivergentBarrierMessage) {
  auto r = check_run("divergent_barrier", tgsim::Schedule::kInOrder, 1);
  ASSERT_EQ(r.report.findings.size(), 1u);
  EXPECT_THAT(r.report.findings[0].message,
              ::testing::StartsWith("divergent threads in warp 0: lanes 0x0000ffff wait at the "
                                    "barrier at buggy.cu:" +
                                    std::to_string(line_of("div_barrier")) +
                                    " while lanes 0xffff0000 skipped it"));
}

// ---------------------------------------------------------------- small kernels

tgsim::LaunchConfig cfg(std::uint32_t grid, std::uint32_t block, bool same_value_waw = false) {
  tgsim::LaunchConfig c;
  c.grid = tgsim::Dim3(grid);
  c.block = tgsim::Dim3(block);
  c.check = true;
  c.report_same_value_waw = same_value_waw;
  c.threads = 2;
  return c;
}

TEST(Check, UninitialisedSharedRead) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(512, "out");
  const std::uint32_t store_line = __LINE__ + 4, load_line = __LINE__ + 6;
  auto kernel = [](tgsim::global_ptr<int> o) {
    auto s = tgsim::shared<int[256]>("s");
    int t = int(threadIdx.x);
    if (t < 128) s[t] = t;
    __syncthreads();
    o[blockIdx.x * 256 + t] = s[255 - t];  // threads 0..127 read s[255..128]: never stored
  };
  Report r = dev.launch(cfg(2, 256), kernel, out);
  ASSERT_THAT(r, HasFindingCount(1));
  EXPECT_THAT(r, HasFinding(FindingKind::kUninitialized, ::testing::AllOf(AtLine(load_line), OnObject("s"))));
  EXPECT_EQ(r.findings[0].count, 2u * 128u);
  EXPECT_EQ(r.findings[0].index, 255);
  (void)store_line;
  // Written before, by the same thread or (after a barrier) by another: initialised.
  auto ok = [](tgsim::global_ptr<int> o) {
    auto s = tgsim::shared<int[256]>("s");
    int t = int(threadIdx.x);
    s[t] = t;
    o[blockIdx.x * 256 + t] = s[t];
    __syncthreads();
    o[blockIdx.x * 256 + t] = s[255 - t];
  };
  EXPECT_THAT(dev.launch(cfg(2, 256), ok, out), HasNoFindings());
}

TEST(Check, SameValueWawIsFilteredUnlessAsked) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(64, "out");
  const std::uint32_t line = __LINE__ + 3;
  auto kernel = [](tgsim::global_ptr<int> o) {
    auto flag = tgsim::shared<int[1]>("flag");
    flag[0] = 1;  // every thread stores the same value
    __syncthreads();
    o[threadIdx.x] = flag[0];
  };
  EXPECT_THAT(dev.launch(cfg(1, 64), kernel, out), HasNoFindings());
  Report r = dev.launch(cfg(1, 64, true), kernel, out);
  EXPECT_THAT(r, HasFinding(FindingKind::kWaw, AtLines(line, line)));      // across warps
  EXPECT_THAT(r, HasFinding(FindingKind::kWarpWaw, AtLines(line, line)));  // inside a warp
  // Different values race whatever the flag says.
  auto differ = [](tgsim::global_ptr<int> o) {
    auto flag = tgsim::shared<int[1]>("flag");
    flag[0] = int(threadIdx.x);
    __syncthreads();
    o[threadIdx.x] = flag[0];
  };
  EXPECT_THAT(dev.launch(cfg(1, 64), differ, out), HasFinding(FindingKind::kWaw));
}

TEST(Check, GlobalRaceBetweenGroups) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(4, "out");
  const std::uint32_t line = __LINE__ + 2;
  auto kernel = [](tgsim::global_ptr<int> o) {
    if (threadIdx.x == 0) o[0] = int(blockIdx.x);  // every group writes out[0]
  };
  Report base;
  for (unsigned t : {1u, 2u, 8u}) {
    auto c = cfg(16, 32);
    c.threads = t;
    Report r = dev.launch(c, kernel, out);
    ASSERT_THAT(r, HasFindingCount(1));
    const Finding& f = r.findings[0];
    EXPECT_EQ(f.kind, FindingKind::kWaw);
    EXPECT_EQ(f.line, line);
    EXPECT_EQ(f.object, "out");
    EXPECT_EQ(f.index, 0);
    EXPECT_EQ(f.block, tgsim::Dim3(0, 0, 0));  // the two lowest groups
    EXPECT_EQ(f.block2, tgsim::Dim3(1, 0, 0));
    if (t == 1) base = r;
    EXPECT_EQ(r.findings, base.findings);
  }
  // Reads of one word by every group, written by none: fine. Read by one, written by another: RAW.
  auto reader = [](tgsim::global_ptr<int> o) {
    int v = o[1];
    if (blockIdx.x == 3 && threadIdx.x == 0) o[1] = v + 1;
  };
  Report r = dev.launch(cfg(8, 32), reader, out);
  EXPECT_THAT(r, HasFinding(FindingKind::kWar, OnObject("out")));
}

// Kernel functions for the read-only-buffer tests (parameter types must be visible).
inline void read_const_write_alias(tgsim::global_ptr<const int> in, tgsim::global_ptr<int> out) {
  int v = in[0];                                                  // every group reads in[0]
  if (blockIdx.x == 3 && threadIdx.x == 0) out[0] = v + 1;        // group 3 writes it (alias)
}
inline void read_const_write_other(tgsim::global_ptr<const int> in, tgsim::global_ptr<int> out) {
  int v = in[0];
  if (threadIdx.x == 0) out[blockIdx.x] = v + 1;
}

TEST(Check, BuffersPassedOnlyAsConstAreReadOnly) {
  tgsim::Device dev;
  auto a = dev.alloc<int>(8, "a");
  auto b = dev.alloc<int>(8, "b");
  // Which spans the launch marks read-only: by the kernel function's parameter types.
  std::vector<tgsim::detail::BufferSpan> spans;
  tgsim::detail::collect_buffers<decltype(read_const_write_other)&>(
      spans, std::index_sequence_for<int, int>{}, a, b);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_TRUE(spans[0].read_only);
  EXPECT_FALSE(spans[1].read_only);
  spans.clear();  // a lambda's parameters are not inspected: nothing is read-only
  auto lambda = [](tgsim::global_ptr<const int>, tgsim::global_ptr<int>) {};
  tgsim::detail::collect_buffers<decltype(lambda)&>(spans, std::index_sequence_for<int, int>{}, a, b);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_FALSE(spans[0].read_only);
  // A buffer also passed as a pointer to non-const is written through the alias: its reads
  // still race with that store (the checker must not skip them).
  Report r = dev.launch(cfg(8, 32), read_const_write_alias, a, a);
  EXPECT_THAT(r, HasFinding(FindingKind::kWar, OnObject("a")));
  // Only read through const: no finding, and the checker's result equals a run without the skip.
  EXPECT_THAT(dev.launch(cfg(8, 32), read_const_write_other, a, b), HasNoFindings());
}

TEST(Check, GlobalHazardInsideAGroupRespectsBarriers) {
  tgsim::Device dev;
  auto buf = dev.alloc<int>(64, "buf");
  const std::uint32_t store = __LINE__ + 3, load = __LINE__ + 4;
  auto racy = [](tgsim::global_ptr<int> b) {
    int t = int(threadIdx.x);
    if (t == 0) b[0] = 7;
    if (t == 40) b[1] = b[0];  // another warp, no barrier
  };
  Report r = dev.launch(cfg(1, 64), racy, buf);
  EXPECT_THAT(r, HasFindingCount(1));
  EXPECT_THAT(r, HasFinding(FindingKind::kRaw, AtLines(store, load)));
  auto fine = [](tgsim::global_ptr<int> b) {
    int t = int(threadIdx.x);
    if (t == 0) b[0] = 7;
    __syncthreads();
    if (t == 40) b[1] = b[0];
  };
  EXPECT_THAT(dev.launch(cfg(1, 64), fine, buf), HasNoFindings());
}

TEST(Check, SyncwarpOrdersLanesAndIsCounted) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(64, "out");
  auto kernel = [](tgsim::global_ptr<int> o) {
    auto s = tgsim::shared<int[64]>("s");
    int t = int(threadIdx.x);
    s[t] = t;
    __syncwarp();
    o[t] = s[t ^ 1];  // a neighbour lane's value, after the warp's rendezvous
  };
  auto c = cfg(1, 64);
  for (auto s : {tgsim::Schedule::kInOrder, tgsim::Schedule::kReverse}) {
    c.schedule = s;
    Report r = dev.launch(c, kernel, out);
    EXPECT_THAT(r, HasNoFindings());
    EXPECT_THAT(r, Warpsyncs(2));  // one per warp
    for (int i = 0; i < 64; ++i) EXPECT_EQ(out[std::size_t(i)], i ^ 1);
  }
  auto nosync = [](tgsim::global_ptr<int> o) {
    auto s = tgsim::shared<int[64]>("s");
    int t = int(threadIdx.x);
    s[t] = t;
    o[t] = s[t ^ 1];
  };
  c.schedule = tgsim::Schedule::kInOrder;
  Report r = dev.launch(c, nosync, out);
  EXPECT_THAT(r, OnlyFindingsOfKind(FindingKind::kWarpRaw));
}

// Report::atomic_bytes: the bytes whose values may depend on the order of atomics (what
// `tgsim check FILE` lets differ between schedules as information): an atomic's word, a store
// of its thread after it, every store of the group after a barrier that followed one; not a
// store before any atomic, nor one of a group that made none.
TEST(Check, AtomicBytesAreTheBytesAnAtomicMayExplain) {
  tgsim::Device dev;
  auto count = dev.alloc<int>(1, "count");
  auto slots = dev.alloc<int>(64, "slots");
  auto before = dev.alloc<int>(64, "before");
  auto after = dev.alloc<int>(128, "after");
  count[0] = 0;
  auto kernel = [](tgsim::global_ptr<int> n, tgsim::global_ptr<int> sl, tgsim::global_ptr<int> b,
                   tgsim::global_ptr<int> a) {
    const int t = int(threadIdx.x);
    b[t] = t;                                        // before any atomic: not explained
    if (blockIdx.x == 0) sl[atomicAdd(&n[0], 1)] = t;  // after its thread's atomic
    __syncthreads();
    a[int(blockIdx.x) * 64 + t] = t;  // after the barrier: group 0's only
  };
  Report r = dev.launch(cfg(2, 64), kernel, count, slots, before, after);
  EXPECT_THAT(r, HasNoFindings());
  const std::vector<tgsim::AtomicBytes> want = {
      {"count", 0, 4}, {"slots", 0, 256}, {"after", 0, 256}};
  std::vector<tgsim::AtomicBytes> got = r.atomic_bytes;
  std::sort(got.begin(), got.end(), [](const auto& x, const auto& y) { return x.buffer < y.buffer; });
  std::vector<tgsim::AtomicBytes> sorted = want;
  std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.buffer < y.buffer; });
  EXPECT_EQ(got, sorted);
}

// PTX: __syncwarp waits for the non-exited lanes of its mask; on the H100 a full mask with exited
// lanes is silent under synccheck (tests/hardware/checker_probe/).
TEST(Check, SyncwarpWithAnExitedLaneIsNoFindingAndNoHang) {
  tgsim::Device dev;
  auto out = dev.alloc<int>(32, "out");
  auto kernel = [](tgsim::global_ptr<int> o) {
    int t = int(threadIdx.x);
    if (t == 5) return;  // lane 5 is named by the full mask but exited
    __syncwarp();
    o[t] = 1;
  };
  Report r = dev.launch(cfg(1, 32), kernel, out);
  EXPECT_TRUE(r.findings.empty()) << (r.findings.empty() ? "" : r.findings[0].message);
  EXPECT_EQ(out[0], 1);  // the others went on
  EXPECT_EQ(out[31], 1);
  // A named lane that waits at __syncthreads instead: a finding too, and the group ends.
  auto stuck = [](tgsim::global_ptr<int> o) {
    int t = int(threadIdx.x);
    if (t == 5) __syncthreads();
    else __syncwarp();
    o[t] = 2;
  };
  EXPECT_THAT(dev.launch(cfg(1, 32), stuck, out), HasFinding(FindingKind::kBarrierDivergence));
}

// ---------------------------------------------------------------- against the H100

// tests/hardware/sanitizer_h100.txt holds what compute-sanitizer said on an H100 about the
// same kernels (recorded when kernels/buggy.cu was kernels/buggy.cuh, so the recording names
// that file; the lines are the same): every racecheck hazard (its two lines; an error = threads of different warps,
// a warning = one warp), synccheck's barrier and memcheck's access must be in tgsim's report.
TEST(Hardware, SameSitesAsComputeSanitizerOnH100) {
  std::ifstream in(TGSIM_HARDWARE_DIR "/sanitizer_h100.txt");
  ASSERT_TRUE(in) << "missing tests/hardware/sanitizer_h100.txt";
  struct Race { bool warning; std::string a, b; };  // "+0x330" or "buggy.cuh:24"
  std::map<std::string, std::vector<Race>> races;
  std::map<std::string, std::map<std::string, std::uint32_t>> sass;  // offset -> line
  std::map<std::string, std::uint32_t> tool_line;                    // synccheck, memcheck
  const std::regex head(R"(^=== (\w+) (\w+))"), site(R"((\+0x[0-9a-f]+)(?: in buggy\.cuh:(\d+))?)"),
      sass_map(R"((\+0x[0-9a-f]+) = buggy\.cuh:(\d+))"), at_line(R"( at .* in buggy\.cuh:(\d+))");
  std::string tool, kernel, line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, head)) {
      tool = m[1], kernel = m[2];
      continue;
    }
    auto where = [&](const std::string& l) {
      std::smatch w;
      std::regex_search(l, w, site);
      return w[2].matched ? "buggy.cuh:" + w[2].str() : w[1].str();
    };
    if (tool != "racecheck") {
      if (std::regex_search(line, m, at_line) && !tool_line.count(kernel))
        tool_line[kernel] = std::uint32_t(std::stoul(m[1]));
    } else if (line.find("Race reported between") != std::string::npos)
      races[kernel].push_back({line.find("Warning") != std::string::npos, where(line), ""});
    else if (line.find("    and ") != std::string::npos && !races[kernel].empty() && races[kernel].back().b.empty())
      races[kernel].back().b = where(line);
    else if (line.rfind("# sass", 0) == 0)
      for (std::sregex_iterator i(line.begin(), line.end(), sass_map), e; i != e; ++i)
        sass[kernel][(*i)[1]] = std::uint32_t(std::stoul((*i)[2]));
  }
  ASSERT_EQ(races.size(), 4u);
  for (const auto& [k, list] : races) {
    auto to_line = [&](const std::string& w) {
      return w[0] == '+' ? sass[k].at(w) : std::uint32_t(std::stoul(w.substr(10)));
    };
    for (auto s : {tgsim::Schedule::kInOrder, tgsim::Schedule::kReverse}) {
      Report r = check_run(k, s, 0, k.rfind("matmul", 0) == 0 ? 64 : 0).report;
      for (const Race& race : list) {
        std::set<std::uint32_t> want = {to_line(race.a), to_line(race.b)};
        bool found = false;
        for (const Finding& f : r.findings) {
          bool warp = f.kind == FindingKind::kWarpRaw || f.kind == FindingKind::kWarpWar ||
                      f.kind == FindingKind::kWarpWaw;
          found |= tgsim::is_hazard(f.kind) && warp == race.warning &&
                   std::set<std::uint32_t>{f.line, f.line2} == want;
        }
        EXPECT_TRUE(found) << k << ": racecheck " << (race.warning ? "warning" : "error")
                           << " between " << race.a << " and " << race.b;
      }
    }
  }
  ASSERT_EQ(tool_line.size(), 2u);
  EXPECT_THAT(check_run("divergent_barrier", tgsim::Schedule::kInOrder, 0).report,
              HasFinding(FindingKind::kBarrierDivergence, AtLine(tool_line.at("divergent_barrier"))));
  EXPECT_THAT(check_run("transpose_oob", tgsim::Schedule::kReverse, 0).report,
              HasFinding(FindingKind::kOutOfBounds, AtLine(tool_line.at("transpose_oob"))));
}

// ---------------------------------------------------------------- the matchers themselves

TEST(Matchers, PassAndFailWithExplanations) {
  auto clean = check_run("matmul_tiled16", tgsim::Schedule::kInOrder, 0, 256).report;
  EXPECT_THAT(clean, HasNoFindings());
  EXPECT_THAT(clean, GlobalLoadSectors(262144));
  EXPECT_THAT(clean, GlobalStoreSectors(8192));
  EXPECT_THAT(clean, SharedLoadWavefronts(1048576));
  EXPECT_THAT(clean, BankConflicts(0));
  EXPECT_THAT(clean, Barriers(65536));
  EXPECT_THAT(clean, Not(GlobalLoadSectors(262145)));

  auto buggy = check_run("matmul_tiled16_nobarrier1", tgsim::Schedule::kInOrder, 0, 64).report;
  EXPECT_THAT(buggy, Not(HasNoFindings()));
  EXPECT_THAT(buggy, HasFinding(FindingKind::kRaw, AtLine(line_of("nb1_store_b"))));
  EXPECT_THAT(buggy, Not(HasFinding(FindingKind::kRaw, AtLine(line_of("nb1_store_b") + 100))));
  EXPECT_THAT(buggy, Not(HasFinding(FindingKind::kWaw)));

  ::testing::StringMatchResultListener why;
  EXPECT_FALSE(::testing::ExplainMatchResult(HasNoFindings(), buggy, &why));
  EXPECT_THAT(why.str(), ::testing::HasSubstr("finding(s), the first:"));
  ::testing::StringMatchResultListener why2;
  EXPECT_FALSE(::testing::ExplainMatchResult(GlobalLoadSectors(1), clean, &why2));
  EXPECT_THAT(why2.str(), ::testing::HasSubstr("global load sectors is 262144"));
}

TEST(Report, HazardFieldsReachJson) {
  auto r = check_run("neighbor_nobarrier", tgsim::Schedule::kInOrder, 0, 512).report;
  std::string j = tgsim::to_json(r);
  EXPECT_THAT(j, ::testing::HasSubstr("\"file2\""));
  EXPECT_THAT(j, ::testing::HasSubstr("\"object\": \"shared_data\""));
  EXPECT_THAT(j, ::testing::HasSubstr("\"kind\": \"raw-hazard\""));
}

}  // namespace
