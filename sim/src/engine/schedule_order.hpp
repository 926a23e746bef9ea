// ScheduleOrder: the order in which a group's scheduler (GroupRun) starts its threads and
// resumes them after each barrier (LaunchConfig::schedule): in order, reversed, or, for
// Schedule::kShuffle, a new order of the group's threads (lanes of a warp and warps alike) for
// each barrier interval, from the seed, the group and the interval's number only, so a seed
// replays the same interleaving for any number of workers (--schedule shuffle:SEED).
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <tgsim/hash.hpp>
#include <tgsim/launch.hpp>

namespace tgsim::detail {

class ScheduleOrder {
 public:
  ScheduleOrder(Schedule schedule, std::uint64_t seed, std::uint32_t nthreads)
      : schedule_(schedule), seed_(seed), order_(nthreads) {}
  // Group `group` starts: its first interval's order.
  void start(std::uint64_t group) {
    group_ = group;
    interval_ = 0;
    for (std::uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
    switch (schedule_) {
      case Schedule::kInOrder: break;
      case Schedule::kReverse: std::reverse(order_.begin(), order_.end()); break;
      case Schedule::kShuffle: shuffle(); break;
    }
  }
  // A barrier was released: the next interval's order. False when it stays the same.
  bool next_interval() {
    if (schedule_ != Schedule::kShuffle) return false;
    ++interval_;
    shuffle();
    return true;
  }
  std::uint32_t operator[](std::uint32_t i) const { return order_[i]; }  // the i-th thread to run

 private:
  void shuffle() {
    std::uint64_t s = seed_ ^ (group_ * 0xD1B54A32D192ED03ull) ^ (interval_ * 0x9E3779B97F4A7C15ull);
    const std::uint32_t n = static_cast<std::uint32_t>(order_.size());
    for (std::uint32_t i = 0; i < n; ++i) order_[i] = i;
    for (std::uint32_t i = n; i > 1; --i) std::swap(order_[i - 1], order_[splitmix64(s) % i]);
  }
  Schedule schedule_;
  std::uint64_t seed_;
  std::vector<std::uint32_t> order_;
  std::uint64_t group_ = 0, interval_ = 0;  // barrier intervals of the group so far
};

}  // namespace tgsim::detail
