#pragma once
// PerfClient: the consumer of `ndnlab perf client` (iperf3's client, for NDN), as a sans-I/O
// engine. It measures one session: `parallel` independent flows under
// <prefix>/<session>/<flow>/<payload>/<total> (perf-protocol.hpp), each fetched
// - under a window or rate pipeline (bitrate 0): a SegmentFetcher with the `fetch` options
//   (--cc fixed|aimd|cubic|mircc, the pipelines of `ndnlab get`), Interests retransmitted as
//   the pipeline decides; or
// - paced (bitrate > 0, iperf3's UDP test): a ConstantRateConsumer sending bitrate / (8 x
//   payload) Interests per second per flow (iperf3's -b is per stream too), nothing
//   retransmitted, an Interest that times out or is Nacked counted lost.
// The test runs for `duration`, or until `bytes` (split over the flows, the remainder to the
// first ones) have arrived: the flows' names carry their totals, so the server ends each flow
// with a FinalBlockId and exactly `bytes` content bytes arrive. Every `interval` it records
// per-flow and summed figures (bytes in the interval, Interests, retransmissions, losses, and
// the running jitter and RTT); at the end it asks the server for its figures of the session
// (<prefix>/<session>/stats) and reports everything (PerfReport).
//
// Jitter, per flow, from the producer timestamp in each Data's header: RFC 3550's interarrival
// jitter (perf::InterarrivalJitter) and Cefore's inter-arrival figures
// (perf::CeforeInterarrival), the latter also over the arrivals of all flows together.
//
// The engine owns its flows' fetchers; it installs endpoint.onData/onNack and dispatches by
// name. Time, timers and randomness (the session number, Nonces) come from the Env; the CPU
// time of the process from `cpuTimes`, which the shell sets (getrusage) and ns-3 leaves unset.

#include "core/app/constant-rate-consumer.hpp"
#include "core/app/endpoint.hpp"
#include "core/app/perf-protocol.hpp"
#include "core/app/segment-fetcher.hpp"
#include "core/runtime/env.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ndnlab::app {

struct PerfClientOptions
{
  SegmentFetcherOptions fetch;                     ///< the window/rate pipelines (bitrate 0) and the lifetime
  Duration duration = std::chrono::seconds(10);    ///< length of the test when bytes is 0 (iperf3 -t)
  uint64_t bytes = 0;                              ///< content bytes to fetch over all flows; 0 = duration (-n)
  Duration interval = std::chrono::seconds(1);     ///< period of the interval reports; 0 = none (-i)
  size_t parallel = 1;                             ///< independent flows (-P)
  size_t payload = 1200;                           ///< content bytes per Data, asked for in the name (-l)
  uint64_t bitrate = 0;                            ///< paced mode: bit/s of content per flow; 0 = pipelines (-b)
  Duration statsTimeout = std::chrono::seconds(1); ///< lifetime of each of the 3 stats Interests

  /// Throws std::invalid_argument for out-of-range values.
  void validate() const;
  /// "window" or "paced".
  std::string_view mode() const { return bitrate > 0 ? "paced" : "window"; }
};

/// One flow's figures (or their sum), cumulative or for one interval.
struct PerfFlowStats
{
  uint64_t bytes = 0;           ///< content bytes of the distinct segments received
  uint64_t segments = 0;        ///< distinct segments received
  uint64_t interests = 0;       ///< Interests sent, retransmissions included
  uint64_t retransmissions = 0; ///< of those, retransmissions
  uint64_t timeouts = 0;        ///< Interests that timed out
  uint64_t lost = 0;            ///< Interests found lost: timed out, lost by Data order, or Nacked
  uint64_t nacks = 0;           ///< Nacks received
  uint64_t marks = 0;           ///< congestion-marked Data
  uint64_t rttSamples = 0;
  Duration rttMin{0};
  Duration rttAvg{0};
  Duration rttMax{0};
  double jitterMs = 0;           ///< RFC 3550 interarrival jitter (running estimate)
  uint64_t jitterSamples = 0;    ///< Data with a timestamp
  uint64_t frames = 0;           ///< Cefore: Data arrived (duplicates included)
  double interarrivalAveUs = 0;  ///< Cefore's Jitter(Ave)
  double interarrivalMaxUs = 0;  ///< Cefore's Jitter(Max)
  double interarrivalVarUs2 = 0; ///< Cefore's Jitter(Var)
  double cwnd = 0;               ///< window at the end (window mode)

  /// Data received plus Interests lost: the denominator of lostPercent.
  uint64_t packets() const { return segments + lost; }
  double lostPercent() const
  {
    return packets() ? 100.0 * static_cast<double>(lost) / static_cast<double>(packets()) : 0;
  }
};

struct PerfInterval
{
  Duration start{0}; ///< since the test began
  Duration end{0};
  std::vector<PerfFlowStats> flows; ///< counters for the interval; jitter, RTT and cwnd as at its end
  PerfFlowStats sum;
};

struct PerfReport
{
  uint64_t session = 0;
  Name prefix;
  std::string mode;     ///< "window" | "paced"
  std::string pipeline; ///< window mode: the pipeline; paced: "cbr"
  Duration elapsed{0};  ///< first Interest to the end of the test
  std::vector<PerfFlowStats> flows;
  PerfFlowStats sum; ///< counters summed, jitter averaged over the flows (iperf3), Cefore over all arrivals
  std::vector<PerfInterval> intervals;
  std::optional<perf::ServerReport> server; ///< the stats reply; nullopt when none came
  std::optional<perf::CpuTimes> cpu;        ///< this process over the test (cpuTimes set)
  std::optional<std::string> error;         ///< a flow failed (then the test ended there)
};

class PerfClient
{
public:
  using Options = PerfClientOptions;

  /// Installs endpoint.onData/onNack (cleared by the destructor). Throws std::invalid_argument
  /// for invalid options.
  PerfClient(Env& env, Endpoint& endpoint, Options opts = {});
  ~PerfClient();
  PerfClient(const PerfClient&) = delete;
  PerfClient& operator=(const PerfClient&) = delete;

  /// The process's CPU time so far; unset: no CPU figures.
  std::function<perf::CpuTimes()> cpuTimes;
  /// Each interval, as it ends.
  std::function<void(const PerfInterval&)> onInterval;
  /// The test ended and the server's stats came (or did not): the whole report. Called once.
  std::function<void(const PerfReport&)> onDone;

  /// Starts the test against the server at `prefix`. Call once.
  void start(const Name& prefix);
  /// Ends the test now (an interrupt): the report is completed as if it had run out, with the
  /// stats exchange.
  void finishNow();
  /// Stops everything without further callbacks.
  void stop();

  void handleData(const Data& data);
  void handleNack(const Nack& nack);

  uint64_t session() const { return m_session; }
  const Options& options() const { return m_opts; }
  bool running() const { return m_phase == Phase::Running; }
  /// Cumulative figures of flow i so far.
  PerfFlowStats flowStats(size_t i) const;
  /// The sum over the flows so far.
  PerfFlowStats sumStats() const;

private:
  class FlowEndpoint;
  struct Flow;
  enum class Phase : uint8_t { Idle, Running, Draining, Stats, Done };

  void recordArrival(Flow& f, const Data& data);
  void flowFinished();
  void closeInterval(bool last);
  /// The test is over: stop sending (paced: wait for the Interests in flight), then stats.
  void endTest();
  void drain();
  void askStats();
  void done();
  void cancelTimers();
  bool allResolved() const;

  Env& m_env;
  Endpoint& m_ep;
  Options m_opts;
  Phase m_phase = Phase::Idle;
  Name m_prefix;
  uint64_t m_session = 0;
  TimePoint m_start;
  std::vector<std::unique_ptr<Flow>> m_flows;
  perf::CeforeInterarrival m_allArrivals;
  std::vector<PerfFlowStats> m_atLastInterval;
  Duration m_lastBoundary{0};
  std::optional<perf::CpuTimes> m_cpuAtStart;
  TimerId m_endTimer = 0;
  TimerId m_intervalTimer = 0;
  TimerId m_drainTimer = 0;
  TimerId m_statsTimer = 0;
  uint32_t m_statsNonce = 0;
  int m_statsTries = 0;
  PerfReport m_report;
};

} // namespace ndnlab::app
