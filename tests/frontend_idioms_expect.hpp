// Exact expected counters for the idiom tests (frontend_idioms_test.cpp, frontend_idioms2_test.cpp).
#ifndef TGSIM_TESTS_FRONTEND_IDIOMS_EXPECT_HPP
#define TGSIM_TESTS_FRONTEND_IDIOMS_EXPECT_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <tgsim/tgsim.hpp>

namespace idioms {

struct Expect {
  std::uint64_t ld = 0, ld_sectors = 0, st = 0, st_sectors = 0;  // global load/store requests, sectors
  std::uint64_t lds = 0, lds_wf = 0, sts = 0, sts_wf = 0;         // shared load/store instructions, wavefronts
  std::uint64_t bar = 0, shfl = 0, vote = 0, warpsync = 0;
  std::uint64_t shared_atom = 0, global_atom = 0, constant = 0;
};

inline void expect_counts(const tgsim::Report& r, const Expect& e) {
  const tgsim::Counters& c = r.counters;
  EXPECT_EQ(c.global_load.requests(), e.ld) << "global load requests";
  EXPECT_EQ(c.global_load.sectors, e.ld_sectors) << "global load sectors";
  EXPECT_EQ(c.global_store.requests(), e.st) << "global store requests";
  EXPECT_EQ(c.global_store.sectors, e.st_sectors) << "global store sectors";
  EXPECT_EQ(c.shared_load.instructions, e.lds) << "shared load instructions";
  EXPECT_EQ(c.shared_load.wavefronts, e.lds_wf) << "shared load wavefronts";
  EXPECT_EQ(c.shared_store.instructions, e.sts) << "shared store instructions";
  EXPECT_EQ(c.shared_store.wavefronts, e.sts_wf) << "shared store wavefronts";
  EXPECT_EQ(c.barriers, e.bar) << "BAR";
  EXPECT_EQ(c.shfl, e.shfl) << "SHFL";
  EXPECT_EQ(c.vote, e.vote) << "VOTE";
  EXPECT_EQ(c.warpsync, e.warpsync) << "WARPSYNC";
  EXPECT_EQ(c.shared_atomic.instructions, e.shared_atom) << "shared atomics";
  EXPECT_EQ(c.global_atomic.instructions, e.global_atom) << "global atomics";
  EXPECT_EQ(c.constant_load.instructions, e.constant) << "constant loads";
}

inline std::string findings(const tgsim::Report& r) {
  std::string s;
  for (const tgsim::Finding& f : r.findings) s += f.message + "\n";
  return s;
}

template <class T> tgsim::Buffer<T> buf(tgsim::Device& d, std::size_t n, const char* name, auto f) {
  tgsim::Buffer<T> b = d.alloc<T>(n, name);
  for (std::size_t i = 0; i < n; ++i) b[i] = f(int(i));
  return b;
}

}  // namespace idioms

#endif
