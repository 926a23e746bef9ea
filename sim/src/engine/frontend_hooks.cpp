// GroupRun's services for front-end kernels (tgsim/kernel/abi.h): the reducing barriers of
// __syncthreads_count/_and/_or, placing an atomic's address, and printf.
#include "engine/group.hpp"

#include <algorithm>

namespace tgsim::detail {

// Each thread leaves its predicate in slot (round % 2) stamped with its round, meets the others
// at the barrier, then reduces the slots stamped with this round (exited threads' slots are
// older). Two slots suffice: no thread can start round r + 2 before every thread has left
// round r's barrier and read its slots.
int GroupRun::barrier_reduce(ThreadCtx& t, const std::source_location& loc, int op, int pred) {
  Thread& th = thread_of(t);
  const std::uint64_t round = th.reduce_round++;
  std::vector<std::uint64_t>& slot = reduce_slot_[round % 2];
  if (slot.size() != nthreads_) slot.assign(nthreads_, ~std::uint64_t(0));
  slot[t.linear_tid] = round << 1 | (pred != 0);
  barrier(t, loc);
  int count = 0, arrived = 0;
  for (std::uint64_t s : slot)
    if (s >> 1 == round) ++arrived, count += static_cast<int>(s & 1);
  switch (op) {
    case 0: return count;
    case 1: return count == arrived;
    default: return count != 0;
  }
}

bool GroupRun::atomic_target(ThreadCtx& t, const std::source_location& loc, std::uint64_t addr,
                             std::uint32_t width, bool* shared, std::uint64_t* offset) {
  const BufferInfo* bad = nullptr;
  switch (placement_.place(addr, width, offset, &bad)) {
    case Space::kShared: *shared = true; return true;
    case Space::kGlobal: *shared = false; return true;
    default: break;
  }
  TagInfo ti{0, SiteKind::kStore, width, false, loc};
  report_misplaced(ti, t.warp, t.lane, addr, Space::kInvalid, bad);
  return false;
}

void GroupRun::print(const ThreadCtx& t, std::string text) {
  printed_.push_back(PrintedLine{t.linear_tid, static_cast<std::uint32_t>(text.size()), print_text_.size()});
  print_text_ += text;
}

// A barrier interval's lines go out by thread, each thread's in the order it printed them (as
// a GPU's warps print at each barrier; within an interval, by thread, the same for any schedule).
void GroupRun::flush_printed(bool group_ended) {
  if (printed_.empty()) {
    if (group_ended) state_.print->put(group_, {}, true);
    return;
  }
  std::stable_sort(printed_.begin(), printed_.end(),
                   [](const PrintedLine& a, const PrintedLine& b) { return a.thread < b.thread; });
  std::string out;
  out.reserve(print_text_.size());
  for (const PrintedLine& p : printed_) out.append(print_text_, p.offset, p.length);
  printed_.clear();
  print_text_.clear();
  state_.print->put(group_, out, group_ended);
}

}  // namespace tgsim::detail
