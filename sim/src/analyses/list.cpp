// What the engine asks of the analyses (engine/analyses.hpp), over the registration list
// (list.hpp): a worker's sinks, the launch-wide state some analyses share between workers, and
// the launch end.
#include <algorithm>
#include <memory>

#include "analyses/list.hpp"
#include "engine/analyses.hpp"
#include "memory/device_memory.hpp"

namespace tgsim::detail {

void SinksDelete::operator()(Sinks* s) const { delete s; }

SinksPtr make_sinks(LaunchState& st, const SinkEnv& env) { return SinksPtr(new Sinks(st, env)); }

bool sinks_want_lanes(const Sinks& s) { return s.wants_lanes(); }

void start_analyses(LaunchState& st, bool per_sm, std::uint64_t ngroups, std::uint64_t first) {
  if (st.cfg.check) st.grid = std::make_shared<GridShadow>();
  if (per_sm) {  // every SM adds its misses and stores to one launch-wide footprint
    const DeviceSpan span = device_address_span();
    const DeviceProfile& profile = st.profile;
    st.footprint = std::make_shared<LaunchFootprint>(profile, span.begin, span.end);
    st.sm_replay = std::make_shared<SmReplay>(
        profile, std::min<std::uint64_t>(std::max<std::uint32_t>(profile.sm_count, 1), ngroups), first);
  }
}

void merge_sinks(const std::vector<const Sinks*>& workers, MergeContext& m) { Sinks::merge(workers, m); }

}  // namespace tgsim::detail
