#pragma once
// PingClientApp and PingServerApp: app::PingClient and app::PingServer (the engines of
// `ndnlab ping` and `ndnlab pingserver`) as ns-3 applications.
//
// PingClientApp attributes: Prefix (pings `<Prefix>/ping/<seq>`), Count (0 = until stopped),
// Interval, Timeout (= InterestLifetime), AllowStale; the first sequence number is drawn from
// the node's RNG, as the tool draws it. Trace source "Finished": every ping was answered, Nacked
// or timed out.
// PingServerApp attributes: Prefix (answers under `<Prefix>/ping`, routed to itself on its
// node), PayloadSize, Freshness, Signing (digest | null, as `ndnlab pingserver --signing`).

#include "ns3/ndnlab/apps/ndn-app.hpp"

#include "core/app/ping.hpp"
#include "core/security/signer.hpp"

#include <ns3/nstime.h>

namespace ndnlab::sim {

class PingClientApp : public NdnApp
{
public:
  static ns3::TypeId GetTypeId();
  PingClientApp();
  ~PingClientApp() override;

  /// Statistics of the running or last ping run.
  app::PingStats GetStats() const;
  /// Time from the first ping to now (running) or to the last one's outcome (finished).
  Duration GetElapsed() const;
  bool IsFinished() const { return m_finished; }

private:
  void StartEngine() override;
  void StopEngine() override;

  uint64_t m_count = 0;
  ns3::Time m_interval;
  ns3::Time m_timeout;
  bool m_allowStale = false;
  std::unique_ptr<app::PingClient> m_client;
  app::PingStats m_lastStats;
  Duration m_lastElapsed{0};
  bool m_finished = false;
  ns3::TracedCallback<> m_finishedTrace;
};

class PingServerApp : public NdnApp
{
public:
  static ns3::TypeId GetTypeId();
  PingServerApp();
  ~PingServerApp() override;

  /// Interests answered so far.
  uint64_t GetAnswered() const { return m_server ? m_server->answered() : 0; }

private:
  void StartEngine() override;
  void StopEngine() override;

  uint64_t m_payloadSize = 0;
  ns3::Time m_freshness;
  std::string m_signing;
  std::unique_ptr<security::Signer> m_signer;
  std::unique_ptr<app::PingServer> m_server;
};

} // namespace ndnlab::sim
