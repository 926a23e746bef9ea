// LogPool: the big buffers of lane logs (group.hpp's WarpLog::LaneLog), passed between the
// warps of one worker. A lane keeps up to kKeep records of room across flushes; past that, its
// buffer goes to the pool when its warp's log is emptied, and a lane that outgrows its own room
// takes a pooled buffer before asking malloc (a lane that gave its buffer away takes one at its
// first record, so lanes of the next warp do not grow again from nothing). So a barrier-free kernel, whose warps run one
// after another, holds about one warp's records instead of every warp's high-water room:
// seed 004's global matmul at n = 1000 (32 warps of lanes with 62,500 records each) held
// 512 MB of lane logs per worker (issue 39 item 7).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

namespace tgsim::detail {

class LogPool {
 public:
  static constexpr std::size_t kKeep = 1024;  // records a lane keeps across flushes (8 KB)
  LogPool() = default;
  LogPool(const LogPool&) = delete;
  LogPool& operator=(const LogPool&) = delete;
  ~LogPool() {
    for (const Buffer& b : bufs_) std::free(b.data);
  }
  void give(std::uint64_t* data, std::size_t capacity) { bufs_.push_back({data, capacity}); }
  bool empty() const { return bufs_.empty(); }
  // Lanes that hold more than kKeep records of room (counted as they grow past it and give it
  // back; an over-count only costs time): while none does, a flush empties lanes in place.
  std::size_t big_lanes = 0;
  // A pooled buffer of at least `capacity` records (the latest given that is big enough), or
  // {nullptr, 0}.
  std::pair<std::uint64_t*, std::size_t> take(std::size_t capacity) {
    for (std::size_t i = bufs_.size(); i-- > 0;) {
      if (bufs_[i].capacity < capacity) continue;
      const Buffer b = bufs_[i];
      bufs_[i] = bufs_.back();
      bufs_.pop_back();
      return {b.data, b.capacity};
    }
    return {nullptr, 0};
  }

 private:
  struct Buffer {
    std::uint64_t* data;
    std::size_t capacity;
  };
  std::vector<Buffer> bufs_;
};

}  // namespace tgsim::detail
