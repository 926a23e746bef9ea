// A LaunchConfig in one call, for the tests of semantics_test.cpp and checker_rules_test.cpp.
#pragma once
#include <tgsim/launch.hpp>

namespace tgsim::test {

inline LaunchConfig cfg(Dim3 grid, Dim3 block, bool check = false, Schedule s = Schedule::kInOrder,
                        unsigned threads = 1) {
  LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.check = check;
  c.schedule = s;
  c.threads = threads;
  return c;
}

}  // namespace tgsim::test
