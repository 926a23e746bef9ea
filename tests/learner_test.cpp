// For learners: the message catalog and the text helpers (widths, wrapping,
// suggestions, relative paths), the source view's shares and rules (checked by rerunning the
// fixed variant), and the tile, shuffle and sweep pictures.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <tgsim/tgsim.hpp>

#include "i18n.hpp"
#include "messages.hpp"
#include "rules.hpp"
#include "source_view.hpp"
#include "shuffle_picture.hpp"
#include "svg.hpp"
#include "catalog.hpp"
#include "commands.hpp"
#include "predict.hpp"
#include "validate.hpp"

namespace {

using namespace tgsim;
using namespace tgsim::cli;

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

struct LangGuard {  // restores English after a test that switches language
  ~LangGuard() { set_lang(Lang::kEn); }
};

TEST(Text, DisplayWidthCountsJapaneseTwice) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("バンク"), 6u);
  EXPECT_EQ(display_width("（32）"), 6u);
  EXPECT_EQ(pad_left("バンク", 8), "  バンク");
  EXPECT_EQ(display_width(clip("バンクコンフリクト", 7)), 7u);
}

TEST(Text, WrapFitsTheWidthInEnglishAndJapanese) {
  const std::string en = "tiling cuts load requests 16x (1,048,576 -> 65,536 at tile 16), yet the traffic "
                         "behind L1 does not fall: L2 reads 262,144 vs 262,144 sectors.";
  const std::string ja = "この行が推定時間の 87.8% を占めます。共有メモリへのアクセスが 32,768 命令で 1,048,576 "
                         "ウェーブフロント（1 命令あたり 32.0、バンクコンフリクト 1,015,808）。";
  for (std::size_t w : {30u, 41u, 60u}) {
    for (const std::string& text : {en, ja}) {
      const std::string out = wrap("  " + text, w, 4);
      std::string joined;
      for (const std::string& l : lines_of(out)) {
        EXPECT_LE(display_width(l), w) << l;
        EXPECT_NE(l.substr(l.find_first_not_of(' ')).rfind("、", 0), 0u) << "a line starts with a comma: " << l;
        joined += l.substr(l.find_first_not_of(' '));
      }
      std::string squeezed = text;
      std::erase(squeezed, ' ');
      std::erase(joined, ' ');
      EXPECT_EQ(joined, squeezed);  // nothing lost, nothing added
      EXPECT_EQ(out.rfind("  ", 0), 0u);  // the paragraph's own indentation stays
    }
  }
  EXPECT_EQ(wrap("a\n\nb c", 100), "a\n\nb c");  // paragraphs and blank lines kept
}

TEST(Text, ClosestNameIsSuggested) {
  std::vector<std::string> names;
  for (const auto& e : catalog::entries()) names.push_back(e.name);
  EXPECT_EQ(closest("matmul_tile16", names), "matmul_tiled16");
  EXPECT_EQ(closest("transpos_shared", names), "transpose_shared");
  EXPECT_EQ(closest("zzzz", names), "");
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(Text, PathsRelativeInsideTheCurrentDirectory) {
  const std::string cwd = std::filesystem::current_path().string();
  EXPECT_EQ(relative_path(cwd + "/kernels/transpose.cuh"), "kernels/transpose.cuh");
  EXPECT_EQ(relative_path("relative/x.cuh"), "relative/x.cuh");
  if (cwd != "/") {
    EXPECT_EQ(relative_path("/nonexistent-root-dir/x.cuh"), "/nonexistent-root-dir/x.cuh");
  }
}

// Every literal key passed to tr()/trf() in the command's sources, and the keys built at run
// time (rules, ranking units), is in the catalog.
TEST(Messages, EveryKeyTheCodeUsesIsInTheCatalog) {
  const std::regex call(R"re(\btrf?\("([a-z0-9_.-]+)"\s*[,)])re");
  std::size_t found = 0;
  for (const auto& f : std::filesystem::directory_iterator(TGSIM_CLI_DIR)) {
    if (f.path().extension() != ".cpp") continue;
    std::ifstream in(f.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator it(text.begin(), text.end(), call), end; it != end; ++it) {
      ++found;
      EXPECT_TRUE(has_message((*it)[1].str())) << (*it)[1] << " in " << f.path();
    }
  }
  EXPECT_GT(found, 40u);
  for (const char* rule : {"pad", "sequential", "shuffle", "coalesce", "coalesce_store", "stage"}) {
    EXPECT_TRUE(has_message(std::string("rule.") + rule));
    EXPECT_TRUE(has_message(std::string("rule.") + rule + ".title"));
  }
  for (const char* rule : {"coalesce", "coalesce_store"})  // the swap tried (rules.cpp rule_title, rule_text)
    for (const char* part : {".seen", ".swap.title", ".swap_none.title", ".swap_none"})
      EXPECT_TRUE(has_message(std::string("rule.") + rule + part)) << rule << part;
  for (const char* key : {"swap.strides", "swap.strides_store"})
    for (const char* part : {".x", ".xy"}) EXPECT_TRUE(has_message(std::string(key) + part)) << key << part;
  for (const char* unit : {"l1", "l2", "dram", "latency"}) EXPECT_TRUE(has_message(std::string("src.share.") + unit));
}

std::multiset<std::string> placeholders(const std::string& s) {
  std::multiset<std::string> out;
  const std::regex ph(R"(\{[0-9]?\})");
  for (std::sregex_iterator it(s.begin(), s.end(), ph), end; it != end; ++it) out.insert(it->str());
  return out;
}

TEST(Messages, EveryMessageHasJapaneseWithTheSameNumbersAndTheSeedsTerms) {
  for (const Message& m : messages()) {
    EXPECT_FALSE(m.ja.empty()) << m.key;
    if (!m.en.empty()) {
      EXPECT_EQ(placeholders(m.en), placeholders(m.ja)) << m.key;
    }
  }
  LangGuard g;
  set_lang(Lang::kJa);
  EXPECT_NE(tr("rule.pad").find("バンクコンフリクト"), std::string::npos);
  EXPECT_NE(tr("rule.coalesce").find("コアレッシング"), std::string::npos);
  EXPECT_NE(tr("rule.coalesce").find("セクタ"), std::string::npos);
  EXPECT_NE(tr("rule.stage").find("スレッドグループ"), std::string::npos);
  EXPECT_EQ(tr("check.clean"), "問題なし");
  EXPECT_EQ(trf("err.did_you_mean", {"matmul_tiled16"}), "もしかして matmul_tiled16 ですか？");
  EXPECT_TRUE(set_lang_from("en"));
  EXPECT_EQ(tr("check.clean"), "clean");
  EXPECT_FALSE(set_lang_from("fr"));
  EXPECT_EQ(trf("rule.checked", {"k", "64", "x 1 -> 0", "2.0", "1.0"}),
            "Checked by rerunning k at n=64: x 1 -> 0; estimate 2.0 -> 1.0 us.");
}

// The report of a catalog kernel run with a capture: its warp 0's shuffles (Report::shuffles).
Report captured_shuffles(const std::string& kernel, const std::string& site) {
  catalog::RunOptions o;
  o.n = 65536;
  o.threads = 2;
  o.capture_site = site;
  return catalog::run(Device{}, kernel, o).report;
}

TEST(Pictures, ValueLabelsKeepThreeSignificantDigits) {
  EXPECT_EQ(fmt3(0.0213), "0.0213");
  EXPECT_EQ(fmt3(0.0105), "0.0105");
  EXPECT_EQ(fmt3(0.00512), "0.00512");
  EXPECT_EQ(fmt3(0.213), "0.213");
  EXPECT_EQ(fmt3(1.524), "1.52");
  EXPECT_EQ(fmt3(80.93), "80.9");
  EXPECT_EQ(fmt3(442.4), "442");
  EXPECT_EQ(fmt3(1234567), "1.23M");
}

// Value labels of neighbouring bars never overlap (about 7 px per character at 11 px), and
// measured points are drawn where given.
TEST(Pictures, SweepLabelsDoNotOverlapAndMeasuredPointsAreDrawn) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Bar> bars = {{"predicted ms", {0.0213, 0.0105, 0.0102}, {80.9, nan, 21.0}, "H100 measured"},
                           {"load requests", {1048576, 65536, 32768}}};
  const std::string svg = bars_svg("t", {"matmul_naive", "matmul_tiled16", "matmul_tiled32"}, bars);
  for (const char* want : {">0.0213<", ">0.0105<", ">0.0102<", ">80.9<", ">21<", "H100 measured"})
    EXPECT_NE(svg.find(want), std::string::npos) << want;
  EXPECT_EQ(count(svg, "class='measured'"), 2u);
  const std::regex label(R"(<text x='(\d+)' y='\d+' text-anchor='middle' font-size='11'>([^<]+)</text>)");
  std::vector<std::pair<int, std::string>> labels;
  for (std::sregex_iterator it(svg.begin(), svg.end(), label), end; it != end; ++it)
    labels.push_back({std::stoi((*it)[1]), (*it)[2]});
  ASSERT_GE(labels.size(), 6u);
  for (std::size_t i = 1; i < 3; ++i) {
    const int gap = labels[i].first - labels[i - 1].first;
    EXPECT_GE(gap, int(std::max(labels[i].second.size(), labels[i - 1].second.size())) * 7) << labels[i].second;
  }
}

CapturedInstruction column_store(int cols) {  // s[lane][0] of an int tile with `cols` columns
  CapturedInstruction c;
  c.present = true;
  c.kind = SiteKind::kSharedStore;
  c.width = 4;
  c.mask = 0xffffffffu;
  for (int l = 0; l < 32; ++l) c.addr[l] = std::uint64_t(l * cols) * 4;
  return c;
}

TEST(Pictures, TileShowsEachLanesCellAndItsBankSideBySideWithThePaddedTile) {
  TilePanel a, b;
  a.c = column_store(32);
  a.label = "transpose_shared: s[32][32]";
  b.c = column_store(33);
  b.cols = 33;
  b.label = "transpose_padded: s[32][33]";
  const std::string svg = tile_svg({a, b}, profiles::nvidia_h100(), "t");
  for (const char* want : {"bank of s[row][col] = (row*32 + col) mod 32", "bank of s[row][col] = (row*33 + col) mod 32",
                           "lane 1: s[1][0]  (1*32 + 0) mod 32 = 0", "lane 1: s[1][0]  (1*33 + 0) mod 32 = 1",
                           "lane 2: s[2][0]  (2*33 + 0) mod 32 = 2", "1 bank for 32 lanes: 32 wavefronts (31 bank conflicts)",
                           "32 banks for 32 lanes: 1 wavefront (0 bank conflicts)", "transpose_padded: s[32][33]"})
    EXPECT_NE(svg.find(want), std::string::npos) << want;
  EXPECT_EQ(count(svg, "<rect x="), 32u * 32u + 32u * 33u);  // one square per word of both tiles
}

TEST(Pictures, JapaneseTextsInTheShuffleAndBarPictures) {
  LangGuard g;
  set_lang(Lang::kJa);
  const std::string shuffle = shuffle_svg("reduce_shuffle", captured_shuffles("reduce_shuffle", "reduce.cu:39"));
  EXPECT_NE(shuffle.find(">オフセット 16<"), std::string::npos);
  EXPECT_NE(shuffle.find("共有メモリ"), std::string::npos);
  EXPECT_EQ(shuffle.find("An arrow"), std::string::npos);
  std::vector<Bar> bars = {{"ms", {3, 2}, {2.5, std::nan("")}}};
  const std::string chart = bars_svg("sweep", {"a", "b"}, bars);
  EXPECT_NE(chart.find("最大値"), std::string::npos);
  EXPECT_NE(chart.find(">実測<"), std::string::npos);
  EXPECT_EQ(chart.find("each group of bars"), std::string::npos);
  // The sweep chart that `explain --sweep --svg` writes: title and bar labels.
  const std::string file = (std::filesystem::temp_directory_path() / "tgsim_learner_sweep_ja.svg").string();
  cli::ExplainOptions o;
  o.kernel = "matmul";
  o.sweep = "tile=naive,16";
  o.n = 64;
  o.svg = file;
  std::ostringstream out, err;
  ASSERT_EQ(cli::explain(out, err, o), 0) << err.str();
  std::ifstream in(file);
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(svg.find("行列積、n=64"), std::string::npos);
  EXPECT_NE(svg.find(">推定 ms<"), std::string::npos);
  EXPECT_NE(svg.find(">共有メモリのウェーブフロント<"), std::string::npos);
  EXPECT_EQ(svg.find("load requests"), std::string::npos);
  std::filesystem::remove(file);
}

// reduce_shuffle as warp 0 of block 0 runs it: its own sum (reduce.cu:39), then, as warp 0,
// the sum of the warps' sums (reduce.cu:45): 2 x 5 steps of __shfl_down_sync, 16 + 24 + 28 + 30 +
// 31 lanes reading another lane in each five (lane l reads l + offset where that is in the warp).
TEST(Pictures, ShufflePictureDrawsTheShufflesAsTheyRan) {
  const Report r = captured_shuffles("reduce_shuffle", "reduce.cu:39");
  ASSERT_EQ(r.shuffles.size(), 10u);
  EXPECT_EQ(r.shuffles_total, 10u);
  const std::string svg = shuffle_svg("reduce_shuffle", r);
  EXPECT_EQ(count(svg, "<g class='shuffle-step'"), 10u);
  EXPECT_EQ(count(svg, "<line "), 2u * (16u + 24u + 28u + 30u + 31u));
  EXPECT_EQ(count(svg, ">offset 16<"), 2u);
  EXPECT_EQ(count(svg, ">reduce.cu:45<"), 5u);
  const std::string text = shuffle_text(r, 100, 2);
  EXPECT_NE(text.find("1. __shfl_down_sync, offset 16 (reduce.cu:39): lanes 0-15 read lane l+16; lanes 16-31 keep"),
            std::string::npos) << text;
  EXPECT_NE(text.find("10. __shfl_down_sync, offset 1 (reduce.cu:45): lanes 0-30 read lane l+1; lane 31 keeps its"),
            std::string::npos) << text;
}

catalog::Result run(const std::string& k, int n) {
  catalog::RunOptions o;
  o.n = n;
  o.threads = 2;
  return catalog::run(Device{}, k, o);
}

SourceView view_of(const catalog::Result& r) {
  const Estimate e = catalog::predict(*catalog::find(r.report.kernel), r, profiles::nvidia_h100());
  return source_view(r.report, r.n, "nvidia-h100", e);
}

TEST(SourceView, SharesSumToOneWorstFirstAndMatchTheUnitsTraffic) {
  const catalog::Result r = run("transpose_shared", 64);
  const SourceView v = view_of(r);
  ASSERT_EQ(v.unit, "l1");
  double sum = 0;
  for (std::size_t i = 0; i < v.lines.size(); ++i) {
    sum += v.lines[i].share;
    if (i) {
      EXPECT_GE(v.lines[i - 1].share, v.lines[i].share);
    }
  }
  EXPECT_NEAR(sum, 1.0, 1e-9);
  const LineCost& worst = v.lines.front();
  EXPECT_TRUE(worst.file.ends_with("kernels/transpose.cu")) << worst.file;
  const std::vector<std::string> text = read_lines(worst.file);
  ASSERT_GE(text.size(), worst.line);
  EXPECT_NE(text[worst.line - 1].find("s[lx][ly] = in["), std::string::npos);
  // l1 traffic of the launch = global sectors + shared wavefronts (estimate.cpp).
  const Counters& c = r.report.counters;
  const double l1 = double(c.global_load.sectors + c.global_store.sectors + c.shared_load.wavefronts +
                           c.shared_store.wavefronts);
  EXPECT_NEAR(worst.share, double(worst.sectors + worst.wavefronts) / l1, 1e-12);
  EXPECT_EQ(worst.conflicts, c.shared_store.bank_conflicts());
}

// The first rule of each kernel (worst line first), and its fix confirmed by the rerun.
TEST(Rules, ChosenFromTheCountersOfTheWorstLines) {
  const struct {
    const char* kernel;
    int n;
    const char* rule;
  } cases[] = {{"transpose_shared", 64, "pad"},          {"transpose_naive", 64, "coalesce"},
               {"matmul_naive", 64, "stage"},            {"reduce_interleaved", 65536, "sequential"},
               {"reduce_sequential", 65536, "shuffle"}, {"transpose_padded", 64, ""}};
  for (const auto& k : cases) {
    const catalog::Result r = run(k.kernel, k.n);
    const std::vector<Advice> a = advise(view_of(r), r, profiles::nvidia_h100(), Device{}, 2);
    EXPECT_EQ(a.empty() ? std::string() : a.front().rule, k.rule) << k.kernel;
    if (!a.empty()) {
      EXPECT_TRUE(a.front().confirmed) << k.kernel;  // each has a fixed variant
    }
  }
}

TEST(Rules, FixIsCheckedByRerunningTheFixedVariant) {
  const catalog::Result r = run("transpose_shared", 64);
  const std::vector<Advice> a = advise(view_of(r), r, profiles::nvidia_h100(), Device{}, 2);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a[0].rule, "pad");
  EXPECT_EQ(a[0].fix_kernel, "transpose_padded");
  EXPECT_TRUE(a[0].confirmed);
  ASSERT_FALSE(a[0].changes.empty());
  EXPECT_EQ(a[0].changes[0].counter, "ctr.conflicts");
  EXPECT_EQ(a[0].changes[0].before, double(r.report.counters.shared_store.bank_conflicts()));
  EXPECT_EQ(a[0].changes[0].after, 0.0);
  EXPECT_LT(a[0].time_after_ms, a[0].time_before_ms);
}


// Issue 15: a kernel's tour place, sentence and fixed variants live in its catalog entry.
// Every entry the tour shows explains a run in English and in Japanese (the seeds' terms, no
// English sentence left), and the rules' fixes come from the entries.
TEST(Catalog, EveryTourEntryExplainsItselfInBothLanguages) {
  const std::regex english_words(R"([A-Za-z]{3,} [a-z]{3,} [a-z]{3,})");  // three English words in a row
  catalog::Results done;
  std::size_t seen = 0;
  for (int section : {1, 2}) {
    const auto list = catalog::tour_entries(section);
    EXPECT_FALSE(list.empty()) << section;
    for (const catalog::Entry* e : list) {
      ASSERT_TRUE(e->explain) << e->name;
      catalog::RunOptions o;
      o.n = e->tour.n;
      done[e->name] = catalog::run(Device{}, e->name, o);
      const catalog::Text t = e->explain(done[e->name], done);
      EXPECT_GT(t.en.size(), 40u) << e->name;
      EXPECT_GE(t.ja.size() - display_width(t.ja), 10u) << e->name;  // CJK: 3 bytes, 2 columns each
      EXPECT_FALSE(std::regex_search(t.ja, english_words)) << e->name << ": " << t.ja;
      ++seen;
    }
  }
  EXPECT_EQ(seen, 19u);
  EXPECT_EQ(catalog::fix_for("transpose_shared", "pad"), "transpose_padded");
  EXPECT_EQ(catalog::fix_for("matmul_naive", "stage"), "matmul_tiled16");
  EXPECT_EQ(catalog::fix_for("transpose_padded", "pad"), "");
}

std::vector<double> numbers_after(const std::string& text, const std::string& anchor, std::size_t count) {
  std::vector<double> out;
  std::size_t p = text.find(anchor);
  if (p == std::string::npos) return out;
  const std::regex num(R"(\d+\.\d+)");
  const std::string rest = text.substr(p + anchor.size());
  for (auto it = std::sregex_iterator(rest.begin(), rest.end(), num); it != std::sregex_iterator() && out.size() < count;
       ++it)
    out.push_back(std::stod(it->str()));
  return out;
}

// One story per profile: under apple-m3 the tour's header and cache figures are the M3's, and
// the tour, `explain --sweep --at 2048` and `predict` give the same naive and tiled16 times.
TEST(Tour, AppleM3HeaderAndTimesAgreeWithExplainAndPredict) {
  std::ostringstream tour_out;
  cli::tour(tour_out, 0, false, "apple-m3");
  const std::string t = tour_out.str();
  EXPECT_NE(t.find("Device apple-m3: 10 SMs (cores), L1 8 KiB per SM, L2 8 MiB"), std::string::npos) << t.substr(0, 400);
  EXPECT_EQ(t.find("50 MiB"), std::string::npos);
  const std::vector<double> tour_ms = numbers_after(t, "the estimate at n=2048 is naive", 2);
  ASSERT_EQ(tour_ms.size(), 2u) << t;

  cli::ExplainOptions o;
  o.kernel = "matmul";
  o.sweep = "tile=naive,16";
  o.profile = "apple-m3";
  o.at = 2048;
  std::ostringstream ex, err;
  ASSERT_EQ(cli::explain(ex, err, o), 0) << err.str();
  const std::vector<double> naive = numbers_after(ex.str(), "\nmatmul_naive", 1);
  const std::vector<double> tiled = numbers_after(ex.str(), "\nmatmul_tiled16", 1);
  ASSERT_EQ(naive.size(), 1u) << ex.str();
  ASSERT_EQ(tiled.size(), 1u) << ex.str();
  EXPECT_NEAR(tour_ms[0], naive[0], 0.051) << ex.str();
  EXPECT_NEAR(tour_ms[1], tiled[0], 0.051) << ex.str();

  catalog::Prediction p;
  catalog::add_m3_pairs(p, std::filesystem::path(catalog::default_fixture_path()).parent_path() / "apple_m3_seed001.json");
  bool found = false;
  for (const auto& r : p.pairs)
    if (r.n == 2048) {
      found = true;
      EXPECT_NEAR(r.predicted, naive[0] / tiled[0], 0.01);
    }
  EXPECT_TRUE(found);
}


// A Japanese tour: no English sentence left (known phrases of each paragraph and sentence),
// the seeds' terms present, every line within 100 display columns.
TEST(Tour, JapaneseTourHasNoEnglishSentenceAndFits100Columns) {
  LangGuard g;
  set_lang(Lang::kJa);
  std::ostringstream out;
  cli::tour(out, 0, false, "nvidia-h100");
  const std::string t = out.str();
  for (const char* english : {"Matmul, the seed 001 puzzle", "What decides", "Transpose, seed 002", "Verdict",
                              "every thread reads", "loads fall", "the load walks", "What the numbers say",
                              "Every result equals", "Why tiling helps", "Times above", "Device nvidia-h100"})
    EXPECT_EQ(t.find(english), std::string::npos) << english;
  for (const char* term : {"スレッドグループ", "バンクコンフリクト", "コアレッシング", "セクタ", "ワープ", "共有メモリ"})
    EXPECT_NE(t.find(term), std::string::npos) << term;
  for (const std::string& l : lines_of(t)) EXPECT_LE(display_width(l), 100u) << l;
}

// English left in a Japanese text: three ASCII words in a row, or the English findings' and
// explain's phrases.
void expect_japanese(const std::string& t, bool fits = true) {
  const std::regex sentence(R"(\b[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}\b)");
  for (const std::string& l : lines_of(t)) {
    EXPECT_FALSE(std::regex_search(l, sentence)) << l;
    if (fits) {
      EXPECT_LE(display_width(l), 100u) << l;
    }
  }
  for (const char* english : {"stores", "loads", "no barrier", "the barrier", "thread ", "block ", "e.g.", "wavefront", "bank conf",
                              "launch:", "estimate", "bound by", "wrote", "lane ->", "sectors of", "measured"})
    EXPECT_EQ(t.find(english), std::string::npos) << english << " in\n" << t;
}

// Every kind of finding has a Japanese example built from its fields (sites, threads, the
// word), and the simulator's English message in English.
TEST(Check, EveryFindingKindHasAJapaneseExampleFromItsFields) {
  LangGuard g;
  for (int k = 0; k <= static_cast<int>(FindingKind::kUnsupported); ++k) {
    Finding f;
    f.kind = static_cast<FindingKind>(k);
    f.file = "/x/k.cu";
    f.line = 38;
    f.thread = Dim3{5, 1, 0};
    f.warp = 1;
    f.lane = 5;
    f.message = "the English message";
    if (is_hazard(f.kind)) {
      f.file2 = "/x/k.cu";
      f.line2 = 33;
      f.thread2 = Dim3{7, 2, 0};
      f.object = "tile";
      f.index = 42;
    }
    set_lang(Lang::kEn);
    EXPECT_EQ(finding_example(f), f.message);
    set_lang(Lang::kJa);
    const std::string ja = finding_example(f);
    SCOPED_TRACE(to_string(f.kind));
    EXPECT_NE(ja.find("スレッド (5,1,0)（ワープ 1 レーン 5）"), std::string::npos) << ja;
    EXPECT_NE(ja.find("k.cu:38"), std::string::npos) << ja;
    EXPECT_TRUE(has_message("finding." + std::string(to_string(f.kind))));
    expect_japanese(ja, false);  // one sentence, wrapped where it is printed
    if (is_hazard(f.kind)) {
      EXPECT_NE(ja.find("k.cu:33"), std::string::npos) << ja;
      EXPECT_NE(ja.find("tile[42]"), std::string::npos) << ja;
      EXPECT_NE(ja.find("スレッド (7,2,0)"), std::string::npos) << ja;
      EXPECT_NE(ja.find(f.kind >= FindingKind::kWarpRaw ? "__syncwarp" : "バリア"), std::string::npos) << ja;
      f.block2 = Dim3{1, 0, 0};  // two threadgroups: no order at all
      EXPECT_NE(finding_example(f).find("スレッドグループ (1,0,0) のスレッド (7,2,0)"), std::string::npos);
      EXPECT_NE(finding_example(f).find("スレッドグループの間には順序がない"), std::string::npos);
    }
  }
}

// `tgsim --lang ja check`: every finding line Japanese (a race, out of bounds, a divergent
// barrier), the English message still in English.
TEST(Check, JapaneseFindingsHaveNoEnglishSentence) {
  LangGuard g;
  struct Case {
    const char* kernel;
    int n;
    const char* ja;
  };
  for (const Case& c : {Case{"matmul_tiled16_nobarrier1", 32, "間にバリアがない"},
                        Case{"transpose_oob", 64, "範囲外にアクセスする"},
                        Case{"divergent_barrier", 256, "一緒に到達しない"}}) {
    CheckOptions o;
    o.kernel = c.kernel;
    o.n = c.n;
    std::ostringstream en, ja, err;
    set_lang(Lang::kEn);
    EXPECT_EQ(check(en, err, o), 1);
    set_lang(Lang::kJa);
    EXPECT_EQ(check(ja, err, o), 1);
    const std::string joined = std::regex_replace(ja.str(), std::regex("\n +"), "");  // undo the wrapping
    EXPECT_NE(joined.find(c.ja), std::string::npos) << ja.str();
    EXPECT_NE(ja.str().find("例: スレッドグループ"), std::string::npos) << ja.str();
    expect_japanese(ja.str());
    EXPECT_NE(en.str().find("e.g. block"), std::string::npos) << en.str();
  }
}

// `tgsim --lang ja explain`: the instruction, the launch, the estimate and "wrote" lines, and
// the sweep table whose Japanese header keeps the columns of its rows.
TEST(Explain, JapaneseInstructionAndSweepHaveNoEnglishSentence) {
  LangGuard g;
  set_lang(Lang::kJa);
  const std::string svg = (std::filesystem::temp_directory_path() / "learner_ja_bank.svg").string();
  ExplainOptions o;
  o.kernel = "transpose_shared";
  o.n = 256;
  o.svg = svg;
  std::ostringstream out, err;
  ASSERT_EQ(explain(out, err, o), 0) << err.str();
  EXPECT_NE(out.str().find("ウェーブフロント 32（理想 1、バンクコンフリクト 31）"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(svg + " に書き出した"), std::string::npos) << out.str();
  expect_japanese(out.str());
  std::filesystem::remove(svg);

  ExplainOptions s;
  s.kernel = "matmul";
  s.sweep = "tile=8,16";
  s.n = 64;
  s.at = 2048;  // a size the H100 was timed at
  std::ostringstream sweep;
  ASSERT_EQ(explain(sweep, err, s), 0) << err.str();
  const std::vector<std::string> lines = lines_of(sweep.str());
  ASSERT_GE(lines.size(), 5u);  // the header in three rows (共有メモリ / ウェーブ / フロント), the names on the last
  EXPECT_NE(lines[2].find("リクエスト"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find("カーネル"), std::string::npos) << lines[2];
  EXPECT_EQ(display_width(lines[2]), display_width(lines[3])) << lines[2] << "\n" << lines[3];
  EXPECT_NE(sweep.str().find("H100 の実測"), std::string::npos) << sweep.str();
  expect_japanese(sweep.str());
}

}  // namespace
