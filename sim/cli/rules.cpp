#include "rules.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "i18n.hpp"
#include "predict.hpp"
#include <tgsim/internal/text.hpp>
#include "try_pad.hpp"
#include "try_swap.hpp"

namespace tgsim::cli {

using internal::fixed;

namespace {

std::string num(double v) { return internal::with_commas(static_cast<std::uint64_t>(std::llround(v))); }

double per(std::uint64_t a, std::uint64_t b) { return b ? double(a) / double(b) : 0.0; }

// The counters a rule names, over the whole launch, in the order the rule text gives them.
std::vector<Change> measure(const std::string& rule, const Counters& c) {
  const std::uint64_t conflicts = c.shared_load.bank_conflicts() + c.shared_store.bank_conflicts();
  const std::uint64_t wavefronts = c.shared_load.wavefronts + c.shared_store.wavefronts;
  if (rule == "pad" || rule == "sequential")
    return {{"ctr.conflicts", double(conflicts)},
            {"ctr.shared_wavefronts", double(wavefronts)},
            {"ctr.shared_instructions", double(c.shared_load.instructions + c.shared_store.instructions)}};
  if (rule == "coalesce")
    return {{"ctr.load_spr", per(c.global_load.sectors, c.global_load.requests()), 0, true},
            {"ctr.load_sectors", double(c.global_load.sectors)},
            {"ctr.load_requests", double(c.global_load.requests())},
            {"ctr.shared_wavefronts", double(wavefronts)}};
  if (rule == "coalesce_store")
    return {{"ctr.store_spr", per(c.global_store.sectors, c.global_store.requests()), 0, true},
            {"ctr.store_sectors", double(c.global_store.sectors)}};
  if (rule == "stage")
    return {{"ctr.load_requests", double(c.global_load.requests())},
            {"ctr.load_sectors", double(c.global_load.sectors)},
            {"ctr.l2_sectors", double(c.l2_read_sectors + c.l2_write_sectors)},
            {"ctr.shared_wavefronts", double(wavefronts)}};
  // shuffle
  return {{"ctr.shared_loads", double(c.shared_load.instructions)},
          {"ctr.barriers", double(c.barriers)},
          {"ctr.shfl", double(c.shfl)}};
}

}  // namespace

// Criteria, first match wins:
//   pad / sequential: a shared access on the line takes at least twice its ideal wavefronts
//     (reduce_interleaved's conflicts come from its index, s[2*s*tid], not from a tile, so
//     its fix is sequential addressing rather than padding);
//   shuffle: the line loads and stores shared memory (s[tid] += s[tid + s]) in a kernel with
//     barriers and no shuffles: a tree reduction through shared memory;
//   coalesce: a global load takes at least twice the sectors its bytes need;
//   coalesce_store: the same for a global store, on a line whose loads call for no rule;
//   stage: a global load whose sectors mostly hit L1 (reuse across the group) in a kernel
//     without shared memory: tiling makes the reuse explicit.
std::string rule_for(const std::string& kernel, const LineCost& l, const Counters& kc) {
  bool sh_load = false, sh_store = false;
  for (const SiteCounters& s : l.sites) {
    const AccessCounters& c = s.counters;
    if ((s.kind == SiteKind::kSharedLoad || s.kind == SiteKind::kSharedStore) && c.ideal_wavefronts &&
        c.wavefronts >= 2 * c.ideal_wavefronts)
      return kernel == "reduce_interleaved" ? "sequential" : "pad";
    sh_load = sh_load || s.kind == SiteKind::kSharedLoad;
    sh_store = sh_store || s.kind == SiteKind::kSharedStore;
  }
  if (sh_load && sh_store && kc.barriers > 0 && kc.shfl == 0) return "shuffle";
  const bool kernel_shared = kc.shared_load.instructions + kc.shared_store.instructions > 0;
  for (const SiteCounters& s : l.sites) {
    const AccessCounters& c = s.counters;
    if (s.kind != SiteKind::kGlobalLoad || c.instructions == 0) continue;
    const double need = std::ceil(per(c.bytes, c.instructions) / 32.0);
    if (per(c.sectors, c.instructions) >= 2 * std::max(1.0, need)) return "coalesce";
    if (!kernel_shared && c.l1_hit_sectors * 2 >= c.sectors) return "stage";
  }
  for (const SiteCounters& s : l.sites) {  // a line whose loads call for nothing: its stores
    const AccessCounters& c = s.counters;
    if (s.kind != SiteKind::kGlobalStore || c.instructions == 0) continue;
    const double need = std::ceil(per(c.bytes, c.instructions) / 32.0);
    if (per(c.sectors, c.instructions) >= 2 * std::max(1.0, need)) return "coalesce_store";
  }
  return "";
}

std::vector<Advice> advise(const SourceView& v, const catalog::Result& r, const DeviceProfile& prof,
                           const Device& sim_dev, unsigned threads, std::size_t max_lines) {
  std::vector<Advice> out;
  const catalog::Entry* e = catalog::find(r.report.kernel);
  for (const LineCost& l : v.lines) {
    if (out.size() == max_lines) break;
    if (l.share < kRuleShare && l.l1_share < kRuleL1Share) continue;
    const std::string rule = rule_for(v.kernel, l, r.report.counters);
    if (rule.empty()) continue;
    Advice a;
    a.file = l.file;
    a.line = l.line;
    a.rule = rule;
    a.n = r.n;
    a.bound = v.est.bound;
    a.fix_kernel = catalog::fix_for(v.kernel, rule);  // the entry names its fixed variants
    if (!a.fix_kernel.empty() && e) {
      catalog::RunOptions opt;
      opt.n = r.n;
      opt.threads = threads;
      const catalog::Result fixed_run = catalog::run(sim_dev, a.fix_kernel, opt);
      const std::vector<Change> before = measure(rule, r.report.counters);
      const std::vector<Change> after = measure(rule, fixed_run.report.counters);
      for (std::size_t i = 0; i < before.size(); ++i) {
        Change c = before[i];
        c.after = after[i].before;
        a.changes.push_back(c);
      }
      a.confirmed = a.changes[0].after < a.changes[0].before && fixed_run.correct;
      a.time_before_ms = catalog::predict(*e, r, prof).time_ms();
      a.time_after_ms = catalog::predict(*catalog::find(a.fix_kernel), fixed_run, prof).time_ms();
    }
    out.push_back(std::move(a));
  }
  return out;
}

bool pad_helped(const Advice& a) {
  return std::any_of(a.tried.begin(), a.tried.end(), [](const PadTry& t) { return t.helps(); });
}

bool swap_helped(const Advice& a) {
  return std::any_of(a.swapped.begin(), a.swapped.end(), [](const SwapTry& t) { return t.helps(); });
}

std::string rule_title(const Advice& a) {
  if (!a.swapped.empty()) return tr("rule." + a.rule + (swap_helped(a) ? ".swap.title" : ".swap_none.title"));
  return tr(!a.tried.empty() && !pad_helped(a) ? "rule.pad.none.title" : "rule." + a.rule + ".title");
}

std::string rule_text(const Advice& a, const LineCost& l) {
  const std::vector<std::string> nums = {num(double(l.requests)), fixed(l.sectors_per_request(), 1),
                                         num(double(l.shared_inst)), num(double(l.wavefronts)),
                                         num(double(l.conflicts)), fixed(per(l.wavefronts, l.shared_inst), 1)};
  const std::string lead = l.share >= kRuleShare ? trf("rule.lead", {fixed(100 * l.share, 1)})
                                                 : trf("rule.lead.l1", {fixed(100 * l.share, 1), bound_name(a.bound),
                                                                        fixed(100 * l.l1_share, 1)});
  // Japanese sentences follow one another without a space, and list with 、 rather than ";".
  const bool ja = lang() == Lang::kJa;
  const std::string sp = ja ? "" : " ";
  if (!a.swapped.empty()) {  // the thread mapping swapped on the user's kernel FILE (try_swap.hpp)
    std::string t = lead + sp + trf("rule." + a.rule + ".seen", nums) + sp + swap_strides_text(a.swapped.front());
    for (const SwapTry& x : a.swapped) t += "\n   " + swap_text(x);
    return t + (swap_helped(a) ? "" : "\n   " + tr("rule." + a.rule + ".swap_none"));
  }
  if (!a.tried.empty()) {  // pads tried on the user's kernel FILE (try_pad.hpp): what the re-runs showed
    std::string t = lead + sp + trf("rule.pad.seen", nums);
    for (const PadTry& p : a.tried) t += "\n   " + tried_text(p);
    return t + (pad_helped(a) ? "" : "\n   " + tr("rule.pad.none"));
  }
  std::string t = lead + sp + trf("rule." + a.rule, nums);
  if (a.fix_kernel.empty()) return t + sp + tr("rule.unchecked");
  std::string changes;
  for (const Change& c : a.changes) {
    changes += (changes.empty() ? "" : ja ? "、" : "; ") + tr(c.counter) + " " +
               (c.per_instruction ? fixed(c.before, 1) + " -> " + fixed(c.after, 1)
                                  : num(c.before) + " -> " + num(c.after));
  }
  return t + sp +
         trf(a.confirmed ? "rule.checked" : "rule.not_confirmed",
             {a.fix_kernel, std::to_string(a.n), changes, fixed(a.time_before_ms * 1e3, 1),
              fixed(a.time_after_ms * 1e3, 1)});
}

}  // namespace tgsim::cli
