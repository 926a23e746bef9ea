// Determinism: the JSON report (counters, sites and findings, in order) of every catalog
// kernel is identical byte for byte for 1, 2 and all worker threads; for clean (race-free)
// kernels also for every schedule (in-order, reverse, two shuffles), with and without the
// checker. Buggy kernels (kernels/buggy.cu) are compared across worker counts with the
// checker on, per schedule (their races make results schedule-dependent by design). A kernel
// with atomics between groups (a last-group reduction) gives one report for every worker count
// and run.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "dialect/cuda.hpp"
#include <tgsim/tgsim.hpp>

#include "catalog.hpp"

namespace {

// Small sizes per family (those of check_test): odd where the kernel allows, so edge tiles run.
int small_n(const tgsim::catalog::Entry& e) {
  static const std::map<std::string, int> sizes = {
      {"matmul", 70},     {"transpose", 100}, {"reduce", 1000},   {"layer", 70},
      {"blur", 100},      {"neighbour", 1024}, {"int_matmul", 70}, {"peak", 1 << 16},
      {"tree_reduce", 4096}, {"histogram", 1 << 16}, {"constant", 4096}};
  auto it = sizes.find(e.family);
  if (it != sizes.end()) return std::min(it->second, e.max_n);
  return std::min(e.default_n, 128);  // buggy kernels
}

std::string run_json(const tgsim::catalog::Entry& e, unsigned threads, tgsim::Schedule s,
                     std::uint64_t seed, bool check, bool* correct = nullptr) {
  tgsim::Device dev;
  tgsim::catalog::RunOptions o;
  o.n = small_n(e);
  o.threads = threads;
  o.schedule = s;
  o.shuffle_seed = seed;
  o.check = check;
  auto r = e.run(dev, o);
  if (correct) *correct = r.correct;
  return tgsim::to_json(r.report);
}

TEST(Determinism, CleanCatalogKernelsSameReportForEveryWorkerCountAndSchedule) {
  int kernels = 0, runs = 0;
  for (const auto& e : tgsim::catalog::entries()) {
    if (e.buggy) continue;
    ++kernels;
    for (bool check : {false, true}) {
      std::string first;
      struct S { tgsim::Schedule s; std::uint64_t seed; };
      for (S s : {S{tgsim::Schedule::kInOrder, 1}, S{tgsim::Schedule::kReverse, 1},
                  S{tgsim::Schedule::kShuffle, 7}, S{tgsim::Schedule::kShuffle, 12345}}) {
        for (unsigned threads : {1u, 2u, 0u}) {
          bool correct = false;
          std::string j = run_json(e, threads, s.s, s.seed, check, &correct);
          ++runs;
          EXPECT_TRUE(correct) << e.name;
          if (first.empty()) first = j;
          EXPECT_EQ(j, first) << e.name << " check " << check << " schedule " << int(s.s)
                              << " seed " << s.seed << " threads " << threads;
        }
      }
    }
  }
  EXPECT_GE(kernels, 20);
  std::printf("determinism: %d clean kernels, %d runs\n", kernels, runs);
}

TEST(Determinism, BuggyKernelsSameFindingsForEveryWorkerCount) {
  int kernels = 0;
  for (const auto& e : tgsim::catalog::entries()) {
    if (!e.buggy) continue;
    ++kernels;
    for (auto s : {tgsim::Schedule::kInOrder, tgsim::Schedule::kReverse, tgsim::Schedule::kShuffle}) {
      std::string first;
      for (unsigned threads : {1u, 2u, 0u}) {
        std::string j = run_json(e, threads, s, 3, true);
        if (first.empty()) first = j;
        EXPECT_EQ(j, first) << e.name << " schedule " << int(s) << " threads " << threads;
      }
      EXPECT_NE(first.find("\"findings\""), std::string::npos);
    }
  }
  EXPECT_GE(kernels, 5);
}

// Atomics between groups: every group stores its partial result and takes a ticket from a
// counter; the group that draws the last ticket adds the partials. Group 0 works longest before
// its ticket, so with several workers it would draw the last one while one worker draws it in
// group 63: which group is last, and with it the hazards between the groups (stores before a
// lower group's loads are read-after-write, before a higher one's write-after-read), depended
// on the worker count and the run. The checker takes the atomics between groups in group order.
TEST(Determinism, AtomicsBetweenGroupsSameReportForEveryWorkerCountAndRun) {
  tgsim::Device dev;
  auto partial = dev.alloc<int>(64, "partial");
  auto tickets = dev.alloc<unsigned>(1, "tickets");
  auto total = dev.alloc<int>(1, "total");
  auto kernel = [](tgsim::global_ptr<int> p, tgsim::global_ptr<unsigned> t, tgsim::global_ptr<int> s) {
    if (threadIdx.x != 0) return;
    // Some 20 ms of arithmetic in group 0 (no memory access: nothing for the checker).
    unsigned x = blockIdx.x;
    for (int k = 0; k < (blockIdx.x == 0 ? 20000000 : 1); ++k) x = x * 1103515245u + 12345u;
    p[blockIdx.x] = int(blockIdx.x) + 1 + (x == 42u);
    if (atomicAdd(&t[0], 1u) != gridDim.x - 1) return;
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += p[b];
    s[0] = sum;
  };
  std::string first;
  for (int rep = 0; rep < 3; ++rep)
    for (unsigned threads : {1u, 2u, 4u, 0u}) {
      tickets[0] = 0;
      total[0] = 0;
      tgsim::LaunchConfig c;
      c.grid = tgsim::Dim3(64);
      c.block = tgsim::Dim3(32);
      c.check = true;
      c.threads = threads;
      const std::string j = tgsim::to_json(dev.launch(c, kernel, partial, tickets, total));
      EXPECT_EQ(total[0], 64 * 65 / 2);
      if (first.empty()) first = j;
      EXPECT_EQ(j, first) << "threads " << threads << " run " << rep;
    }
  EXPECT_NE(first.find("raw-hazard"), std::string::npos);  // the last group is group 63
  EXPECT_EQ(first.find("war-hazard"), std::string::npos);
}

}  // namespace
