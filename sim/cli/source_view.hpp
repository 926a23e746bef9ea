// `tgsim explain KERNEL --source` and `--html FILE`: the kernel's source lines with the
// counters of their access sites beside them, each line's share of the estimated time, the
// worst lines first, and for the worst lines a rule (rules.hpp) with its fix, checked by
// rerunning the fixed variant where the catalog has one.
//
// Share of the estimated time: the estimate (tgsim/estimate.hpp) is the time of its largest
// term, the unit that binds (l1, l2, dram, latency). A line's share is its part of that
// unit's traffic: l1 = global sectors + shared wavefronts (+ shared atomics), l2 and dram =
// global load sectors that miss L1 + store and atomic sectors (the model has no per-site
// DRAM count: DRAM is apportioned as L2 traffic), latency = global load instructions. A
// kernel bound by fp32 has no memory unit that binds; its lines are ranked by l1 traffic and
// the output says so.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <tgsim/estimate.hpp>
#include <tgsim/report.hpp>

namespace tgsim::cli {

struct LineCost {
  std::string file;  // as the site names it (absolute, from std::source_location)
  std::uint32_t line = 0;
  std::vector<SiteCounters> sites;  // the line's access sites, in column order
  std::uint64_t requests = 0;       // global warp instructions (loads, stores, atomics)
  std::uint64_t sectors = 0;        // their sectors
  std::uint64_t shared_inst = 0;    // shared warp instructions
  std::uint64_t wavefronts = 0, conflicts = 0;
  std::uint64_t other = 0;  // BAR, SHFL, votes, constant loads on the line
  double cost = 0;          // traffic in the ranking unit
  double share = 0;         // cost / the kernel's traffic in that unit (0..1)
  double l1_share = 0;      // the same in the l1 unit
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0; }
};

struct SourceView {
  std::string kernel;
  int n = 0;
  std::string profile;
  Estimate est;
  std::string unit;          // the ranking unit: est.bound, or "l1" when fp32 binds
  std::vector<LineCost> lines;  // worst first (share, then file and line)
};

// The traffic of one site in `unit` (see the file comment).
double site_cost(const SiteCounters& s, const std::string& unit);
SourceView source_view(const Report& r, int n, const std::string& profile, const Estimate& e);

// `s` with each tab replaced by spaces to the next multiple of 8 columns.
std::string expand_tabs(const std::string& s);
// The source text of `file` (lines 1-based; empty when unreadable).
std::vector<std::string> read_lines(const std::string& file);
// Line ranges to show: from the function head above the first site to the closing brace
// after the last, per file, merged where they overlap.
struct Range {
  std::string file;
  std::uint32_t first = 0, last = 0;
};
std::vector<Range> ranges(const SourceView& v, const std::vector<std::string>& text_of_file);

struct Advice;  // rules.hpp
// The terminal page: worst lines, rules, and the source listing, fitting `width` columns.
void print_source(std::ostream& os, const SourceView& v, const std::vector<Advice>& advice, std::size_t width);
// One self-contained HTML page (inline CSS and SVG, no scripts, nothing fetched).
std::string source_html(const SourceView& v, const std::vector<Advice>& advice,
                        const std::vector<std::string>& svgs);

}  // namespace tgsim::cli
