#include "ns3/ndnlab/helper/stack-helper.hpp"

#include "ns3/ndnlab/apps/constant-rate-consumer-app.hpp"
#include "ns3/ndnlab/apps/consumer-app.hpp"
#include "ns3/ndnlab/apps/one-interest-apps.hpp"
#include "ns3/ndnlab/apps/perf-apps.hpp"
#include "ns3/ndnlab/apps/ping-apps.hpp"
#include "ns3/ndnlab/apps/producer-app.hpp"
#include "ns3/ndnlab/apps/stream-apps.hpp"

#include <ns3/node-list.h>
#include <ns3/uinteger.h>

#include <stdexcept>

namespace ndnlab::sim {

void registerTypes()
{
  NdnStack::GetTypeId();
  NetDeviceTransport::GetTypeId();
  ConsumerApp::GetTypeId();
  ProducerApp::GetTypeId();
  ConstantRateConsumerApp::GetTypeId();
  OneInterestConsumerApp::GetTypeId();
  OneInterestProducerApp::GetTypeId();
  PingClientApp::GetTypeId();
  PingServerApp::GetTypeId();
  PerfProducerApp::GetTypeId();
  PerfConsumerApp::GetTypeId();
  StreamProducerApp::GetTypeId();
  StreamConsumerApp::GetTypeId();
}

namespace {

Name parseName(const std::string& s, const char* what)
{
  auto n = Name::parse(s);
  if (!n)
    throw std::invalid_argument(std::string("invalid ") + what + " '" + s + "': " + n.error());
  return *n;
}

} // namespace

StackHelper::StackHelper()
{
  registerTypes();
  m_factory.SetTypeId(NdnStack::GetTypeId());
}

void StackHelper::SetStackAttribute(const std::string& name, const ns3::AttributeValue& value)
{
  m_factory.Set(name, value);
}

void StackHelper::SetCsSize(size_t packets)
{
  m_factory.Set("CsSize", ns3::UintegerValue(packets));
}

void StackHelper::SetTransportAttribute(const std::string& name, const ns3::AttributeValue& value)
{
  ns3::TypeId::AttributeInformation info;
  if (!NetDeviceTransport::GetTypeId().LookupAttributeByName(name, &info))
    throw std::invalid_argument("NetDeviceTransport has no attribute " + name);
  // Keep the value in the attribute's own type so string values work too.
  ns3::Ptr<ns3::AttributeValue> v = info.checker->CreateValidValue(value);
  if (!v)
    throw std::invalid_argument("invalid value for NetDeviceTransport attribute " + name);
  m_transportAttributes.emplace_back(name, v);
}

void StackHelper::SetStrategy(const std::string& prefix, const std::string& strategy)
{
  m_strategies.emplace_back(parseName(prefix, "prefix"), parseName(strategy, "strategy"));
}

ns3::Ptr<NdnStack> StackHelper::Install(ns3::Ptr<ns3::Node> node) const
{
  if (node->GetObject<NdnStack>())
    throw std::logic_error("node " + std::to_string(node->GetId()) + " already has an NdnStack");
  ns3::Ptr<NdnStack> stack = m_factory.Create<NdnStack>();
  stack->Build(node);
  stack->AssignStreams(m_streamBase + node->GetId());
  for (uint32_t i = 0; i < node->GetNDevices(); ++i) {
    ns3::Ptr<ns3::NetDevice> dev = node->GetDevice(i);
    if (dev->GetInstanceTypeId().GetName() == "ns3::LoopbackNetDevice")
      continue; // installed with the Internet stack; not a link
    face::FaceId id = stack->AddNetDeviceFace(dev, m_transportAttributes);
    if (m_defaultRoutes)
      stack->AddRoute(Name("/"), id, 1);
  }
  for (const auto& [prefix, strategy] : m_strategies)
    stack->SetStrategy(prefix, strategy);
  return stack;
}

void StackHelper::Install(const ns3::NodeContainer& nodes) const
{
  for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    Install(*it);
}

void StackHelper::InstallAll() const
{
  Install(ns3::NodeContainer::GetGlobal());
}

void StackHelper::SetStrategy(const ns3::NodeContainer& nodes, const std::string& prefix, const std::string& strategy)
{
  Name p = parseName(prefix, "prefix");
  Name s = parseName(strategy, "strategy");
  for (auto it = nodes.Begin(); it != nodes.End(); ++it) {
    ns3::Ptr<NdnStack> stack = (*it)->GetObject<NdnStack>();
    if (!stack)
      throw std::invalid_argument("node " + std::to_string((*it)->GetId()) + " has no NdnStack");
    stack->SetStrategy(p, s);
  }
}

int64_t StackHelper::AssignStreams(const ns3::NodeContainer& nodes, int64_t stream)
{
  int64_t n = 0;
  for (auto it = nodes.Begin(); it != nodes.End(); ++it) {
    if (ns3::Ptr<NdnStack> stack = (*it)->GetObject<NdnStack>())
      n += stack->AssignStreams(stream + n);
  }
  return n;
}

} // namespace ndnlab::sim
