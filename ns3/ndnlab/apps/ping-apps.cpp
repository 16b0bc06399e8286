#include "ns3/ndnlab/apps/ping-apps.hpp"

#include "ns3/ndnlab/apps/producer-app.hpp"
#include "ns3/ndnlab/model/ns3-env.hpp"

#include <ns3/boolean.h>
#include <ns3/log.h>
#include <ns3/string.h>
#include <ns3/trace-source-accessor.h>
#include <ns3/uinteger.h>

#include <stdexcept>

NS_LOG_COMPONENT_DEFINE("ndnlab.PingApps");

namespace ndnlab::sim {

// --- client ---------------------------------------------------------------------------------

NS_OBJECT_ENSURE_REGISTERED(PingClientApp);

ns3::TypeId PingClientApp::GetTypeId()
{
  // the defaults of app::PingClientOptions (`ndnlab ping`'s)
  static const app::PingClientOptions defaults;
  static ns3::TypeId tid =
    ns3::TypeId("ndnlab::PingClientApp")
      .SetParent<NdnApp>()
      .SetGroupName("Ndnlab")
      .AddConstructor<PingClientApp>()
      .AddAttribute("Count", "Pings to send (0 = until stopped)", ns3::UintegerValue(defaults.count),
                    ns3::MakeUintegerAccessor(&PingClientApp::m_count), ns3::MakeUintegerChecker<uint64_t>())
      .AddAttribute("Interval", "Time between pings", ns3::TimeValue(toTime(defaults.interval)),
                    ns3::MakeTimeAccessor(&PingClientApp::m_interval), ns3::MakeTimeChecker())
      .AddAttribute("Timeout", "Ping timeout = InterestLifetime", ns3::TimeValue(toTime(defaults.timeout)),
                    ns3::MakeTimeAccessor(&PingClientApp::m_timeout), ns3::MakeTimeChecker())
      .AddAttribute("AllowStale", "Do not set MustBeFresh", ns3::BooleanValue(defaults.allowStale),
                    ns3::MakeBooleanAccessor(&PingClientApp::m_allowStale), ns3::MakeBooleanChecker())
      .AddTraceSource("Finished", "Every ping was answered, Nacked or timed out",
                      ns3::MakeTraceSourceAccessor(&PingClientApp::m_finishedTrace), "ns3::TracedCallback::Void");
  return tid;
}

PingClientApp::PingClientApp() = default;

PingClientApp::~PingClientApp() = default;

app::PingStats PingClientApp::GetStats() const
{
  return m_client ? m_client->stats() : m_lastStats;
}

Duration PingClientApp::GetElapsed() const
{
  return m_client && !m_finished ? m_client->elapsed() : m_lastElapsed;
}

void PingClientApp::StartEngine()
{
  app::PingClientOptions opts;
  opts.count = m_count;
  opts.interval = toDuration(m_interval);
  opts.timeout = toDuration(m_timeout);
  opts.allowStale = m_allowStale;
  m_finished = false;
  m_client = std::make_unique<app::PingClient>(GetStack()->GetEnv(), *GetEndpoint(), GetPrefix(), opts);
  m_client->onFinish = [this] {
    m_finished = true;
    m_lastStats = m_client->stats();
    m_lastElapsed = m_client->elapsed();
    m_finishedTrace();
  };
  m_client->start();
}

void PingClientApp::StopEngine()
{
  if (!m_client)
    return;
  if (!m_finished) {
    m_lastStats = m_client->stats();
    m_lastElapsed = m_client->elapsed();
  }
  m_client.reset();
}

// --- server ---------------------------------------------------------------------------------

NS_OBJECT_ENSURE_REGISTERED(PingServerApp);

ns3::TypeId PingServerApp::GetTypeId()
{
  static const app::PingServerOptions defaults;
  static ns3::TypeId tid =
    ns3::TypeId("ndnlab::PingServerApp")
      .SetParent<NdnApp>()
      .SetGroupName("Ndnlab")
      .AddConstructor<PingServerApp>()
      .AddAttribute("PayloadSize", "Payload bytes of each reply", ns3::UintegerValue(defaults.payloadSize),
                    ns3::MakeUintegerAccessor(&PingServerApp::m_payloadSize),
                    ns3::MakeUintegerChecker<uint64_t>(0, 8800))
      .AddAttribute("Freshness", "FreshnessPeriod of replies", ns3::TimeValue(toTime(defaults.freshness)),
                    ns3::MakeTimeAccessor(&PingServerApp::m_freshness), ns3::MakeTimeChecker())
      .AddAttribute("Signing", "Signature of replies: digest | null", ns3::StringValue("digest"),
                    ns3::MakeStringAccessor(&PingServerApp::m_signing), ns3::MakeStringChecker());
  return tid;
}

PingServerApp::PingServerApp() = default;

PingServerApp::~PingServerApp() = default;

void PingServerApp::StartEngine()
{
  if (m_signing != "digest" && m_signing != "null")
    throw std::invalid_argument("unknown Signing '" + m_signing + "' (digest | null)");
  const Name prefix = GetPrefix();
  app::PingServerOptions opts;
  opts.payloadSize = static_cast<size_t>(m_payloadSize);
  opts.freshness = toDuration(m_freshness);
  m_signer = makeSigner(m_signing, prefix);
  m_server = std::make_unique<app::PingServer>(GetStack()->GetEnv(), *GetEndpoint(), prefix, *m_signer, opts);
  RegisterPrefix(m_server->pingPrefix());
}

void PingServerApp::StopEngine()
{
  m_server.reset();
  m_signer.reset();
}

} // namespace ndnlab::sim
