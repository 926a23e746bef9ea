// Co-resident groups: groups of one launch that wait for each other (a flag one block sets and
// another spins on). On the GPU the blocks of a grid that fits the device run at once, so such a
// wait ends; tgsim runs a group until it ends or is stuck (every thread that can run spins on a
// value nobody of its group sets: spin.cpp), then parks it, keeping its threads, and goes on
// with the next group. Groups are admitted in group order from one counter; at most `limit`
// (occupancy.hpp; and at most 16,384 threads, for their stacks) are resident, running or
// parked, as on the device. When no group runs and the
// parked ones fill the device, or after the last group started, the parked groups are resumed
// in turns, in group order and then in reverse, on one thread, until each ends; a turn in which none of them moved
// means nobody will set what they wait for: a watchdog finding at each one's spin (on the GPU
// the launch would hang), and they are ended. A spin's repeated iterations are not counted
// (spin.cpp), so counts and findings are the same for any worker count, whether a group spun
// or found its flag already set.
#include "engine/coresident.hpp"

#include <algorithm>

#include "engine/group.hpp"
#include "engine/guard.hpp"
#include "engine/occupancy.hpp"

namespace tgsim::detail {

namespace {

std::uint64_t device_limit(const LaunchState& st) {
  const int per_sm = blocks_per_sm(st.profile, static_cast<int>(st.cfg.block.volume()), st.shared_bytes);
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::max(per_sm, 1)) * st.profile.sm_count);
}

// Each thread of a parked group keeps its stack, two memory mappings (the stack and its guard):
// at most this many threads are resident, so the process stays below Linux's default of 65,530
// mappings (vm.max_map_count) whatever the grid. A fixed number: the same on every machine.
constexpr std::uint64_t kResidentThreads = 16384;

std::uint64_t stack_limit(const LaunchState& st) {
  return std::max<std::uint64_t>(1, kResidentThreads / std::max<std::uint64_t>(1, st.cfg.block.volume()));
}

}  // namespace

std::uint64_t resident_limit(const LaunchState& st) { return std::min(device_limit(st), stack_limit(st)); }

Coresidency::Coresidency(const LaunchState& st, std::uint64_t count, std::uint64_t limit)
    : st_(st), count_(count), limit_(limit) {}

Coresidency::~Coresidency() = default;

bool Coresidency::admit(std::uint64_t* index) {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (hung_ || next_ >= count_) return false;
    if (parked_.size() + running_ < limit_) break;
    if (running_ == 0) {  // the device is full of waiting groups: they take turns
      if (!round()) {
        hang(too_many());
        return false;
      }
      continue;
    }
    cv_.wait(lock);
  }
  *index = next_++;
  ++running_;
  return true;
}

void Coresidency::ended() {
  std::lock_guard<std::mutex> lock(mu_);
  --running_;
  cv_.notify_all();
}

void Coresidency::park(std::unique_ptr<GroupRun> run) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::uint64_t g = run->group();
  parked_.emplace(g, std::move(run));
  --running_;
  cv_.notify_all();
}

void Coresidency::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  if (parked_.empty()) return;
  install_stack_guard();  // this thread's signal stack, for the resumed threads' stack overflows
  while (!parked_.empty())
    if (!round())
      hang("spins on one address that no thread of the launch sets: every other threadgroup has "
           "ended or waits too, so on the GPU the launch would hang; the group was ended");
}

// Each parked group resumed once, in group order, then in the reverse order in the next round,
// so a chain of groups that each wait for the next (or the previous) one ends in two rounds.
bool Coresidency::round() {
  install_stack_guard();
  std::vector<std::uint64_t> order;
  for (const auto& [g, run] : parked_) order.push_back(g);
  if (descending_) std::reverse(order.begin(), order.end());
  descending_ = !descending_;
  bool progressed = false;
  for (std::uint64_t g : order) {
    auto it = parked_.find(g);
    const GroupRun::Resumed r = it->second->resume();
    progressed |= r.progressed;
    if (r.end == GroupRun::RunEnd::kEnded) {
      done_.push_back(std::move(it->second));
      parked_.erase(it);
    }
  }
  return progressed;
}

void Coresidency::hang(const std::string& why) {
  for (auto& [g, run] : parked_) {
    run->end_parked(why);
    done_.push_back(std::move(run));
  }
  parked_.clear();
  hung_ = true;
  cv_.notify_all();
}

std::string Coresidency::too_many() const {
  const std::string rest = ", all " + std::to_string(limit_) + " wait, and the grid's " +
                           std::to_string(count_ - next_) + " blocks not yet started cannot start until one of them ends";
  if (limit_ < device_limit(st_))
    return "spins on one address that no resident thread sets: tgsim keeps at most " + std::to_string(limit_) +
           " groups of " + std::to_string(st_.cfg.block.volume()) + " threads waiting at once (" +
           std::to_string(kResidentThreads) + " threads' stacks)" + rest + "; " + st_.profile.name +
           " holds " + std::to_string(device_limit(st_)) +
           " such blocks at once, so on the GPU the launch may go on; the waiting groups were ended "
           "and the rest of the grid did not run";
  const int per_sm = blocks_per_sm(st_.profile, static_cast<int>(st_.cfg.block.volume()), st_.shared_bytes);
  return "spins on one address that no resident thread sets: " + st_.profile.name + " holds at most " +
         std::to_string(limit_) + " blocks of " + std::to_string(st_.cfg.block.volume()) + " threads and " +
         std::to_string(st_.shared_bytes) + " bytes of shared memory at once (" + std::to_string(per_sm) +
         " per SM x " + std::to_string(st_.profile.sm_count) + " SMs)" + rest +
         ", so on the GPU the launch would hang; the waiting groups were ended and the rest of the "
         "grid did not run";
}

}  // namespace tgsim::detail
