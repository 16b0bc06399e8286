// Scenario `rtsd-scale`: the scalability and failover tests of the NDN-RTC paper (Gusev et al.,
// shared/papers/ndn-rtc-realtime-streaming.txt, Sect. 5.1, Fig. 18), point-to-point links of
// one Rate, Delay and Queue, a synthetic stream from P (StreamProducerApp) as in rtsd-star.
// - Test=consumers (Fig. 18(a)): P -face 1- R, and R -face 2- C1, R - C2. C1 plays from
//   ConsumerStart, C2 from SecondStart. The paper's Fig. 19(a): the producer's face carries the
//   stream once whatever the number of consumers. Here that holds when C2's Interests for a
//   frame reach R within best-route's retransmission suppression interval (10 ms at first) of
//   C1's; later ones are forwarded as retransmissions and the producer answers both.
// - Test=failover (Fig. 18(b)): P - R1 - C and P - R2 - C; C sends every Interest to both
//   routers (multicast strategy); at FailTime R1 dies (it receives nothing more), and the
//   stream goes on through R2 (Fig. 19(b)).
// result.json: `stream.*` (C1's or C's consumer, stream::visitMetrics), `stream2.*` (C2's),
// `producer.*`, and the Mbit/s each measured face sent before and after the event
// (`faces.<name>.before_mbps`, `after_mbps` and their ratio `after_over_before`: means over
// whole seconds, from 3 s after the first consumer started to the event, and from 5 s after
// the event (a new consumer's bootstrapping over) to the end of the stream), with per-second
// series in `faces.<name>.mbps`.
// `ndnlab emu rtsd-scale` runs both tests on real daemons (scaleNetwork): R1 dies by losing its
// links (the emulation's "isolate" event), and `faces.*` count the Ethernet frames the kernel
// sent into each link (IP, UDP and 14 bytes of Ethernet header more per packet than ns-3's
// point-to-point frames).

#include "ns3/ndnlab/helper/route-helper.hpp"
#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"
#include "ns3/ndnlab/scenarios/stream-kit.hpp"

#include "core/fw/forwarder.hpp"

#include <ns3/error-model.h>
#include <ns3/packet.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/pointer.h>
#include <ns3/simulator.h>
#include <ns3/string.h>

#include <cmath>
#include <limits>
#include <map>

namespace ndnlab::sim::scenarios {
namespace {

std::vector<ParamSpec> scaleParams()
{
  const std::vector<ParamSpec> own = {
    {"Test",
     ParamType::String,
     "consumers",
     "",
     "consumers: two consumers of one producer (Fig. 18(a)); failover: two routers, one dies (Fig. 18(b))",
     {"consumers", "failover"}},
    {"Rate", ParamType::String, "10Mbps", "", "data rate of every link, 1bps..1000Gbps"},
    {"Delay", ParamType::String, "10ms", "", "propagation delay of every link, 0..1e6 s"},
    {"Queue", ParamType::String, "100p", "", "device queue size of every link: >= 1p, or >= 1500B"},
    csSizeParam(),
    {"SecondStart",
     ParamType::Double,
     "10",
     "s",
     "Test=consumers: when C2 starts",
     {},
     runner::Range::nonNegative(runner::MaxTimeSeconds)},
    {"FailTime",
     ParamType::Double,
     "10",
     "s",
     "Test=failover: when R1 dies",
     {},
     runner::Range::nonNegative(runner::MaxTimeSeconds)},
  };
  return joinParams({own, streamParams(), runParams(120)});
}

void checkScale(const Params& params)
{
  checkRate("Rate", params.getString("Rate"));
  checkTime("Delay", params.getString("Delay"));
  checkQueue("Queue", params.getString("Queue"));
  checkStreamParams(params);
  const bool consumers = params.getString("Test") == "consumers";
  const double event = params.getDouble(consumers ? "SecondStart" : "FailTime");
  if (event <= params.getDouble("ConsumerStart") || event >= params.getDouble("StreamTime"))
    throw UsageError(std::string(consumers ? "--SecondStart" : "--FailTime") +
                     " must fall after --ConsumerStart and before the stream ends (--StreamTime)");
}

/// Octets a device sends, per second of simulated time.
struct RateBins
{
  std::map<int64_t, uint64_t> octets;
};

void countInBin(RateBins* bins, ns3::Ptr<const ns3::Packet> p)
{
  bins->octets[static_cast<int64_t>(std::floor(ns3::Simulator::Now().GetSeconds()))] += p->GetSize();
}

/// {"mbps": [per second from 0 to end), "before_mbps": mean over [a0, a1), "after_mbps": over
/// [b0, b1), "after_over_before": their ratio (null without both or with nothing before)}.
nlohmann::json faceRates(const RateBins& bins, int64_t end, int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
  nlohmann::json series = nlohmann::json::array();
  auto at = [&bins](int64_t s) {
    auto it = bins.octets.find(s);
    return it == bins.octets.end() ? 0.0 : static_cast<double>(it->second) * 8 / 1e6;
  };
  for (int64_t s = 0; s < end; ++s)
    series.push_back(at(s));
  auto mean = [&at](int64_t from, int64_t to) -> nlohmann::json {
    if (to <= from)
      return nullptr;
    double sum = 0;
    for (int64_t s = from; s < to; ++s)
      sum += at(s);
    return sum / static_cast<double>(to - from);
  };
  const nlohmann::json before = mean(a0, a1), after = mean(b0, b1);
  nlohmann::json ratio = nullptr;
  if (before.is_number() && after.is_number() && before.get<double>() > 0)
    ratio = after.get<double>() / before.get<double>();
  return {{"mbps", series}, {"before_mbps", before}, {"after_mbps", after}, {"after_over_before", ratio}};
}

/// The test's four nodes and links, as both the run and the network description build them.
struct Layout
{
  bool consumers;                                  ///< Test=consumers (else failover)
  std::vector<std::string> names;                  ///< consumers: P, R, C1, C2; failover: P, R1, R2, C
  std::vector<std::pair<uint32_t, uint32_t>> ends; ///< each link's two nodes
  /// The faces of Fig. 19, each a list of (node, link) whose sent octets it counts:
  /// consumers: the producer's (face1) and R's toward the consumers (face2); failover: each
  /// router's toward C
  std::map<std::string, std::vector<std::pair<uint32_t, size_t>>> faces;
  double event; ///< SecondStart or FailTime, s
  /// faceRates' windows (whole seconds): [start, event) before, [event + 5, end) after
  int64_t start, ev, end;
};

Layout layout(const Params& params)
{
  Layout l;
  l.consumers = params.getString("Test") == "consumers";
  if (l.consumers) {
    l.names = {"p", "r", "c1", "c2"};
    l.ends = {{0, 1}, {1, 2}, {1, 3}};
    l.faces = {{"face1", {{0, 0}}}, {"face2", {{1, 1}, {1, 2}}}};
  }
  else {
    l.names = {"p", "r1", "r2", "c"};
    l.ends = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
    l.faces = {{"r1", {{1, 2}}}, {"r2", {{2, 3}}}};
  }
  l.event = params.getDouble(l.consumers ? "SecondStart" : "FailTime");
  l.end = static_cast<int64_t>(std::floor(params.getDouble("StreamTime")));
  l.start = static_cast<int64_t>(std::ceil(params.getDouble("ConsumerStart"))) + 3;
  l.ev = static_cast<int64_t>(std::floor(l.event));
  return l;
}

void runScale(RunContext& ctx)
{
  const Params& params = ctx.params();
  const Layout l = layout(params);
  const bool consumers = l.consumers;

  ns3::NodeContainer nodes;
  nodes.Create(4);
  const auto& ends = l.ends;
  ns3::PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", ns3::StringValue(params.getString("Rate")));
  p2p.SetChannelAttribute("Delay", ns3::StringValue(params.getString("Delay")));
  p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue(params.getString("Queue")));
  std::vector<ns3::NetDeviceContainer> links;
  ns3::NetDeviceContainer all;
  for (const auto& [a, b] : ends) {
    links.push_back(p2p.Install(nodes.Get(a), nodes.Get(b)));
    all.Add(links.back());
  }

  StackHelper stack;
  stack.SetCsSize(static_cast<size_t>(params.getInt("CsSize")));
  stack.Install(nodes);
  const std::string prefix = std::string(StreamPrefix) + "/p";
  RouteHelper routes;
  routes.AddOrigin(prefix, nodes.Get(0));
  routes.CalculateRoutes(!consumers); // failover: C has a route through each router
  if (!consumers)
    StackHelper::SetStrategy(ns3::NodeContainer(nodes.Get(3)), "/", "/localhost/nfd/strategy/multicast");

  auto producer = installStreamProducer(params, prefix, nodes.Get(0));
  auto first = installStreamConsumer(params, prefix, nodes.Get(consumers ? 2 : 3));
  ns3::Ptr<StreamConsumerApp> second;
  const double event = l.event;
  if (consumers)
    second = installStreamConsumer(params, prefix, nodes.Get(3), event - params.getDouble("ConsumerStart"));
  stopWhenFinished({first, second});

  // the faces of Fig. 19: what each (node, link) end of a face sends
  std::map<std::string, RateBins> bins;
  for (const auto& [name, faceEnds] : l.faces) {
    for (const auto& [node, link] : faceEnds) {
      ns3::Ptr<ns3::NetDevice> dev = links[link].Get(ends[link].first == node ? 0 : 1);
      dev->TraceConnectWithoutContext("PhyTxBegin", ns3::MakeBoundCallback(&countInBin, &bins[name]));
    }
  }
  if (!consumers) {
    // R1 dies: from FailTime on it receives nothing, so it forwards and answers nothing
    ns3::Simulator::Schedule(ns3::Seconds(event), [dead = nodes.Get(1)] {
      for (uint32_t i = 0; i < dead->GetNDevices(); ++i) {
        auto em = ns3::CreateObject<ns3::RateErrorModel>();
        em->SetUnit(ns3::RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(1.0);
        dead->GetDevice(i)->SetAttribute("ReceiveErrorModel", ns3::PointerValue(em));
      }
    });
  }

  P2pDropCounter drops(all);
  ScenarioTraces traces(ctx, nodes);

  ctx.runSimulation(ns3::Seconds(params.getDouble("MaxTime")));

  nlohmann::json m;
  m["stream"] = streamMetrics(*first);
  if (second)
    m["stream2"] = streamMetrics(*second);
  m["producer"] = producerMetrics(*producer);
  nlohmann::json faces = nlohmann::json::object();
  for (const auto& [name, b] : bins)
    faces[name] = faceRates(b, l.end, l.start, l.ev, l.ev + 5, l.end);
  m["faces"] = faces;
  nlohmann::json perNode = nlohmann::json::object();
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    perNode[l.names[i]] = nodeReport(nodes.Get(i), drops);
  }
  m["nodes"] = perNode;
  ctx.metrics = m;
}

/// The test as data (Scenario::network) for `ndnlab emu`: the same links, the producer's route
/// (failover: on every face, cost = 1 + the neighbour's distance, as RouteHelper's all-paths
/// routes, and the multicast strategy on C), the stream tools, R1's death as an event
/// ("isolate": from FailTime on, its links are down, so it receives nothing), and the faces
/// whose sent octets `faces.*` count per second, with faceRates' windows.
nlohmann::json scaleNetwork(const Params& params)
{
  const Layout l = layout(params);
  nlohmann::json links = nlohmann::json::array();
  for (size_t i = 0; i < l.ends.size(); ++i)
    links.push_back(networkLink(i, l.names[l.ends[i].first], l.names[l.ends[i].second], params.getString("Rate"),
                                params.getString("Delay"), 0, params.getString("Queue")));
  const std::string prefix = std::string(StreamPrefix) + "/p";
  nlohmann::json apps = streamApps(params, prefix, "p", l.names[l.consumers ? 2 : 3]);
  nlohmann::json events = nlohmann::json::array();
  nlohmann::json strategies = nlohmann::json::array();
  if (l.consumers) {
    apps.push_back(streamApps(params, prefix, "p", "c2", l.event - params.getDouble("ConsumerStart"))[1]);
  }
  else {
    strategies.push_back({{"node", "c"}, {"prefix", "/"}, {"strategy", "/localhost/nfd/strategy/multicast"}});
    events.push_back({{"at_s", l.event}, {"node", "r1"}, {"action", "isolate"}});
  }
  nlohmann::json faces = nlohmann::json::object();
  for (const auto& [name, ends] : l.faces) {
    faces[name] = nlohmann::json::array();
    for (const auto& [node, link] : ends)
      faces[name].push_back({{"node", l.names[node]}, {"link", link}});
  }
  return {{"nodes", l.names},
          {"links", links},
          {"cs_size", params.getInt("CsSize")},
          {"strategy", fw::ForwarderOptions{}.defaultStrategy.toUri()},
          {"strategies", strategies},
          {"routes", nlohmann::json::array({{{"prefix", prefix}, {"origin", "p"}, {"all_paths", !l.consumers}}})},
          {"apps", apps},
          {"events", events},
          {"metrics", "rtsd-scale"},
          {"rate_faces", faces},
          {"rate_windows", {{"start", l.start}, {"event", l.ev}, {"after", l.ev + 5}, {"end", l.end}}},
          {"max_time_s", params.getDouble("MaxTime")}};
}

const runner::Registration reg{runner::Scenario{
  "rtsd-scale",
  "NDN-RTC's scalability and failover tests (Fig. 18): two consumers of one producer, or two routers with one dying",
  scaleParams(), runScale, checkScale, scaleNetwork}};

} // namespace
} // namespace ndnlab::sim::scenarios
