// The x and y thread mapping swapped for an uncoalesced global load (sim/cli/try_swap.hpp, issue 38
// item 3): the source rewrite (CUDA built-ins, Metal position parameters; comments, strings and
// members of other things untouched), the lane strides that decide when to try, and the catalog's
// words. The re-runs themselves are tested through the command (tests/advice/advice_test.sh).
#include <gtest/gtest.h>

#include <string>

#include "i18n.hpp"
#include "try_swap.hpp"

using namespace tgsim;
using namespace tgsim::cli;

struct LangGuard {  // restores English after a test that switches language
  ~LangGuard() { set_lang(Lang::kEn); }
};

TEST(SwapSource, CudaBuiltinsExchangeXAndYOnly) {
  const std::string in =
      "#define ROW (blockIdx.x * blockDim.x + threadIdx.x)\n"
      "__global__ void k(float* a, S p) {\n"
      "  int col = blockIdx.y*blockDim.y + threadIdx . y; // threadIdx.x in a comment\n"
      "  const char* s = \"threadIdx.x\"; int z = threadIdx.z + gridDim.x + p.threadIdx.x;\n"
      "  a[ROW * 1'000 + col] = 1.5e+3f; /* blockIdx.y */\n"
      "}\n";
  const std::string want =
      "#define ROW (blockIdx.y * blockDim.y + threadIdx.y)\n"
      "__global__ void k(float* a, S p) {\n"
      "  int col = blockIdx.x*blockDim.x + threadIdx . x; // threadIdx.x in a comment\n"
      "  const char* s = \"threadIdx.x\"; int z = threadIdx.z + gridDim.y + p.threadIdx.x;\n"
      "  a[ROW * 1'000 + col] = 1.5e+3f; /* blockIdx.y */\n"
      "}\n";
  const std::optional<std::string> out = swapped_source(in, false);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(*out, want);
  EXPECT_EQ(out->size(), in.size());  // lines and columns kept
}

TEST(SwapSource, NothingToSwapIsNullopt) {
  EXPECT_FALSE(swapped_source("__global__ void k(int* a) { a[threadIdx.z] = 0; } // threadIdx.x\n", false));
}

TEST(SwapSource, MetalPositionParametersInsideTheirKernelOnly) {
  const std::string in =
      "float at(uint2 gid) { return float(gid.x); }\n"
      "kernel void k(device float* a [[buffer(0)]], uint2 gid [[thread_position_in_grid]],\n"
      "              uint3 tg [[ threads_per_threadgroup ]]) {\n"
      "  uint2 p = gid.xy; a[gid.x * 64 + gid.y] = at(gid) + tg.x + tg.z;\n"
      "}\n"
      "void after(uint2 gid) { gid.x = 0; }\n";
  const std::string want =
      "float at(uint2 gid) { return float(gid.x); }\n"
      "kernel void k(device float* a [[buffer(0)]], uint2 gid [[thread_position_in_grid]],\n"
      "              uint3 tg [[ threads_per_threadgroup ]]) {\n"
      "  uint2 p = gid.yx; a[gid.y * 64 + gid.x] = at(gid) + tg.y + tg.z;\n"
      "}\n"
      "void after(uint2 gid) { gid.x = 0; }\n";
  const std::optional<std::string> out = swapped_source(in, true);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(*out, want);
}

TEST(SwapSource, MetalScalarPositionIsNotSwapped) {
  EXPECT_FALSE(swapped_source("kernel void k(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) "
                              "{ a[i] = 0; }\n",
                              true));
}

// A warp of a `block` group whose lane at thread (x, y) reads base + x * sx + y * sy.
CapturedInstruction warp_reading(const Dim3& block, std::int64_t sx, std::int64_t sy) {
  CapturedInstruction c;
  c.present = true;
  c.width = 4;
  c.mask = 0xffffffffu;
  for (int l = 0; l < 32; ++l) {
    const Dim3 p = unlinearise(l, block);
    c.addr[l] = static_cast<std::uint64_t>(4096 + std::int64_t(p.x) * sx + std::int64_t(p.y) * sy);
  }
  return c;
}

TEST(SwapStrides, TheWarpShowsXAndWhereItSpansTwoRowsY) {
  const LaneStrides column = lane_strides(warp_reading({16, 16}, 256, 4), {16, 16});
  EXPECT_TRUE(column.x_seen && column.y_seen);
  EXPECT_EQ(column.x, 256);
  EXPECT_EQ(column.y, 4);
  EXPECT_TRUE(swap_worth_trying(column, 4, {16, 16}));
  const LaneStrides wide = lane_strides(warp_reading({32, 8}, 1024, 4), {32, 8});
  EXPECT_TRUE(wide.x_seen);
  EXPECT_FALSE(wide.y_seen);  // a warp of 32 x 8 holds one row of threads
  EXPECT_TRUE(swap_worth_trying(wide, 4, {32, 8}));
}

TEST(SwapStrides, NotTriedWhereXIsAlreadyBestOrTheGroupIsOneRow) {
  EXPECT_FALSE(swap_worth_trying(lane_strides(warp_reading({16, 16}, 4, 256), {16, 16}), 4, {16, 16}));
  EXPECT_FALSE(swap_worth_trying(lane_strides(warp_reading({16, 16}, 256, 1024), {16, 16}), 4, {16, 16}));
  EXPECT_FALSE(swap_worth_trying(lane_strides(warp_reading({256, 1}, 256, 0), {256, 1}), 4, {256, 1}));
  EXPECT_FALSE(swap_worth_trying(lane_strides(warp_reading({16, 16}, 0, 4), {16, 16}), 4, {16, 16}));
}

TEST(SwapText, SaysTheNumbersAndWhyNotInBothLanguages) {
  SwapTry t;
  t.grid_from = "8,32";
  t.grid_to = "32,8";
  t.block_from = "32,8";
  t.block_to = "8,32";
  t.sectors_before = 17367040;
  t.sectors_after = 2629632;
  t.time_before_ms = 2;
  t.time_after_ms = 1.3;
  EXPECT_EQ(swap_text(t).rfind("tried: swap x and y thread mapping: 17,367,040 -> 2,629,632 sectors, estimated "
                               "time 65% of now",
                               0),
            0u)
      << swap_text(t);
  for (const char* why : {"sectors", "slower", "results", "findings"}) {
    t.failed = why;
    const std::string s = swap_text(t);
    EXPECT_NE(s.find("It did not help"), std::string::npos) << s;
    EXPECT_EQ(s.find("Fix:"), std::string::npos) << s;
    EXPECT_EQ(s.find("swap.why"), std::string::npos) << s;  // the reason's key is in the catalog
    LangGuard g;
    set_lang(Lang::kJa);
    const std::string ja = swap_text(t);
    EXPECT_NE(ja.find("勧めません"), std::string::npos) << ja;
    EXPECT_EQ(ja.find_first_of(";?"), std::string::npos) << ja;
    EXPECT_EQ(ja.find("。 "), std::string::npos) << ja;
    EXPECT_EQ(ja.find("tried"), std::string::npos) << ja;
  }
}

// One verdict for every re-run (the pad and the swap tried): the targeted count must fall, then the
// buffers stay byte-equal, no finding is added and the estimate does not grow, in that order.
TEST(RerunVerdict, TheCountFirstThenResultsFindingsAndTime) {
  FileLaunch f;
  FileRun first;
  first.buffers.push_back(FileBuffer{"arg 0 (a)", "a", 0, "float", 1, 4, {0, 0, 128, 63}});
  const DeviceProfile profile = profiles::nvidia_h100();
  const TryContext c{f, first, profile, profile, LaunchConfig{}};
  FileRun same = first;
  EXPECT_EQ(rerun_verdict("conflicts", 100, 0, 2.0, 1.0, same, c), "");
  EXPECT_EQ(rerun_verdict("conflicts", 100, 100, 2.0, 1.0, same, c), "conflicts");
  EXPECT_EQ(rerun_verdict("sectors", 100, 120, 2.0, 1.0, same, c), "sectors");
  EXPECT_EQ(rerun_verdict("sectors", 100, 50, 2.0, 2.0001, same, c), "");  // within rounding: no slower
  EXPECT_EQ(rerun_verdict("sectors", 100, 50, 2.0, 2.1, same, c), "slower");
  FileRun found = first;
  found.report.findings.emplace_back();
  EXPECT_EQ(rerun_verdict("sectors", 100, 50, 2.0, 2.1, found, c), "findings");
  FileRun other = found;
  other.buffers[0].bytes[2] = 0;
  EXPECT_EQ(rerun_verdict("sectors", 100, 50, 2.0, 2.1, other, c), "results");
  EXPECT_EQ(rerun_verdict("sectors", 100, 100, 2.0, 2.1, other, c), "sectors");
}
