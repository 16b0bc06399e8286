#pragma once
// WifiAdhoc: nodes on one 802.11 ad hoc channel at given positions, for the BLEnD multi-hop
// scenarios (paper VI-D, Fig. 10): every node has one Wi-Fi device (AdhocWifiMac, so no
// association and no access point relaying frames), the standards and data modes of WifiOneHop
// (11b: DsssRate11Mbps; 11n-5: OfdmRate24Mbps at 5 GHz; 11n-2.4: ErpOfdmRate24Mbps),
// ConstantRateWifiManager, RTS/CTS off, A-MPDU off.
//
// Radio range: the YANS channel applies the default log-distance loss (exponent 3, 46.68 dB at
// 1 m) and then, when `range` > 0, a RangePropagationLossModel: a receiver farther than `range`
// gets -1000 dBm, so it neither decodes nor senses the frame (no carrier sense, no
// interference). Nodes farther apart than `range` are thus hidden from each other; within it the
// signal is the log-distance one (about -70 dBm at 20 m, well above the sensitivity).

#include <ns3/net-device-container.h>
#include <ns3/node-container.h>
#include <ns3/vector.h>

#include <string>
#include <vector>

namespace ndnlab::sim {

struct WifiAdhocOptions
{
  std::string standard = "11b";       ///< 11b | 11n-5 | 11n-2.4
  std::vector<ns3::Vector> positions; ///< one node per position (metres)
  double range = 0;                   ///< radio range in metres; 0 = log-distance only
  bool broadcastAtDataRate = true;    ///< NonUnicastMode = the data mode
};

struct WifiAdhoc
{
  ns3::NodeContainer nodes;        ///< in the order of the positions
  ns3::NetDeviceContainer devices; ///< devices.Get(i) is on nodes.Get(i)
  std::string dataMode;            ///< e.g. DsssRate11Mbps

  /// Creates the nodes and their devices. Throws std::invalid_argument for an unknown standard
  /// or no positions. Wi-Fi random streams are assigned from `stream`.
  explicit WifiAdhoc(const WifiAdhocOptions& opts, int64_t stream = 2'000'000);
  int64_t streamsUsed = 0;
};

} // namespace ndnlab::sim
