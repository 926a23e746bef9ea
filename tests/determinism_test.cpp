// Determinism: the JSON report (counters, sites and findings, in order) of every catalog
// kernel is identical byte for byte for 1, 2 and all worker threads; for clean (race-free)
// kernels also for every schedule (in-order, reverse, two shuffles), with and without the
// checker. Buggy kernels (kernels/buggy.cu) are compared across worker counts with the
// checker on, per schedule (their races make results schedule-dependent by design).
#include <gtest/gtest.h>

#include <map>
#include <string>

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

}  // namespace
