// Scenario `rtsd-star`: the basic evaluation topology of the NDN-RTC paper (Gusev et al.,
// shared/papers/ndn-rtc-realtime-streaming.txt, Fig. 20): two consumer-producers joined by a
// router, CP1 -L1- R -L2- CP2, each link with its own rate, delay, loss and device queue. CP1
// publishes a synthetic stream (StreamProducerApp: Bitrates at Fps, StreamTime seconds, then
// the end-of-stream marker) and CP2 plays it (StreamConsumerApp from ConsumerStart); with
// Bidirectional, CP2 publishes a stream of its own that CP1 plays, as the paper's
// conferencing pairs did. The run ends when every consumer has ended (or failed), or at
// MaxTime. result.json: `stream.*` (CP2's consumer, stream::visitMetrics), `stream_reverse.*`
// (CP1's, Bidirectional only), `producer.*`, `l2_utilization` (R's octets toward CP2 over the
// consumer's run, per L2's rate) and per-node frame counters; with StreamTrace, CP2's
// consumer's stream-arrivals.csv and stream-series.csv (stream-kit.hpp, StreamTraceFiles).
//
// With Mircc (issue 29 item 5(e)), every face runs MIRCC as in mircc-dumbbell (LpMircc on the
// stack: each node shapes the Interests it forwards at the link's DataRate and stamps its rate
// R_f on the Data coming back; docs/mechanisms/mircc.md), with MIRCC's Data size S the octets a
// full segment Data takes on the link (mirccDataSize, in result.json as mircc_data_size);
// nodes.<node>.shaper_drops counts the Interests its shapers refused. With
// --BitrateFromRate=true the consumer picks its thread from the path's rate. ns-3 only.

#include "ns3/ndnlab/apps/producer-app.hpp"
#include "ns3/ndnlab/helper/frame-loss.hpp"
#include "ns3/ndnlab/helper/route-helper.hpp"
#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/ndnlab/model/ndn-stack.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"
#include "ns3/ndnlab/scenarios/stream-kit.hpp"

#include "core/fw/forwarder.hpp"
#include "core/lp/packet.hpp"
#include "core/security/signer.hpp"
#include "core/stream/producer.hpp"
#include "core/stream/wire.hpp"

#include <ns3/boolean.h>
#include <ns3/data-rate.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/packet.h>
#include <ns3/pointer.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <limits>

namespace ndnlab::sim::scenarios {
namespace {

const char* const LinkListDoc = "; one value for both links or two comma-separated values, L1 (CP1-R) first";

std::vector<ParamSpec> starParams()
{
  const std::vector<ParamSpec> links = {
    {"Rate", ParamType::String, "10Mbps", "", std::string("link data rate, 1bps..1000Gbps") + LinkListDoc},
    {"Delay", ParamType::String, "25ms", "",
     std::string("link propagation delay, 0..1e6 s (25ms: the paper's 100 ms RTT)") + LinkListDoc},
    {"Loss", ParamType::String, "0", "", std::string("frame loss probability, both directions") + LinkListDoc},
    {"Queue", ParamType::String, "100p", "", std::string("device queue size: >= 1p, or >= 1500B") + LinkListDoc},
    csSizeParam(),
    {"Bidirectional", ParamType::Bool, "false", "", "CP2 publishes a stream too, which CP1 plays (the paper's pairs)"},
    streamTraceParam(),
    {"Mircc", ParamType::Bool, "false", "",
     "MIRCC on every face: each node shapes Interests at the link's rate and stamps the explicit rate on the Data "
     "(ns-3 only)"},
  };
  return joinParams({links, streamParams(), runParams(120)});
}

struct Links
{
  std::vector<std::string> rates, delays, queues;
  std::vector<double> losses;
};

Links parseLinks(const Params& params)
{
  Links l;
  for (const auto& r : perElement("Rate", params.getString("Rate"), 2))
    l.rates.push_back(checkRate("Rate", r));
  for (const auto& d : perElement("Delay", params.getString("Delay"), 2))
    l.delays.push_back(checkTime("Delay", d));
  for (const auto& q : perElement("Queue", params.getString("Queue"), 2))
    l.queues.push_back(checkQueue("Queue", q));
  for (const auto& p : perElement("Loss", params.getString("Loss"), 2))
    l.losses.push_back(parseProbability("Loss", p));
  return l;
}

/// MIRCC's Data size S for the star: the octets a full segment Data of the stream takes on a
/// point-to-point link. A data segment of PayloadSize octets of a delta frame of the top thread,
/// with its segment header, the producer's FreshnessPeriod and FinalBlockId and the Signing
/// signature, in an NDNLPv2 frame with a MirccRate field, and the 2-byte PPP header. Segments of
/// smaller frames take less: S is their largest.
size_t mirccDataSize(const Params& params, const std::string& prefix)
{
  const auto threads = parseStreamBitrates(params.getString("Bitrates"));
  const size_t payload = static_cast<size_t>(params.getInt("PayloadSize"));
  const stream::StreamProducerOptions po;
  const Name base = stream::streamBase(*Name::parse(prefix), po.stream);
  stream::SegmentHeader h;
  h.dataSegments = 13;
  h.paritySegments = 3;
  h.frameLength = 13 * payload;
  h.generationDelay = std::chrono::milliseconds(20);
  h.playbackNumber = 1000;
  h.gopKey = 33;
  h.captureTime = UnixMillis(1'700'000'000'000);
  Buffer content;
  stream::encodeSegmentHeader(content, h);
  content.resize(content.size() + payload);
  Data d(stream::segmentName(base, threads.back().name, stream::FrameType::Delta, 1000, stream::SegmentKind::Data, 9));
  Name last;
  last.appendSegment(12);
  d.setFreshnessPeriod(po.deltaFreshness);
  d.setFinalBlockId(last[0]);
  d.setContent(std::make_shared<const Buffer>(std::move(content)));
  auto signer = makeSigner(params.getString("Signing"), *Name::parse(prefix));
  security::signData(d, *signer);
  SharedBuffer wire = d.wireEncode();
  lp::LpPacket frame;
  frame.mirccRate = Rate::mbps(10);
  frame.fragment = ByteSpan(*wire);
  return lp::encode(frame)->size() + 2; // + the PPP header
}

void countOctets(uint64_t* octets, ns3::Ptr<const ns3::Packet> p)
{
  *octets += p->GetSize();
}

void checkStar(const Params& params)
{
  parseLinks(params);
  checkStreamParams(params);
}

void runStar(RunContext& ctx)
{
  const Params& params = ctx.params();
  const Links links = parseLinks(params);

  // nodes: 0 = CP1, 1 = R, 2 = CP2
  ns3::NodeContainer nodes;
  nodes.Create(3);
  ns3::NetDeviceContainer all;
  ns3::Ptr<ns3::NetDevice> towardCp2;
  for (size_t i = 0; i < 2; ++i) {
    ns3::PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", ns3::StringValue(links.rates[i]));
    p2p.SetChannelAttribute("Delay", ns3::StringValue(links.delays[i]));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue(links.queues[i]));
    ns3::NetDeviceContainer link =
      p2p.Install(nodes.Get(static_cast<uint32_t>(i)), nodes.Get(static_cast<uint32_t>(i + 1)));
    if (links.losses[i] > 0) {
      for (uint32_t end = 0; end < 2; ++end)
        link.Get(end)->SetAttribute("ReceiveErrorModel",
                                    ns3::PointerValue(frameLossModel(links.losses[i], linkLossStream(i) + end)));
    }
    if (i == 1)
      towardCp2 = link.Get(0);
    all.Add(link);
  }

  StackHelper stack;
  stack.SetCsSize(static_cast<size_t>(params.getInt("CsSize")));
  const bool mircc = params.getBool("Mircc");
  const size_t dataSize = mircc ? mirccDataSize(params, std::string(StreamPrefix) + "/cp1") : 0;
  if (mircc) {
    stack.SetStackAttribute("LpMircc", ns3::BooleanValue(true));
    stack.SetStackAttribute("MirccDataSize", ns3::UintegerValue(dataSize));
  }
  stack.Install(nodes);
  const bool bidi = params.getBool("Bidirectional");
  RouteHelper routes;
  // each endpoint publishes under its own name: <StreamPrefix>/cp1, <StreamPrefix>/cp2
  const std::string cp1 = std::string(StreamPrefix) + "/cp1", cp2 = std::string(StreamPrefix) + "/cp2";
  routes.AddOrigin(cp1, nodes.Get(0));
  if (bidi)
    routes.AddOrigin(cp2, nodes.Get(2));
  routes.CalculateRoutes();

  auto producer = installStreamProducer(params, cp1, nodes.Get(0));
  auto consumer = installStreamConsumer(params, cp1, nodes.Get(2));
  ns3::Ptr<StreamProducerApp> producer2;
  ns3::Ptr<StreamConsumerApp> consumer2;
  if (bidi) {
    producer2 = installStreamProducer(params, cp2, nodes.Get(2));
    consumer2 = installStreamConsumer(params, cp2, nodes.Get(0));
  }
  stopWhenFinished({consumer, consumer2});

  // octets R sends toward CP2 while the consumer runs: the utilisation of L2
  uint64_t l2Bytes = 0;
  towardCp2->TraceConnectWithoutContext("PhyTxBegin", ns3::MakeBoundCallback(&countOctets, &l2Bytes));

  StreamTraceFiles streamTrace(ctx, consumer, &l2Bytes);
  P2pDropCounter drops(all);
  ScenarioTraces traces(ctx, nodes);

  ctx.runSimulation(ns3::Seconds(params.getDouble("MaxTime")));

  nlohmann::json m;
  m["stream"] = streamMetrics(*consumer);
  if (consumer2)
    m["stream_reverse"] = streamMetrics(*consumer2);
  m["producer"] = producerMetrics(*producer);
  const double elapsed = toSeconds(consumer->GetStats().elapsed);
  const double l2Rate = static_cast<double>(ns3::DataRate(links.rates[1]).GetBitRate());
  m["l2_utilization"] = elapsed > 0 ? static_cast<double>(l2Bytes) * 8 / elapsed / l2Rate : 0.0;
  nlohmann::json perNode = nlohmann::json::object();
  const char* const names[] = {"cp1", "r", "cp2"};
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    perNode[names[i]] = nodeReport(nodes.Get(i), drops);
    if (mircc)
      perNode[names[i]]["shaper_drops"] =
        nodes.Get(i)->GetObject<NdnStack>()->GetForwarder().counters().nDropShaperFull;
  }
  if (mircc)
    m["mircc_data_size"] = dataSize;
  m["nodes"] = perNode;
  ctx.metrics = m;
}

/// The star as data (Scenario::network) for `ndnlab emu`: the same links (L1 = link 0, L2 =
/// link 1, with the simulator's loss streams), a route to each publisher, and the stream tools;
/// with StreamTrace, CP2's player marked `stream_trace` (it writes StreamTraceFiles' files).
nlohmann::json starNetwork(const Params& params)
{
  if (params.getBool("Mircc"))
    throw UsageError("--Mircc=true runs in ns-3 only");
  const Links links = parseLinks(params);
  const char* const names[] = {"cp1", "r", "cp2"};
  nlohmann::json linkList = nlohmann::json::array();
  for (size_t i = 0; i < 2; ++i)
    linkList.push_back(
      networkLink(i, names[i], names[i + 1], links.rates[i], links.delays[i], links.losses[i], links.queues[i]));
  const std::string cp1 = std::string(StreamPrefix) + "/cp1", cp2 = std::string(StreamPrefix) + "/cp2";
  nlohmann::json routes = nlohmann::json::array({{{"prefix", cp1}, {"origin", "cp1"}}});
  nlohmann::json apps = streamApps(params, cp1, "cp1", "cp2");
  if (params.getBool("StreamTrace"))
    apps[1]["stream_trace"] = true; // CP2's player writes the run's series files (--trace-dir)
  if (params.getBool("Bidirectional")) {
    routes.push_back({{"prefix", cp2}, {"origin", "cp2"}});
    for (auto& app : streamApps(params, cp2, "cp2", "cp1"))
      apps.push_back(app);
  }
  return {{"nodes", {"cp1", "r", "cp2"}},
          {"links", linkList},
          {"cs_size", params.getInt("CsSize")},
          {"strategy", fw::ForwarderOptions{}.defaultStrategy.toUri()},
          {"routes", routes},
          {"apps", apps},
          {"metrics", "rtsd-star"},
          {"max_time_s", params.getDouble("MaxTime")}};
}

const runner::Registration reg{runner::Scenario{
  "rtsd-star", "NDN-RTC's basic topology (Fig. 20): CP1 -L1- R -L2- CP2, a real-time stream from CP1 played at CP2",
  starParams(), runStar, checkStar, starNetwork}};

} // namespace
} // namespace ndnlab::sim::scenarios
