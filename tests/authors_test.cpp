// For learners and kernel authors (issue 38): tables whose counts reach 10^9 keep their columns
// apart, file paths as the user gave them, and the texts of the command's reports.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <tgsim/testing.hpp>
#include <tgsim/tgsim.hpp>

#include "i18n.hpp"
#include "rules.hpp"
#include "source_view.hpp"

void authors_stride2(const float* in, float* out);  // tests/authors/matchers.cu

namespace {

using namespace tgsim;
using namespace tgsim::cli;

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Two numbers with thousands separators run together: "1,107,296,2561,040,187,392" has a
// group of four digits after a comma.
bool runs_together(const std::string& text) { return std::regex_search(text, std::regex(R"(,\d{4})")); }

TEST(Columns, AWideCellKeepsASpaceBeforeIt) {
  EXPECT_EQ(pad_left("1,107,296,256", 11), " 1,107,296,256");
  EXPECT_EQ(pad_left("107,296,256", 11), " 107,296,256");
  EXPECT_EQ(pad_left("7,296,256", 11), "  7,296,256");
}

TEST(Columns, ReportTableWidensForBillions) {
  Report r;
  r.kernel = "big";
  r.counters.global_load.thread_accesses = 35'433'480'192;
  r.counters.global_load.instructions = 1'107'296'256;
  r.counters.global_load.sectors = 1'040'187'392;
  r.counters.global_store.thread_accesses = 1'107'296'256;
  r.counters.global_store.instructions = 1'040'187'392;
  r.counters.global_store.sectors = 9'999'999'999;
  r.counters.shared_load.thread_accesses = 35'433'480'192;
  r.counters.shared_load.instructions = 1'107'296'256;
  r.counters.shared_load.wavefronts = 35'433'480'192;
  r.counters.shared_load.ideal_wavefronts = 1'107'296'256;
  std::ostringstream os;
  write_text(os, r);
  const std::string text = os.str();
  EXPECT_FALSE(runs_together(text)) << text;
  // The columns stay aligned: each row of the table is as long as its header.
  const std::vector<std::string> l = lines_of(text);
  ASSERT_GE(l.size(), 7u);
  for (int i : {2, 3, 4, 5, 6}) EXPECT_EQ(l[i].size(), l[1].size()) << text;
}

TEST(Columns, SourceViewKeepsBillionsApart) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "tgsim_authors_test";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "big.cu").string();
  std::ofstream(file) << "__global__ void big(float* a) {\n  a[threadIdx.x] += 1.0f;\n}\n";
  SourceView v;
  v.kernel = "big";
  v.profile = "nvidia-h100";
  v.unit = "l1";
  LineCost l;
  l.file = file;
  l.line = 2;
  l.requests = 1'107'296'256;
  l.sectors = 35'433'480'192;
  l.shared_inst = 1'107'296'256;
  l.wavefronts = 35'433'480'192;
  l.conflicts = 34'326'183'936;
  l.share = 1.0;
  v.lines.push_back(l);
  std::ostringstream os;
  print_source(os, v, {}, 100);
  EXPECT_FALSE(runs_together(os.str())) << os.str();
  EXPECT_NE(os.str().find("34,326,183,936"), std::string::npos) << os.str();
  std::filesystem::remove_all(dir);
}

TEST(Paths, CatalogFilesOutsideTheCurrentDirectoryAreNamedFromTheProjectRoot) {
  const std::filesystem::path old = std::filesystem::current_path();
  std::filesystem::current_path(std::filesystem::temp_directory_path());
  const std::string shown = relative_path(std::string(TGSIM_KERNELS_DIR) + "/transpose.cu");
  std::filesystem::current_path(old);
  EXPECT_EQ(shown, "kernels/transpose.cu");
}

// tests/authors/matchers.cu on one warp, launched as the README's GoogleTest example does (no name
// in the LaunchConfig).
Report stride2() {
  Device dev;
  auto in = dev.alloc<float>(32, "in"), out = dev.alloc<float>(32, "out");
  LaunchConfig cfg;
  cfg.grid = Dim3(1);
  cfg.block = Dim3(32);
  cfg.check = true;
  return dev.launch(cfg, authors_stride2, in.data(), out.data());
}

TEST(Matchers, FailureMessagesNameTheKernel) {
  const Report r = stride2();
  EXPECT_EQ(r.kernel, "authors_stride2");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(r, tgsim::testing::HasFindingCount(3)), "Report of authors_stride2");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(r, tgsim::testing::GlobalLoadSectors(5)), "Report of authors_stride2");
}

TEST(Matchers, HasSiteMatchesOneSiteOfTheLine) {
  using namespace tgsim::testing;
  const Report r = stride2();
  EXPECT_THAT(r, HasSite("matchers.cu:6", Wavefronts(2)));  // the shared store
  EXPECT_THAT(r, HasSite("matchers.cu:6", Conflicts(1)));
  EXPECT_THAT(r, HasSite("matchers.cu:6", Sectors(4)));     // the global load
  EXPECT_THAT(r, HasSite("authors/matchers.cu:8", Instructions(1)));
  EXPECT_THAT(r, ::testing::Not(HasSite("matchers.cu:6", Wavefronts(32))));
  EXPECT_THAT(r, ::testing::Not(HasSite("atchers.cu:6", Wavefronts(2))));  // a file name, not any suffix
  EXPECT_THAT(r, ::testing::Not(HasSite("matchers.cu:7", Sectors(4))));
  // The failure names the sites at the spec and what they hold, or that there is none.
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(r, HasSite("matchers.cu:6", Wavefronts(32))), "wavefronts 2");
  EXPECT_NONFATAL_FAILURE(EXPECT_THAT(r, HasSite("matchers.cu:99", Wavefronts(32))),
                          "authors_stride2 has no site at matchers.cu:99");
}

}  // namespace
