// The analyses of a launch as sinks of one stream (docs/design.md): the warp grouper
// (warp_flush.cpp) emits warp instructions, interval ends and group ends; every sink gets each
// event, in the order of the registration list below. Sinks are concrete types held in a
// std::tuple and called through a fold: no virtual call per instruction, and a sink whose
// analysis is off returns after one predictable branch.
//
// A sink S has:
//   S(LaunchState&, const SinkEnv&)
//   void on_group_start(std::uint64_t group, const std::deque<SharedDecl>* decls);
//   void on_instruction(const WarpInstruction&);
//   void on_interval_end(const IntervalLogs&);  // a barrier was released
//   void on_group_end(const IntervalLogs&);     // the group's last interval ended
//   struct Total { Total(const LaunchState&); void add(const S& worker, MergeContext&);
//                  void finish(MergeContext&); };
// After the launch each worker's sinks are added into one Total per sink type, then every
// Total finishes in registration order (MergeContext: the per-site sums, findings, Report).
// Adding an analysis: its sink in its own file, and its type in the list below.
#pragma once
#include <cstdint>
#include <deque>
#include <tuple>
#include <vector>

#include "analyses/cache/sink_cache.hpp"
#include "analyses/capture/sink_capture.hpp"
#include "analyses/checker/sink_checker.hpp"
#include "analyses/counters/sink_counters.hpp"

namespace tgsim::detail {

template <class... S>
class SinkSet {
 public:
  SinkSet(LaunchState& st, const SinkEnv& env) : sinks_(S(st, env)...) {}

  template <class T> T& get() { return std::get<T>(sinks_); }
  template <class T> const T& get() const { return std::get<T>(sinks_); }

  void on_group_start(std::uint64_t g, const std::deque<SharedDecl>* decls) {
    std::apply([&](auto&... s) { (s.on_group_start(g, decls), ...); }, sinks_);
  }
  void on_instruction(const WarpInstruction& in) {
    std::apply([&](auto&... s) { (s.on_instruction(in), ...); }, sinks_);
  }
  void on_interval_end(const IntervalLogs& logs) {
    std::apply([&](auto&... s) { (s.on_interval_end(logs), ...); }, sinks_);
  }
  void on_group_end(const IntervalLogs& logs) {
    std::apply([&](auto&... s) { (s.on_group_end(logs), ...); }, sinks_);
  }

  // The launch's totals: every worker's sinks added, then each sink type's finish in order.
  template <class Workers>
  static void merge(const Workers& workers, MergeContext& m) {
    std::tuple<typename S::Total...> totals{typename S::Total(m.st)...};
    for (const SinkSet* w : workers)
      std::apply([&](auto&... t) { (t.add(std::get<S>(w->sinks_), m), ...); }, totals);
    std::apply([&](auto&... t) { (t.finish(m), ...); }, totals);
  }

 private:
  std::tuple<S...> sinks_;
};

// The registration list: one line per analysis.
using Sinks = SinkSet<CounterSink, CacheSink, CaptureSink, CheckerSink>;

}  // namespace tgsim::detail
