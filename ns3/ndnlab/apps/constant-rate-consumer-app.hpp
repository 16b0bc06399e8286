#pragma once
// ConstantRateConsumerApp: app::ConstantRateConsumer as an ns-3 application: Interests for
// `<Prefix>/seg=N` at a fixed frequency (ndnSIM's ConsumerCbr). Pair it with a ProducerApp
// whose Version is fixed and use `<prefix>/v=<version>` as Prefix.
//
// Attributes: Prefix and every ConstantRateConsumerOptions field (Frequency, Randomize,
// Lifetime, MaxCount, FirstSegment, Retransmit, MustBeFresh).
// Core trace events: cbr_data / cbr_timeout / cbr_nack, and app_bytes per Data.

#include "ns3/ndnlab/apps/ndn-app.hpp"

#include "core/app/constant-rate-consumer.hpp"

namespace ndnlab::sim {

class ConstantRateConsumerApp : public NdnApp
{
public:
  static ns3::TypeId GetTypeId();
  ConstantRateConsumerApp();
  ~ConstantRateConsumerApp() override;

  app::ConstantRateConsumerOptions& OptionsRef() { return m_opts; }
  const app::ConstantRateConsumerOptions& GetOptions() const { return m_opts; }
  /// Counters of the current or last run.
  app::ConstantRateConsumerCounters GetCounters() const;
  /// Stops sending; Interests in flight are still answered or time out (the app keeps running).
  void FinishSending();
  /// Called with each Interest's send time (s) when its Data, Nack or timeout resolves it.
  void SetResolvedCallback(std::function<void(double sentSeconds, bool answered)> cb) { m_resolved = std::move(cb); }
  /// Called with the time (s) of each Data received and the RTT (s) of its Interest.
  void SetDataCallback(std::function<void(double atSeconds, double rttSeconds)> cb) { m_dataAt = std::move(cb); }

private:
  void StartEngine() override;
  void StopEngine() override;

  app::ConstantRateConsumerOptions m_opts;
  std::unique_ptr<app::ConstantRateConsumer> m_engine;
  app::ConstantRateConsumerCounters m_last;
  std::function<void(double, bool)> m_resolved;
  std::function<void(double, double)> m_dataAt;
};

} // namespace ndnlab::sim
