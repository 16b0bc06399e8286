#include "ns3/ndnlab/scenarios/wifi-kit.hpp"

#include "ns3/ndnlab/scenarios/bundling-kit.hpp"

#include <ns3/string.h>
#include <ns3/uinteger.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-net-device.h>
#include <ns3/wifi-remote-station-manager.h>

namespace ndnlab::sim::scenarios {

std::string
wifiStandard(const Params& params)
{
  const std::string& standard = params.getString("Standard");
  return standard == "80211b" ? "11b" : standard == "80211n" ? "11n-5" : "11n-2.4";
}

std::string
applyRadioOverrides(const Params& params, const ns3::NetDeviceContainer& devices, const std::string& standardMode)
{
  const std::string& modeOverride = params.getString("DataMode");
  const bool broadcastAtDataRate = params.getBool("BroadcastAtDataRate");
  for (uint32_t i = 0; i < devices.GetN(); ++i) {
    auto dev = ns3::DynamicCast<ns3::WifiNetDevice>(devices.Get(i));
    if (!modeOverride.empty()) {
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

StackHelper
wifiStack(const Params& params)
{
  const int64_t cs = params.getInt("CsSize");
  if (cs < 0)
    throw UsageError("--CsSize must not be negative");
  StackHelper stack;
  stack.SetCsSize(static_cast<size_t>(cs));
  applyBundling(params, stack);
  stack.SetTransportAttribute("Addressing", ns3::StringValue(params.getString("Addressing")));
  return stack;
}

} // namespace ndnlab::sim::scenarios
