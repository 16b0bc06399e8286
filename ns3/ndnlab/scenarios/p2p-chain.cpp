// Scenario `p2p-chain`: a consumer and a producer joined by Hops point-to-point links through
// Hops-1 forwarders, each link with its own rate, delay, loss and device queue. The consumer
// fetches a file (App=fetch), pings the producer (App=ping: PingCount pings, as `ndnlab ping`
// toward `ndnlab pingserver`) or measures the path (App=perf: `ndnlab perf client` toward
// `ndnlab perf server`, for PerfTime seconds).
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

#include <limits>
#include <optional>

namespace ndnlab::sim::scenarios {
namespace {

const char* const LinkListDoc = "; one value for every link or Hops comma-separated values, consumer side first";

std::vector<ParamSpec> chainParams()
{
  const std::vector<ParamSpec> links = {
    {"Hops",
     ParamType::Int,
     "2",
     "links",
     "links between consumer and producer (Hops-1 forwarders)",
     {},
     runner::Range::closed(1, 64)},
    {"Rate", ParamType::String, "10Mbps", "", std::string("link data rate, 1bps..1000Gbps") + LinkListDoc},
    {"Delay", ParamType::String, "2ms", "", std::string("link propagation delay, 0..1e6 s") + LinkListDoc},
    {"Loss", ParamType::String, "0", "", std::string("frame loss probability, both directions") + LinkListDoc},
    {"Queue", ParamType::String, "100p", "",
     std::string("device queue size: >= 1p, or >= 1500B (one frame)") + LinkListDoc},
    csSizeParam(),
    {"Strategy", ParamType::String, "best-route", "", "forwarding strategy of /", {"best-route", "multicast"}},
    {"App",
     ParamType::String,
     "fetch",
     "",
     "the consumer's application: fetch (FileSize bytes, the Consumer's congestion control), ping "
     "(PingCount pings of the producer; the fetch parameters are unused) or perf (a PerfTime test, window "
     "mode with the Consumer's pipeline or paced at PerfBitRate)",
     {"fetch", "ping", "perf"}},
  };
  return joinParams({links, consumerParams(true, "10MiB"), pingParams(), perfParams(), runParams(3600)});
}

/// The per-link values of Rate, Delay, Loss and Queue, each checked.
struct Links
{
  std::vector<std::string> rates, delays, queues;
  std::vector<double> losses;
};

Links parseLinks(const Params& params)
{
  size_t n = static_cast<size_t>(params.getInt("Hops"));
  Links l;
  for (const auto& r : perElement("Rate", params.getString("Rate"), n))
    l.rates.push_back(checkRate("Rate", r));
  for (const auto& d : perElement("Delay", params.getString("Delay"), n))
    l.delays.push_back(checkTime("Delay", d));
  for (const auto& q : perElement("Queue", params.getString("Queue"), n))
    l.queues.push_back(checkQueue("Queue", q));
  for (const auto& p : perElement("Loss", params.getString("Loss"), n))
    l.losses.push_back(parseProbability("Loss", p));
  return l;
}

/// The prefix of the producer's ping server (App=ping), under the route's /lab.
const char* const PingPrefix = "/lab";

bool pings(const Params& params)
{
  return params.getString("App") == "ping";
}

/// The prefix of the producer's perf server (App=perf), under the route's /lab.
const char* const PerfPrefix = "/lab/perf";

bool perfs(const Params& params)
{
  return params.getString("App") == "perf";
}

void checkChain(const Params& params)
{
  if (perfs(params) && params.getString("Consumer") == "one-interest" && params.getDouble("PerfBitRate") <= 0)
    throw UsageError("--App=perf runs the window pipelines of `ndnlab perf client --cc`, not --Consumer=one-interest");
  if (params.getString("App") == "fetch" && params.getString("Consumer") == "one-interest" &&
      params.getInt("Hops") != 1)
    throw UsageError("--Consumer=one-interest works over one hop only (the pushed Data match no PIT entry)");
  parseLinks(params);
  checkConsumerParams(params);
}

void runChain(RunContext& ctx)
{
  const Params& params = ctx.params();
  int64_t cs = params.getInt("CsSize");
  size_t n = static_cast<size_t>(params.getInt("Hops"));
  const Links links = parseLinks(params);

  ns3::NodeContainer nodes;
  nodes.Create(static_cast<uint32_t>(n + 1));
  ns3::NetDeviceContainer all;
  for (size_t i = 0; i < n; ++i) {
    ns3::PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", ns3::StringValue(links.rates[i]));
    p2p.SetChannelAttribute("Delay", ns3::StringValue(links.delays[i]));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue(links.queues[i]));
    ns3::NetDeviceContainer link = p2p.Install(nodes.Get(i), nodes.Get(i + 1));
    double loss = links.losses[i];
    if (loss > 0) {
      for (uint32_t end = 0; end < 2; ++end) {
        link.Get(end)->SetAttribute("ReceiveErrorModel",
                                    ns3::PointerValue(frameLossModel(loss, linkLossStream(i) + end)));
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

  std::optional<Fetch> fetch;
  std::optional<Ping> ping;
  std::optional<Perf> perf;
  if (pings(params))
    ping.emplace(params, PingPrefix, consumerNode, producerNode, [] { ns3::Simulator::Stop(); });
  else if (perfs(params))
    perf.emplace(params, PerfPrefix, consumerNode, producerNode, [] { ns3::Simulator::Stop(); });
  else
    fetch.emplace(params, FetchSpec{}, consumerNode, producerNode, [] { ns3::Simulator::Stop(); });
  P2pDropCounter drops(all);
  ScenarioTraces traces(ctx, nodes);

  ctx.runSimulation(ns3::Seconds(params.getDouble("MaxTime")));

  nlohmann::json m = ping ? ping->metrics() : perf ? perf->metrics() : fetch->metrics();
  nlohmann::json perNode = nlohmann::json::object();
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    perNode["n" + std::to_string(i)] = nodeReport(nodes.Get(i), drops);
  }
  m["nodes"] = perNode;
  ctx.metrics = m;
}

/// The chain as data (Scenario::network), from the values runChain builds it with.
nlohmann::json chainNetwork(const Params& params)
{
  const size_t n = static_cast<size_t>(params.getInt("Hops"));
  const Links links = parseLinks(params);
  auto name = [](size_t i) { return "n" + std::to_string(i); };
  nlohmann::json nodes = nlohmann::json::array();
  nlohmann::json linkList = nlohmann::json::array();
  for (size_t i = 0; i <= n; ++i)
    nodes.push_back(name(i));
  for (size_t i = 0; i < n; ++i)
    linkList.push_back(
      networkLink(i, name(i), name(i + 1), links.rates[i], links.delays[i], links.losses[i], links.queues[i]));
  return {{"nodes", nodes},
          {"links", linkList},
          {"cs_size", params.getInt("CsSize")},
          {"strategy", "/localhost/nfd/strategy/" + params.getString("Strategy")},
          {"routes", nlohmann::json::array({{{"prefix", "/lab"}, {"origin", name(n)}}})},
          {"apps", pings(params)   ? pingApps(params, PingPrefix, name(0), name(n))
                   : perfs(params) ? perfApps(params, PerfPrefix, name(0), name(n))
                                   : fetchApps(params, FetchSpec{}, name(0), name(n))},
          {"max_time_s", params.getDouble("MaxTime")}};
}

const runner::Registration reg{runner::Scenario{
  "p2p-chain", "a consumer fetching a file over a chain of point-to-point links (rate/delay/loss/queue per link)",
  chainParams(), runChain, checkChain, chainNetwork}};

} // namespace
} // namespace ndnlab::sim::scenarios
