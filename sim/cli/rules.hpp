// Rules for the worst source lines, as Nsight Compute's rule texts give them: what the
// counters show, the fix, and which counters the fix changes. A rule is chosen from the
// line's counters (rules.cpp says how); where the catalog has the fixed variant of the kernel
// (transpose_shared -> transpose_padded, matmul_naive -> matmul_tiled16, ...) it is run at
// the same size and the counters the rule names are printed before and after, with the
// estimate, so the claim is checked rather than asserted.
#pragma once
#include <cstdint>
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

// A pad of a conflicted shared array tried on a user's kernel FILE (try_pad.hpp): the launch
// re-run with the array's last dimension padded, in a temporary copy of the source.
struct PadTry {
  std::string array, from, to;  // "tile", "[16][18]", "[16][48]"
  std::uint32_t pad = 0;        // elements added to the last dimension
  std::uint64_t conflicts_before = 0, conflicts_after = 0;  // bank-conflict wavefronts of the launch
  double time_before_ms = 0, time_after_ms = 0;             // the estimate, before and after
  // "" when the re-run helps (fewer conflicts, no slower, the same buffers, no new finding);
  // else why not: "conflicts", "slower", "results", "findings" or "error" (it did not build or run)
  std::string failed;
  bool helps() const { return failed.empty(); }
};

// The x and y thread mapping swapped, tried on a user's kernel FILE for an uncoalesced global load
// (rule "coalesce") or store (rule "coalesce_store", try_swap.hpp): threadIdx/blockIdx/blockDim/gridDim
// .x <-> .y (Metal: the position attributes' .x <-> .y) in a temporary copy, the launch re-run with
// its grid and block dimensions swapped.
struct SwapTry {
  std::string grid_from, block_from, grid_to, block_to;   // "64,64", "16,16"
  std::int64_t stride_x = 0, stride_y = 0;                // bytes between lanes one thread apart in x, in y
  bool y_seen = false;                                    // the captured warp spans two rows of threads
  bool store = false;                                     // the access captured: a store (else a load)
  std::uint64_t sectors_before = 0, sectors_after = 0;    // global load and store sectors of the launch
  double time_before_ms = 0, time_after_ms = 0;           // the estimate, before and after
  // "" when the re-run helps (fewer sectors, no slower, the same buffers, no new finding); else why
  // not: "sectors", "slower", "results", "findings" or "error" (the copy did not build or run)
  std::string failed;
  bool helps() const { return failed.empty(); }
};

struct Advice {
  std::string file;
  std::uint32_t line = 0;
  std::string rule;        // "pad", "coalesce", "coalesce_store", "stage", "sequential", "shuffle"
  std::string fix_kernel;  // the catalog's fixed variant, "" when it has none
  int n = 0;
  std::string bound;            // the unit that binds the estimate
  std::vector<Change> changes;  // filled when the fix was rerun
  bool confirmed = false;       // the rule's first counter moved the way the rule says
  double time_before_ms = 0, time_after_ms = 0;
  std::vector<PadTry> tried;  // a kernel FILE's pads tried for rule "pad" (try_pad.hpp)
  std::vector<SwapTry> swapped;  // a kernel FILE's thread mapping swapped for rule "coalesce" or "coalesce_store" (try_swap.hpp)
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
