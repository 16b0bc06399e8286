#pragma once
// What the Wi-Fi set-ups (WifiOneHop, WifiAdhoc) share once their devices exist: the radio
// overrides of a run (data mode, broadcast rate, A-MPDU) and a count of the frames each PHY
// sends. `ndnlab sim`'s Wi-Fi scenarios and `ndnlab-emu-link --link wifi` use these, so an
// emulated Wi-Fi link is configured and counted as the simulated one.

#include <ns3/net-device-container.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ndnlab::sim {

struct WifiRadioOverrides
{
  std::string dataMode;            ///< a mode or MCS of the devices' standard and band; empty = keep the standard's
  bool broadcastAtDataRate = true; ///< the override is also the NonUnicastMode
  bool ampdu = false;              ///< A-MPDU aggregation (BE_MaxAmpduSize 65535); only HT unicast frames aggregate
};

/// Applies `overrides` to every Wi-Fi device of `devices`; returns the data mode in use, the
/// override or `standardMode`. Throws std::invalid_argument for a mode the PHY of the standard
/// and band does not support; the message lists those it does ("one of DsssRate1Mbps ...").
std::string applyRadioOverrides(const ns3::NetDeviceContainer& devices, const WifiRadioOverrides& overrides,
                                const std::string& standardMode);

/// PHY transmissions of one device by frame type; every MPDU of an A-MPDU counts.
struct WifiPhyCounts
{
  uint64_t all = 0, data = 0, ctl = 0, mgt = 0;
};

/// Counts the PHY transmissions (PhyTxPsduBegin) of each Wi-Fi device of a container.
class WifiPhyCounter
{
public:
  explicit WifiPhyCounter(const ns3::NetDeviceContainer& devices);
  /// Counts of device `i` of the container (zero for a device that is not Wi-Fi).
  const WifiPhyCounts& counts(size_t i) const { return *m_counts.at(i); }

private:
  std::vector<std::shared_ptr<WifiPhyCounts>> m_counts;
};

} // namespace ndnlab::sim
