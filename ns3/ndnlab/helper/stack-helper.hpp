#pragma once
// StackHelper: installs an NdnStack on nodes, with a face on every NetDevice the node has at
// install time (loopback devices excepted).
//
//   StackHelper stack;
//   stack.SetCsSize(1000);                                  // NdnStack attribute CsSize
//   stack.SetStackAttribute("PitMaxEntries", UintegerValue(1000));
//   stack.SetTransportAttribute("Addressing", StringValue("unicast"));   // every face
//   stack.SetStrategy("/", "/localhost/nfd/strategy/multicast");
//   stack.SetDefaultRoutes(true);                           // "/" via every NetDevice face
//   stack.Install(nodes);
//
// Random streams: each installed stack's random variable gets stream StreamBase + node id
// (attribute-free ns-3 convention of AssignStreams), so a run depends only on RngSeed/RngRun and
// the topology. AssignStreams() overrides it.

#include "ns3/ndnlab/model/ndn-stack.hpp"

#include <ns3/node-container.h>
#include <ns3/object-factory.h>

#include <string>
#include <utility>
#include <vector>

namespace ndnlab::sim {

/// Registers every TypeId of the module (apps, stack). Helpers call it; programs that only
/// use TypeId names (Config, CommandLine) before touching a helper may call it too.
void registerTypes();

class StackHelper
{
public:
  /// Default base of the per-node random streams.
  static constexpr int64_t DefaultStreamBase = 1'000'000;

  StackHelper();

  /// Sets an NdnStack attribute (ForwarderOptions / LinkServiceOptions fields) for stacks
  /// installed from now on.
  void SetStackAttribute(const std::string& name, const ns3::AttributeValue& value);
  /// Content Store capacity in packets (0 disables caching).
  void SetCsSize(size_t packets);
  /// Sets a NetDeviceTransport attribute (Addressing, LinkType) for faces created by Install.
  void SetTransportAttribute(const std::string& name, const ns3::AttributeValue& value);
  /// Strategy for `prefix` on stacks installed from now on.
  void SetStrategy(const std::string& prefix, const std::string& strategy);
  /// Adds a route for "/" via every NetDevice face (cost 1) on install (ndnSIM SetDefaultRoutes).
  void SetDefaultRoutes(bool on) { m_defaultRoutes = on; }
  void SetStreamBase(int64_t base) { m_streamBase = base; }

  ns3::Ptr<NdnStack> Install(ns3::Ptr<ns3::Node> node) const;
  void Install(const ns3::NodeContainer& nodes) const;
  void InstallAll() const;

  /// Sets `strategy` for `prefix` on already installed nodes.
  static void SetStrategy(const ns3::NodeContainer& nodes, const std::string& prefix, const std::string& strategy);
  /// Assigns streams stream, stream+1, ... to the stacks of `nodes`; returns how many.
  static int64_t AssignStreams(const ns3::NodeContainer& nodes, int64_t stream);

private:
  ns3::ObjectFactory m_factory;
  AttributeList m_transportAttributes;
  std::vector<std::pair<Name, Name>> m_strategies;
  bool m_defaultRoutes = false;
  int64_t m_streamBase = DefaultStreamBase;
};

} // namespace ndnlab::sim
