// The analyses of a launch as sinks of one stream (docs/design.md): the warp grouper
// (stream/warp_flush.cpp) emits events and every sink gets each event, in the order of the
// registration list (analyses/list.hpp). Sinks are concrete types held in a std::tuple and
// called through a fold over their types: no virtual call per instruction, and a sink whose analysis is off
// returns after one predictable branch.
//
// The events, and what a sink S must have for each (the concept Sink below checks them all, so
// a sink that lacks a handler fails the build instead of silently missing part of the stream):
//   S(LaunchState&, const SinkEnv&)
//   void on_group_start(std::uint64_t group, const std::deque<SharedDecl>* decls);
//   void on_instruction(const WarpInstruction&);   // a warp instruction with its lanes
//   void on_shared_rows(const SharedRows&);        // fast shared rows: counts, no lanes
//   void on_store(std::uint32_t thread, SiteKind, std::uint64_t addr, std::uint32_t width,
//                 const void* value);  // a store's bytes as it happens: sent only while the
//                                       // checker runs (ThreadCtx::checking_), for its values
//   void on_shuffle(std::uint32_t site, const CollectiveOp&, const std::int64_t* arg,
//                   std::uint32_t took_part, std::uint64_t group, std::uint32_t warp);
//                                                   // a completed shuffle: each lane's argument
//   void on_interval_end(const IntervalLogs&);     // a barrier was released
//   void on_group_end(const IntervalLogs&);        // the group's last interval ended
//   bool wants_lanes() const;  // true: every shared row comes as an instruction (no fast rows)
//   struct Total { Total(const LaunchState&); void add(const S& worker, MergeContext&);
//                  void finish(MergeContext&); };  // the launch end
// After the launch each worker's sinks are added into one Total per sink type, then every
// Total finishes in registration order (MergeContext: the per-site sums, findings, Report).
// Adding an analysis: its sink in its own folder, and its type in analyses/list.hpp.
#pragma once
#include <concepts>
#include <cstdint>
#include <deque>
#include <tuple>
#include <vector>

#include "stream/warp_instruction.hpp"

namespace tgsim::detail {

struct IntervalLogs;
struct SharedDecl;

template <class S>
concept Sink = requires(S s, const S& cs, LaunchState& st, const SinkEnv& env, std::uint64_t g,
                        const std::deque<SharedDecl>* decls, const WarpInstruction& in,
                        const SharedRows& rows, SiteKind kind, std::uint32_t u32, const void* value,
                        const IntervalLogs& logs, MergeContext& m, typename S::Total total,
                        const CollectiveOp& op, const std::int64_t* arg) {
  S(st, env);
  { s.on_group_start(g, decls) } -> std::same_as<void>;
  { s.on_instruction(in) } -> std::same_as<void>;
  { s.on_shared_rows(rows) } -> std::same_as<void>;
  { s.on_store(u32, kind, g, u32, value) } -> std::same_as<void>;
  { s.on_shuffle(u32, op, arg, u32, g, u32) } -> std::same_as<void>;
  { s.on_interval_end(logs) } -> std::same_as<void>;
  { s.on_group_end(logs) } -> std::same_as<void>;
  { cs.wants_lanes() } -> std::same_as<bool>;
  requires std::constructible_from<typename S::Total, const LaunchState&>;
  { total.add(cs, m) } -> std::same_as<void>;
  { total.finish(m) } -> std::same_as<void>;
};

template <Sink... S>
class SinkSet {
 public:
  SinkSet(LaunchState& st, const SinkEnv& env) : sinks_(S(st, env)...) {}

  template <class T> T& get() { return std::get<T>(sinks_); }
  template <class T> const T& get() const { return std::get<T>(sinks_); }

  // A fold over the list's types, no lambda; the per-access events are forced inline where
  // they are emitted (a call per instruction would cost more than most sinks' work).
  void on_group_start(std::uint64_t g, const std::deque<SharedDecl>* decls) {
    (std::get<S>(sinks_).on_group_start(g, decls), ...);
  }
  [[gnu::always_inline]] void on_instruction(const WarpInstruction& in) {
    (std::get<S>(sinks_).on_instruction(in), ...);
  }
  [[gnu::always_inline]] void on_shared_rows(const SharedRows& rows) {
    (std::get<S>(sinks_).on_shared_rows(rows), ...);
  }
  [[gnu::always_inline]] void on_store(std::uint32_t thread, SiteKind kind, std::uint64_t addr,
                                       std::uint32_t width, const void* value) {
    (std::get<S>(sinks_).on_store(thread, kind, addr, width, value), ...);
  }
  void on_shuffle(std::uint32_t site, const CollectiveOp& op, const std::int64_t* arg, std::uint32_t took_part,
                  std::uint64_t group, std::uint32_t warp) {
    (std::get<S>(sinks_).on_shuffle(site, op, arg, took_part, group, warp), ...);
  }
  // Spin collapse (engine/spin.cpp) dropped `count` writes of `thread` from its write `first`:
  // a sink that keeps stored values per write (the checker's drop_values) drops theirs.
  void on_values_dropped(std::uint32_t thread, std::size_t first, std::size_t count) {
    (drop_values_of(std::get<S>(sinks_), thread, first, count), ...);
  }
  // The group was parked while other groups ran and runs on (engine/coresident.cpp).
  void on_group_resumed() { (resumed_of(std::get<S>(sinks_)), ...); }
  void on_interval_end(const IntervalLogs& logs) { (std::get<S>(sinks_).on_interval_end(logs), ...); }
  void on_group_end(const IntervalLogs& logs) { (std::get<S>(sinks_).on_group_end(logs), ...); }
  // Whether any sink must see every shared row's lanes: then the grouper makes no fast rows.
  bool wants_lanes() const { return (std::get<S>(sinks_).wants_lanes() || ...); }

  // The launch's totals: every worker's sinks added, then each sink type's finish in order.
  template <class Workers>
  static void merge(const Workers& workers, MergeContext& m) {
    std::tuple<typename S::Total...> totals{typename S::Total(m.st)...};
    for (const SinkSet* w : workers)
      std::apply([&](auto&... t) { (t.add(std::get<S>(w->sinks_), m), ...); }, totals);
    std::apply([&](auto&... t) { (t.finish(m), ...); }, totals);
  }

 private:
  template <class T>
  static void resumed_of(T& s) {
    if constexpr (requires { s.on_resumed(); }) s.on_resumed();
  }
  template <class T>
  static void drop_values_of(T& s, std::uint32_t thread, std::size_t first, std::size_t count) {
    if constexpr (requires { s.drop_values(thread, first, count); }) s.drop_values(thread, first, count);
  }
  std::tuple<S...> sinks_;
};

}  // namespace tgsim::detail
