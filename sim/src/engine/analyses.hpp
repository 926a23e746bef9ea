// What the engine asks of the analyses, without knowing which there are: the list is assembled
// in analyses/list.hpp and these are defined beside it (analyses/list.cpp). The events
// themselves are handed over by the stream (stream/warp_flush.cpp, stream/events.cpp).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace tgsim::detail {

class Sinks;
struct SinkEnv;
struct MergeContext;
struct LaunchState;

struct SinksDelete {
  void operator()(Sinks* s) const;
};
using SinksPtr = std::unique_ptr<Sinks, SinksDelete>;

// One worker's sinks (GroupRun holds them).
SinksPtr make_sinks(LaunchState& st, const SinkEnv& env);
// Whether any sink must see every shared row's lanes (SinkSet::wants_lanes).
bool sinks_want_lanes(const Sinks& s);
// The launch-wide state of the analyses, made before any group runs: the checker's grid table
// (cfg.check), the cache model's footprint and SMs (when `per_sm`: cfg.cache_model with every
// group counted, `ngroups` groups from `first`).
void start_analyses(LaunchState& st, bool per_sm, std::uint64_t ngroups, std::uint64_t first);
// The launch end: every worker's sinks added into each analysis' total, then finished.
void merge_sinks(const std::vector<const Sinks*>& workers, MergeContext& m);

}  // namespace tgsim::detail
