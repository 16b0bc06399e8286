// Scenario `mircc-dumbbell` (issue 28 item 5; Kato et al., FedCSIS 2020, Sec. IV-A, Fig. 4):
// two consumers share one bottleneck towards two producers, every node running MIRCC.
//
//   C1 --\                       /-- P1
//         R1 -- 12 Mbps 100 ms -- R2
//   C2 --/                       \-- P2
//   (access links 10 Mbps, 50 ms)
//
// Every face has MIRCC on (LpMircc): each node's forwarder shapes the Interests it forwards
// toward an upstream face at that link's DataRate (token bucket of MirccShaperDepth, 200) and
// stamps R_f into the Data coming back. The consumers are the paper's: Interests at the rate the
// latest Data carries (ConstantRateConsumer with FollowRate: the paper's ConsumerLi, no
// retransmission, so loss = 1 - Data / Interests), on a clock of `Tick` with or without
// `Smoothening`; routers recompute R(t) every `Tick` too (the paper: the same granularity in
// consumers and routers). `RateConsumer=get` runs `ndnlab get --cc mircc`'s rate pipeline
// instead (it retransmits; ndnlab emu runs it, from the network description below). `Cc=aimd|cubic` puts ndnlab's
// window consumers (`ndnlab get`'s) in their place over plain routers with MIRCC off, drop-tail queues of `Queue`
// (issue 28, 8(d)); their loss is 1 - distinct segments / Interests sent, retransmissions included.
//
// C1 sends from 1 s to 10 s, C2 from 3 s to 8 s (C1Start, C1Stop, C2Start, C2Stop). Per 100 ms
// (mircc-series.csv with --out): each consumer's Interest rate and the share of
// the Interests sent in that bin that got no Data.
//
// Every Data takes 1,250 bytes on the link (NDNLPv2 frame and PPP header included), the paper's
// 10,000 bits, which is also the Data size MIRCC's rates count in.
//
// Metrics: flows.C<i>.loss_rate (Interests that got no Data / Interests resolved, over the whole run: the
// paper's consumer resolves every Interest, so 1 - Data / Interests; get's consumers: retransmissions /
// (segments + retransmissions), an Interest in flight when the consumer stops being unresolved), .interests_sent,
// .data_received, .rate_pps_alone (C1 over [C1Start + 1 s, C2Start)), .rate_pps_shared (mean
// Interest rate over [C2Start + 1 s, C2Stop)), .rate_pps_end (the level reached: over the last
// second before C2Stop, in whole ticks: 1.5 s for 750 ms), jain_index_shared, bottleneck_utilisation (Data
// bits to both consumers over [C2Start + 1 s, C2Stop) / bottleneck rate), convergence_s (time
// after C2Start until both consumers' rates, averaged over whole ticks, stay within 10 % of the fair share, the
// bottleneck's Data rate / 2, until C2Stop; null if never), flows.C<i>.rtt_ms_shared (mean RTT of the Data
// received over [C2Start + 1 s, C2Stop); window consumers: their RTT samples, retransmitted segments not
// sampled), .rtt_ms_min (lowest RTT of the run), queueing_delay_ms_shared (the mean RTT of both flows over
// the shared period less the lower of their lowest RTTs: time in shapers and device queues).

#include "ns3/ndnlab/apps/consumer-app.hpp"
#include "ns3/ndnlab/apps/constant-rate-consumer-app.hpp"
#include "ns3/ndnlab/helper/app-helper.hpp"
#include "ns3/ndnlab/helper/route-helper.hpp"
#include "ns3/ndnlab/helper/stack-helper.hpp"
#include "ns3/ndnlab/scenarios/scenario-kit.hpp"

#include "core/codec/data.hpp"
#include "core/lp/packet.hpp"
#include "core/security/signer.hpp"

#include <ns3/boolean.h>
#include <ns3/data-rate.h>
#include <ns3/double.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace ndnlab::sim::scenarios {
namespace {

constexpr double Bin = 0.1; // s: the paper's figures plot per 100 ms

std::vector<ParamSpec> mirccParams()
{
  using Range = fields::Range;
  const std::vector<ParamSpec> p = {
    {"Cc",
     ParamType::String,
     "mircc",
     "",
     "consumers: mircc (the paper's rate consumer), aimd, cubic",
     {"mircc", "aimd", "cubic"}},
    {"RateConsumer",
     ParamType::String,
     "paper",
     "",
     "mircc consumers: paper (the paper's, no retransmission) or get (ndnlab get's rate pipeline, which retransmits; "
     "what ndnlab emu runs)",
     {"paper", "get"}},
    {"Tick",
     ParamType::Double,
     "100",
     "ms",
     "clock of consumers and routers: the consumers' tick and the routers' rate interval T",
     {},
     Range::positive(60'000)},
    {"Smoothening", ParamType::Bool, "false", "",
     "held Interests also leave on every Data or Nack (the paper's Sec. V)"},
    {"RampUp", ParamType::Bool, "false", "",
     "mircc consumers, beyond the paper: a higher stamped rate is taken at most doubling per smoothed RTT"},
    {"QueueStamping", ParamType::Bool, "false", "",
     "routers, beyond the paper: stamp R(t) x the free share of the shaper (a filling shaper lowers the rate at "
     "once)"},
    {"TickShapers", ParamType::Bool, "false", "",
     "beyond the paper: every shaper holds at least one Tick of Interests at its link's rate "
     "(MirccShaperHold = Tick; ShaperDepth is the least depth)"},
    {"UpdateOnArrival", ParamType::Bool, "false", "",
     "routers recompute R(t) on the first packet after T instead of by a timer (issue 28, 8(b))"},
    {"AccessRate", ParamType::String, "10Mbps", "", "consumer-router and router-producer links, 1bps..1000Gbps"},
    {"AccessDelay", ParamType::String, "50ms", "", "access link delay, 0..1e6 s"},
    {"BottleneckRate", ParamType::String, "12Mbps", "", "R1-R2 data rate, 1bps..1000Gbps"},
    {"BottleneckDelay", ParamType::String, "100ms", "", "R1-R2 delay, 0..1e6 s"},
    {"Queue", ParamType::String, "100p", "", "device queue of every link: >= 1p, or >= 1500B"},
    {"InitialRate",
     ParamType::Double,
     "100",
     "Interests/s",
     "mircc consumers: rate until the first Data",
     {},
     Range::positive(1e6)},
    {"ShaperDepth",
     ParamType::Int,
     "200",
     "Interests",
     "MIRCC token bucket depth at consumers and routers",
     {},
     Range::closed(1, 1e6)},
    {"C1Start", ParamType::Double, "1", "s", "C1 starts sending", {}, Range::nonNegative(3600)},
    {"C1Stop", ParamType::Double, "10", "s", "C1 stops sending", {}, Range::nonNegative(3600)},
    {"C2Start", ParamType::Double, "3", "s", "C2 starts sending", {}, Range::nonNegative(3600)},
    {"C2Stop", ParamType::Double, "8", "s", "C2 stops sending", {}, Range::nonNegative(3600)},
  };
  return joinParams({p, runParams(3600)});
}

struct Times
{
  double c1Start, c1Stop, c2Start, c2Stop;
};

Times parseTimes(const Params& params)
{
  Times t{params.getDouble("C1Start"), params.getDouble("C1Stop"), params.getDouble("C2Start"),
          params.getDouble("C2Stop")};
  if (!(t.c1Start < t.c1Stop))
    throw UsageError("--C1Start must be before --C1Stop");
  if (!(t.c2Start < t.c2Stop))
    throw UsageError("--C2Start must be before --C2Stop");
  if (!(t.c1Start <= t.c2Start && t.c2Stop <= t.c1Stop))
    throw UsageError("C2 must send within C1's period (C1Start <= C2Start, C2Stop <= C1Stop)");
  if (t.c2Stop - t.c2Start < 1.0 + Bin)
    throw UsageError("C2 must send for more than 1.1 s (the shared period starts 1 s after C2Start)");
  return t;
}

void checkMircc(const Params& params)
{
  checkRate("AccessRate", params.getString("AccessRate"));
  checkRate("BottleneckRate", params.getString("BottleneckRate"));
  checkTime("AccessDelay", params.getString("AccessDelay"));
  checkTime("BottleneckDelay", params.getString("BottleneckDelay"));
  checkQueue("Queue", params.getString("Queue"));
  parseTimes(params);
  if (params.getBool("Smoothening") && params.getString("Cc") != "mircc")
    throw UsageError("--Smoothening applies to the mircc consumers only");
  if (params.getBool("RampUp") && params.getString("Cc") != "mircc")
    throw UsageError("--RampUp applies to the mircc consumers only");
}

/// Payload that makes a segment Data of the producers' names take `wire` bytes on a
/// point-to-point link: the Data (digest signature, two-byte segment numbers as most of a run's
/// are), its NDNLPv2 frame with a MirccRate field, and `headers` more (the 2-byte PPP header;
/// on an emulated link also Ethernet, IPv4 and UDP). The paper's 1,250
/// bytes are the packet on the link: 10 Mbit/s carries 1,000 of them per second.
size_t payloadFor(const std::string& prefix, size_t wire, uint64_t version = 1, size_t headers = 2)
{
  Name name = *Name::parse(prefix);
  name.appendVersion(version).appendSegment(1000);
  auto frameSize = [&name, headers](size_t payload) {
    Data d(name);
    const Buffer content(payload, 0);
    d.setContent(ByteSpan(content));
    security::DigestSigner signer;
    security::signData(d, signer);
    SharedBuffer data = d.wireEncode();
    lp::LpPacket frame;
    frame.mirccRate = Rate::mbps(12);
    frame.fragment = ByteSpan(*data);
    return lp::encode(frame)->size() + headers; // + PPP header (and IP, UDP, Ethernet on real links)
  };
  // the TLV lengths grow at 253 and 65536 bytes: search down from the first guess
  const size_t overhead = frameSize(1000) - 1000;
  if (wire <= overhead + 1)
    throw std::logic_error("a Data of " + std::to_string(wire) + " bytes leaves no payload");
  size_t payload = wire - overhead;
  while (payload > 1 && frameSize(payload) > wire)
    --payload;
  return payload;
}

/// Per-bin counts of one consumer, by the time its Interests were sent.
struct Series
{
  std::vector<uint64_t> sent, lost;
  std::vector<uint64_t> data; ///< Data received, by the bin they arrived in
  static size_t binOf(double t)
  {
    // a send on a bin's edge (a tick at k x 100 ms) belongs to the bin it opens
    return static_cast<size_t>(std::floor(std::max(0.0, t) / Bin + 1e-6));
  }
  void grow(size_t i)
  {
    if (i >= sent.size()) {
      sent.resize(i + 1, 0);
      lost.resize(i + 1, 0);
      data.resize(i + 1, 0);
    }
  }
  void add(double t, bool answered)
  {
    const size_t i = binOf(t);
    grow(i);
    ++sent[i];
    lost[i] += answered ? 0 : 1;
  }
  void addData(double t, uint64_t n)
  {
    const size_t i = binOf(t);
    grow(i);
    data[i] += n;
  }
  uint64_t dataAt(size_t i) const { return i < data.size() ? data[i] : 0; }
  /// Interests sent per second over [from, to).
  double rate(double from, double to) const
  {
    uint64_t n = 0;
    for (size_t i = 0; i < sent.size(); ++i) {
      const double t = static_cast<double>(i) * Bin;
      if (t >= from - 1e-9 && t < to - 1e-9)
        n += sent[i];
    }
    return to > from ? static_cast<double>(n) / (to - from) : 0.0;
  }
  uint64_t at(size_t i) const { return i < sent.size() ? sent[i] : 0; }
  uint64_t lostAt(size_t i) const { return i < lost.size() ? lost[i] : 0; }
};

/// RTT samples of one consumer: the lowest of the run and the sum over the shared period.
struct RttTally
{
  double min = std::numeric_limits<double>::infinity(); ///< s
  double sharedSum = 0;                                 ///< s
  uint64_t sharedN = 0;
  void add(double rtt, bool shared)
  {
    min = std::min(min, rtt);
    if (shared) {
      sharedSum += rtt;
      ++sharedN;
    }
  }
  double sharedMean() const { return sharedN > 0 ? sharedSum / static_cast<double>(sharedN) : 0.0; }
};

/// Queueing delay over the shared period: the flows' mean RTT there less the lowest RTT either
/// flow saw (their paths have the same propagation and serialisation delays), in ms; null
/// without samples.
nlohmann::json queueingDelayMs(const std::vector<RttTally>& rtts)
{
  double base = std::numeric_limits<double>::infinity(), sum = 0;
  uint64_t n = 0;
  for (const RttTally& r : rtts) {
    base = std::min(base, r.min);
    sum += r.sharedSum;
    n += r.sharedN;
  }
  if (n == 0 || !std::isfinite(base))
    return nullptr;
  return 1e3 * std::max(0.0, sum / static_cast<double>(n) - base);
}

constexpr const char* NodeNames[] = {"C1", "C2", "R1", "R2", "P1", "P2"};

/// One link of the dumbbell: its ends (indices into NodeNames) and the checked values.
struct DumbbellLink
{
  int a, b;
  std::string rate, delay, queue;
};

/// The five links, as both the run and the network description build them.
std::vector<DumbbellLink> dumbbellLinks(const Params& params)
{
  const std::string access = params.getString("AccessRate"), accessDelay = params.getString("AccessDelay");
  const std::string queue = params.getString("Queue");
  return {{0, 2, access, accessDelay, queue},
          {1, 2, access, accessDelay, queue},
          {2, 3, params.getString("BottleneckRate"), params.getString("BottleneckDelay"), queue},
          {3, 4, access, accessDelay, queue},
          {3, 5, access, accessDelay, queue}};
}

/// Content of each producer: more than its access link carries while C1 runs, so it never ends.
uint64_t contentBytes(const Params& params, const Times& times)
{
  const double accessBps = static_cast<double>(ns3::DataRate(params.getString("AccessRate")).GetBitRate());
  return static_cast<uint64_t>(2.0 * accessBps / 8.0 * (times.c1Stop - times.c1Start) + 1e6);
}

void runMirccDumbbell(RunContext& ctx)
{
  const Params& params = ctx.params();
  const Times times = parseTimes(params);
  const std::string cc = params.getString("Cc");
  const std::string rateConsumer = params.getString("RateConsumer");
  const double tickMs = params.getDouble("Tick");
  // the paper's 1,250-byte Data on the link, which is also MIRCC's data size in every node
  const size_t dataSize = fw::MirccOptions{}.dataSize;
  const ns3::Time tick = ns3::MicroSeconds(static_cast<int64_t>(std::llround(tickMs * 1000)));

  // node ids: C1 0, C2 1, R1 2, R2 3, P1 4, P2 5
  ns3::NodeContainer nodes;
  nodes.Create(6);
  const auto& names = NodeNames;
  ns3::NetDeviceContainer all;
  for (const DumbbellLink& l : dumbbellLinks(params)) {
    ns3::PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", ns3::StringValue(l.rate));
    p2p.SetChannelAttribute("Delay", ns3::StringValue(l.delay));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue(l.queue));
    all.Add(p2p.Install(nodes.Get(l.a), nodes.Get(l.b)));
  }
  const std::string bottleneck = params.getString("BottleneckRate");

  StackHelper stack;
  stack.SetCsSize(0); // the paper measured without caching
  // the window consumers run over plain drop-tail routers, as they would be deployed
  stack.SetStackAttribute("LpMircc", ns3::BooleanValue(cc == "mircc"));
  stack.SetStackAttribute("MirccInterval", ns3::TimeValue(tick));
  stack.SetStackAttribute("MirccShaperDepth", ns3::UintegerValue(static_cast<uint64_t>(params.getInt("ShaperDepth"))));
  stack.SetStackAttribute("MirccShaperHold", ns3::TimeValue(params.getBool("TickShapers") ? tick : ns3::Time(0)));
  stack.SetStackAttribute("MirccUpdateOnArrival", ns3::BooleanValue(params.getBool("UpdateOnArrival")));
  stack.SetStackAttribute("MirccQueueStamping", ns3::BooleanValue(params.getBool("QueueStamping")));
  stack.Install(nodes);
  RouteHelper routes;
  routes.AddOrigin("/lab/p1", nodes.Get(4));
  routes.AddOrigin("/lab/p2", nodes.Get(5));
  routes.CalculateRoutes();

  const double starts[2] = {times.c1Start, times.c2Start};
  const double stops[2] = {times.c1Stop, times.c2Stop};
  const double sharedFrom = times.c2Start + 1.0, sharedTo = times.c2Stop;
  std::vector<Series> series(2);
  std::vector<RttTally> rtts(2);
  std::vector<ns3::Ptr<ConstantRateConsumerApp>> rateApps;
  std::vector<ns3::Ptr<ConsumerApp>> windowApps;
  for (int i = 0; i < 2; ++i) {
    const std::string prefix = "/lab/p" + std::to_string(i + 1);
    AppHelper producer("ndnlab::ProducerApp");
    producer.SetPrefix(prefix);
    producer.SetAttribute("Version", ns3::UintegerValue(1));
    producer.SetAttribute("PayloadSize", ns3::UintegerValue(payloadFor(prefix, dataSize)));
    producer.SetAttribute("FileSize", ns3::UintegerValue(contentBytes(params, times)));
    producer.Install(nodes.Get(4 + i));

    if (cc == "mircc" && rateConsumer == "paper") {
      AppHelper consumer("ndnlab::ConstantRateConsumerApp");
      consumer.SetPrefix(prefix + "/v=1");
      consumer.SetAttribute("Frequency", ns3::DoubleValue(params.getDouble("InitialRate")));
      consumer.SetAttribute("FollowRate", ns3::BooleanValue(true));
      consumer.SetAttribute("RateDataSize", ns3::UintegerValue(dataSize));
      consumer.SetAttribute("Tick", ns3::TimeValue(tick));
      consumer.SetAttribute("Smoothening", ns3::BooleanValue(params.getBool("Smoothening")));
      consumer.SetAttribute("RampUp", ns3::BooleanValue(params.getBool("RampUp")));
      consumer.SetAttribute("StartTime", ns3::TimeValue(ns3::Seconds(starts[i])));
      auto app = ns3::DynamicCast<ConstantRateConsumerApp>(consumer.Install(nodes.Get(i)).Get(0));
      app->SetResolvedCallback([&series, i](double sent, bool answered) { series[i].add(sent, answered); });
      app->SetDataCallback([&series, &rtts, i, sharedFrom, sharedTo](double at, double rtt) {
        series[i].addData(at, 1);
        rtts[i].add(rtt, at >= sharedFrom && at < sharedTo);
      });
      ns3::Simulator::Schedule(ns3::Seconds(stops[i]), [app] { app->FinishSending(); });
      rateApps.push_back(app);
    }
    else {
      AppHelper consumer("ndnlab::ConsumerApp");
      consumer.SetPrefix(prefix);
      consumer.SetAttribute("Pipeline", ns3::StringValue(cc));
      if (cc == "mircc") { // get's rate pipeline, as ndnlab emu runs it
        consumer.SetAttribute("ClockTick", ns3::TimeValue(tick));
        consumer.SetAttribute("Smoothening", ns3::BooleanValue(params.getBool("Smoothening")));
        consumer.SetAttribute("InitialRate", ns3::DoubleValue(params.getDouble("InitialRate")));
        consumer.SetAttribute("RateDataSize", ns3::UintegerValue(dataSize));
        consumer.SetAttribute("RateRamp", ns3::BooleanValue(params.getBool("RampUp")));
      }
      consumer.SetAttribute("StartTime", ns3::TimeValue(ns3::Seconds(starts[i])));
      consumer.SetAttribute("StopTime", ns3::TimeValue(ns3::Seconds(stops[i])));
      windowApps.push_back(ns3::DynamicCast<ConsumerApp>(consumer.Install(nodes.Get(i)).Get(0)));
    }
  }
  // window consumers: Interests sent and Data received per bin, from their statistics
  std::vector<app::FetchStats> previous(2);
  std::function<void()> sample;
  if (!windowApps.empty()) {
    sample = [&] {
      const double now = ns3::Simulator::Now().GetSeconds();
      for (size_t i = 0; i < 2; ++i) {
        app::FetchStats s = windowApps[i]->GetStats();
        const uint64_t sent = s.interestsSent - previous[i].interestsSent;
        const uint64_t got = s.segments - previous[i].segments;
        for (uint64_t k = 0; k < sent; ++k)
          series[i].add(now - Bin / 2, k < got); // per-bin loss: Interests less Data of the bin
        series[i].addData(now - Bin / 2, got);
        previous[i] = s;
      }
      ns3::Simulator::Schedule(ns3::Seconds(Bin), sample);
    };
    ns3::Simulator::Schedule(ns3::Seconds(Bin), sample);
  }
  // window consumers: the RTT samples of the shared period, from their running mean
  std::vector<app::FetchStats> atSharedFrom(2);
  if (!windowApps.empty()) {
    ns3::Simulator::Schedule(ns3::Seconds(sharedFrom), [&] {
      for (size_t i = 0; i < 2; ++i)
        atSharedFrom[i] = windowApps[i]->GetStats();
    });
    ns3::Simulator::Schedule(ns3::Seconds(sharedTo), [&] {
      for (size_t i = 0; i < 2; ++i) {
        const app::FetchStats now = windowApps[i]->GetStats(), &then = atSharedFrom[i];
        rtts[i].sharedN = now.rttSamples - then.rttSamples;
        rtts[i].sharedSum = toSeconds(now.rttAvg) * static_cast<double>(now.rttSamples) -
                            toSeconds(then.rttAvg) * static_cast<double>(then.rttSamples);
      }
    });
  }
  P2pDropCounter drops(all);
  ScenarioTraces traces(ctx, nodes);

  // every Interest resolves within its lifetime (2 s) after the last one left
  ctx.runSimulation(ns3::Seconds(std::min(params.getDouble("MaxTime"), times.c1Stop + 3.0)));

  // --- metrics ---
  const double bottleneckBps = static_cast<double>(ns3::DataRate(bottleneck).GetBitRate());
  const double fairPps = bottleneckBps / (8.0 * static_cast<double>(dataSize)) / 2.0;
  // the level reached: at least the last second, in whole ticks (a coarse clock sends in bursts)
  const double endWindow = tickMs / 1e3 * std::ceil(1e3 / tickMs);
  nlohmann::json flows = nlohmann::json::object();
  double shared[2] = {0, 0};
  uint64_t dataShared = 0;
  for (int i = 0; i < 2; ++i) {
    uint64_t sent = 0, data = 0, lost = 0;
    if (!rateApps.empty()) {
      app::ConstantRateConsumerCounters c = rateApps[i]->GetCounters();
      sent = c.interestsSent;
      data = c.data;
      lost = sent - data; // every Interest resolves: the consumer runs on after it stops sending
    }
    else {
      app::FetchStats s = windowApps[i]->GetStats();
      sent = s.interestsSent;
      data = s.segments;
      // an Interest whose segment was asked again got no Data in time; one still in flight when
      // the consumer stopped is neither answered nor lost
      lost = s.retransmissions;
      if (s.rttSamples > 0)
        rtts[i].min = toSeconds(s.rttMin);
    }
    shared[i] = series[i].rate(sharedFrom, sharedTo);
    for (size_t b = 0; b < series[i].sent.size(); ++b) {
      const double t = static_cast<double>(b) * Bin;
      if (t >= sharedFrom - 1e-9 && t < sharedTo - 1e-9)
        dataShared += series[i].dataAt(b);
    }
    nlohmann::json f = {
      {"interests_sent", sent},
      {"data_received", data},
      {"loss_rate", data + lost > 0 ? static_cast<double>(lost) / static_cast<double>(data + lost) : 0.0},
      {"rate_pps_shared", shared[i]},
      {"rate_pps_end", series[i].rate(sharedTo - endWindow, sharedTo)},
      {"rtt_ms_shared", rtts[i].sharedN > 0 ? nlohmann::json(1e3 * rtts[i].sharedMean()) : nlohmann::json(nullptr)},
      {"rtt_ms_min", std::isfinite(rtts[i].min) ? nlohmann::json(1e3 * rtts[i].min) : nlohmann::json(nullptr)},
    };
    if (i == 0)
      f["rate_pps_alone"] = series[0].rate(times.c1Start + 1.0, times.c2Start);
    flows[names[i]] = f;
  }
  const double sum = shared[0] + shared[1], squares = shared[0] * shared[0] + shared[1] * shared[1];

  // convergence: first bin after C2Start from which both rates, averaged over whole ticks (a
  // coarse clock sends in bursts; at least one 100 ms bin), stay within 10 % of the fair share
  nlohmann::json convergence = nullptr;
  const auto firstBin = static_cast<size_t>(std::llround(times.c2Start / Bin));
  const auto endBin = static_cast<size_t>(std::llround(times.c2Stop / Bin));
  // whole ticks that make whole bins (250 ms: 2 ticks = 5 bins), so each window holds as many ticks
  size_t perTick = 1;
  for (int k = 1; k <= 10; ++k) {
    const double bins = k * tickMs / 1e3 / Bin;
    if (std::abs(bins - std::round(bins)) < 1e-6) {
      perTick = std::max<size_t>(1, static_cast<size_t>(std::llround(bins)));
      break;
    }
  }
  auto tickRate = [&](int i, size_t k) { // Interests/s over the window that ends with bin k
    uint64_t n = 0;
    for (size_t j = k + 1 - std::min(perTick, k + 1); j <= k; ++j)
      n += series[i].at(j);
    return static_cast<double>(n) / (static_cast<double>(std::min(perTick, k + 1)) * Bin);
  };
  for (size_t b = firstBin; b < endBin; ++b) {
    bool holds = true;
    for (size_t k = b; k < endBin && holds; ++k) {
      for (int i = 0; i < 2; ++i)
        holds = holds && std::abs(tickRate(i, k) - fairPps) <= 0.1 * fairPps;
    }
    if (holds) {
      convergence = static_cast<double>(b) * Bin - times.c2Start;
      break;
    }
  }

  const size_t bins = std::max(series[0].sent.size(), series[1].sent.size());
  nlohmann::json m = {
    {"flows", flows},
    {"jain_index_shared", squares > 0 ? sum * sum / (2 * squares) : 0.0},
    {"bottleneck_utilisation",
     static_cast<double>(dataShared) * 8.0 * static_cast<double>(dataSize) / ((sharedTo - sharedFrom) * bottleneckBps)},
    {"convergence_s", convergence},
    {"fair_share_pps", fairPps},
    {"queueing_delay_ms_shared", queueingDelayMs(rtts)},
  };
  nlohmann::json perNode = nlohmann::json::object();
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    nlohmann::json j = nodeReport(nodes.Get(i), drops);
    ns3::Ptr<NdnStack> s = nodes.Get(i)->GetObject<NdnStack>();
    j["shaper_drops"] = s->GetForwarder().counters().nDropShaperFull;
    perNode[names[i]] = j;
  }
  m["nodes"] = perNode;
  ctx.metrics = m;

  if (ctx.hasOutDir()) {
    std::ofstream csv(ctx.outDir() / "mircc-series.csv");
    csv << "time_s,flow,interest_rate_pps,loss_rate\n";
    for (int i = 0; i < 2; ++i) {
      for (size_t b = 0; b < bins; ++b) {
        const uint64_t n = series[i].at(b);
        csv << static_cast<double>(b) * Bin << ',' << names[i] << ',' << static_cast<double>(n) / Bin << ',';
        if (n > 0)
          csv << static_cast<double>(series[i].lostAt(b)) / static_cast<double>(n);
        csv << '\n';
      }
    }
  }
}

/// The dumbbell as data (Scenario::network) for `ndnlab emu`: every daemon with MIRCC on its
/// faces (capacity = each link's rate), the routers' T = Tick; `ndnlab get --cc mircc` as the
/// consumers (the tools have no paper consumer: get retransmits what is lost), stopped at their
/// stop times; `ndnlab serve` with segments whose frames take 1,250 bytes on the emulated link.
nlohmann::json mirccNetwork(const Params& params)
{
  const Times times = parseTimes(params);
  const std::string cc = params.getString("Cc");
  if (cc == "mircc" && params.getString("RateConsumer") != "get")
    throw UsageError("the paper's rate consumer runs only in the simulator; ndnlab emu runs `ndnlab get --cc "
                     "mircc`: give --RateConsumer=get (the same consumer in both backends)");
  const size_t dataSize = fw::MirccOptions{}.dataSize;
  nlohmann::json links = nlohmann::json::array();
  const std::vector<DumbbellLink> spec = dumbbellLinks(params);
  for (size_t i = 0; i < spec.size(); ++i)
    links.push_back(
      networkLink(i, NodeNames[spec[i].a], NodeNames[spec[i].b], spec[i].rate, spec[i].delay, 0, spec[i].queue));
  const double starts[2] = {times.c1Start, times.c2Start};
  const double stops[2] = {times.c1Stop, times.c2Stop};
  nlohmann::json apps = nlohmann::json::array();
  for (int i = 0; i < 2; ++i) {
    const std::string n = std::to_string(i + 1);
    const std::string prefix = "/lab/p" + n;
    // serve versions by its clock (8-byte numbers); Ethernet 14 + IPv4 20 + UDP 8 + PPP 2
    const size_t segment = payloadFor(prefix, dataSize, uint64_t{1} << 60, 44);
    apps.push_back({{"role", "producer"},
                    {"tool", "serve"},
                    {"node", "P" + n},
                    {"prefix", prefix},
                    {"args", {"--size", std::to_string(segment), "--signing", "digest"}},
                    {"content_seed", i + 1},
                    {"file_size", contentBytes(params, times)},
                    {"start_s", 0.0}});
    std::vector<std::string> get = {"--cc", cc};
    if (cc == "mircc") {
      get.insert(get.end(),
                 {"--tick", formatNumber(params.getDouble("Tick")), "--initial-rate",
                  formatNumber(params.getDouble("InitialRate")), "--rate-data-size", std::to_string(dataSize)});
      if (params.getBool("Smoothening"))
        get.push_back("--smoothening");
      if (params.getBool("RampUp"))
        get.push_back("--rate-ramp");
    }
    apps.push_back({{"role", "consumer"},
                    {"tool", "get"},
                    {"node", "C" + n},
                    {"name", prefix},
                    {"args", get},
                    {"start_s", starts[i]},
                    {"stop_s", stops[i]}});
  }
  nlohmann::json net = {{"nodes", NodeNames},
                        {"links", links},
                        {"cs_size", 0},
                        {"strategy", "/localhost/nfd/strategy/best-route"},
                        {"routes", nlohmann::json::array({{{"prefix", "/lab/p1"}, {"origin", "P1"}},
                                                          {{"prefix", "/lab/p2"}, {"origin", "P2"}}})},
                        {"apps", apps},
                        {"metrics", "mircc-dumbbell"},
                        {"max_time_s", std::min(params.getDouble("MaxTime"), times.c1Stop + 30.0)}};
  if (cc == "mircc")
    net["mircc"] = {{"interval_ms", params.getDouble("Tick")},
                    {"data_size", dataSize},
                    {"shaper_depth", params.getInt("ShaperDepth")},
                    {"shaper_hold_ms", params.getBool("TickShapers") ? params.getDouble("Tick") : 0.0},
                    {"update_on_arrival", params.getBool("UpdateOnArrival")},
                    {"queue_stamping", params.getBool("QueueStamping")}};
  return net;
}

const runner::Registration reg{runner::Scenario{
  "mircc-dumbbell",
  "MIRCC on every node of the paper's dumbbell: two rate consumers share a 12 Mbps bottleneck (Kato et al.)",
  mirccParams(), runMirccDumbbell, checkMircc, mirccNetwork}};

} // namespace
} // namespace ndnlab::sim::scenarios
