// The cache model's SMs (cache.hpp): group g is placed on SM g % sm_count, and each SM's L1
// must see its groups' global loads in group order, so that hits (and every count) are the
// same for any worker count and schedule. The groups themselves run on any worker, in
// parallel, dispatched in group order from one counter (launch.cpp). A group whose SM has
// replayed every earlier group when it starts (claim) owns that SM's L1 until it ends and
// looks its loads up directly; any other group records its loads' sectors (CacheSink) and
// hands the record over when it ends, and the SM replays it once the earlier groups are
// replayed, holding it until then. A recording group claims again as its record grows, and
// replays what it has as soon as its SM is free, so a long group's record stays short.
// Memory: the records held are those of groups that end while an earlier group of their SM
// still runs. With groups of similar length and fewer workers than SMs that is about none
// (the SM's previous group started sm_count groups earlier); with more workers than SMs,
// about one per worker; one group far longer than the rest holds back the records
// of its SM's later groups until it ends (at most 1 / sm_count of the launch's loads).
// This replaces one task per SM (its 132 tasks left 16 workers at most 92% busy).
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <tgsim/profile.hpp>

#include "analyses/cache/cache.hpp"

namespace tgsim::detail {

class SmReplay {
 public:
  // `first`: the lowest group of the launch's slice (LaunchConfig::slice): each SM starts at
  // its first group at or above it, with a cold L1.
  SmReplay(const DeviceProfile& p, std::uint64_t sm_count, std::uint64_t first = 0)
      : l1_bytes_(p.l1_bytes), line_(p.l1_line_bytes), sector_(p.sector_bytes), ways_(p.l1_ways),
        n_(sm_count), sms_(sm_count) {
    for (std::uint64_t s = 0; s < n_; ++s) sms_[s].next = first + (s + n_ - first % n_) % n_;
  }

  // SM g % sm_count's L1 if every earlier group of that SM is replayed: group g owns it until
  // it ends (submit), as no other group can be next. Else null: g records its loads.
  L1Cache* claim(std::uint64_t g) {
    Sm& sm = sms_[g % n_];
    if (sm.next.load(std::memory_order_acquire) != g) return nullptr;  // acquire: the L1 as left
    if (!sm.l1) sm.l1.emplace(l1_bytes_, line_, sector_, ways_);
    return &*sm.l1;
  }

  // Group g has ended; `rec` holds the loads it did not look up itself (claim). If g is next on
  // its SM, rec is replayed by replay(l1, rec), then every held record that has become next, in
  // order; else rec is moved out and held. The SM's lock is held while it replays: workers
  // that end groups of one SM at once take turns.
  template <class Replay>
  void submit(std::uint64_t g, std::vector<std::uint64_t>& rec, Replay&& replay) {
    Sm& sm = sms_[g % n_];
    std::lock_guard<std::mutex> lock(sm.mu);
    std::uint64_t next = sm.next.load(std::memory_order_relaxed);
    if (g != next) {
      sm.held.emplace(g, std::move(rec));
      rec.clear();
      return;
    }
    if (!sm.l1) sm.l1.emplace(l1_bytes_, line_, sector_, ways_);
    replay(*sm.l1, rec);
    for (next += n_; !sm.held.empty() && sm.held.begin()->first == next; next += n_) {
      replay(*sm.l1, sm.held.begin()->second);
      sm.held.erase(sm.held.begin());
    }
    sm.next.store(next, std::memory_order_release);
  }

 private:
  // One cache line pair per SM: groups of neighbouring SMs run at once on different workers,
  // and each L1 lookup writes its L1's clock.
  struct alignas(128) Sm {
    std::mutex mu;
    std::atomic<std::uint64_t> next{0};  // the group this SM replays next (written under mu)
    std::optional<L1Cache> l1;  // made for the SM's first group; cold at the launch start
    std::map<std::uint64_t, std::vector<std::uint64_t>> held;  // later groups' records
  };
  std::size_t l1_bytes_;  // the profile's L1 geometry (copied: the profile may not outlive us)
  std::uint32_t line_, sector_, ways_;
  std::uint64_t n_;
  std::vector<Sm> sms_;
};

}  // namespace tgsim::detail
