// GoogleTest matchers for a Report, so a kernel test is one line:
//   EXPECT_THAT(report, tgsim::testing::HasNoFindings());
//   EXPECT_THAT(report, HasFinding(FindingKind::kRaw, AtLines(38, 42)));
//   EXPECT_THAT(report, GlobalLoadSectors(262144));
//   EXPECT_THAT(report, HasSite("reduce.cu:15", Wavefronts(32)));
// Header-only; it includes <gmock/gmock.h>, so the test links GTest::gmock itself.
#pragma once
#include <gmock/gmock.h>

#include <cstdint>
#include <ostream>
#include <string>

#include <tgsim/kernel/abi.h>
#include <tgsim/report.hpp>

namespace tgsim {

// gtest prints these in failure messages (found by ADL).
inline void PrintTo(const Finding& f, std::ostream* os) {
  *os << to_string(f.kind) << " at " << f.where();
  if (!f.file2.empty()) *os << " and " << f.where2();
  *os << " [" << f.count << "]: " << f.message;
}
inline void PrintTo(const Report& r, std::ostream* os) {
  *os << "Report of " << r.kernel << " with " << r.findings.size() << " finding(s)";
  for (const Finding& f : r.findings) {
    *os << "\n    ";
    PrintTo(f, os);
  }
}

namespace testing {

// ---------------------------------------------------------------- findings of a Report

MATCHER(HasNoFindings, "has no findings") {
  if (arg.findings.empty()) return true;
  *result_listener << "has " << arg.findings.size() << " finding(s), the first: "
                   << to_string(arg.findings[0].kind) << " at " << arg.findings[0].where() << ": "
                   << arg.findings[0].message;
  return false;
}

MATCHER_P(HasFindingCount, n, "has " + ::testing::PrintToString(n) + " finding(s)") {
  *result_listener << "has " << arg.findings.size();
  return arg.findings.size() == static_cast<std::size_t>(n);
}

// A finding of `kind` (any site).
MATCHER_P(HasFinding, kind, std::string("has a ") + to_string(kind) + " finding") {
  for (const Finding& f : arg.findings)
    if (f.kind == kind) return true;
  *result_listener << "has none of that kind among " << arg.findings.size();
  return false;
}

// A finding of `kind` that also matches `m` (a Finding matcher such as AtLine(41)).
MATCHER_P2(HasFinding, kind, m,
           std::string("has a ") + to_string(kind) + " finding that " +
               ::testing::DescribeMatcher<const Finding&>(m)) {
  for (const Finding& f : arg.findings)
    if (f.kind == kind && ::testing::Matches(m)(f)) return true;
  *result_listener << "has none among " << arg.findings.size() << " finding(s)";
  return false;
}

// Every finding is of `kind` (and there is at least one).
MATCHER_P(OnlyFindingsOfKind, kind, std::string("has only ") + to_string(kind) + " findings") {
  if (arg.findings.empty()) {
    *result_listener << "has no findings";
    return false;
  }
  for (const Finding& f : arg.findings)
    if (f.kind != kind) {
      *result_listener << "has a " << to_string(f.kind) << " at " << f.where();
      return false;
    }
  return true;
}

// ---------------------------------------------------------------- one Finding

// The finding's (first) site is at `line`; for a hazard the second site may be anywhere.
MATCHER_P(AtLine, line, "is at line " + ::testing::PrintToString(line)) {
  *result_listener << "is at line " << arg.line;
  return arg.line == static_cast<std::uint32_t>(line);
}

// A hazard between `line1` (first access: the store of RAW/WAW, the load of WAR) and `line2`.
MATCHER_P2(AtLines, line1, line2,
           "is between lines " + ::testing::PrintToString(line1) + " and " +
               ::testing::PrintToString(line2)) {
  *result_listener << "is between lines " << arg.line << " and " << arg.line2;
  return arg.line == static_cast<std::uint32_t>(line1) &&
         arg.line2 == static_cast<std::uint32_t>(line2);
}

// The memory object (shared array or buffer name) the finding is about.
MATCHER_P(OnObject, name, "is about " + ::testing::PrintToString(name)) {
  *result_listener << "is about '" << arg.object << "'";
  return arg.object == name;
}

// The finding's source file ends with `name` ("matmul.cu").
MATCHER_P(InFile, name, "is in " + ::testing::PrintToString(name)) {
  std::string n = name, f = arg.file;
  *result_listener << "is in " << f;
  return f.size() >= n.size() && f.compare(f.size() - n.size(), n.size(), n) == 0;
}

// ---------------------------------------------------------------- counters of a Report

#define TGSIM_COUNTER_MATCHER(Name, expr, what)                                         \
  MATCHER_P(Name, n, std::string(what " == ") + ::testing::PrintToString(n)) {         \
    const ::tgsim::Counters& c = arg.counters;                                          \
    const std::uint64_t got = (expr);                                                   \
    *result_listener << what " is " << got;                                             \
    return got == static_cast<std::uint64_t>(n);                                        \
  }
TGSIM_COUNTER_MATCHER(GlobalLoadSectors, c.global_load.sectors, "global load sectors")
TGSIM_COUNTER_MATCHER(GlobalStoreSectors, c.global_store.sectors, "global store sectors")
TGSIM_COUNTER_MATCHER(GlobalLoadRequests, c.global_load.requests(), "global load requests")
TGSIM_COUNTER_MATCHER(GlobalStoreRequests, c.global_store.requests(), "global store requests")
TGSIM_COUNTER_MATCHER(SharedLoadWavefronts, c.shared_load.wavefronts, "shared load wavefronts")
TGSIM_COUNTER_MATCHER(SharedStoreWavefronts, c.shared_store.wavefronts, "shared store wavefronts")
TGSIM_COUNTER_MATCHER(SharedLoadRequests, c.shared_load.requests(), "shared load requests")
TGSIM_COUNTER_MATCHER(SharedStoreRequests, c.shared_store.requests(), "shared store requests")
TGSIM_COUNTER_MATCHER(BankConflicts, c.shared_load.bank_conflicts() + c.shared_store.bank_conflicts(),
                      "shared bank conflicts")
TGSIM_COUNTER_MATCHER(Barriers, c.barriers, "barriers (BAR per warp)")
TGSIM_COUNTER_MATCHER(Warpsyncs, c.warpsync, "__syncwarp rendezvous")
TGSIM_COUNTER_MATCHER(Shuffles, c.shfl, "SHFL instructions")
TGSIM_COUNTER_MATCHER(Votes, c.vote, "VOTE instructions")
#undef TGSIM_COUNTER_MATCHER

// ---------------------------------------------------------------- one source site of a Report

// Whether `site` is at `spec`, "file:line" or "file:line:column", where file may be a suffix of the
// site's path ("reduce.cu:15" names /home/me/reduce.cu line 15, every column).
inline bool SiteIsAt(const SiteCounters& site, const std::string& spec) {
  const std::size_t c1 = spec.find(':');
  if (c1 == std::string::npos) return false;
  const std::string file = spec.substr(0, c1);
  const std::string rest = spec.substr(c1 + 1);
  const std::size_t c2 = rest.find(':');
  const std::string line = rest.substr(0, c2), column = c2 == std::string::npos ? "" : rest.substr(c2 + 1);
  const std::string& f = site.file;
  const bool file_ok = f == file || (f.size() > file.size() && f.compare(f.size() - file.size(), file.size(), file) == 0 &&
                                     f[f.size() - file.size() - 1] == '/');
  return file_ok && line == std::to_string(site.line) &&
         (column.empty() || column == std::to_string(tgsim_site_column(site.column)));
}

// A site at `spec` ("reduce.cu:15", "reduce.cu:15:7") whose counters match `m`, a site matcher
// (Wavefronts(32), Sectors(4), Instructions(8), Conflicts(0), or any Matcher<const
// SiteCounters&>). A line with several sites (a load and a store) matches when one of them does;
// the failure message lists the sites at `spec`.
MATCHER_P2(HasSite, spec, m,
           "has a site at " + std::string(spec) + " that " + ::testing::DescribeMatcher<const SiteCounters&>(m)) {
  int at = 0;
  for (const SiteCounters& s : arg.sites) {
    if (!SiteIsAt(s, spec)) continue;
    ++at;
    ::testing::StringMatchResultListener why;
    if (::testing::MatcherCast<const SiteCounters&>(m).MatchAndExplain(s, &why)) return true;
    *result_listener << (at > 1 ? "; " : "") << s.where() << " " << to_string(s.kind) << " " << why.str();
  }
  if (at == 0) *result_listener << arg.kernel << " has no site at " << spec << " among " << arg.sites.size();
  return false;
}

#define TGSIM_SITE_MATCHER(Name, expr, what)                                   \
  MATCHER_P(Name, n, std::string(what " == ") + ::testing::PrintToString(n)) { \
    const ::tgsim::AccessCounters& c = arg.counters;                           \
    const std::uint64_t got = (expr);                                          \
    *result_listener << what " " << got;                                       \
    return got == static_cast<std::uint64_t>(n);                               \
  }
TGSIM_SITE_MATCHER(Wavefronts, c.wavefronts, "wavefronts")
TGSIM_SITE_MATCHER(Sectors, c.sectors, "sectors")
TGSIM_SITE_MATCHER(Instructions, c.instructions, "warp instructions")
TGSIM_SITE_MATCHER(Conflicts, c.bank_conflicts(), "bank conflicts")
#undef TGSIM_SITE_MATCHER

}  // namespace testing
}  // namespace tgsim
