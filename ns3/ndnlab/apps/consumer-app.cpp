#include "ns3/ndnlab/apps/consumer-app.hpp"

#include "ns3/ndnlab/model/options-attributes.hpp"

#include <ns3/log.h>
#include <ns3/trace-source-accessor.h>
#include <ns3/uinteger.h>

NS_LOG_COMPONENT_DEFINE("ndnlab.ConsumerApp");

namespace ndnlab::sim {

NS_OBJECT_ENSURE_REGISTERED(ConsumerApp);

ns3::TypeId ConsumerApp::GetTypeId()
{
  static ns3::TypeId tid = [] {
    ns3::TypeId t =
      ns3::TypeId("ndnlab::ConsumerApp")
        .SetParent<NdnApp>()
        .SetGroupName("Ndnlab")
        .AddConstructor<ConsumerApp>()
        .AddAttribute("ExpectedSize", "Expected content size in bytes; 0 = unknown", ns3::UintegerValue(0),
                      ns3::MakeUintegerAccessor(&ConsumerApp::m_expectedSize), ns3::MakeUintegerChecker<uint64_t>())
        .AddTraceSource("Bytes", "Content bytes delivered in order (pointer, length)",
                        ns3::MakeTraceSourceAccessor(&ConsumerApp::m_bytesTrace),
                        "ndnlab::sim::ConsumerApp::BytesCallback")
        .AddTraceSource("Complete", "Statistics of a completed fetch",
                        ns3::MakeTraceSourceAccessor(&ConsumerApp::m_completeTrace),
                        "ndnlab::sim::ConsumerApp::StatsCallback")
        .AddTraceSource("Failed", "Statistics and error of a failed fetch",
                        ns3::MakeTraceSourceAccessor(&ConsumerApp::m_failedTrace),
                        "ndnlab::sim::ConsumerApp::FailedCallback");
    return addOptionAttributes<app::SegmentFetcherOptions>(t, fetcherFields(), [](ns3::ObjectBase* o) {
      auto* a = dynamic_cast<ConsumerApp*>(o);
      return a ? &a->m_opts : nullptr;
    });
  }();
  return tid;
}

ConsumerApp::ConsumerApp() = default;

ConsumerApp::~ConsumerApp() = default;

app::FetchStats ConsumerApp::GetStats() const
{
  return m_fetcher ? m_fetcher->stats() : m_lastStats;
}

void ConsumerApp::StartEngine()
{
  Name name = GetPrefix();
  m_complete = m_failed = false;
  m_received = 0;
  m_fetcher = std::make_unique<app::SegmentFetcher>(GetStack()->GetEnv(), *GetEndpoint(), m_opts);
  m_fetcher->onBytes = [this](ByteSpan b) {
    m_received += b.size();
    EmitEvent({EventKind::AppBytes, 0, {}, static_cast<int64_t>(b.size()), 0});
    m_bytesTrace(b.data(), b.size());
  };
  m_fetcher->onComplete = [this] {
    m_complete = true;
    m_lastStats = m_fetcher->stats();
    if (m_expectedSize != 0 && m_lastStats.bytes.count() != m_expectedSize) {
      NS_LOG_WARN("fetched " << m_lastStats.bytes.count() << " bytes, expected " << m_expectedSize);
      EmitEvent({EventKind::FetchSizeMismatch,
                 0,
                 {},
                 static_cast<int64_t>(m_lastStats.bytes.count()),
                 static_cast<double>(m_expectedSize)});
    }
    m_completeTrace(m_lastStats);
  };
  m_fetcher->onError = [this](const app::FetchError& e) {
    m_failed = true;
    m_lastStats = m_fetcher->stats();
    NS_LOG_INFO("fetch failed: " << e.message);
    m_failedTrace(m_lastStats, e.message);
  };
  m_fetcher->start(name);
}

void ConsumerApp::StopEngine()
{
  if (m_fetcher) {
    m_lastStats = m_fetcher->stats();
    m_fetcher.reset();
  }
}

} // namespace ndnlab::sim
