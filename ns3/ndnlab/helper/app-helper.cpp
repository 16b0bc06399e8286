#include "ns3/ndnlab/helper/app-helper.hpp"

#include "ns3/ndnlab/helper/stack-helper.hpp"

#include <ns3/application.h>
#include <ns3/string.h>

#include <stdexcept>

namespace ndnlab::sim {

AppHelper::AppHelper(const std::string& typeId)
{
  registerTypes();
  ns3::TypeId tid;
  if (!ns3::TypeId::LookupByNameFailSafe(typeId, &tid))
    throw std::invalid_argument("unknown application type " + typeId);
  m_factory.SetTypeId(tid);
}

void AppHelper::SetAttribute(const std::string& name, const ns3::AttributeValue& value)
{
  m_factory.Set(name, value);
}

void AppHelper::SetPrefix(const std::string& prefix)
{
  m_factory.Set("Prefix", ns3::StringValue(prefix));
}

ns3::ApplicationContainer AppHelper::Install(ns3::Ptr<ns3::Node> node) const
{
  ns3::Ptr<ns3::Application> app = m_factory.Create<ns3::Application>();
  node->AddApplication(app);
  return ns3::ApplicationContainer(app);
}

ns3::ApplicationContainer AppHelper::Install(const ns3::NodeContainer& nodes) const
{
  ns3::ApplicationContainer c;
  for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    c.Add(Install(*it));
  return c;
}

} // namespace ndnlab::sim
