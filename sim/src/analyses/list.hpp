// The registration list: the launch's analyses in one place, one line each. The engine never
// includes this file (it holds a Sinks through engine/analyses.hpp); the stream, which hands
// the events over, does, so each event's fold over the sinks is inlined where it is emitted.
#pragma once
#include "analyses/cache/sink_cache.hpp"
#include "analyses/capture/sink_capture.hpp"
#include "analyses/checker/sink_checker.hpp"
#include "analyses/counters/sink_counters.hpp"
#include "analyses/sinks.hpp"

namespace tgsim::detail {

class Sinks final : public SinkSet<CounterSink, CacheSink, CaptureSink, CheckerSink> {
 public:
  using SinkSet::SinkSet;
};

}  // namespace tgsim::detail
