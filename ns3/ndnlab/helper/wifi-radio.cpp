#include "ns3/ndnlab/helper/wifi-radio.hpp"

#include <ns3/string.h>
#include <ns3/uinteger.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-net-device.h>
#include <ns3/wifi-phy.h>
#include <ns3/wifi-psdu.h>
#include <ns3/wifi-remote-station-manager.h>

#include <algorithm>
#include <stdexcept>

namespace ndnlab::sim {

namespace {

/// Throws std::invalid_argument unless `mode` is a mode or MCS the PHY of `dev` supports (its
/// standard and band; HT MCSs up to its spatial streams). ns-3 aborts on an unknown mode name,
/// and at run time on a known one of another standard.
void checkDataMode(ns3::Ptr<ns3::WifiNetDevice> dev, const std::string& mode)
{
  auto phy = dev->GetPhy();
  std::vector<std::string> valid;
  auto add = [&valid](const ns3::WifiMode& m) {
    if (std::find(valid.begin(), valid.end(), m.GetUniqueName()) == valid.end())
      valid.push_back(m.GetUniqueName());
  };
  for (const auto& m : phy->GetModeList())
    add(m);
  for (const auto& m : phy->GetMcsList()) {
    if (m.GetModulationClass() != ns3::WIFI_MOD_CLASS_HT ||
        m.GetMcsValue() / 8 < phy->GetMaxSupportedTxSpatialStreams())
      add(m);
  }
  if (std::find(valid.begin(), valid.end(), mode) != valid.end())
    return;
  std::string list;
  for (const auto& v : valid)
    list += (list.empty() ? "" : " ") + v;
  throw std::invalid_argument("one of " + list);
}

} // namespace

std::string applyRadioOverrides(const ns3::NetDeviceContainer& devices, const WifiRadioOverrides& overrides,
                                const std::string& standardMode)
{
  const std::string& mode = overrides.dataMode;
  for (uint32_t i = 0; i < devices.GetN(); ++i) {
    auto dev = ns3::DynamicCast<ns3::WifiNetDevice>(devices.Get(i));
    if (!dev)
      continue;
    if (!mode.empty()) {
      checkDataMode(dev, mode);
      auto manager = dev->GetRemoteStationManager();
      if (!manager->SetAttributeFailSafe("DataMode", ns3::StringValue(mode)))
        throw std::invalid_argument("not a Wi-Fi mode");
      if (overrides.broadcastAtDataRate)
        manager->SetAttribute("NonUnicastMode", ns3::StringValue(mode));
    }
    if (overrides.ampdu)
      dev->GetMac()->SetAttribute("BE_MaxAmpduSize", ns3::UintegerValue(65535));
  }
  return mode.empty() ? standardMode : mode;
}

WifiPhyCounter::WifiPhyCounter(const ns3::NetDeviceContainer& devices)
{
  for (uint32_t i = 0; i < devices.GetN(); ++i) {
    auto counts = std::make_shared<WifiPhyCounts>();
    m_counts.push_back(counts);
    auto wifi = ns3::DynamicCast<ns3::WifiNetDevice>(devices.Get(i));
    if (!wifi)
      continue;
    wifi->GetPhy()->TraceConnectWithoutContext("PhyTxPsduBegin",
                                               ns3::Callback<void, ns3::WifiConstPsduMap, ns3::WifiTxVector, double>(
                                                 [counts](ns3::WifiConstPsduMap psdus, ns3::WifiTxVector, double) {
                                                   for (const auto& [staId, psdu] : psdus) {
                                                     for (size_t m = 0; m < psdu->GetNMpdus(); ++m) {
                                                       const auto& h = psdu->GetHeader(m);
                                                       ++counts->all;
                                                       if (h.IsData())
                                                         ++counts->data;
                                                       else if (h.IsCtl())
                                                         ++counts->ctl;
                                                       else if (h.IsMgt())
                                                         ++counts->mgt;
                                                     }
                                                   }
                                                 }));
  }
}

} // namespace ndnlab::sim
