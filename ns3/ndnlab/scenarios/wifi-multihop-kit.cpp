#include "ns3/ndnlab/scenarios/wifi-multihop-kit.hpp"

#include "ns3/ndnlab/scenarios/bundling-kit.hpp"
#include "ns3/ndnlab/scenarios/wifi-kit.hpp"

#include "core/fw/forwarder.hpp"

#include <limits>
#include <stdexcept>

namespace ndnlab::sim::scenarios {

std::vector<ParamSpec> multihopRadioParams(const std::string& defaultAddressing, const std::string& defaultDistance,
                                           const std::string& defaultRange, const std::string& rangeDoc)
{
  return {
    {"Standard",
     ParamType::String,
     "80211b",
     "",
     "80211b = DsssRate11Mbps; 80211n = 5 GHz, OfdmRate24Mbps; 80211n-2.4 = 2.4 GHz, ErpOfdmRate24Mbps "
     "(as wifi-one-hop), 802.11 ad hoc mode",
     {"80211b", "80211n", "80211n-2.4"}},
    {"Addressing",
     ParamType::String,
     defaultAddressing,
     "",
     "NDN frames to the broadcast MAC (ndnSIM: no 802.11 ACK in ad hoc mode) or to the learned neighbour "
     "(ACK/retry; a node that has heard several neighbours, or whose face is ad hoc, broadcasts what has no "
     "explicit destination)",
     {"broadcast", "unicast"}},
    {"DataMode", ParamType::String, "", "",
     "override of the standard's data mode, e.g. HtMcs3 (80211n, needed for A-MPDU); a mode of that standard "
     "and band (a bad one is rejected with the list); empty = the standard's"},
    {"Ampdu", ParamType::Bool, "false", "",
     "A-MPDU aggregation (BE_MaxAmpduSize 65535); only HT unicast frames are aggregated"},
    {"BroadcastAtDataRate", ParamType::Bool, "true", "",
     "NonUnicastMode = the data mode; false = ns-3's lowest basic rate"},
    {"Distance",
     ParamType::Double,
     defaultDistance,
     "m",
     "between neighbouring nodes on the line",
     {},
     runner::Range::positive(1e6)},
    {"Range",
     ParamType::Double,
     defaultRange,
     "m",
     "radio range (RangePropagationLossModel after the log-distance loss): farther nodes neither decode nor "
     "sense each other; 0 = no cut-off; " +
       rangeDoc,
     {},
     runner::Range::nonNegative(1e6)},
    {"CsSize",
     ParamType::Int,
     "100",
     "packets",
     "Content Store capacity of every node (ndnSIM's default 100)",
     {},
     runner::Range::nonNegative(std::numeric_limits<uint32_t>::max())},
  };
}

WifiAdhoc makeAdhocLine(const Params& params, const std::vector<double>& slots)
{
  WifiAdhocOptions opts;
  opts.standard = wifiStandard(params);
  opts.broadcastAtDataRate = params.getBool("BroadcastAtDataRate");
  const double d = params.getDouble("Distance");
  opts.range = params.getDouble("Range");
  for (double s : slots)
    opts.positions.emplace_back(s * d, 0, 0);
  WifiAdhoc wifi(opts);
  wifi.dataMode = applyRadioOverrides(params, wifi.devices, wifi.dataMode);
  return wifi;
}

nlohmann::json adhocNetwork(const Params& params, const std::vector<std::string>& names,
                            const std::vector<double>& slots)
{
  const WifiAdhoc wifi = makeAdhocLine(params, slots);
  const double d = params.getDouble("Distance");
  nlohmann::json positions = nlohmann::json::array();
  for (double s : slots)
    positions.push_back(s * d);
  const nlohmann::json link = {{"nodes", names},
                               {"kind", "wifi-adhoc"},
                               {"standard", wifiStandard(params)},
                               {"data_mode", wifi.dataMode},
                               {"data_mode_override", params.getString("DataMode")},
                               {"positions_m", positions},
                               {"range_m", params.getDouble("Range")},
                               {"broadcast_at_data_rate", params.getBool("BroadcastAtDataRate")},
                               {"ampdu", params.getBool("Ampdu")},
                               {"addressing", params.getString("Addressing")},
                               {"mtu", wifi.devices.Get(0)->GetMtu()}};
  return {{"nodes", names},
          {"links", {link}},
          {"cs_size", params.getInt("CsSize")},
          {"strategy", fw::ForwarderOptions{}.defaultStrategy.toUri()},
          {"daemon_config", bundlingDaemonConfig(params)},
          {"extra_metrics", {{"data_mode", wifi.dataMode}}},
          {"bundling_metrics", names},
          {"bundling_in", "nodes"},
          {"max_time_s", params.getDouble("MaxTime")}};
}

nlohmann::json nodeReport(const WifiAdhoc& wifi, const WifiPhyCounter& phy, uint32_t i)
{
  nlohmann::json j = nodeFrames(wifi.nodes.Get(i));
  j.update(phyCounters(phy, i));
  j["bundling"] = bundleCounters(wifi.nodes.Get(i));
  return j;
}

} // namespace ndnlab::sim::scenarios
