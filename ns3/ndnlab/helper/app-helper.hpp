#pragma once
// AppHelper: installs ndnlab applications by TypeId name.
//
//   AppHelper consumer("ndnlab::ConsumerApp");
//   consumer.SetPrefix("/lab/file");
//   consumer.SetAttribute("Pipeline", StringValue("aimd"));
//   ApplicationContainer apps = consumer.Install(node);

#include <ns3/application-container.h>
#include <ns3/node-container.h>
#include <ns3/object-factory.h>

#include <string>

namespace ndnlab::sim {

class AppHelper
{
public:
  /// Throws std::invalid_argument for an unknown TypeId name.
  explicit AppHelper(const std::string& typeId);

  void SetAttribute(const std::string& name, const ns3::AttributeValue& value);
  void SetPrefix(const std::string& prefix);

  ns3::ApplicationContainer Install(ns3::Ptr<ns3::Node> node) const;
  ns3::ApplicationContainer Install(const ns3::NodeContainer& nodes) const;

private:
  ns3::ObjectFactory m_factory;
};

} // namespace ndnlab::sim
