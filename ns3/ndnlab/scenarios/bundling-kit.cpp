#include "ns3/ndnlab/scenarios/bundling-kit.hpp"

#include "core/face/link-service.hpp"
#include "core/lp/interest-bundler.hpp"
#include "core/runtime/units.hpp"

#include <ns3/boolean.h>
#include <ns3/double.h>
#include <ns3/nstime.h>
#include <ns3/uinteger.h>

namespace ndnlab::sim::scenarios {

std::vector<ParamSpec>
bundlingParams()
{
  const face::LinkServiceOptions d;
  const auto span = static_cast<double>(lp::MaxBundleSpan);
  return {
    {"BundleInterval", ParamType::Int, "0", "Interests",
     "BLEnD bundle interval BI on every Wi-Fi face (NdnStack LpBundling, LpBundleInterval); "
     "0 = no bundling (the paper's BI = 0); with BundleDynamicInterval the largest bundle",
     {}, runner::Range::closed(0, span)},
    {"BundleLossDetection", ParamType::Bool, d.bundleLossDetection ? "true" : "false", "",
     "beyond the paper (VI-B): the encoder re-requests a prefix's unanswered bundled range when its Data "
     "stall (inter-Data gap and link round-trip estimates; LpBundleLossDetection)"},
    {"BundleGapMin", ParamType::Double, formatNumber(toMillis(d.bundleGapMin)), "ms",
     "loss detection: lower bound of the stall threshold (LpBundleGapMin)", {},
     runner::Range::positive(runner::MaxTimeSeconds * 1e3)},
    {"BundleGapK", ParamType::Double, formatNumber(d.bundleGapK), "",
     "loss detection: stall threshold = mean + k x mean deviation of the inter-Data gaps (LpBundleGapK)", {},
     runner::Range{0}},
    {"BundleMaxRecoveries", ParamType::Int, std::to_string(d.bundleMaxRecoveries), "",
     "loss detection: recovery bundles per stall (LpBundleMaxRecoveries)", {}, runner::Range::closed(0, 64)},
    {"BundleDynamicInterval", ParamType::Bool, d.bundleDynamicInterval ? "true" : "false", "",
     "beyond the paper (VI-B): bundles of ceil(cwnd x BundleCwndShare) Interests within "
     "[BundleIntervalMin, BundleInterval] (LpBundleDynamicInterval)"},
    {"BundleIntervalMin", ParamType::Int, std::to_string(d.bundleIntervalMin), "Interests",
     "dynamic interval: smallest bundle when the window allows it (LpBundleIntervalMin)", {},
     runner::Range::closed(1, span)},
    {"BundleCwndShare", ParamType::Double, formatNumber(d.bundleCwndShare), "",
     "dynamic interval: share of the consumer's window one bundle stands for (LpBundleCwndShare)", {},
     runner::Range::positive(1)},
  };
}

void
applyBundling(const Params& params, StackHelper& stack)
{
  // each value within its spec's range
  int64_t bi = params.getInt("BundleInterval");
  double gapMin = params.getDouble("BundleGapMin");
  double gapK = params.getDouble("BundleGapK");
  int64_t maxRec = params.getInt("BundleMaxRecoveries");
  int64_t biMin = params.getInt("BundleIntervalMin");
  double share = params.getDouble("BundleCwndShare");

  stack.SetStackAttribute("LpBundling", ns3::BooleanValue(bi > 0));
  stack.SetStackAttribute("LpBundleInterval", ns3::UintegerValue(static_cast<uint64_t>(bi)));
  stack.SetStackAttribute("LpBundleLossDetection", ns3::BooleanValue(params.getBool("BundleLossDetection")));
  stack.SetStackAttribute("LpBundleGapMin", ns3::TimeValue(ns3::MicroSeconds(static_cast<int64_t>(gapMin * 1000))));
  stack.SetStackAttribute("LpBundleGapK", ns3::DoubleValue(gapK));
  stack.SetStackAttribute("LpBundleMaxRecoveries", ns3::UintegerValue(static_cast<uint64_t>(maxRec)));
  stack.SetStackAttribute("LpBundleDynamicInterval", ns3::BooleanValue(params.getBool("BundleDynamicInterval")));
  stack.SetStackAttribute("LpBundleIntervalMin", ns3::UintegerValue(static_cast<uint64_t>(biMin)));
  stack.SetStackAttribute("LpBundleCwndShare", ns3::DoubleValue(share));
}

nlohmann::json
bundleCounters(ns3::Ptr<ns3::Node> node)
{
  face::LinkService::Counters sum;
  auto stack = node->GetObject<NdnStack>();
  for (face::FaceId id : stack->GetNetDeviceFaces()) {
    const auto& c = stack->GetFace(id)->linkService().counters();
    sum.nOutBundles += c.nOutBundles;
    sum.nOutInterestsAbsorbed += c.nOutInterestsAbsorbed;
    sum.nOutBundleRecoveries += c.nOutBundleRecoveries;
    sum.nInBundles += c.nInBundles;
    sum.nInInterestsRegenerated += c.nInInterestsRegenerated;
    sum.nInInterestsGapFilled += c.nInInterestsGapFilled;
    sum.nInBundlesStale += c.nInBundlesStale;
    sum.nInBundlesInvalid += c.nInBundlesInvalid;
    sum.nInDataEarly += c.nInDataEarly;
    sum.nInDataEarlyExpired += c.nInDataEarlyExpired;
  }
  return {{"bundles_out", sum.nOutBundles},
          {"interests_absorbed", sum.nOutInterestsAbsorbed},
          {"bundle_recoveries", sum.nOutBundleRecoveries},
          {"bundles_in", sum.nInBundles},
          {"interests_regenerated", sum.nInInterestsRegenerated},
          {"interests_gap_filled", sum.nInInterestsGapFilled},
          {"bundles_stale", sum.nInBundlesStale},
          {"bundles_invalid", sum.nInBundlesInvalid},
          {"data_early", sum.nInDataEarly},
          {"data_early_expired", sum.nInDataEarlyExpired}};
}

} // namespace ndnlab::sim::scenarios
