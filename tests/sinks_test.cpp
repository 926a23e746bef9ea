// Analyses as events (issue 33): every sink of the registration list gets every event of the
// stream, the grouper's fast shared rows included, through one fold with no virtual call; a
// sink that lacks a handler is not a Sink, so the list (SinkSet<...>) does not build.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <tgsim/launch.hpp>
#include <tgsim/profile.hpp>

#include "analyses/list.hpp"

namespace tgsim::detail {
namespace {

// What a recording sink saw, in order, as "NAME:event".
std::vector<std::string>* journal = nullptr;

template <char Name, bool Lanes = false>
struct Recorder {
  Recorder(LaunchState&, const SinkEnv&) {}
  void note(const char* event) { journal->push_back(std::string(1, Name) + ":" + event); }
  void on_group_start(std::uint64_t, const std::deque<SharedDecl>*) { note("group_start"); }
  void on_instruction(const WarpInstruction&) { note("instruction"); }
  void on_shared_rows(const SharedRows& r) {
    note(("shared_rows " + std::to_string(r.site) + " x" + std::to_string(r.rows)).c_str());
  }
  void on_store(std::uint32_t, SiteKind, std::uint64_t, std::uint32_t, const void*) { note("store"); }
  void on_shuffle(std::uint32_t, const CollectiveOp&, const std::int64_t*, std::uint32_t, std::uint64_t, std::uint32_t) {
    note("shuffle");
  }
  void on_interval_end(const IntervalLogs&) { note("interval_end"); }
  void on_group_end(const IntervalLogs&) { note("group_end"); }
  bool wants_lanes() const { return Lanes; }
  struct Total {
    explicit Total(const LaunchState&) {}
    void add(const Recorder&, MergeContext&) { journal->push_back(std::string(1, Name) + ":add"); }
    void finish(MergeContext&) { journal->push_back(std::string(1, Name) + ":finish"); }
  };
};

// Sinks each missing one handler: none of them is a Sink.
struct NoSharedRows {
  NoSharedRows(LaunchState&, const SinkEnv&) {}
  void on_group_start(std::uint64_t, const std::deque<SharedDecl>*) {}
  void on_instruction(const WarpInstruction&) {}
  void on_store(std::uint32_t, SiteKind, std::uint64_t, std::uint32_t, const void*) {}
  void on_interval_end(const IntervalLogs&) {}
  void on_group_end(const IntervalLogs&) {}
  bool wants_lanes() const { return false; }
  struct Total {
    explicit Total(const LaunchState&) {}
    void add(const NoSharedRows&, MergeContext&) {}
    void finish(MergeContext&) {}
  };
};
struct NoIntervalEnd {
  NoIntervalEnd(LaunchState&, const SinkEnv&) {}
  void on_group_start(std::uint64_t, const std::deque<SharedDecl>*) {}
  void on_instruction(const WarpInstruction&) {}
  void on_shared_rows(const SharedRows&) {}
  void on_store(std::uint32_t, SiteKind, std::uint64_t, std::uint32_t, const void*) {}
  void on_group_end(const IntervalLogs&) {}
  bool wants_lanes() const { return false; }
  struct Total {
    explicit Total(const LaunchState&) {}
    void add(const NoIntervalEnd&, MergeContext&) {}
    void finish(MergeContext&) {}
  };
};
struct NoFinish {
  NoFinish(LaunchState&, const SinkEnv&) {}
  void on_group_start(std::uint64_t, const std::deque<SharedDecl>*) {}
  void on_instruction(const WarpInstruction&) {}
  void on_shared_rows(const SharedRows&) {}
  void on_store(std::uint32_t, SiteKind, std::uint64_t, std::uint32_t, const void*) {}
  void on_interval_end(const IntervalLogs&) {}
  void on_group_end(const IntervalLogs&) {}
  bool wants_lanes() const { return false; }
  struct Total {
    explicit Total(const LaunchState&) {}
    void add(const NoFinish&, MergeContext&) {}
  };
};

static_assert(Sink<CounterSink> && Sink<CacheSink> && Sink<CaptureSink> && Sink<CheckerSink>);
static_assert(Sink<Recorder<'a'>>);
static_assert(!Sink<NoSharedRows>, "a sink without on_shared_rows would miss the fast rows");
static_assert(!Sink<NoIntervalEnd>);
static_assert(!Sink<NoFinish>);

class SinksTest : public ::testing::Test {
 protected:
  void SetUp() override { journal = &seen; }
  void TearDown() override { journal = nullptr; }
  std::vector<std::string> seen;
  DeviceProfile profile = profiles::nvidia_h100();
  LaunchConfig cfg;
  std::vector<BufferSpan> buffers;
  LaunchState st{profile, cfg, KernelFn{}, buffers};
  SinkEnv env{nullptr, 0, 0, 32};
};

TEST_F(SinksTest, EverySinkGetsEveryEventInListOrder) {
  SinkSet<Recorder<'a'>, Recorder<'b'>> sinks(st, env);
  sinks.on_group_start(0, nullptr);
  sinks.on_instruction(WarpInstruction{1, SiteKind::kSharedLoad, 4, ~0u, nullptr, 0, 0});
  sinks.on_shared_rows(SharedRows{7, SiteKind::kSharedLoad, 4, 3, 0, 0});
  sinks.on_store(0, SiteKind::kSharedStore, 0, 4, nullptr);
  const std::vector<std::string> want{"a:group_start", "b:group_start", "a:instruction",
                                      "b:instruction", "a:shared_rows 7 x3", "b:shared_rows 7 x3",
                                      "a:store", "b:store"};
  EXPECT_EQ(seen, want);
}

TEST_F(SinksTest, TheLaunchEndAddsEveryWorkerThenFinishesInListOrder) {
  using Set = SinkSet<Recorder<'a'>, Recorder<'b'>>;
  Set w0(st, env), w1(st, env);
  Report report;
  const std::vector<SiteInfo> infos;
  MergeContext m{st, infos, {}, {}, report};
  Set::merge(std::vector<const Set*>{&w0, &w1}, m);
  const std::vector<std::string> want{"a:add", "b:add", "a:add", "b:add", "a:finish", "b:finish"};
  EXPECT_EQ(seen, want);
}

TEST_F(SinksTest, FastRowsAreMadeOnlyWhenNoSinkWantsTheLanes) {
  EXPECT_FALSE((SinkSet<Recorder<'a'>, Recorder<'b'>>(st, env).wants_lanes()));
  EXPECT_TRUE((SinkSet<Recorder<'a'>, Recorder<'b', true>>(st, env).wants_lanes()));
}

}  // namespace
}  // namespace tgsim::detail
