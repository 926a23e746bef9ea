// Every kernel of the catalog against the Nsight Compute counters recorded on an H100
// (tests/hardware/h100.json, recorded by tests/hardware/record_h100.sh). No GPU needed.
#include <gtest/gtest.h>

#include "validate.hpp"

namespace {

// Every kernel at its fixture size takes about a minute on two cores: run it once.
const tgsim::catalog::Validation& validation() {
  static const tgsim::catalog::Validation v = tgsim::catalog::validate_against(TGSIM_FIXTURE);
  return v;
}

TEST(Hardware, EveryCatalogKernelIsInTheFixture) {
  const auto& v = validation();
  EXPECT_TRUE(v.catalog_kernels_missing.empty());
  EXPECT_FALSE(v.kernels.empty());
  EXPECT_NE(v.gpu.find("H100"), std::string::npos);
}

TEST(Hardware, CountersEqualH100) {
  const auto& v = validation();
  std::size_t compared = 0;
  for (const auto& k : v.kernels) {
    EXPECT_TRUE(k.correct_tgsim) << k.kernel;
    EXPECT_TRUE(k.correct_h100) << k.kernel;
    for (const auto& r : k.rows) {
      if (!r.compared) continue;
      ++compared;
      EXPECT_EQ(r.tgsim, r.h100) << k.kernel << " " << r.counter << " vs " << r.metric;
    }
  }
  EXPECT_EQ(compared, v.kernels.size() * 17);  // 11 memory and BAR rows, SHFL, atomics (4), constant replays
  if (!v.all_equal()) ADD_FAILURE() << "\n" << tgsim::catalog::format_table(v);
}

TEST(Hardware, MissingFixtureIsAClearError) {
  EXPECT_THROW(tgsim::catalog::validate_against("/nonexistent/h100.json"), std::runtime_error);
}

}  // namespace
