#pragma once
// Pieces shared by the Wi-Fi scenarios (wifi-one-hop, wifi-chain, wifi-hidden): the helper name
// of the Standard parameter, the DataMode and Ampdu overrides on the devices, and the NDN stack
// of every Wi-Fi node.

#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/ndnlab/helper/wifi-radio.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"

#include <ns3/net-device-container.h>

#include <string>

namespace ndnlab::sim::scenarios {

/// The Standard parameter (80211b | 80211n | 80211n-2.4) as wifiStandardSetup() names it
/// (11b | 11n-5 | 11n-2.4).
std::string wifiStandard(const Params& params);

/// Applies DataMode when given (also as NonUnicastMode with BroadcastAtDataRate) and Ampdu to
/// every Wi-Fi device of `devices` (sim::applyRadioOverrides); returns the data mode in use, the
/// override or `standardMode`. Throws UsageError for a mode the PHY of the standard and band
/// does not support (the message lists those it does).
std::string applyRadioOverrides(const Params& params, const ns3::NetDeviceContainer& devices,
                                const std::string& standardMode);

/// A StackHelper with CsSize, the BLEnD options (applyBundling) and the faces' Addressing.
/// Throws UsageError for bad values.
StackHelper wifiStack(const Params& params);

} // namespace ndnlab::sim::scenarios
