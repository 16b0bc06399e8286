#include "ns3/ndnlab/scenarios/wifi-kit.hpp"

#include "ns3/ndnlab/scenarios/bundling-kit.hpp"

#include <ns3/string.h>
#include <ns3/uinteger.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-net-device.h>
#include <ns3/wifi-phy.h>
#include <ns3/wifi-remote-station-manager.h>

#include <algorithm>
#include <vector>

namespace ndnlab::sim::scenarios {

std::string wifiStandard(const Params& params)
{
  const std::string& standard = params.getString("Standard");
  return standard == "80211b" ? "11b" : standard == "80211n" ? "11n-5" : "11n-2.4";
}

namespace {

/// Throws UsageError unless `mode` is a mode or MCS the PHY of `dev` supports (its standard and
/// band; HT MCSs up to its spatial streams). ns-3 aborts on an unknown mode name, and at run time
/// on a known one of another standard.
void checkDataMode(const Params& params, ns3::Ptr<ns3::WifiNetDevice> dev, const std::string& mode)
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
  throw UsageError("--DataMode=" + mode + ": not a mode of --Standard=" + params.getString("Standard") + "; one of " +
                   list);
}

} // namespace

std::string applyRadioOverrides(const Params& params, const ns3::NetDeviceContainer& devices,
                                const std::string& standardMode)
{
  const std::string& modeOverride = params.getString("DataMode");
  const bool broadcastAtDataRate = params.getBool("BroadcastAtDataRate");
  for (uint32_t i = 0; i < devices.GetN(); ++i) {
    auto dev = ns3::DynamicCast<ns3::WifiNetDevice>(devices.Get(i));
    if (!modeOverride.empty()) {
      checkDataMode(params, dev, modeOverride);
      auto manager = dev->GetRemoteStationManager();
      if (!manager->SetAttributeFailSafe("DataMode", ns3::StringValue(modeOverride)))
        throw UsageError("--DataMode=" + modeOverride + ": not a Wi-Fi mode");
      if (broadcastAtDataRate)
        manager->SetAttribute("NonUnicastMode", ns3::StringValue(modeOverride));
    }
    if (params.getBool("Ampdu"))
      dev->GetMac()->SetAttribute("BE_MaxAmpduSize", ns3::UintegerValue(65535));
  }
  return modeOverride.empty() ? standardMode : modeOverride;
}

StackHelper wifiStack(const Params& params)
{
  const int64_t cs = params.getInt("CsSize"); // not negative: its spec's range
  StackHelper stack;
  stack.SetCsSize(static_cast<size_t>(cs));
  applyBundling(params, stack);
  stack.SetTransportAttribute("Addressing", ns3::StringValue(params.getString("Addressing")));
  return stack;
}

} // namespace ndnlab::sim::scenarios
