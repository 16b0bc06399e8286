#pragma once
// The engines of `ndnlab perf` as ns-3 applications (docs/tools.md "ndnlab perf"):
// - PerfProducerApp: app::PerfServer under Prefix, routed to itself on its node; answers any
//   session of any PerfConsumerApp (or `ndnlab perf client`) with Data made on demand.
// - PerfConsumerApp: app::PerfClient against the PerfProducerApp at Prefix: Parallel flows for
//   Duration or Bytes, window (Pipeline and the other ConsumerApp attributes) or paced
//   (BitRate); trace sources "Interval" (each interval) and "Done" (the whole report), the
//   same figures `ndnlab perf client -J` writes. No CPU figures: simulated hosts have none.
//
// Attributes: Prefix, Signing (producer: digest | hmac | ecdsa | null), and the fields of
// PerfServerOptions, PerfClientOptions and SegmentFetcherOptions (options-attributes.hpp).

#include "ns3/ndnlab/apps/ndn-app.hpp"

#include "core/app/perf-client.hpp"
#include "core/app/perf-server.hpp"
#include "core/security/signer.hpp"

#include <optional>

namespace ndnlab::sim {

class PerfProducerApp : public NdnApp
{
public:
  static ns3::TypeId GetTypeId();
  PerfProducerApp();
  ~PerfProducerApp() override;

  app::PerfServerOptions& OptionsRef() { return m_opts; }
  const app::PerfServerOptions& GetOptions() const { return m_opts; }
  /// Counters of the current or last run.
  app::PerfServerCounters GetCounters() const;

private:
  void StartEngine() override;
  void StopEngine() override;

  app::PerfServerOptions m_opts;
  std::string m_signing;
  std::unique_ptr<security::Signer> m_signer;
  std::unique_ptr<app::PerfServer> m_server;
  app::PerfServerCounters m_last;
};

class PerfConsumerApp : public NdnApp
{
public:
  using IntervalCallback = void (*)(const app::PerfInterval&);
  using ReportCallback = void (*)(const app::PerfReport&);

  static ns3::TypeId GetTypeId();
  PerfConsumerApp();
  ~PerfConsumerApp() override;

  app::PerfClientOptions& OptionsRef() { return m_opts; }
  const app::PerfClientOptions& GetOptions() const { return m_opts; }
  /// The report once the test ended (and the server's stats came or did not).
  const std::optional<app::PerfReport>& GetReport() const { return m_report; }

private:
  void StartEngine() override;
  void StopEngine() override;

  app::PerfClientOptions m_opts;
  std::unique_ptr<app::PerfClient> m_engine;
  std::optional<app::PerfReport> m_report;
  ns3::TracedCallback<const app::PerfInterval&> m_intervalTrace;
  ns3::TracedCallback<const app::PerfReport&> m_doneTrace;
};

} // namespace ndnlab::sim
