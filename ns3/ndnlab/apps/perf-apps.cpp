#include "ns3/ndnlab/apps/perf-apps.hpp"

#include "ns3/ndnlab/apps/producer-app.hpp"
#include "ns3/ndnlab/model/options-attributes.hpp"

#include <ns3/log.h>
#include <ns3/string.h>

#include <stdexcept>

NS_LOG_COMPONENT_DEFINE("ndnlab.PerfApps");

namespace ndnlab::sim {

NS_OBJECT_ENSURE_REGISTERED(PerfProducerApp);
NS_OBJECT_ENSURE_REGISTERED(PerfConsumerApp);

ns3::TypeId PerfProducerApp::GetTypeId()
{
  static ns3::TypeId tid = [] {
    ns3::TypeId t = ns3::TypeId("ndnlab::PerfProducerApp")
                      .SetParent<NdnApp>()
                      .SetGroupName("Ndnlab")
                      .AddConstructor<PerfProducerApp>()
                      .AddAttribute("Signing", "Signature of the generated Data: digest | hmac | ecdsa | null",
                                    ns3::StringValue("digest"), ns3::MakeStringAccessor(&PerfProducerApp::m_signing),
                                    ns3::MakeStringChecker());
    return addOptionAttributes<app::PerfServerOptions>(t, perfServerFields(), [](ns3::ObjectBase* o) {
      auto* a = dynamic_cast<PerfProducerApp*>(o);
      return a ? &a->m_opts : nullptr;
    });
  }();
  return tid;
}

PerfProducerApp::PerfProducerApp() = default;

PerfProducerApp::~PerfProducerApp() = default;

app::PerfServerCounters PerfProducerApp::GetCounters() const
{
  return m_server ? m_server->counters() : m_last;
}

void PerfProducerApp::StartEngine()
{
  const Name prefix = GetPrefix();
  try {
    m_signer = makeSigner(m_signing, prefix);
    m_server = std::make_unique<app::PerfServer>(GetStack()->GetEnv(), *GetEndpoint(), prefix, *m_signer, m_opts);
  }
  catch (const std::invalid_argument& e) {
    Fatal(e.what());
  }
  RegisterPrefix(prefix);
}

void PerfProducerApp::StopEngine()
{
  if (m_server)
    m_last = m_server->counters();
  m_server.reset();
  m_signer.reset();
}

ns3::TypeId PerfConsumerApp::GetTypeId()
{
  static ns3::TypeId tid = [] {
    ns3::TypeId t = ns3::TypeId("ndnlab::PerfConsumerApp")
                      .SetParent<NdnApp>()
                      .SetGroupName("Ndnlab")
                      .AddConstructor<PerfConsumerApp>()
                      .AddTraceSource("Interval", "Figures of each interval, as it ends",
                                      ns3::MakeTraceSourceAccessor(&PerfConsumerApp::m_intervalTrace),
                                      "ndnlab::sim::PerfConsumerApp::IntervalCallback")
                      .AddTraceSource("Done", "The whole report, once the test ended",
                                      ns3::MakeTraceSourceAccessor(&PerfConsumerApp::m_doneTrace),
                                      "ndnlab::sim::PerfConsumerApp::ReportCallback");
    t = addOptionAttributes<app::PerfClientOptions>(t, perfClientFields(), [](ns3::ObjectBase* o) {
      auto* a = dynamic_cast<PerfConsumerApp*>(o);
      return a ? &a->m_opts : nullptr;
    });
    return addOptionAttributes<app::SegmentFetcherOptions>(t, fetcherFields(), [](ns3::ObjectBase* o) {
      auto* a = dynamic_cast<PerfConsumerApp*>(o);
      return a ? &a->m_opts.fetch : nullptr;
    });
  }();
  return tid;
}

PerfConsumerApp::PerfConsumerApp() = default;

PerfConsumerApp::~PerfConsumerApp() = default;

void PerfConsumerApp::StartEngine()
{
  m_report.reset();
  try {
    m_engine = std::make_unique<app::PerfClient>(GetStack()->GetEnv(), *GetEndpoint(), m_opts);
  }
  catch (const std::invalid_argument& e) {
    Fatal(e.what());
  }
  m_engine->onInterval = [this](const app::PerfInterval& iv) { m_intervalTrace(iv); };
  m_engine->onDone = [this](const app::PerfReport& r) {
    m_report = r;
    NS_LOG_INFO("node " << GetNode()->GetId() << " perf done: " << r.sum.bytes << " bytes in " << toSeconds(r.elapsed)
                        << " s");
    m_doneTrace(r);
  };
  m_engine->start(GetPrefix());
}

void PerfConsumerApp::StopEngine()
{
  if (m_engine)
    m_engine->stop();
  m_engine.reset();
}

} // namespace ndnlab::sim
