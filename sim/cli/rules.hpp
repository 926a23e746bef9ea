// Rules for the worst source lines, as Nsight Compute's rule texts give them: what the
// counters show, the fix, and which counters the fix changes. A rule is chosen from the
// line's counters (rules.cpp says how); where the catalog has the fixed variant of the kernel
// (transpose_shared -> transpose_padded, matmul_naive -> matmul_tiled16, ...) it is run at
// the same size and the counters the rule names are printed before and after, with the
// estimate, so the claim is checked rather than asserted.
#pragma once
#include <string>
#include <vector>

#include <tgsim/profile.hpp>

#include "catalog.hpp"
#include "source_view.hpp"

namespace tgsim::cli {

struct Change {
  std::string counter;  // message key of the counter's name
  double before = 0, after = 0;
  bool per_instruction = false;  // a ratio (printed with one decimal)
};

struct Advice {
  std::string file;
  std::uint32_t line = 0;
  std::string rule;        // "pad", "coalesce", "stage", "sequential", "shuffle"
  std::string fix_kernel;  // the catalog's fixed variant, "" when it has none
  int n = 0;
  std::string bound;            // the unit that binds the estimate
  std::vector<Change> changes;  // filled when the fix was rerun
  bool confirmed = false;       // the rule's first counter moved the way the rule says
  double time_before_ms = 0, time_after_ms = 0;
};

// The rule of a line, or "" (see rules.cpp for the criteria).
std::string rule_for(const std::string& kernel, const LineCost& l, const Counters& kernel_counters);
// A line gets a rule when it carries at least kRuleShare of the estimated time, or, where
// another unit binds (load latency, DRAM), at least kRuleL1Share of the L1 traffic: shared
// wavefronts and barriers that the binding unit hides today but that remain once it is fixed.
constexpr double kRuleShare = 0.05, kRuleL1Share = 0.2;
// Rules for the `max_lines` worst such lines (worst first), each fix rerun at n.
std::vector<Advice> advise(const SourceView& v, const catalog::Result& r, const DeviceProfile& estimate_profile,
                           const Device& sim_dev, unsigned threads, std::size_t max_lines = 3);

// The rule text (title and body) in the current language, with the line's own numbers.
std::string rule_title(const Advice& a);
std::string rule_text(const Advice& a, const LineCost& l);

}  // namespace tgsim::cli
