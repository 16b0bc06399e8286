#include "ns3/ndnlab/scenarios/wifi-kit.hpp"

#include "ns3/ndnlab/scenarios/bundling-kit.hpp"

#include <ns3/string.h>

#include <stdexcept>

namespace ndnlab::sim::scenarios {

std::string wifiStandard(const Params& params)
{
  const std::string& standard = params.getString("Standard");
  return standard == "80211b" ? "11b" : standard == "80211n" ? "11n-5" : "11n-2.4";
}

std::string applyRadioOverrides(const Params& params, const ns3::NetDeviceContainer& devices,
                                const std::string& standardMode)
{
  const WifiRadioOverrides overrides{params.getString("DataMode"), params.getBool("BroadcastAtDataRate"),
                                     params.getBool("Ampdu")};
  try {
    return sim::applyRadioOverrides(devices, overrides, standardMode);
  }
  catch (const std::invalid_argument& e) {
    throw UsageError("--DataMode=" + overrides.dataMode + ": not a mode of --Standard=" + params.getString("Standard") +
                     "; " + e.what());
  }
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
