#pragma once
// WifiOneHop: the BLEnD paper's single-hop Wi-Fi set-up (Sec. II-A) with the configurations of
// shared/reference/ns3-calibration.md sections 2.2-2.3: one station (node 0, the consumer) and
// one access point (node 1, the producer) in infrastructure mode, YansWifiChannelHelper
// defaults, ConstantRateWifiManager, fixed positions `distance` metres apart, RTS/CTS off.
//
// Standards:
// - "11b": WIFI_STANDARD_80211b, DsssRate11Mbps (ns-3.37 defaults: long preamble, ACK at
//   2 Mbps, CWmin 31).
// - "11n-5": WIFI_STANDARD_80211n in 5 GHz (channel settings {0, 20, BAND_5GHZ, 0}),
//   OfdmRate24Mbps (the paper's "24 Mbps"; non-HT, so no A-MPDU).
// - "11n-2.4": WIFI_STANDARD_80211n in 2.4 GHz with ErpOfdmRate24Mbps (OfdmRate24Mbps aborts there).
// NonUnicastMode (the rate of broadcast frames) is the data rate when broadcastAtDataRate is
// set, as the paper's numbers require; the ns-3 default is the lowest basic rate. A-MPDU is
// disabled on every device (BE_MaxAmpduSize = 0).

#include <ns3/net-device-container.h>
#include <ns3/node-container.h>
#include <ns3/wifi-standards.h>

#include <string>

namespace ns3 {
class WifiHelper;
}

namespace ndnlab::sim {

/// The calibrated PHY set-up of a standard name (ns3-calibration.md): 11b = 802.11b at
/// DsssRate11Mbps; 11n-5 = 802.11n at 5 GHz, OfdmRate24Mbps; 11n-2.4 = 802.11n at 2.4 GHz,
/// ErpOfdmRate24Mbps. Shared by WifiOneHop and WifiAdhoc.
struct WifiStandardSetup
{
  ns3::WifiStandard standard;
  std::string dataMode;
  std::string channelSettings; ///< YansWifiPhy ChannelSettings; empty = the standard's default
};

/// Throws std::invalid_argument for an unknown name.
WifiStandardSetup wifiStandardSetup(const std::string& name);

/// Sets `setup`'s standard on `wifi` and a ConstantRateWifiManager at its data mode (data and
/// control frames; broadcast frames too when broadcastAtDataRate, else ns-3's lowest basic rate).
void configureWifi(ns3::WifiHelper& wifi, const WifiStandardSetup& setup, bool broadcastAtDataRate);

struct WifiOneHopOptions
{
  std::string standard = "11b";    ///< 11b | 11n-5 | 11n-2.4
  double distance = 5;             ///< metres between station and access point
  bool broadcastAtDataRate = true; ///< NonUnicastMode = the data mode
  /// Probability that a frame a node's PHY has decoded is lost anyway (WifiPhy's post-reception
  /// error model, per frame, both nodes): random link loss on top of collisions; 0 = none.
  double frameLoss = 0;
  std::string ssid = "ndnlab";
};

struct WifiOneHop
{
  ns3::NodeContainer nodes;        ///< 0 = station, 1 = access point
  ns3::NetDeviceContainer devices; ///< 0 = station, 1 = access point
  std::string dataMode;            ///< e.g. DsssRate11Mbps

  /// Creates the two nodes and their devices. Throws std::invalid_argument for an unknown
  /// standard. Wi-Fi random streams are assigned from `stream` (returns via streamsUsed).
  explicit WifiOneHop(const WifiOneHopOptions& opts = {}, int64_t stream = 2'000'000);

  ns3::Ptr<ns3::Node> station() const { return nodes.Get(0); }
  ns3::Ptr<ns3::Node> accessPoint() const { return nodes.Get(1); }
  int64_t streamsUsed = 0;
};

} // namespace ndnlab::sim
