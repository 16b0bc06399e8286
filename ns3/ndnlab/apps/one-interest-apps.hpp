#pragma once
// The BLEnD "one Interest" pair (Fig. 1 upper bound) on app::PushProducer / app::PushConsumer.
//
// One-hop only: the pushed Data match no PIT entry, so
// - OneInterestProducerApp sends every Data straight out of the face its last Interest came in
//   on (NdnStack::SendDataDirect), pacing the push by that face's device queue: a segment is
//   put only while the queue holds fewer than QueueThreshold bytes;
// - OneInterestConsumerApp takes every Data under Prefix arriving on its node's NetDevice faces
//   (NdnStack::AddDataTap) before the forwarder sees them.
// The trigger and repair Interests travel through the forwarders normally (the consumer's node
// needs a route for Prefix; the producer registers Prefix on its node).
//
// OneInterestProducerApp attributes: Prefix, FileSize, ContentSeed, Signing, QueueThreshold,
// and the PushProducerOptions fields (PayloadSize, Freshness, Version, ..., PollInterval,
// MaxBurst). OneInterestConsumerApp attributes: Prefix, ExpectedSize and the
// PushConsumerOptions fields. Trace sources as ConsumerApp ("Bytes", "Complete", "Failed").

#include "ns3/ndnlab/apps/ndn-app.hpp"

#include "core/app/push-consumer.hpp"
#include "core/app/push-producer.hpp"
#include "core/security/signer.hpp"

namespace ndnlab::sim {

class OneInterestProducerApp : public NdnApp
{
public:
  static ns3::TypeId GetTypeId();
  OneInterestProducerApp();
  ~OneInterestProducerApp() override;

  app::PushProducerOptions& OptionsRef() { return m_opts; }
  const app::PushProducerOptions& GetOptions() const { return m_opts; }
  const app::PushProducer* GetProducer() const { return m_producer.get(); }

private:
  class DirectEndpoint;

  void StartEngine() override;
  void StopEngine() override;

  app::PushProducerOptions m_opts;
  uint64_t m_fileSize = 0;
  uint64_t m_seed = 0;
  std::string m_signing;
  uint64_t m_queueThreshold = 0;
  std::unique_ptr<security::Signer> m_signer;
  std::unique_ptr<DirectEndpoint> m_direct;
  std::unique_ptr<app::PushProducer> m_producer;
};

class OneInterestConsumerApp : public NdnApp
{
public:
  static ns3::TypeId GetTypeId();
  OneInterestConsumerApp();
  ~OneInterestConsumerApp() override;

  app::PushConsumerOptions& OptionsRef() { return m_opts; }
  const app::PushConsumerOptions& GetOptions() const { return m_opts; }
  app::FetchStats GetStats() const;
  bool IsComplete() const { return m_complete; }
  bool IsFailed() const { return m_failed; }
  uint64_t GetReceivedBytes() const { return m_received; }
  const app::PushConsumer* GetConsumer() const { return m_consumer.get(); }

private:
  void StartEngine() override;
  void StopEngine() override;

  app::PushConsumerOptions m_opts;
  uint64_t m_expectedSize = 0;
  std::unique_ptr<app::PushConsumer> m_consumer;
  uint64_t m_tap = 0;
  app::FetchStats m_lastStats;
  bool m_complete = false;
  bool m_failed = false;
  uint64_t m_received = 0;

  ns3::TracedCallback<const uint8_t*, size_t> m_bytesTrace;
  ns3::TracedCallback<const app::FetchStats&> m_completeTrace;
  ns3::TracedCallback<const app::FetchStats&, const std::string&> m_failedTrace;
};

} // namespace ndnlab::sim
