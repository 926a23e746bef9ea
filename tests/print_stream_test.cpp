// The launch's printf stream (sim/src/report/print_stream.hpp): group order for any order of the
// groups' hand-overs, text waiting past the memory budget in a file, and a kernel's lines by
// barrier interval, then thread.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <tgsim/tgsim.hpp>

#include "report/print_stream.hpp"

using tgsim::detail::PrintStream;

TEST(PrintStream, WritesInGroupOrderWhateverOrderGroupsEnd) {
  std::string out;
  std::vector<std::size_t> sizes_when_written;
  PrintStream s([&](std::string_view t) { out.append(t); }, 0);
  s.put(2, "c1 ", false);
  s.put(1, "b1 ", true);
  EXPECT_EQ(out, "");  // group 0 has not ended
  s.put(0, "a1 ", false);
  EXPECT_EQ(out, "a1 ");  // the head writes through at once
  s.put(0, "a2 ", true);
  EXPECT_EQ(out, "a1 a2 b1 c1 ");  // 1 ended; 2 is the head now, its waiting text went out
  s.put(2, "c2 ", true);
  s.put(3, "", true);
  s.put(4, "e1 ", true);
  EXPECT_EQ(out, "a1 a2 b1 c1 c2 e1 ");
  s.finish();
  EXPECT_EQ(s.bytes_written(), out.size());
  EXPECT_EQ(s.bytes_spilled(), 0u);
}

TEST(PrintStream, WaitingTextPastTheBudgetWaitsInAFile) {
  std::string out;
  PrintStream s([&](std::string_view t) { out.append(t); }, 0, /*memory_budget=*/8);
  std::string expect_tail;
  for (int g = 1; g <= 50; ++g) {
    const std::string t = "group " + std::to_string(g) + "\n";
    s.put(static_cast<std::uint64_t>(g), t, true);
    expect_tail += t;
  }
  EXPECT_EQ(out, "");
  EXPECT_GT(s.bytes_spilled(), 300u);  // all but the first 8 bytes' worth
  s.put(0, "group 0\n", true);
  EXPECT_EQ(out, "group 0\n" + expect_tail);
}

TEST(PrintStream, FinishWritesGroupsAfterOneThatNeverRan) {
  PrintStream s({}, 0, 4);
  s.put(3, "d\n", true);
  s.put(1, "bbbbbb\n", true);  // past the budget: in the file
  s.finish();
  EXPECT_EQ(s.take(), "bbbbbb\nd\n");
}
