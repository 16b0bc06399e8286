#pragma once
// BLEnD parameters shared by the Wi-Fi scenarios (wifi-one-hop, wifi-chain, wifi-hidden): the
// bundle interval and the beyond-the-paper encoder options (docs/mechanisms/bundling.md), set
// as NdnStack attributes on every stack a StackHelper installs, and the per-node BLEnD
// counters of result.json.

#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"

#include <ns3/node.h>

#include <nlohmann/json.hpp>

#include <vector>

namespace ndnlab::sim::scenarios {

/// BundleInterval (0 = no bundling), BundleLossDetection, BundleGapMin, BundleGapK,
/// BundleMaxRecoveries, BundleDynamicInterval, BundleIntervalMin, BundleCwndShare; defaults =
/// face::LinkServiceOptions (BundleInterval 0).
std::vector<ParamSpec> bundlingParams();

/// Sets LpBundling (BundleInterval > 0), LpBundleInterval and the other options on `stack`
/// (the values are within their specs' ranges).
void applyBundling(const Params& params, StackHelper& stack);

/// The same options as ndnlabd's keys, for `ndnlab emu`: {"face_system.link": {"bundling":
/// BundleInterval > 0, "bundle_interval": n, "bundle_loss_detection": ..., ...}}, each value as
/// TOML takes it (a duration as "<n>ns"). Throws UsageError for a knob the daemon has no key of.
nlohmann::json bundlingDaemonConfig(const Params& params);

/// BLEnD link-service counters of a node's NetDevice faces (link-service.hpp), summed:
/// bundles_out, interests_absorbed, bundle_recoveries, bundles_in, interests_regenerated,
/// interests_gap_filled, bundles_stale, bundles_invalid, data_early, data_early_expired.
nlohmann::json bundleCounters(ns3::Ptr<ns3::Node> node);

} // namespace ndnlab::sim::scenarios
