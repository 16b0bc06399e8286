#pragma once
// Shared pieces of the multi-node Wi-Fi scenarios (wifi-chain, wifi-hidden; BLEnD paper VI-D
// and Fig. 10): radio parameters, the ad hoc network on a line, and per-node reports.

#include "ns3/ndnlab/helper/wifi-adhoc.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ndnlab::sim::scenarios {

/// Standard, Addressing, DataMode, Ampdu, BroadcastAtDataRate, Distance (between neighbours on the
/// line, m), Range (radio range, m; `rangeDoc` says what it makes hidden), CsSize.
std::vector<ParamSpec> multihopRadioParams(const std::string& defaultAddressing, const std::string& defaultDistance,
                                           const std::string& defaultRange, const std::string& rangeDoc);

/// The ad hoc network: node i at x = slots[i] x Distance on a line, the Range cut-off, A-MPDU
/// when asked. Throws UsageError for bad values.
WifiAdhoc makeAdhocLine(const Params& params, const std::vector<double>& slots);

/// The network description (Scenario::network) of an ad hoc line for `ndnlab emu`: `names[i]`
/// at slots[i] x Distance, all on one link of kind "wifi-adhoc" that ndnlab-emu-link builds
/// with WifiAdhoc from the same values (positions_m, range_m, standard, data mode, broadcast
/// rate, A-MPDU, addressing, MTU), every node's CS, the daemons' BLEnD keys, `data_mode` and
/// each node's `bundling` in its node report. The caller adds routes (with `next_hops`, the
/// neighbour each node forwards to, as RouteHelper::AddRoute) and apps. Builds the radio as the
/// run does, so that a DataMode of another standard is refused here (UsageError).
nlohmann::json adhocNetwork(const Params& params, const std::vector<std::string>& names,
                            const std::vector<double>& slots);

/// nodeFrames() of `node` plus the PHY counts of device `i` and its BLEnD counters.
nlohmann::json nodeReport(const WifiAdhoc& wifi, const WifiPhyCounter& phy, uint32_t i);

} // namespace ndnlab::sim::scenarios
