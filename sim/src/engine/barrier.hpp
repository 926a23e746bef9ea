// Barrier: the arrivals of one group's threads at its barrier (__syncthreads, bar.sync 0), kept
// as they happen so that the end of a pass, the release and the warp flush need no scan of the
// group's threads in the common case: per warp, the lanes that wait at a barrier and the lanes
// that exited; the numbers of both; the first arrival's call site and whether every arrival
// since the last release named that same source_location object (one call site has one such
// object: a compare of its bytes, no strcmp). Exited threads count as arrived (PTX: exited
// threads do not hold up bar.sync). When live threads wait at different call sites, the
// divergence is described here (barrier.cpp); the scheduler (GroupRun) decides what follows.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <string>
#include <vector>

namespace tgsim::detail {

class Barrier {
 public:
  // A group of `nthreads` threads (warps of 32 lanes, the last one maybe partial).
  void resize(std::uint32_t nthreads) {
    nthreads_ = nthreads;
    waiting_.assign((nthreads + 31) / 32, 0u);
    exited_mask_.assign(waiting_.size(), 0u);
  }
  void reset() {  // a group starts: nobody waits or exited
    std::fill(waiting_.begin(), waiting_.end(), 0u);
    std::fill(exited_mask_.begin(), exited_mask_.end(), 0u);
    arrived_ = exited_ = 0;
    one_loc_ = true;
  }
  // Thread (warp, lane) waits at the barrier at `loc`.
  void arrive(std::uint32_t warp, std::uint32_t lane, const std::source_location& loc) {
    waiting_[warp] |= 1u << lane;
    if (arrived_++ == 0) at_ = loc;
    else one_loc_ &= std::memcmp(&loc, &at_, sizeof loc) == 0;
  }
  // Thread (warp, lane) exited: arrived at every barrier from now on.
  void exit(std::uint32_t warp, std::uint32_t lane) {
    exited_mask_[warp] |= 1u << lane;
    ++exited_;
  }
  // Every thread of the group was unwound (it exited).
  void all_exited() {
    std::fill(waiting_.begin(), waiting_.end(), 0u);
    for (std::uint32_t w = 0; w < exited_mask_.size(); ++w)
      exited_mask_[w] = ~0u >> (32 - std::min<std::uint32_t>(32, nthreads_ - w * 32));
    arrived_ = 0;
    exited_ = nthreads_;
  }
  // Every thread waits or exited: nobody is ready or in a warp collective.
  bool all_stopped() const { return arrived_ + exited_ == nthreads_; }
  std::uint32_t arrived() const { return arrived_; }
  // Every arrival since the last release named one source_location object (then first_site()).
  bool one_site() const { return one_loc_; }
  const std::source_location& first_site() const { return at_; }
  std::uint32_t waiting(std::uint32_t warp) const { return waiting_[warp]; }
  std::uint32_t exited(std::uint32_t warp) const { return exited_mask_[warp]; }
  std::uint32_t warps() const { return static_cast<std::uint32_t>(waiting_.size()); }
  // The barrier is released: `ready(thread)` for every waiting thread, `pending(warp, lanes)`
  // with the number of each warp's waiting lanes (they run again); nobody waits after it.
  template <class Ready, class Pending>
  void release(Ready&& ready, Pending&& pending) {
    for (std::uint32_t w = 0; w < waiting_.size(); ++w) {
      for (std::uint32_t m = waiting_[w]; m; m &= m - 1) ready(w * 32 + static_cast<std::uint32_t>(std::countr_zero(m)));
      pending(w, static_cast<std::uint32_t>(std::popcount(waiting_[w])));
      waiting_[w] = 0;
    }
    arrived_ = 0;
    one_loc_ = true;
  }

  // Divergence: live threads wait at different call sites. `at[i]` is where thread i waits,
  // null where it exited.
  // Whether the waiting lanes of some warp wait at different sites (no defined outcome).
  bool warp_split_across_sites(const std::vector<const std::source_location*>& at) const;
  // The finding: the site most threads wait at (`main`), the first divergent thread (`other`,
  // the lowest thread waiting elsewhere or exited), and the text "N of M threads reached the
  // barrier at f:l; the others ..." (the form synccheck users know), up to the thread's name.
  struct Divergence {
    const std::source_location* main = nullptr;
    std::uint32_t other = 0;
    std::string message;
  };
  Divergence describe_divergence(const std::vector<const std::source_location*>& at) const;

 private:
  std::vector<std::uint32_t> waiting_, exited_mask_;  // per warp
  std::uint32_t arrived_ = 0, exited_ = 0, nthreads_ = 0;
  std::source_location at_;
  bool one_loc_ = true;
};

}  // namespace tgsim::detail
