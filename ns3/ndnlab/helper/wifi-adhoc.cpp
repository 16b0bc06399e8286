#include "ns3/ndnlab/helper/wifi-adhoc.hpp"
#include "ns3/ndnlab/helper/wifi-one-hop.hpp"

#include <ns3/double.h>
#include <ns3/mobility-helper.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>
#include <ns3/wifi-helper.h>
#include <ns3/wifi-mac-helper.h>
#include <ns3/yans-wifi-helper.h>

#include <stdexcept>

namespace ndnlab::sim {

WifiAdhoc::WifiAdhoc(const WifiAdhocOptions& opts, int64_t stream)
{
  const WifiStandardSetup setup = wifiStandardSetup(opts.standard);
  const std::string& channelSettings = setup.channelSettings;
  dataMode = setup.dataMode;
  if (opts.positions.empty())
    throw std::invalid_argument("WifiAdhoc: no positions");

  nodes.Create(static_cast<uint32_t>(opts.positions.size()));
  ns3::WifiHelper wifi;
  configureWifi(wifi, setup, opts.broadcastAtDataRate);

  // YansWifiChannelHelper::Default(): constant-speed delay and log-distance loss; the range
  // cut-off is chained after the log-distance model.
  ns3::YansWifiChannelHelper channel = ns3::YansWifiChannelHelper::Default();
  if (opts.range > 0)
    channel.AddPropagationLoss("ns3::RangePropagationLossModel", "MaxRange", ns3::DoubleValue(opts.range));
  ns3::YansWifiPhyHelper phy;
  phy.SetChannel(channel.Create());
  if (!channelSettings.empty())
    phy.Set("ChannelSettings", ns3::StringValue(channelSettings));

  ns3::WifiMacHelper mac;
  mac.SetType("ns3::AdhocWifiMac", "BE_MaxAmpduSize", ns3::UintegerValue(0));
  devices = wifi.Install(phy, mac, nodes);

  ns3::MobilityHelper mobility;
  auto positions = ns3::CreateObject<ns3::ListPositionAllocator>();
  for (const ns3::Vector& v : opts.positions)
    positions->Add(v);
  mobility.SetPositionAllocator(positions);
  mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
  mobility.Install(nodes);

  streamsUsed = wifi.AssignStreams(devices, stream);
}

} // namespace ndnlab::sim
