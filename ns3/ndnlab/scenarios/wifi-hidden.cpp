// Scenario `wifi-hidden`: the four-node network of the BLEnD paper's Fig. 10 (VI-D). B fetches
// a file from A and C fetches another from D, all four on one 802.11 ad hoc channel, on a line
// Distance apart:
//
//   B (x = 0) -- A (x = D) -- D (x = 2D) -- C (x = 3D)
//
// With the default Range (1.5 x Distance) each node hears only its neighbours on the line: B
// and C (3D apart) are hidden from each other, and so are B and D, and A and C (2D apart). A
// and D share the middle of the line. B's Interests to A can therefore collide at A with D's
// Data to C (B cannot sense D, D cannot sense B), and C's Interests at D with A's Data to B:
// the hidden-station collisions of Interests with Data that the paper expects bundling to
// reduce. Both consumers start at StartTime with the same consumer settings.
//
// `ndnlab emu wifi-hidden` runs it on four daemons joined by `ndnlab-emu-link --link
// wifi-adhoc`, this radio in real time (docs/emulation.md, "802.11 ad hoc").

#include "ns3/ndnlab/helper/route-helper.hpp"
#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/ndnlab/scenarios/bundling-kit.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"
#include "ns3/ndnlab/scenarios/wifi-kit.hpp"
#include "ns3/ndnlab/scenarios/wifi-multihop-kit.hpp"

#include <ns3/simulator.h>

#include <algorithm>

namespace ndnlab::sim::scenarios {
namespace {

std::vector<ParamSpec> hiddenParams()
{
  return joinParams(
    {multihopRadioParams("broadcast", "20", "30",
                         "the default makes B and C, B and D, A and C (2 or 3 x Distance apart) hidden from "
                         "each other"),
     {{"StartDelayC",
       ParamType::Double,
       "0",
       "s",
       "C starts this long after B",
       {},
       runner::Range::nonNegative(runner::MaxTimeSeconds)}},
     bundlingParams(),
     consumerParams(false, "20MiB"),
     runParams(3600)});
}

void runWifiHidden(RunContext& ctx)
{
  const Params& params = ctx.params();
  // nodes in the order B, A, D, C (positions 0, 1, 2, 3 x Distance)
  WifiAdhoc wifi = makeAdhocLine(params, {0, 1, 2, 3});
  ns3::Ptr<ns3::Node> b = wifi.nodes.Get(0);
  ns3::Ptr<ns3::Node> a = wifi.nodes.Get(1);
  ns3::Ptr<ns3::Node> d = wifi.nodes.Get(2);
  ns3::Ptr<ns3::Node> c = wifi.nodes.Get(3);
  const double startDelayC = params.getDouble("StartDelayC");

  wifiStack(params).Install(wifi.nodes);
  RouteHelper::AddRoute(b, "/lab/a", a);
  RouteHelper::AddRoute(c, "/lab/d", d);

  int running = 2;
  auto onDone = [&running] {
    if (--running == 0)
      ns3::Simulator::Stop();
  };
  Fetch fetchB(params, FetchSpec{"/lab/a", 1, 0}, b, a, onDone);
  Fetch fetchC(params, FetchSpec{"/lab/d", 2, startDelayC}, c, d, onDone);
  WifiPhyCounter phy(wifi.devices);
  ScenarioTraces traces(ctx, wifi.nodes);

  ctx.runSimulation(ns3::Seconds(params.getDouble("MaxTime")));

  nlohmann::json mb = fetchB.metrics();
  nlohmann::json mc = fetchC.metrics();
  const double gb = mb["goodput_mbps"].get<double>();
  const double gc = mc["goodput_mbps"].get<double>();
  nlohmann::json m;
  // aggregate: content bytes of both flows over the time from the first start to the last
  // end; the per-flow goodputs, their sum, the slower one and Jain's fairness index of the two
  const double span = std::max(fetchB.endTime(), fetchC.endTime()) - std::min(fetchB.startTime(), fetchC.startTime());
  const double bytes = static_cast<double>(fetchB.deliveredBytes() + fetchC.deliveredBytes());
  m["goodput_mbps"] = span > 0 ? bytes * 8 / span / 1e6 : 0.0;
  m["goodput_sum_mbps"] = gb + gc;
  m["goodput_min_mbps"] = std::min(gb, gc);
  m["fairness"] = gb + gc > 0 ? (gb + gc) * (gb + gc) / (2 * (gb * gb + gc * gc)) : 0.0;
  m["completed"] = mb["completed"].get<bool>() && mc["completed"].get<bool>();
  m["bit_exact"] = mb["bit_exact"].get<bool>() && mc["bit_exact"].get<bool>();
  m["completion_time_s"] = m["completed"].get<bool>()
                             ? nlohmann::json(std::max(mb["completion_time_s"].get<double>(),
                                                       mc["completion_time_s"].get<double>() + startDelayC))
                             : nlohmann::json(nullptr);
  for (const char* k : {"retransmissions", "timeouts", "interests_sent", "data_received"})
    m[k] = mb[k].get<uint64_t>() + mc[k].get<uint64_t>();
  m["data_mode"] = wifi.dataMode;
  m["flows"] = {{"b_from_a", mb}, {"c_from_d", mc}};
  m["nodes"] = {{"b", nodeReport(wifi, phy, 0)},
                {"a", nodeReport(wifi, phy, 1)},
                {"d", nodeReport(wifi, phy, 2)},
                {"c", nodeReport(wifi, phy, 3)}};
  if (nlohmann::json drops = traces.drops(); !drops.empty())
    m["drops"] = drops;
  ctx.metrics = m;
}

/// The four nodes as data (Scenario::network) for `ndnlab emu`: one "wifi-adhoc" link, the two
/// routes the run installs (B -> A, C -> D), both fetches with their flow names and start
/// times, and `metrics: "wifi-hidden"` (the aggregate keys of runWifiHidden).
nlohmann::json hiddenNetwork(const Params& params)
{
  nlohmann::json n = adhocNetwork(params, {"b", "a", "d", "c"}, {0, 1, 2, 3});
  n["routes"] = nlohmann::json::array({{{"prefix", "/lab/a"}, {"origin", "a"}, {"next_hops", {{"b", "a"}}}},
                                       {{"prefix", "/lab/d"}, {"origin", "d"}, {"next_hops", {{"c", "d"}}}}});
  nlohmann::json apps = fetchApps(params, FetchSpec{"/lab/a", 1, 0}, "b", "a");
  for (nlohmann::json& app : fetchApps(params, FetchSpec{"/lab/d", 2, params.getDouble("StartDelayC")}, "c", "d"))
    apps.push_back(app);
  apps[1]["flow"] = "b_from_a";
  apps[3]["flow"] = "c_from_d";
  n["apps"] = apps;
  n["metrics"] = "wifi-hidden";
  return n;
}

const runner::Registration reg{runner::Scenario{
  "wifi-hidden",
  "BLEnD Fig. 10: B fetches from A and C from D on one 802.11 ad hoc channel, B and C hidden from each other",
  hiddenParams(), runWifiHidden, checkConsumerParams, hiddenNetwork}};

} // namespace
} // namespace ndnlab::sim::scenarios
