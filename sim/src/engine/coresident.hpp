// Co-resident groups (coresident.cpp): a launch whose groups may wait for each other.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <map>
#include <mutex>
#include <vector>

#include "engine/launch_state.hpp"

namespace tgsim::detail {

class GroupRun;

class Coresidency {
 public:
  // `count` groups of the launch, taken in order; at most `limit` resident at once.
  Coresidency(const LaunchState& st, std::uint64_t count, std::uint64_t limit);
  ~Coresidency();
  // The next group's index (0, 1, ... count - 1) once the device could hold it; false when no
  // group is left or the launch hangs. Each index taken is left by ended() or park().
  bool admit(std::uint64_t* index);
  void ended();
  void park(std::unique_ptr<GroupRun> run);  // its group is stuck (GroupRun::run)
  // After the workers: the parked groups run on in turns until they end or none can.
  void finish();
  // The groups that parked, each ended by now (their counts and findings).
  const std::vector<std::unique_ptr<GroupRun>>& runs() const { return done_; }

 private:
  bool round();  // each parked group resumed once: whether any progressed
  void hang(const std::string& why_of_first);
  std::string too_many() const;
  const LaunchState& st_;
  const std::uint64_t count_, limit_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::uint64_t next_ = 0, running_ = 0;
  bool hung_ = false;
  bool descending_ = false;  // the next round's order
  std::map<std::uint64_t, std::unique_ptr<GroupRun>> parked_;  // by group
  std::vector<std::unique_ptr<GroupRun>> done_;
};

// The groups of this launch's size and shared memory the device holds at once (occupancy.hpp).
std::uint64_t resident_limit(const LaunchState& st);

}  // namespace tgsim::detail
