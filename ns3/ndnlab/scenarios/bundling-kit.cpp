#include "ns3/ndnlab/scenarios/bundling-kit.hpp"
#include "ns3/ndnlab/scenarios/knobs.hpp"

#include "core/face/link-service-fields.hpp"
#include "core/lp/interest-bundler.hpp"
#include "core/runtime/units.hpp"

#include <ns3/boolean.h>
#include <ns3/double.h>
#include <ns3/nstime.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <cmath>
#include <string>

namespace ndnlab::sim::scenarios {

namespace {

/// The bundling fields of LinkServiceOptions declared for the scenarios
/// (core/face/link-service-fields.hpp), named without the attribute's Lp prefix.
const std::vector<Knob>& linkKnobs()
{
  static const std::vector<Knob> list =
    scenarioKnobs<face::LinkServiceOptions>([](const fields::Info& i) { return fields::camelCase(i.name); });
  return list;
}

} // namespace

std::vector<ParamSpec> bundlingParams()
{
  std::vector<ParamSpec> p = {
    {"BundleInterval",
     ParamType::Int,
     "0",
     "Interests",
     "BLEnD bundle interval BI on every Wi-Fi face (NdnStack LpBundling, LpBundleInterval); "
     "0 = no bundling (the paper's BI = 0); with BundleDynamicInterval the largest bundle",
     {},
     runner::Range::closed(0, static_cast<double>(lp::MaxBundleSpan))},
  };
  for (const Knob& k : linkKnobs())
    p.push_back(k.spec);
  return p;
}

void applyBundling(const Params& params, StackHelper& stack)
{
  // BundleInterval turns bundling on; its default (0) differs from the face's own (15)
  int64_t bi = params.getInt("BundleInterval");
  stack.SetStackAttribute("LpBundling", ns3::BooleanValue(bi > 0));
  stack.SetStackAttribute("LpBundleInterval", ns3::UintegerValue(static_cast<uint64_t>(bi)));
  for (const Knob& k : linkKnobs())
    stack.SetStackAttribute(k.attribute, ns3::StringValue(knobValue(params, k)));
}

nlohmann::json bundlingDaemonConfig(const Params& params)
{
  const int64_t bi = params.getInt("BundleInterval");
  nlohmann::json tables = nlohmann::json::object();
  // the daemon's own names of the two LinkServiceOptions fields BundleInterval stands for
  tables["face_system.link"] = {{"bundling", bi > 0}, {"bundle_interval", bi}};
  for (const Knob& k : linkKnobs()) {
    if (k.tomlKey.empty())
      throw UsageError("--" + k.spec.name + " has no ndnlabd key; ndnlab emu cannot pass it on");
    nlohmann::json& v = tables[k.tomlSection][k.tomlKey];
    switch (k.spec.type) {
      case ParamType::Bool: v = params.getBool(k.spec.name); break;
      case ParamType::Int: v = params.getInt(k.spec.name); break;
      case ParamType::String: v = params.getString(k.spec.name); break;
      case ParamType::Double:
        if (k.isMs) // the daemon's durations are integers with a unit
          v = std::to_string(std::llround(params.getDouble(k.spec.name) * 1e6)) + "ns";
        else
          v = params.getDouble(k.spec.name);
        break;
    }
  }
  return tables;
}

nlohmann::json bundleCounters(ns3::Ptr<ns3::Node> node)
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
