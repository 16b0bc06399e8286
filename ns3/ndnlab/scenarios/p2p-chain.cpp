// Scenario `p2p-chain`: a consumer and a producer joined by Hops point-to-point links through
// Hops-1 forwarders, each link with its own rate, delay, loss and device queue.
//
//   n0 (consumer) -- n1 -- ... -- nHops (producer)

#include "ns3/ndnlab/helper/frame-loss.hpp"
#include "ns3/ndnlab/helper/route-helper.hpp"
#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"

#include <ns3/point-to-point-helper.h>
#include <ns3/pointer.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

namespace ndnlab::sim::scenarios {
namespace {

const char* const LinkListDoc = "; one value for every link or Hops comma-separated values, consumer side first";

std::vector<ParamSpec>
chainParams()
{
  const std::vector<ParamSpec> links = {
    {"Hops", ParamType::Int, "2", "links", "links between consumer and producer (Hops-1 forwarders)"},
    {"Rate", ParamType::String, "10Mbps", "", std::string("link data rate") + LinkListDoc},
    {"Delay", ParamType::String, "2ms", "", std::string("link propagation delay") + LinkListDoc},
    {"Loss", ParamType::String, "0", "", std::string("frame loss probability, both directions") + LinkListDoc},
    {"Queue", ParamType::String, "100p", "", std::string("device queue size (p or B)") + LinkListDoc},
    {"CsSize", ParamType::Int, "65536", "packets", "Content Store capacity of every node; 0 disables caching"},
    {"Strategy", ParamType::String, "best-route", "", "forwarding strategy of /", {"best-route", "multicast"}},
  };
  return joinParams({links, consumerParams(true, "10MiB"), runParams(3600)});
}

void
runChain(RunContext& ctx)
{
  const Params& params = ctx.params();
  int64_t hops = params.getInt("Hops");
  if (hops < 1 || hops > 64)
    throw UsageError("--Hops must be 1..64");
  if (params.getString("Consumer") == "one-interest" && hops != 1)
    throw UsageError("--Consumer=one-interest works over one hop only (the pushed Data match no PIT entry)");
  int64_t cs = params.getInt("CsSize");
  if (cs < 0)
    throw UsageError("--CsSize must not be negative");
  size_t n = static_cast<size_t>(hops);
  auto rates = perElement("Rate", params.getString("Rate"), n);
  auto delays = perElement("Delay", params.getString("Delay"), n);
  auto losses = perElement("Loss", params.getString("Loss"), n);
  auto queues = perElement("Queue", params.getString("Queue"), n);

  ns3::NodeContainer nodes;
  nodes.Create(static_cast<uint32_t>(n + 1));
  ns3::NetDeviceContainer all;
  int64_t stream = 3'000'000; // error models; stacks use 1'000'000 + node id
  for (size_t i = 0; i < n; ++i) {
    ns3::PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", ns3::StringValue(checkRate("Rate", rates[i])));
    p2p.SetChannelAttribute("Delay", ns3::StringValue(checkTime("Delay", delays[i])));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue(checkQueue("Queue", queues[i])));
    ns3::NetDeviceContainer link = p2p.Install(nodes.Get(i), nodes.Get(i + 1));
    double loss = parseProbability("Loss", losses[i]);
    if (loss > 0) {
      for (uint32_t end = 0; end < 2; ++end) {
        link.Get(end)->SetAttribute("ReceiveErrorModel", ns3::PointerValue(frameLossModel(loss, stream++)));
      }
    }
    all.Add(link);
  }

  StackHelper stack;
  stack.SetCsSize(static_cast<size_t>(cs));
  stack.SetStrategy("/", "/localhost/nfd/strategy/" + params.getString("Strategy"));
  stack.Install(nodes);
  ns3::Ptr<ns3::Node> consumerNode = nodes.Get(0);
  ns3::Ptr<ns3::Node> producerNode = nodes.Get(static_cast<uint32_t>(n));
  RouteHelper routes;
  routes.AddOrigin("/lab", producerNode);
  routes.CalculateRoutes();

  Fetch fetch(params, FetchSpec{}, consumerNode, producerNode, [] { ns3::Simulator::Stop(); });
  P2pDropCounter drops(all);
  ScenarioTraces traces(ctx, nodes);

  ctx.runSimulation(ns3::Seconds(params.getDouble("MaxTime")));

  nlohmann::json m = fetch.metrics();
  nlohmann::json perNode = nlohmann::json::object();
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    nlohmann::json j = nodeFrames(nodes.Get(i));
    j.update(drops.forNode(nodes.Get(i)));
    perNode["n" + std::to_string(i)] = j;
  }
  m["nodes"] = perNode;
  ctx.metrics = m;
}

const runner::Registration reg{runner::Scenario{
  "p2p-chain", "a consumer fetching a file over a chain of point-to-point links (rate/delay/loss/queue per link)",
  chainParams(), runChain}};

} // namespace
} // namespace ndnlab::sim::scenarios
