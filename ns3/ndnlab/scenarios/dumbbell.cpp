// Scenario `dumbbell`: two consumers share one bottleneck towards two producers; consumer i
// fetches /lab/p<i>/file from producer i (different content streams).
//
//   c0 --\                 /-- p0
//         r0 -- bottleneck -- r1
//   c1 --/                 \-- p1
//
// Metrics: goodput_mbps = content bytes of both fetches over [first start, last end],
// jain_index of the two flows' goodputs, sums of the per-flow counters, and each flow's own
// metrics under flows.c0 / flows.c1.

#include "ns3/ndnlab/helper/frame-loss.hpp"
#include "ns3/ndnlab/helper/route-helper.hpp"
#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"

#include <ns3/point-to-point-helper.h>
#include <ns3/pointer.h>
#include <ns3/simulator.h>
#include <ns3/string.h>

#include <algorithm>
#include <limits>

namespace ndnlab::sim::scenarios {
namespace {

const char* const AccessDoc =
  "; one value for all four access links or four values in the order c0-r0, c1-r0, r1-p0, r1-p1";

std::vector<ParamSpec> dumbbellParams()
{
  const std::vector<ParamSpec> topology = {
    {"AccessRate", ParamType::String, "100Mbps", "", std::string("access link data rate, 1bps..1000Gbps") + AccessDoc},
    {"AccessDelay", ParamType::String, "1ms", "", std::string("access link delay, 0..1e6 s") + AccessDoc},
    {"AccessLoss", ParamType::String, "0", "",
     std::string("access link frame loss probability, both directions") + AccessDoc},
    {"AccessQueue", ParamType::String, "100p", "",
     std::string("access link device queue: >= 1p, or >= 1500B (one frame)") + AccessDoc},
    {"BottleneckRate", ParamType::String, "10Mbps", "", "r0-r1 data rate, 1bps..1000Gbps"},
    {"BottleneckDelay", ParamType::String, "10ms", "", "r0-r1 delay, 0..1e6 s"},
    {"BottleneckLoss", ParamType::String, "0", "", "r0-r1 frame loss probability, both directions"},
    {"BottleneckQueue", ParamType::String, "100p", "", "r0-r1 device queue: >= 1p, or >= 1500B (one frame)"},
    {"Consumer1Delay",
     ParamType::Double,
     "0",
     "s",
     "c1 starts this long after c0 (StartTime)",
     {},
     runner::Range::nonNegative(runner::MaxTimeSeconds)},
    csSizeParam(),
  };
  return joinParams({topology, consumerParams(false, "10MiB"), runParams(3600)});
}

/// One point-to-point link's checked values.
struct LinkSpec
{
  std::string rate, delay, queue;
  double loss = 0;
};

/// The five links in installation order: c0-r0, c1-r0, r0-r1, r1-p0, r1-p1.
std::vector<LinkSpec> parseLinks(const Params& params)
{
  auto rates = perElement("AccessRate", params.getString("AccessRate"), 4);
  auto delays = perElement("AccessDelay", params.getString("AccessDelay"), 4);
  auto losses = perElement("AccessLoss", params.getString("AccessLoss"), 4);
  auto queues = perElement("AccessQueue", params.getString("AccessQueue"), 4);
  auto make = [](const std::string& prefix, const std::string& rate, const std::string& delay, const std::string& loss,
                 const std::string& queue) {
    return LinkSpec{checkRate(prefix + "Rate", rate), checkTime(prefix + "Delay", delay),
                    checkQueue(prefix + "Queue", queue), parseProbability(prefix + "Loss", loss)};
  };
  std::vector<LinkSpec> links;
  for (int i : {0, 1})
    links.push_back(make("Access", rates[i], delays[i], losses[i], queues[i]));
  links.push_back(make("Bottleneck", params.getString("BottleneckRate"), params.getString("BottleneckDelay"),
                       params.getString("BottleneckLoss"), params.getString("BottleneckQueue")));
  for (int i : {2, 3})
    links.push_back(make("Access", rates[i], delays[i], losses[i], queues[i]));
  return links;
}

void checkDumbbell(const Params& params)
{
  parseLinks(params);
  checkConsumerParams(params);
}

/// Installs a point-to-point link a-b; returns its devices.
ns3::NetDeviceContainer link(ns3::Ptr<ns3::Node> a, ns3::Ptr<ns3::Node> b, const LinkSpec& l, size_t index)
{
  ns3::PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", ns3::StringValue(l.rate));
  p2p.SetChannelAttribute("Delay", ns3::StringValue(l.delay));
  p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue(l.queue));
  ns3::NetDeviceContainer devs = p2p.Install(a, b);
  if (l.loss > 0) {
    for (uint32_t end = 0; end < 2; ++end) {
      devs.Get(end)->SetAttribute("ReceiveErrorModel",
                                  ns3::PointerValue(frameLossModel(l.loss, linkLossStream(index) + end)));
    }
  }
  return devs;
}

void runDumbbell(RunContext& ctx)
{
  const Params& params = ctx.params();
  int64_t cs = params.getInt("CsSize");
  double delay1 = params.getDouble("Consumer1Delay");
  const std::vector<LinkSpec> links = parseLinks(params);

  // node ids: c0 0, c1 1, r0 2, r1 3, p0 4, p1 5
  ns3::NodeContainer nodes;
  nodes.Create(6);
  const char* names[] = {"c0", "c1", "r0", "r1", "p0", "p1"};
  auto c = [&](int i) { return nodes.Get(i); };
  auto r = [&](int i) { return nodes.Get(2 + i); };
  auto pr = [&](int i) { return nodes.Get(4 + i); };
  ns3::NetDeviceContainer all;
  all.Add(link(c(0), r(0), links[0], 0));
  all.Add(link(c(1), r(0), links[1], 1));
  all.Add(link(r(0), r(1), links[2], 2));
  all.Add(link(r(1), pr(0), links[3], 3));
  all.Add(link(r(1), pr(1), links[4], 4));

  StackHelper stack;
  stack.SetCsSize(static_cast<size_t>(cs));
  stack.Install(nodes);
  RouteHelper routes;
  routes.AddOrigin("/lab/p0", pr(0));
  routes.AddOrigin("/lab/p1", pr(1));
  routes.CalculateRoutes();

  std::vector<std::unique_ptr<Fetch>> fetches;
  auto stopWhenAllDone = [&fetches] {
    if (std::all_of(fetches.begin(), fetches.end(), [](const auto& f) { return f->done(); }))
      ns3::Simulator::Stop();
  };
  for (int i = 0; i < 2; ++i) {
    FetchSpec spec;
    spec.prefix = "/lab/p" + std::to_string(i) + "/file";
    spec.contentSeed = static_cast<uint64_t>(i + 1);
    spec.startDelay = i == 1 ? delay1 : 0;
    fetches.push_back(std::make_unique<Fetch>(params, spec, c(i), pr(i), stopWhenAllDone));
  }
  P2pDropCounter drops(all);
  ScenarioTraces traces(ctx, nodes);

  ctx.runSimulation(ns3::Seconds(params.getDouble("MaxTime")));

  nlohmann::json flows = nlohmann::json::object();
  double sumGoodput = 0, sumSquares = 0;
  bool bitExact = true, completed = true;
  uint64_t segments = 0, retx = 0, timeouts = 0, interests = 0, dataReceived = 0;
  nlohmann::json completion = nullptr;
  for (int i = 0; i < 2; ++i) {
    nlohmann::json f = fetches[i]->metrics();
    double g = f["goodput_mbps"].get<double>();
    sumGoodput += g;
    sumSquares += g * g;
    bitExact = bitExact && f["bit_exact"].get<bool>();
    completed = completed && f["completed"].get<bool>();
    segments += f["segments"].get<uint64_t>();
    retx += f["retransmissions"].get<uint64_t>();
    timeouts += f["timeouts"].get<uint64_t>();
    interests += f["interests_sent"].get<uint64_t>();
    dataReceived += f["data_received"].get<uint64_t>();
    if (!f["completion_time_s"].is_null() && (completion.is_null() || f["completion_time_s"] > completion))
      completion = f["completion_time_s"];
    flows[names[i]] = f;
  }
  double first = std::min(fetches[0]->startTime(), fetches[1]->startTime());
  double last = std::max(fetches[0]->endTime(), fetches[1]->endTime());
  double bytes = static_cast<double>(fetches[0]->deliveredBytes() + fetches[1]->deliveredBytes());
  nlohmann::json m = {
    {"goodput_mbps", last > first ? bytes * 8 / (last - first) / 1e6 : 0.0},
    {"jain_index", sumSquares > 0 ? sumGoodput * sumGoodput / (2 * sumSquares) : 0.0},
    {"completion_time_s", completed ? completion : nlohmann::json(nullptr)},
    {"completed", completed},
    {"bit_exact", bitExact},
    {"segments", segments},
    {"retransmissions", retx},
    {"timeouts", timeouts},
    {"interests_sent", interests},
    {"data_received", dataReceived},
    {"flows", flows},
  };
  nlohmann::json perNode = nlohmann::json::object();
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    perNode[names[i]] = nodeReport(nodes.Get(i), drops);
  }
  m["nodes"] = perNode;
  ctx.metrics = m;
}

/// The dumbbell as data (Scenario::network), from the values runDumbbell builds it with.
nlohmann::json dumbbellNetwork(const Params& params)
{
  const std::vector<LinkSpec> links = parseLinks(params);
  const std::pair<const char*, const char*> ends[] = {
    {"c0", "r0"}, {"c1", "r0"}, {"r0", "r1"}, {"r1", "p0"}, {"r1", "p1"}};
  nlohmann::json linkList = nlohmann::json::array();
  for (size_t i = 0; i < links.size(); ++i)
    linkList.push_back(
      networkLink(i, ends[i].first, ends[i].second, links[i].rate, links[i].delay, links[i].loss, links[i].queue));
  nlohmann::json apps = nlohmann::json::array();
  for (int i = 0; i < 2; ++i) {
    FetchSpec spec;
    spec.prefix = "/lab/p" + std::to_string(i) + "/file";
    spec.contentSeed = static_cast<uint64_t>(i + 1);
    spec.startDelay = i == 1 ? params.getDouble("Consumer1Delay") : 0;
    for (auto& app : fetchApps(params, spec, "c" + std::to_string(i), "p" + std::to_string(i)))
      apps.push_back(std::move(app));
  }
  return {{"nodes", {"c0", "c1", "r0", "r1", "p0", "p1"}},
          {"links", linkList},
          {"cs_size", params.getInt("CsSize")},
          {"strategy", "/localhost/nfd/strategy/best-route"},
          {"routes", nlohmann::json::array(
                       {{{"prefix", "/lab/p0"}, {"origin", "p0"}}, {{"prefix", "/lab/p1"}, {"origin", "p1"}}})},
          {"apps", apps},
          {"max_time_s", params.getDouble("MaxTime")}};
}

const runner::Registration reg{
  runner::Scenario{"dumbbell", "two consumers and two producers sharing one bottleneck link (per-link attributes)",
                   dumbbellParams(), runDumbbell, checkDumbbell, dumbbellNetwork}};

} // namespace
} // namespace ndnlab::sim::scenarios
