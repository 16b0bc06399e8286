#include "ns3/dcib/helper/dci-topology.hpp"

#include <ns3/internet-stack-helper.h>
#include <ns3/ipv4-address-helper.h>
#include <ns3/ipv4-global-routing-helper.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/string.h>
#include <ns3/traffic-control-helper.h>
#include <ns3/traffic-control-layer.h>
#include <ns3/uinteger.h>

#include <sstream>

namespace ndnlab::dcib {

DciTopology::DciTopology(const DciTopologyOptions& o) : options(o)
{
  using namespace ns3;
  senders.Create(o.hostPairs);
  receivers.Create(o.hostPairs);
  NodeContainer routers;
  routers.Create(2);
  a = routers.Get(0);
  b = routers.Get(1);

  InternetStackHelper stack;
  stack.Install(senders);
  stack.Install(receivers);
  stack.Install(routers);

  PointToPointHelper host;
  host.SetDeviceAttribute("DataRate", DataRateValue(o.hostRate));
  host.SetDeviceAttribute("Mtu", UintegerValue(o.mtu));
  host.SetChannelAttribute("Delay", TimeValue(o.hostDelay));
  host.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("100p"));

  PointToPointHelper link;
  link.SetDeviceAttribute("DataRate", DataRateValue(o.dciRate));
  link.SetDeviceAttribute("Mtu", UintegerValue(o.mtu));
  link.SetChannelAttribute("Delay", TimeValue(o.dciDelay));
  std::ostringstream q;
  q << o.dciDeviceQueuePackets << "p";
  link.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue(q.str()));

  TrafficControlHelper fifo;
  std::ostringstream hq;
  hq << o.hostQueuePackets << "p";
  fifo.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue(hq.str()));

  Ipv4AddressHelper addr;
  uint32_t subnet = 0;
  auto nextSubnet = [&] {
    std::ostringstream net;
    net << "10." << (subnet >> 8) << "." << (subnet & 0xff) << ".0";
    ++subnet;
    addr.SetBase(net.str().c_str(), "255.255.255.0");
  };

  NetDeviceContainer others;
  for (uint32_t i = 0; i < o.hostPairs; ++i) {
    auto d = host.Install(senders.Get(i), a);
    nextSubnet();
    addr.Assign(d);
    others.Add(d);
  }
  for (uint32_t i = 0; i < o.hostPairs; ++i) {
    auto d = host.Install(b, receivers.Get(i));
    nextSubnet();
    auto ifc = addr.Assign(d);
    receiverAddresses.push_back(ifc.GetAddress(1));
    others.Add(d);
  }
  dci = link.Install(a, b);
  nextSubnet();
  auto ifc = addr.Assign(dci);
  aDciAddress = ifc.GetAddress(0);
  others.Add(dci.Get(1)); // B's reverse direction: TCP ACKs and router ACKs

  // Address assignment installed ns-3's default queue disc; replace it by a plain FIFO.
  // A's DCI device is left for installDcib().
  auto clear = [](Ptr<NetDevice> d) {
    auto tc = d->GetNode()->GetObject<TrafficControlLayer>();
    if (tc->GetRootQueueDiscOnDevice(d))
      tc->DeleteRootQueueDiscOnDevice(d);
  };
  for (uint32_t i = 0; i < others.GetN(); ++i)
    clear(others.Get(i));
  clear(dci.Get(0));
  fifo.Install(others);

  Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

ns3::Time DciTopology::baseRtt() const
{
  return 2 * (2 * options.hostDelay + options.dciDelay);
}

ns3::Time DciTopology::interRouterRtt() const
{
  return 2 * options.dciDelay;
}

} // namespace ndnlab::dcib
