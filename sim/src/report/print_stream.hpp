// The kernel's printf output of one launch, written as it is made, in one order for any number
// of workers and any schedule: by group, then barrier interval, then thread, then call.
//
// A group hands over its lines at the end of each barrier interval (sorted by thread) and at its
// end. The lowest group not yet ended (the head) writes through at once; a later group's lines
// wait until every group before it has ended. Waiting text is held in memory up to a budget and
// beyond it in an unlinked file under TMPDIR, so a launch printing gigabytes holds at most the
// budget however its groups are scheduled.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tgsim::detail {

class PrintStream {
 public:
  using Out = std::function<void(std::string_view)>;
  // out: where the text goes in order (empty: collected, take()); first: the launch's lowest
  // group; memory_budget: bytes of waiting text held in memory before spilling to a file.
  PrintStream(Out out, std::uint64_t first, std::size_t memory_budget = std::size_t(64) << 20);
  ~PrintStream();
  PrintStream(const PrintStream&) = delete;
  PrintStream& operator=(const PrintStream&) = delete;

  // Group g's next text (possibly empty); ended: g makes no more.
  void put(std::uint64_t g, std::string_view text, bool ended);
  // After the launch: whatever still waits (groups after one that never ran) in group order.
  void finish();
  // Collected text (no Out given).
  std::string take() { return std::move(collected_); }
  std::uint64_t bytes_written() const { return written_; }
  std::uint64_t bytes_spilled() const { return spilled_; }

 private:
  struct Chunk {
    std::string text;           // in memory, or
    std::uint64_t offset = 0;   // in the spill file when text is empty and length is not 0
    std::uint64_t length = 0;
  };
  struct Waiting {
    std::vector<Chunk> chunks;
    bool ended = false;
  };
  void write(std::string_view text);
  void write_chunk(const Chunk& c);
  void advance();  // the head ended: write the groups after it that wait, while they ended
  void spill(Chunk& c, std::string_view text);

  std::mutex mu_;
  Out out_;
  std::string collected_;
  std::uint64_t head_;
  std::map<std::uint64_t, Waiting> waiting_;
  std::size_t budget_, in_memory_ = 0;
  std::FILE* spill_ = nullptr;
  std::uint64_t spill_end_ = 0, written_ = 0, spilled_ = 0;
};

}  // namespace tgsim::detail
