// The checker sink (LaunchConfig::check; the analysis is checker.hpp): it keeps each lane's
// stored bytes as the stores happen (on_store) and, when a barrier interval ends, reads the
// interval's accesses from the warps' logs in lockstep order and hands them to the Checker.
// Its totals are the launch's hazards, the grid-wide ones and the uninitialised global loads.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

#include "analyses/checker/checker.hpp"
#include "stream/warp_instruction.hpp"

namespace tgsim::detail {

struct IntervalLogs;  // group.hpp
struct TagInfo;
struct WarpLog;
struct SharedDecl;

class CheckerSink {
 public:
  CheckerSink(LaunchState& st, const SinkEnv& env);
  bool on() const { return checker_ != nullptr; }
  struct Scan;  // how the interval's reading passes over accesses (sink_checker.cpp)
  // A store of `thread` (in its lane's log order): its bytes, and its shared words marked as
  // stored in this interval (the interval's reading then skips loads of words nobody stored).
  // The common case, a 4-byte store of one word with room in the values, is tested first and
  // needs no call (so no saved registers); the rest is note_store_general.
  void on_store(std::uint32_t thread, SiteKind kind, std::uint64_t addr, std::uint32_t width,
                const void* value) {  // sent only with the checker on (sinks.hpp)
    std::vector<std::uint64_t>& vals = values_[thread];
    const std::uint64_t off = addr - (kind == SiteKind::kStore ? arena_ : 0);
    if (width == 4 && value && vals.size() != vals.capacity() && (off & 3) == 0 &&
        (kind == SiteKind::kStore ? off < shared_valid_ : kind == SiteKind::kSharedStore) &&
        checker_->mark_shared_word(off)) [[likely]] {
      std::uint32_t x;
      std::memcpy(&x, value, 4);
      vals.push_back(x);
      return;
    }
    note_store_general(vals, kind, addr, width, value);
  }
  void drop_values(std::uint32_t thread, std::size_t first, std::size_t count) {
    std::vector<std::uint64_t>& vals = values_[thread];
    if (first >= vals.size()) return;
    const auto from = vals.begin() + static_cast<std::ptrdiff_t>(first);
    vals.erase(from, from + static_cast<std::ptrdiff_t>(std::min(count, vals.size() - first)));
  }
  void on_group_start(std::uint64_t group, const std::deque<SharedDecl>* decls) {
    if (checker_) checker_->start_group(group, decls);
  }
  // Per warp: whether every access of the interval is a shared load of at most 4 bytes inside
  // the declared bytes, or a constant load (a calm interval then skips the warp's logs), and the
  // lanes' accesses such instructions held (the interval's reading compares them with the logs).
  void on_instruction(const WarpInstruction& in) {
    if (!checker_) return;
    WarpSeen& s = seen_[in.warp];
    switch (in.kind) {
      case SiteKind::kSharedLoad:
        if (in.width > 4 || !inside_declared(in)) s.loud = true;
        break;
      case SiteKind::kConstantLoad: break;
      case SiteKind::kBarrier: case SiteKind::kShuffle: case SiteKind::kVote:
      case SiteKind::kWarpSync: case SiteKind::kWarpReduce: return;  // not memory accesses
      default: s.loud = true; return;
    }
    s.accesses += in.mask == ~0u ? 32 : static_cast<std::uint32_t>(std::popcount(in.mask));
  }
  // The grouper's fast shared rows (their lanes inside the declared bytes by their spreads):
  // what on_instruction would note for each, without the lanes.
  void on_shared_rows(const SharedRows& r) {
    if (!checker_) return;
    WarpSeen& s = seen_[r.warp];
    if (r.kind != SiteKind::kSharedLoad || r.width > 4) {
      s.loud = true;
      if (r.kind != SiteKind::kSharedLoad) return;
    }
    s.accesses += 32 * r.rows;
  }
  bool wants_lanes() const { return false; }
  void on_shuffle(std::uint32_t, const CollectiveOp&, const std::int64_t*, std::uint32_t, std::uint64_t, std::uint32_t) {}
  void on_interval_end(const IntervalLogs& logs);  // (sink_checker.cpp)
  void on_resumed() {
    if (checker_) checker_->resumed();
  }
  void on_group_end(const IntervalLogs& logs) {
    if (!checker_) return;
    read_interval(logs);
    checker_->end_group();
  }

  struct Total {
    explicit Total(const LaunchState& st) : st(st) {}
    void add(const CheckerSink& worker, MergeContext& m);
    void finish(MergeContext& m);  // hazards between groups, global initcheck, the findings
    const LaunchState& st;
    HazardMap hazards;
    std::vector<UninitLoad> uninit;
    SameValuePairs same_value;  // the equal-value rule's unreported pairs (a note)
  };

  // Tag classes for the interval's quick scan: shared loads of at most 4 bytes, front-end loads
  // of at most 4 bytes (placed in the arena by their address), other loads of at most 16 bytes
  // that may be global (front-end, or global loads), the rest, constant loads (never looked
  // at), and stores of at most 4 bytes (front-end, shared: read_interval's short path). Loads
  // of the two middle classes inside a read-only buffer are passed over.
  enum : std::uint8_t { kSharedWord, kFrontWord, kLoad, kOther, kSkip, kFrontStoreWord, kSharedStoreWord };

 private:
  struct Lane {  // the lane whose log is being read
    std::uint32_t thread, lane;
    std::size_t e;        // __syncwarps of its warp looked at so far
    std::uint32_t wsync;  // the last one it took part in
    std::size_t value;    // its stored values taken so far
  };
  struct WarpSeen {
    std::uint32_t accesses = 0;
    bool loud = false;
  };
  // A shared load's lanes all inside the declared bytes: front-end loads carry addresses in the
  // arena, the others arena offsets. The OR of the offsets bounds the largest.
  bool inside_declared(const WarpInstruction& in) const {
    const std::uint64_t a0 = in.addr[std::countr_zero(in.mask)];
    const std::uint64_t base = a0 >= arena_ ? arena_ : 0;
    // The grouper's spread decides most instructions without reading the lanes again.
    if (in.spread != model::kUnknownSpread && lanes_inside(a0, in.spread, in.width, base, shared_valid_))
      return true;
    std::uint64_t acc = 0;
    if (in.mask == ~0u) {
      for (int l = 0; l < 32; ++l) acc |= in.addr[l] - base;
    } else {
      for (std::uint32_t m = in.mask; m; m &= m - 1) acc |= in.addr[std::countr_zero(m)] - base;
    }
    return acc < shared_valid_ && acc + in.width <= shared_valid_;
  }
  // A warp whose every access of this calm interval (Checker::calm) is quiet.
  bool calm_warp(const WarpLog& wl, std::uint32_t w) const;
  void read_interval(const IntervalLogs& logs);
  static std::uint32_t longest_lane(const IntervalLogs& logs);  // the most records a lane logged
  bool only_lone_stores(const IntervalLogs& logs, const Scan& scan, bool calm);
  void check_interval(const IntervalLogs& logs, const Scan& scan, bool calm);
  void classify(const std::vector<TagInfo>& tags);
  void access_one(const IntervalLogs& logs, const WarpLog& wl, Lane& lane, std::uint32_t k,
                  std::uint64_t r);
  void access_part(const IntervalLogs& logs, Lane& lane, std::uint32_t k, TagInfo& ti, std::uint64_t a);
  bool in_known_buffer(std::uint64_t addr, std::uint32_t width) const {
    for (const auto& [b, e] : known_)
      if (addr - b < e - b && addr + width <= e) return true;
    return false;
  }
  void learn_buffer(std::uint64_t addr);
  std::vector<std::uint8_t> classes_;  // per tag
  std::vector<WarpSeen> seen_;          // per warp, this interval
  // The last live device allocations front-end accesses were placed in (no buffer is freed
  // while a launch runs), as [begin, end) of their valid bytes.
  static constexpr std::size_t kKnown = 4;
  std::pair<std::uint64_t, std::uint64_t> known_[kKnown] = {};
  std::size_t known_next_ = 0;
  std::unique_ptr<Checker> checker_;  // null unless cfg.check
  std::uint64_t arena_;
  std::size_t shared_valid_;
  std::vector<std::vector<std::uint64_t>> values_;  // per thread: stored bytes, in log order
  std::vector<std::uint32_t> lone_;  // only_lone_stores: the stored words
  [[gnu::noinline]] void note_store_general(std::vector<std::uint64_t>& vals, SiteKind kind,
                                            std::uint64_t addr, std::uint32_t width, const void* value);
};

}  // namespace tgsim::detail
