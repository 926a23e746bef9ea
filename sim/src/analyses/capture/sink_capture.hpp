// The capture sink (LaunchConfig::capture_site, for `tgsim explain`'s pictures): copies the
// first warp instruction at one source line of the lowest (group, warp) that reaches it, and
// the shuffles of the lowest (group, warp) that shuffles, in order (GroupRun's emit_shuffle).
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <tgsim/warp.hpp>

#include "stream/warp_instruction.hpp"

namespace tgsim::detail {

struct IntervalLogs;
struct SharedDecl;

class CaptureSink {
 public:
  CaptureSink(LaunchState& st, const SinkEnv& env);
  bool on() const { return on_; }
  void on_group_start(std::uint64_t, const std::deque<SharedDecl>*) {}
  void on_instruction(const WarpInstruction& in) {
    if (on_ && in.addr) [[unlikely]] take(in);
  }
  // Never sent while capturing: the capture wants every shared row's lanes (wants_lanes).
  void on_shared_rows(const SharedRows&) {}
  void on_store(std::uint32_t, SiteKind, std::uint64_t, std::uint32_t, const void*) {}
  void on_interval_end(const IntervalLogs&) {}
  void on_group_end(const IntervalLogs&) {}
  bool wants_lanes() const { return on_; }
  // A completed shuffle of warp `warp`: each lane's argument (CollectiveIn::arg), the lanes that took part.
  void on_shuffle(std::uint32_t site, const CollectiveOp& op, const std::int64_t* arg, std::uint32_t took_part,
                  std::uint64_t group, std::uint32_t warp) {
    if (on_) [[unlikely]] take_shuffle(site, op, arg, took_part, group, warp);
  }

  struct Total {
    explicit Total(const LaunchState&) {}
    void add(const CaptureSink& worker, MergeContext& m);
    void finish(MergeContext&) {}
  };

 private:
  void take(const WarpInstruction& in);
  void take_shuffle(std::uint32_t site, const CollectiveOp& op, const std::int64_t* arg, std::uint32_t took_part,
                    std::uint64_t group, std::uint32_t warp);
  LaunchState& st_;
  std::uint64_t shared_base_;  // the arena: front-end shared accesses carry its addresses
  bool on_ = false;
  std::string file_;  // "file:line" or "file:line:column" split
  std::uint32_t line_ = 0, column_ = 0;
  std::vector<std::int8_t> match_;  // per site id: -1 not looked at yet, 0 no, 1 the line
  CapturedInstruction captured_;
  std::vector<CapturedShuffle> shuffles_;  // of the lowest (group, warp) that shuffled here
  std::uint64_t shuffles_total_ = 0;
};

}  // namespace tgsim::detail
