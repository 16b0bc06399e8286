#include "ns3/ndnlab/apps/ndn-app.hpp"

#include <ns3/abort.h>
#include <ns3/log.h>
#include <ns3/string.h>
#include <ns3/trace-source-accessor.h>

#include <stdexcept>

NS_LOG_COMPONENT_DEFINE("ndnlab.NdnApp");

namespace ndnlab::sim {

NS_OBJECT_ENSURE_REGISTERED(NdnApp);

ns3::TypeId NdnApp::GetTypeId()
{
  static ns3::TypeId tid =
    ns3::TypeId("ndnlab::NdnApp")
      .SetParent<ns3::Application>()
      .SetGroupName("Ndnlab")
      .AddAttribute("Prefix", "Name served or fetched", ns3::StringValue("/"),
                    ns3::MakeStringAccessor(&NdnApp::m_prefix), ns3::MakeStringChecker())
      .AddTraceSource("Interest", "Every Interest the engine expresses",
                      ns3::MakeTraceSourceAccessor(&NdnApp::m_interestTrace), "ndnlab::sim::NdnApp::InterestCallback")
      .AddTraceSource("Data", "Every Data the engine puts", ns3::MakeTraceSourceAccessor(&NdnApp::m_dataTrace),
                      "ndnlab::sim::NdnApp::DataCallback");
  return tid;
}

NdnApp::NdnApp() = default;

NdnApp::~NdnApp() = default;

Name NdnApp::GetPrefix() const
{
  auto n = Name::parse(m_prefix);
  if (!n)
    throw std::invalid_argument("invalid Prefix '" + m_prefix + "': " + n.error());
  return *n;
}

void NdnApp::StartApplication()
{
  m_stack = GetNode()->GetObject<NdnStack>();
  if (!m_stack || !m_stack->IsBuilt())
    Fatal("node " + std::to_string(GetNode()->GetId()) + " has no NDN stack (StackHelper::Install)");
  m_endpoint = m_stack->CreateAppEndpoint("app://" + GetInstanceTypeId().GetName());
  m_endpoint->afterExpressInterest = [this](const Interest& i) { m_interestTrace(i); };
  m_endpoint->afterPutData = [this](const Data& d) { m_dataTrace(d); };
  try {
    StartEngine();
  }
  catch (const std::invalid_argument& e) {
    Fatal(e.what());
  }
}

void NdnApp::StopApplication()
{
  if (!m_endpoint)
    return;
  StopEngine();
  m_endpoint.reset();
}

void NdnApp::DoDispose()
{
  StopApplication();
  m_stack = nullptr;
  ns3::Application::DoDispose();
}

void NdnApp::RegisterPrefix(const Name& prefix)
{
  m_stack->AddRoute(prefix, m_endpoint->faceId(), 0);
}

void NdnApp::EmitEvent(const TraceEvent& e)
{
  m_stack->GetEnv().emit(e);
}

void NdnApp::Fatal(const std::string& what) const
{
  NS_FATAL_ERROR(GetInstanceTypeId().GetName() << " on node " << GetNode()->GetId() << ": " << what);
  std::abort();
}

} // namespace ndnlab::sim
