#include "ns3/ndnlab/helper/wifi-one-hop.hpp"
#include "ns3/ndnlab/helper/frame-loss.hpp"

#include <ns3/boolean.h>
#include <ns3/mobility-helper.h>
#include <ns3/ssid.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>
#include <ns3/vector.h>
#include <ns3/wifi-helper.h>
#include <ns3/wifi-mac-helper.h>
#include <ns3/wifi-net-device.h>
#include <ns3/wifi-phy.h>
#include <ns3/yans-wifi-helper.h>

#include <stdexcept>

namespace ndnlab::sim {

WifiStandardSetup wifiStandardSetup(const std::string& name)
{
  if (name == "11b")
    return {ns3::WIFI_STANDARD_80211b, "DsssRate11Mbps", ""};
  if (name == "11n-5")
    return {ns3::WIFI_STANDARD_80211n, "OfdmRate24Mbps", "{0, 20, BAND_5GHZ, 0}"};
  if (name == "11n-2.4")
    return {ns3::WIFI_STANDARD_80211n, "ErpOfdmRate24Mbps", ""};
  throw std::invalid_argument("unknown Wi-Fi standard '" + name + "' (11b | 11n-5 | 11n-2.4)");
}

void configureWifi(ns3::WifiHelper& wifi, const WifiStandardSetup& setup, bool broadcastAtDataRate)
{
  wifi.SetStandard(setup.standard);
  const ns3::StringValue mode(setup.dataMode);
  if (broadcastAtDataRate)
    wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager", "DataMode", mode, "ControlMode", mode,
                                 "NonUnicastMode", mode);
  else
    wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager", "DataMode", mode, "ControlMode", mode);
}

WifiOneHop::WifiOneHop(const WifiOneHopOptions& opts, int64_t stream)
{
  const WifiStandardSetup setup = wifiStandardSetup(opts.standard);
  const std::string& channelSettings = setup.channelSettings;
  dataMode = setup.dataMode;

  nodes.Create(2);
  ns3::WifiHelper wifi;
  configureWifi(wifi, setup, opts.broadcastAtDataRate);

  ns3::YansWifiChannelHelper channel = ns3::YansWifiChannelHelper::Default();
  ns3::YansWifiPhyHelper phy;
  phy.SetChannel(channel.Create());
  if (!channelSettings.empty())
    phy.Set("ChannelSettings", ns3::StringValue(channelSettings));

  ns3::WifiMacHelper mac;
  ns3::Ssid ssid(opts.ssid);
  mac.SetType("ns3::StaWifiMac", "Ssid", ns3::SsidValue(ssid), "ActiveProbing", ns3::BooleanValue(false),
              "BE_MaxAmpduSize", ns3::UintegerValue(0));
  devices.Add(wifi.Install(phy, mac, nodes.Get(0)));
  mac.SetType("ns3::ApWifiMac", "Ssid", ns3::SsidValue(ssid), "BE_MaxAmpduSize", ns3::UintegerValue(0));
  devices.Add(wifi.Install(phy, mac, nodes.Get(1)));

  ns3::MobilityHelper mobility;
  auto positions = ns3::CreateObject<ns3::ListPositionAllocator>();
  positions->Add(ns3::Vector(0, 0, 0));
  positions->Add(ns3::Vector(opts.distance, 0, 0));
  mobility.SetPositionAllocator(positions);
  mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
  mobility.Install(nodes);

  streamsUsed = wifi.AssignStreams(devices, stream);
  if (opts.frameLoss > 0) {
    for (uint32_t i = 0; i < devices.GetN(); ++i)
      ns3::DynamicCast<ns3::WifiNetDevice>(devices.Get(i))
        ->GetPhy()
        ->SetPostReceptionErrorModel(frameLossModel(opts.frameLoss, stream + streamsUsed++));
  }
}

} // namespace ndnlab::sim
