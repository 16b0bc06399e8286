#pragma once
// Ns3Env: the core's Env seams on the ns-3 simulator, one per node (ARCHITECTURE.md "Seams").
//
// - Clock: Simulator::Now(); unixNow() = a fixed epoch + simulated time, so version numbers
//   and SignatureTime are the same in every run.
// - Timers: Simulator::Schedule/Cancel. Callbacks run in the context of whoever scheduled
//   them (core code of a node runs in that node's context). Pending timers are cancelled when
//   the Env is destroyed.
// - Rng: one ns-3 UniformRandomVariable per Env; its stream number is assigned by the stack
//   helper, so the same RngSeed/RngRun gives the same numbers whatever else the scenario does.
// - Log: the ns-3 log component "ndnlab.Core" (NS_LOG=ndnlab.Core=level_debug|prefix_time|...).
// - Trace: every core TraceEvent is passed, with the node id and simulated time, to one
//   callback (the NdnStack's "Event" trace source). enabled() is false while nobody listens.

#include "core/runtime/env.hpp"

#include <ns3/event-id.h>
#include <ns3/nstime.h>
#include <ns3/ptr.h>
#include <ns3/random-variable-stream.h>

#include <functional>
#include <unordered_map>

namespace ndnlab::sim {

/// Unix time (ms) at simulated time zero; the same as ManualClock's default.
inline constexpr UnixMillis SimulationEpoch{1'700'000'000'000};

/// ns-3 Time <-> core Duration/TimePoint (ns-3 runs at nanosecond resolution by default).
inline TimePoint toTimePoint(const ns3::Time& t)
{
  return TimePoint(Duration(t.GetNanoSeconds()));
}
inline Duration toDuration(const ns3::Time& t)
{
  return Duration(t.GetNanoSeconds());
}
inline ns3::Time toTime(Duration d)
{
  return ns3::NanoSeconds(d.count());
}

class Ns3Env final : public Env, private Clock, private Timers, private Rng, private Log, private Trace
{
public:
  /// Sink of trace events: (when, event). Installed by the owner (NdnStack).
  using TraceSink = std::function<void(TimePoint, const TraceEvent&)>;

  /// `nodeId` prefixes log lines.
  explicit Ns3Env(uint32_t nodeId);
  ~Ns3Env() override;
  Ns3Env(const Ns3Env&) = delete;
  Ns3Env& operator=(const Ns3Env&) = delete;

  Clock& clock() override { return *this; }
  Timers& timers() override { return *this; }
  Rng& rng() override { return *this; }
  Log& log() override { return *this; }
  Trace& trace() override { return *this; }
  using Env::emit; // the seams below are private; these stay reachable on an Ns3Env
  using Env::now;

  /// Fixes the stream of the random variable (ns-3 AssignStreams convention).
  void assignStream(int64_t stream);
  ns3::Ptr<ns3::UniformRandomVariable> randomVariable() const { return m_rv; }

  /// Installs the trace sink and the predicate telling whether anyone listens.
  void setTraceSink(TraceSink sink, std::function<bool()> enabled);

  /// Cancels every pending timer and stops scheduling new ones (they are accepted and never
  /// fire). Called when the node is disposed, while the simulator still exists; objects that
  /// outlive disposal may still cancel their timers safely.
  void shutdown();

  uint32_t nodeId() const { return m_nodeId; }
  /// Timers scheduled and not yet fired or cancelled.
  size_t pendingTimers() const { return m_events.size(); }

private:
  // Clock
  TimePoint now() const override;
  UnixMillis unixNow() const override;
  // Timers
  TimerId schedule(Duration delay, std::function<void()> cb) override;
  void cancel(TimerId id) override;
  void fire(TimerId id);
  // Rng
  uint64_t next64() override;
  // Log
  bool enabled(LogLevel level) const override;
  void write(LogLevel level, std::string_view module, std::string_view message) override;
  // Trace
  bool enabled() const override;
  void emit(TimePoint when, const TraceEvent& event) override;

  struct Pending
  {
    ns3::EventId event;
    std::function<void()> cb;
  };

  uint32_t m_nodeId;
  ns3::Ptr<ns3::UniformRandomVariable> m_rv;
  TimerId m_lastId = 0;
  std::unordered_map<TimerId, Pending> m_events;
  bool m_shutdown = false;
  TraceSink m_traceSink;
  std::function<bool()> m_traceEnabled;
};

} // namespace ndnlab::sim
