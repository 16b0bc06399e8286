#include "ns3/ndnlab/apps/constant-rate-consumer-app.hpp"

#include "ns3/ndnlab/model/options-attributes.hpp"

#include <ns3/simulator.h>

namespace ndnlab::sim {

NS_OBJECT_ENSURE_REGISTERED(ConstantRateConsumerApp);

ns3::TypeId ConstantRateConsumerApp::GetTypeId()
{
  static ns3::TypeId tid = [] {
    ns3::TypeId t = ns3::TypeId("ndnlab::ConstantRateConsumerApp")
                      .SetParent<NdnApp>()
                      .SetGroupName("Ndnlab")
                      .AddConstructor<ConstantRateConsumerApp>();
    return addOptionAttributes<app::ConstantRateConsumerOptions>(t, constantRateFields(), [](ns3::ObjectBase* o) {
      auto* a = dynamic_cast<ConstantRateConsumerApp*>(o);
      return a ? &a->m_opts : nullptr;
    });
  }();
  return tid;
}

ConstantRateConsumerApp::ConstantRateConsumerApp() = default;

ConstantRateConsumerApp::~ConstantRateConsumerApp() = default;

app::ConstantRateConsumerCounters ConstantRateConsumerApp::GetCounters() const
{
  return m_engine ? m_engine->counters() : m_last;
}

void ConstantRateConsumerApp::FinishSending()
{
  if (m_engine)
    m_engine->stopSending();
}

void ConstantRateConsumerApp::StartEngine()
{
  m_engine = std::make_unique<app::ConstantRateConsumer>(GetStack()->GetEnv(), *GetEndpoint(), m_opts);
  m_engine->onData = [this](uint64_t, Duration rtt, ByteSpan content) {
    EmitEvent({EventKind::AppBytes, 0, {}, static_cast<int64_t>(content.size()), 0});
    if (m_dataAt)
      m_dataAt(ns3::Simulator::Now().GetSeconds(), toSeconds(rtt));
  };
  if (m_resolved)
    m_engine->onResolved = [this](TimePoint sent, bool answered) {
      m_resolved(toSeconds(sent.time_since_epoch()), answered);
    };
  m_engine->start(GetPrefix());
}

void ConstantRateConsumerApp::StopEngine()
{
  if (m_engine) {
    m_last = m_engine->counters();
    m_engine.reset();
  }
}

} // namespace ndnlab::sim
