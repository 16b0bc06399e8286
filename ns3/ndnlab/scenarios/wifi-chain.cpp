// Scenario `wifi-chain`: BLEnD over two wireless hops (paper VI-D, VI-E). A consumer, a relay
// and a producer on a line, Distance apart, on one 802.11 ad hoc channel; the default Range
// (1.5 x Distance) makes the consumer and the producer hidden from each other, so every packet
// crosses two hops and the relay's frames compete with both ends.
//
//   consumer (x = 0) -- relay (x = D) -- producer (x = 2D)
//
// Bundling is per hop: the consumer's face bundles; the relay's face decodes, hands the
// regenerated Interests to its forwarder, which sends them out of the same face (NfdLinkType
// ad-hoc on the relay only), where the relay's encoder bundles them again for the producer.
//
// Addressing defaults to unicast: the consumer and the producer each hear one neighbour (the
// relay) and send to it with 802.11 ACK and retry; the relay's face is ad hoc, so it
// broadcasts (the forwarder names no destination). With broadcast addressing nothing repairs
// the collisions of the hidden ends at the relay: a consumer Interest sent while the producer
// answers the previous one destroys that Data, every time, and the transfer stalls.
//
// `ndnlab emu wifi-chain` runs it on three daemons joined by `ndnlab-emu-link --link
// wifi-adhoc`, this radio in real time (docs/emulation.md, "802.11 ad hoc").

#include "ns3/ndnlab/helper/route-helper.hpp"
#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/ndnlab/scenarios/bundling-kit.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"
#include "ns3/ndnlab/scenarios/wifi-kit.hpp"
#include "ns3/ndnlab/scenarios/wifi-multihop-kit.hpp"

#include <ns3/simulator.h>
#include <ns3/string.h>

namespace ndnlab::sim::scenarios {
namespace {

std::vector<ParamSpec> chainParams()
{
  return joinParams({multihopRadioParams("unicast", "20", "30",
                                         "the default makes the consumer and the producer (2 x Distance apart) hidden"),
                     bundlingParams(), consumerParams(false, "20MiB"), runParams(3600)});
}

void runWifiChain(RunContext& ctx)
{
  const Params& params = ctx.params();
  WifiAdhoc wifi = makeAdhocLine(params, {0, 1, 2});
  ns3::Ptr<ns3::Node> consumer = wifi.nodes.Get(0);
  ns3::Ptr<ns3::Node> relay = wifi.nodes.Get(1);
  ns3::Ptr<ns3::Node> producer = wifi.nodes.Get(2);

  wifiStack(params).Install(consumer);
  StackHelper relayStack = wifiStack(params);
  relayStack.SetTransportAttribute("NfdLinkType", ns3::StringValue("ad-hoc"));
  relayStack.Install(relay);
  wifiStack(params).Install(producer);
  RouteHelper::AddRoute(consumer, "/lab", relay);
  RouteHelper::AddRoute(relay, "/lab", producer);

  Fetch fetch(params, FetchSpec{}, consumer, producer, [] { ns3::Simulator::Stop(); });
  WifiPhyCounter phy(wifi.devices);
  ScenarioTraces traces(ctx, wifi.nodes);

  ctx.runSimulation(ns3::Seconds(params.getDouble("MaxTime")));

  nlohmann::json m = fetch.metrics();
  m["data_mode"] = wifi.dataMode;
  m["nodes"] = {{"consumer", nodeReport(wifi, phy, 0)},
                {"relay", nodeReport(wifi, phy, 1)},
                {"producer", nodeReport(wifi, phy, 2)}};
  if (nlohmann::json drops = traces.drops(); !drops.empty())
    m["drops"] = drops;
  ctx.metrics = m;
}

/// The chain as data (Scenario::network) for `ndnlab emu`: the three nodes on one
/// "wifi-adhoc" link, the routes the run installs (consumer -> relay -> producer), the fetch.
/// The relay's faces are ad hoc, as the run's relay stack (`ad_hoc_nodes`).
nlohmann::json chainNetwork(const Params& params)
{
  nlohmann::json n = adhocNetwork(params, {"consumer", "relay", "producer"}, {0, 1, 2});
  n["routes"] = nlohmann::json::array(
    {{{"prefix", "/lab"}, {"origin", "producer"}, {"next_hops", {{"consumer", "relay"}, {"relay", "producer"}}}}});
  n["apps"] = fetchApps(params, FetchSpec{}, "consumer", "producer");
  n["ad_hoc_nodes"] = {"relay"};
  return n;
}

const runner::Registration reg{runner::Scenario{
  "wifi-chain",
  "BLEnD multi-hop: consumer - relay - producer on one 802.11 ad hoc channel, two wireless hops, bundling per hop",
  chainParams(), runWifiChain, checkConsumerParams, chainNetwork}};

} // namespace
} // namespace ndnlab::sim::scenarios
