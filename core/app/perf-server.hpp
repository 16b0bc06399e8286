#pragma once
// PerfServer: the producer of `ndnlab perf server` (iperf3's server, for NDN). It holds no file:
// every Interest for <prefix>/<session>/<flow>/<payload>/<total>/seg=<k> (perf-protocol.hpp)
// is answered with a Data made now, `payload` content bytes starting with the producer
// timestamp header, FinalBlockId when the flow has a total, signed by the given Signer; so any
// segment of any session is served and what is measured includes making and signing each
// Data, as a real producer would. <prefix>/<session>/stats is answered with the session's
// figures (interests, Data, bytes, Nacks, elapsed time, and the process's CPU time over it
// when the owner supplies `cpuTimes`).
//
// Bad input is a counted drop, never a crash: a name under the prefix that is not a perf
// request (`malformed`), a payload above maxPayload (`tooLarge`) and a segment beyond a flow's
// end (`beyondEnd`) get a Nack (reason None) and are counted; Interests outside the prefix are
// ignored. Sessions are remembered for their stats up to maxSessions, the oldest forgotten
// first (a forgotten session is remembered again, from its next Interest).

#include "core/app/endpoint.hpp"
#include "core/app/perf-protocol.hpp"
#include "core/runtime/env.hpp"
#include "core/security/signer.hpp"

#include <deque>
#include <functional>
#include <map>
#include <unordered_map>

namespace ndnlab::app {

struct PerfServerOptions
{
  size_t maxPayload = 8000;                             ///< largest content a client may ask for (bytes)
  Duration freshness = std::chrono::milliseconds(1000); ///< FreshnessPeriod of the generated Data
  size_t maxSessions = 1024;                            ///< sessions whose figures are kept for their stats

  /// Throws std::invalid_argument for out-of-range values.
  void validate() const;
};

struct PerfServerCounters
{
  uint64_t interests = 0; ///< Interests under the prefix
  uint64_t data = 0;      ///< generated Data sent
  uint64_t bytes = 0;     ///< content bytes of those Data
  uint64_t statsSent = 0; ///< stats replies sent
  uint64_t nacks = 0;     ///< Nacks sent (the three reasons below)
  uint64_t malformed = 0; ///< names under the prefix that are no perf request
  uint64_t tooLarge = 0;  ///< payload above maxPayload
  uint64_t beyondEnd = 0; ///< segment beyond the flow's total
  uint64_t ignored = 0;   ///< Interests outside the prefix
  uint64_t sessions = 0;  ///< distinct sessions seen (each new or forgotten-and-back one)
};

class PerfServer
{
public:
  using Options = PerfServerOptions;

  /// Installs endpoint.onInterest (cleared by the destructor). `signer` must outlive the server.
  /// Throws std::invalid_argument for invalid options.
  PerfServer(Env& env, Endpoint& endpoint, Name prefix, const security::Signer& signer, Options opts = {});
  ~PerfServer();
  PerfServer(const PerfServer&) = delete;
  PerfServer& operator=(const PerfServer&) = delete;

  /// The process's CPU time so far (the shell's getrusage); unset: stats carry no CPU figures.
  std::function<perf::CpuTimes()> cpuTimes;
  /// Called after a stats reply, with the session and its figures (the tool prints a line).
  std::function<void(uint64_t session, const perf::ServerReport&)> onSessionStats;

  void handleInterest(const Interest& interest);

  const Name& prefix() const { return m_prefix; }
  const PerfServerCounters& counters() const { return m_counters; }
  const Options& options() const { return m_opts; }

private:
  struct Session
  {
    TimePoint start;
    std::optional<perf::CpuTimes> cpuAtStart;
    uint64_t interests = 0;
    uint64_t data = 0;
    uint64_t bytes = 0;
    uint64_t nacks = 0;
    std::map<uint64_t, perf::ServerReport::Flow> flows; ///< the first MaxReportedFlows flows
  };

  Session& session(uint64_t id);
  void nack(const Interest& interest, uint64_t& reasonCounter, Session* s);
  void answerStats(const Interest& interest, uint64_t id, Session& s);

  Env& m_env;
  Endpoint& m_ep;
  Name m_prefix;
  const security::Signer& m_signer;
  Options m_opts;
  PerfServerCounters m_counters;
  std::unordered_map<uint64_t, Session> m_sessions;
  std::deque<uint64_t> m_sessionOrder; ///< oldest first, for the bound
};

} // namespace ndnlab::app
