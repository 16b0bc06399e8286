#include "ns3/dcib/scenarios/dci-experiment.hpp"

#include "ns3/dcib/helper/ack-interceptor.hpp"
#include "ns3/dcib/helper/dci-topology.hpp"
#include "ns3/dcib/helper/dcib-helper.hpp"
#include "ns3/dcib/helper/tcp-flows.hpp"
#include "ns3/dcib/model/web-search.hpp"

#include <ns3/boolean.h>
#include <ns3/double.h>
#include <ns3/random-variable-stream.h>
#include <ns3/red-queue-disc.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <iomanip>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>

namespace ndnlab::dcib::scenarios {

using runner::ParamSpec;
using runner::ParamType;
using runner::RunContext;
using runner::UsageError;

namespace {

std::string num(double v)
{
  std::ostringstream os;
  os << v;
  return os.str();
}

/// Ranges of the parameters. Times are bounded by runner::MaxTimeSeconds, rates by 1000 Gbps.
constexpr runner::Range RateGbps = runner::Range::positive(1000);
constexpr runner::Range Ms = runner::Range::nonNegative(runner::MaxTimeSeconds * 1e3);
constexpr runner::Range PositiveMs = runner::Range::positive(runner::MaxTimeSeconds * 1e3);
constexpr runner::Range Share = runner::Range::positive(1);
constexpr runner::Range Uint32 = runner::Range::nonNegative(std::numeric_limits<uint32_t>::max());

std::vector<ParamSpec> commonParams(const Defaults& d)
{
  return {
    {"Dcib", ParamType::Bool, "true", "", "DCIB at the edge routers (false: the same network without it)"},
    {"Tcp", ParamType::String, d.tcp, "", "host TCP congestion control", {"reno", "newreno", "cubic", "bbr"}},
    {"DciRate", ParamType::Double, "10", "Gbps", "C: DCI link capacity", {}, RateGbps},
    {"DciDelay", ParamType::Double, "3", "ms", "DCI one-way latency (paper: 3 ms, a 600 km link)", {}, PositiveMs},
    {"Rtt",
     ParamType::Double,
     num(d.rttMs),
     "ms",
     "end-to-end base RTT; > 0 overrides DciDelay (RTT/2 minus the host links)",
     {},
     Ms},
    {"HostRate", ParamType::Double, "10", "Gbps", "host link capacity", {}, RateGbps},
    {"HostDelay",
     ParamType::Double,
     "5",
     "us",
     "host link one-way latency (paper: 5 us)",
     {},
     runner::Range::nonNegative(runner::MaxTimeSeconds * 1e6)},
    {"Mtu",
     ParamType::Int,
     "9000",
     "B",
     "IP MTU of every link (jumbo frames keep runs short)",
     {},
     runner::Range::closed(576, 65000)},
    {"BufferBdp",
     ParamType::Double,
     "1",
     "BDP",
     "RED queue limit at the DCI egress, in bandwidth-delay products (at least 10 packets)",
     {},
     runner::Range::positive(1000)},
    {"RedMinTh", ParamType::Double, "0.2", "buffer", "RED MinTh as a share of the queue limit", {}, Share},
    {"RedMaxTh", ParamType::Double, "0.6", "buffer", "RED MaxTh as a share of the queue limit", {}, Share},
    {"RedQw", ParamType::Double, "0.002", "", "RED queue weight", {}, Share},
    {"SelectionRatio", ParamType::Double, "0.1", "", "r: share of packets DCIB sends Not-ECT and clones (paper: 0.1)"},
    {"Selection", ParamType::String, "even", "", "spread of the selected packets", {"even", "random"}},
    {"Mode",
     ParamType::String,
     d.mode,
     "",
     "stalled: ACK-driven recovery; lowprio: also idle-time copies (IV-C)",
     {"stalled", "lowprio"}},
    {"EdgeBuffer",
     ParamType::Double,
     num(d.edgeBufferMb),
     "MB",
     "B: clone buffer of the source edge router",
     {},
     runner::Range::nonNegative(1e6)},
    {"EnforceBound", ParamType::Bool, "true", "", "use min(r, B/(tau*C)) instead of r"},
    {"MarkAfterQueue", ParamType::Bool, "false", "",
     "A marks unselected packets ECT(0) after its own RED queue, which then drops non-ECN hosts' packets early as "
     "without DCIB (beyond the paper)"},
    {"AdaptiveRatio", ParamType::Bool, "false", "",
     "ratio min(r, B/(R*tau)) from the measured rate R, every tau (beyond the paper; r is then the upper limit)"},
    {"InterceptDupAcks", ParamType::Bool, "false", "",
     "A holds host duplicate ACKs for holes it is repairing (beyond the paper; needs Dcib)"},
    {"DupAckAllowance",
     ParamType::Int,
     "2",
     "ACKs",
     "duplicate ACKs per flow A lets through before holding",
     {},
     Uint32},
    {"DupAckHold",
     ParamType::Double,
     "0",
     "ms",
     "longest hold of a hole's duplicate ACKs; 0 = two inter-router round trips",
     {},
     Ms},
    {"DupAckSackGaps", ParamType::Bool, "true", "",
     "let duplicate ACKs through whose SACK blocks show a hole A cannot repair"},
    {"DupAckRepair", ParamType::Bool, "false", "",
     "A retransmits a stalled clone as soon as a host duplicate ACK shows its packet lost, not only on a later router "
     "ACK (beyond the paper; needs InterceptDupAcks)"},
    {"DupAckLocalDrops", ParamType::Bool, "false", "",
     "hold duplicate ACKs also for packets A's own RED queue dropped (false: hosts see A's congestion)"},
    {"WanLoss",
     ParamType::String,
     d.wanLoss,
     "",
     "artificial WAN loss on the DCI",
     {"none", "non-cooperative", "cooperative"}},
    {"LossRate", ParamType::Double, num(d.lossRate), "", "p: share of DCI traffic the WAN drops"},
    {"HostEcn", ParamType::Bool, "false", "", "hosts negotiate ECN (the paper does not change the hosts)"},
    {"MinRto", ParamType::Double, "200", "ms", "TCP minimum RTO (Linux-like)", {}, PositiveMs},
    {"SocketBuffer",
     ParamType::Double,
     "0",
     "MB",
     "TCP send and receive buffer per socket, at least one MTU; 0 = max(4 MB, 2 BDP)",
     {},
     runner::Range::nonNegative(4294)},
    {"DelAckTimeout",
     ParamType::Double,
     "40",
     "ms",
     "TCP delayed-ACK timeout (below MinRto: see calibration notes)",
     {},
     Ms},
    {"DupAckThreshold",
     ParamType::Int,
     "3",
     "packets",
     "TCP duplicate-ACK threshold (ns-3 ReTxThreshold); > 3 emulates a host that tolerates the edge recovery delay",
     {},
     runner::Range::closed(1, std::numeric_limits<uint32_t>::max())},
    {"SampleInterval",
     ParamType::Double,
     "10",
     "ms",
     "period of the throughput time series (at least 1 us)",
     {},
     runner::Range::closed(1e-3, runner::MaxTimeSeconds * 1e3)},
    {"Warmup",
     ParamType::Double,
     num(d.warmupS),
     "s",
     "measurement starts here",
     {},
     runner::Range::closed(0.1, runner::MaxTimeSeconds)},
  };
}

struct Net
{
  std::unique_ptr<DciTopology> topo;
  ns3::Ptr<EdgeQueueDisc> qdisc;
  ns3::Ptr<ns3::RedQueueDisc> red;
  ns3::Ptr<DciIngress> ingress;
  ns3::Ptr<AckInterceptor> interceptor; ///< null unless Dcib and InterceptDupAcks
  DcibEdges edges;
  double capacityBps = 0;
  double bdpBytes = 0;
  uint32_t bufferPackets = 0;
  uint32_t mtu = 0;
  SenderOptions senderOptions;
  bool dcib = false;
  uint64_t dciTxBytes = 0; ///< bytes A's DCI device finished sending
};

void countDciTx(Net* net, ns3::Ptr<const ns3::Packet> p)
{
  net->dciTxBytes += p->GetSize();
}

std::unique_ptr<Net> buildNet(RunContext& ctx, uint32_t hostPairs)
{
  using namespace ns3;
  const auto& p = ctx.params();
  auto net = std::make_unique<Net>();

  DciTopologyOptions o;
  o.hostPairs = hostPairs;
  o.dciRate = DataRate(static_cast<uint64_t>(p.getDouble("DciRate") * 1e9));
  o.hostRate = DataRate(static_cast<uint64_t>(p.getDouble("HostRate") * 1e9));
  o.hostDelay = NanoSeconds(static_cast<int64_t>(p.getDouble("HostDelay") * 1e3));
  o.dciDelay = NanoSeconds(static_cast<int64_t>(p.getDouble("DciDelay") * 1e6));
  if (p.getDouble("Rtt") > 0) {
    o.dciDelay = NanoSeconds(static_cast<int64_t>(p.getDouble("Rtt") * 1e6 / 2)) - 2 * o.hostDelay;
    if (o.dciDelay <= Time(0))
      throw UsageError("--Rtt is shorter than the host links");
  }
  o.mtu = static_cast<uint32_t>(p.getInt("Mtu"));
  net->mtu = o.mtu;
  if (o.dciRate.GetBitRate() == 0 || o.hostRate.GetBitRate() == 0)
    throw UsageError("--DciRate and --HostRate must be positive");

  // TCP of the hosts (calibration notes section 3.5)
  static const std::map<std::string, std::string> tcpTypes{
    {"reno", "ns3::TcpLinuxReno"}, {"newreno", "ns3::TcpNewReno"}, {"cubic", "ns3::TcpCubic"}, {"bbr", "ns3::TcpBbr"}};
  const auto& tcp = p.getString("Tcp");
  net->capacityBps = double(o.dciRate.GetBitRate());
  Time baseRtt = 2 * (2 * o.hostDelay + o.dciDelay);
  net->bdpBytes = net->capacityBps * baseRtt.GetSeconds() / 8;
  double sockBuf = std::max(double(4u << 20), 2 * net->bdpBytes);
  if (p.getDouble("SocketBuffer") > 0)
    sockBuf = p.getDouble("SocketBuffer") * 1e6;
  if (sockBuf < o.mtu)
    throw UsageError("--SocketBuffer=" + num(p.getDouble("SocketBuffer")) + ": less than one MTU (" +
                     std::to_string(o.mtu) + " B)");
  if (sockBuf > std::numeric_limits<uint32_t>::max())
    throw UsageError("the socket buffer of 2 BDP (" + num(sockBuf) +
                     " B) exceeds ns-3's 4 GB limit; set "
                     "--SocketBuffer or lower DciRate, DciDelay or Rtt");
  ctx.setDefault("ns3::TcpL4Protocol::SocketType", tcpTypes.at(tcp));
  ctx.setDefault("ns3::TcpSocket::SegmentSize", std::to_string(o.mtu - 52)); // IP + TCP + timestamps
  ctx.setDefault("ns3::TcpSocket::DelAckTimeout", num(p.getDouble("DelAckTimeout")) + "ms");
  ctx.setDefault("ns3::TcpSocketBase::MinRto", num(p.getDouble("MinRto")) + "ms");
  ctx.setDefault("ns3::TcpSocket::SndBufSize", std::to_string(static_cast<uint64_t>(sockBuf)));
  ctx.setDefault("ns3::TcpSocket::RcvBufSize", std::to_string(static_cast<uint64_t>(sockBuf)));
  ctx.setDefault("ns3::TcpSocketBase::UseEcn", p.getBool("HostEcn") ? "On" : "Off");
  ctx.setDefault("ns3::TcpSocketBase::ReTxThreshold", std::to_string(p.getInt("DupAckThreshold")));
  if (tcp == "bbr") {
    ctx.setDefault("ns3::TcpSocketState::EnablePacing", "true");
    ctx.setDefault("ns3::TcpSocketState::MaxPacingRate", "100Gbps"); // default 4 Gbps caps a flow
  }

  // the DCI egress of A: RED with ECN under Q_snd
  const double bufferPackets = std::round(p.getDouble("BufferBdp") * net->bdpBytes / o.mtu);
  if (bufferPackets > 1e9)
    throw UsageError("--BufferBdp=" + num(p.getDouble("BufferBdp")) + ": a RED queue of " + num(bufferPackets) +
                     " packets (more than 10^9)");
  net->bufferPackets = std::max<uint32_t>(10, static_cast<uint32_t>(bufferPackets));

  net->topo = std::make_unique<DciTopology>(o);

  double minTh = p.getDouble("RedMinTh") * net->bufferPackets;
  double maxTh = p.getDouble("RedMaxTh") * net->bufferPackets;
  if (!(minTh > 0 && minTh < maxTh && maxTh <= net->bufferPackets))
    throw UsageError("need 0 < RedMinTh < RedMaxTh <= 1");
  net->red = CreateObjectWithAttributes<RedQueueDisc>(
    "MaxSize", StringValue(std::to_string(net->bufferPackets) + "p"), "MinTh", DoubleValue(minTh), "MaxTh",
    DoubleValue(maxTh), "QW", DoubleValue(p.getDouble("RedQw")), "UseEcn", BooleanValue(true), "UseHardDrop",
    BooleanValue(false), "Gentle", BooleanValue(true), "LinkBandwidth", DataRateValue(o.dciRate), "LinkDelay",
    TimeValue(o.dciDelay), "MeanPktSize", UintegerValue(o.mtu));

  net->dcib = p.getBool("Dcib");
  SenderOptions so;
  so.selectionRatio = p.getDouble("SelectionRatio");
  so.selection = parseSelectionMode(p.getString("Selection"));
  so.buffer = parseBufferMode(p.getString("Mode"));
  so.bufferBytes = static_cast<uint64_t>(p.getDouble("EdgeBuffer") * 1e6);
  so.interRouterRtt = Duration(net->topo->interRouterRtt().GetNanoSeconds());
  so.linkRate = BitRate{o.dciRate.GetBitRate()};
  so.enforceBound = p.getBool("EnforceBound");
  so.adaptiveRatio = p.getBool("AdaptiveRatio");
  try {
    so.validate();
    // the cooperative WAN's drop probability p/s needs a fixed share s of Not-ECT packets
    if (so.adaptiveRatio && p.getString("WanLoss") == "cooperative")
      throw std::invalid_argument(
        "AdaptiveRatio needs WanLoss none or non-cooperative: the cooperative WAN drops p/r of "
        "the Not-ECT packets, which needs a fixed ratio r");
  }
  catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  net->senderOptions = so;
  net->qdisc = CreateObjectWithAttributes<EdgeQueueDisc>(
    "Enabled", BooleanValue(net->dcib), "SelectionRatio", DoubleValue(so.selectionRatio), "Selection",
    StringValue(toString(so.selection)), "BufferSize", UintegerValue(so.bufferBytes), "InterRouterRtt",
    TimeValue(net->topo->interRouterRtt()), "LinkRate", DataRateValue(o.dciRate), "EnforceBound",
    BooleanValue(so.enforceBound), "AdaptiveRatio", BooleanValue(so.adaptiveRatio), "MarkAfterQueue",
    BooleanValue(p.getBool("MarkAfterQueue")), "Mode", StringValue(toString(so.buffer)));
  net->qdisc->AssignStreams(1000);

  WanLossOptions wan;
  try {
    wan.mode = parseWanLossMode(p.getString("WanLoss"));
    wan.lossRate = p.getDouble("LossRate");
    // without DCIB every host packet is Not-ECT
    wan.notEctShare = net->dcib ? std::max(so.effectiveRatio(), 1e-9) : 1.0;
    wan.validate();
    // p > s: the WAN would drop every selected packet and still lose less than p, and in
    // stalled mode the clone buffer would fill with clones no router ACK ever clears, after
    // which nothing is selected and the WAN loses nothing at all
    if (net->dcib && wan.mode == WanLossMode::Cooperative && wan.lossRate > wan.notEctShare * (1 + 1e-9)) {
      std::ostringstream msg;
      msg << "--WanLoss=cooperative drops --LossRate=" << wan.lossRate
          << " of the traffic among the Not-ECT (selected) packets only, which are a share of " << so.effectiveRatio()
          << " here (min(SelectionRatio, bound EdgeBuffer/(tau C) = " << so.boundRatio()
          << ")): raise --EdgeBuffer or --SelectionRatio, lower --LossRate, "
          << "set --EnforceBound=false, or use --WanLoss=non-cooperative";
      throw std::invalid_argument(msg.str());
    }
  }
  catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  net->ingress = CreateObject<DciIngress>();
  net->ingress->SetWanLoss(wan);
  net->ingress->AssignStreams(1001);

  net->edges = installDcib(net->topo->dci.Get(0), net->topo->aDciAddress, net->topo->dci.Get(1), net->qdisc, net->red,
                           net->ingress);
  if (p.getBool("DupAckRepair") && !(net->dcib && p.getBool("InterceptDupAcks")))
    throw UsageError("--DupAckRepair needs --Dcib=true and --InterceptDupAcks=true (the duplicate "
                     "ACKs are read by the interceptor at A)");
  if (net->dcib && p.getBool("InterceptDupAcks")) {
    net->interceptor = CreateObjectWithAttributes<AckInterceptor>(
      "Allowance", UintegerValue(static_cast<uint32_t>(p.getInt("DupAckAllowance"))), "HoldTimeout",
      TimeValue(NanoSeconds(static_cast<int64_t>(p.getDouble("DupAckHold") * 1e6))), "CheckSackGaps",
      BooleanValue(p.getBool("DupAckSackGaps")), "HoldLocalDrops", BooleanValue(p.getBool("DupAckLocalDrops")),
      "RepairOnDupAck", BooleanValue(p.getBool("DupAckRepair")));
    net->interceptor->Install(net->qdisc, DynamicCast<PointToPointNetDevice>(net->topo->dci.Get(0)));
  }
  net->topo->dci.Get(0)->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&countDciTx, net.get()));
  return net;
}

double percentile(std::vector<double> v, double q)
{
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  double pos = q * double(v.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - double(lo)) * (v[hi] - v[lo]);
}

double mean(const std::vector<double>& v)
{
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

/// Periodic sampler: DCI throughput time series (throughput.csv, when traces are on) and the
/// samples after `warmup` (for the throughput CDF). Takes its first sample one SampleInterval
/// after construction; `done`, when set, stops the simulation at the first sample it is true.
struct Sampler
{
  Sampler(RunContext& ctx, Net& net, TcpFlows& flows, ns3::Time warmup)
    : net(&net),
      flows(&flows),
      interval(ns3::MilliSeconds(1) * ctx.params().getDouble("SampleInterval")),
      warmup(warmup),
      out(ctx.openTrace("throughput.csv"))
  {
    if (out)
      *out << "time_s,goodput_gbps,dci_gbps,stalled_bytes,red_queue_packets\n";
    ns3::Simulator::Schedule(interval, &Sampler::tick, this);
  }
  Sampler(const Sampler&) = delete; // the scheduled tick holds `this`
  Sampler& operator=(const Sampler&) = delete;

  Net* net;
  TcpFlows* flows;
  ns3::Time interval;
  ns3::Time warmup;
  std::unique_ptr<std::ofstream> out;
  uint64_t lastRx = 0;
  uint64_t lastTx = 0;
  std::vector<double> goodputSamples; ///< Gbps, inside the window
  std::vector<double> dciSamples;
  std::function<bool()> done; ///< stop the simulation early when true
  /// when set: each flow's congestion window at every sample (long flows: one column a flow)
  std::unique_ptr<std::ofstream> cwndOut;

  void tick()
  {
    double dt = interval.GetSeconds();
    uint64_t rx = flows->totalRxBytes();
    uint64_t tx = net->dciTxBytes;
    double g = double(rx - lastRx) * 8 / dt / 1e9;
    double d = double(tx - lastTx) * 8 / dt / 1e9;
    lastRx = rx;
    lastTx = tx;
    auto now = ns3::Simulator::Now();
    if (now > warmup) {
      goodputSamples.push_back(g);
      dciSamples.push_back(d);
    }
    if (out)
      *out << std::fixed << std::setprecision(4) << now.GetSeconds() << "," << g << "," << d << ","
           << net->qdisc->GetStalledBytes() << "," << net->red->GetNPackets() << "\n";
    if (cwndOut) {
      *cwndOut << std::fixed << std::setprecision(4) << now.GetSeconds();
      for (const auto& f : flows->stats())
        *cwndOut << "," << f.cwndBytes;
      *cwndOut << "\n";
    }
    if (done && done()) {
      ns3::Simulator::Stop();
      return;
    }
    ns3::Simulator::Schedule(interval, &Sampler::tick, this);
  }
};

void edgeMetrics(RunContext& ctx, Net& net)
{
  auto& m = ctx.metrics;
  const auto& so = net.senderOptions;
  m["dcib_bound_ratio"] = so.boundRatio();
  m["dcib_effective_ratio"] = net.dcib ? so.effectiveRatio() : 0.0;
  const auto& c = net.qdisc->GetCounters();
  m["edge_selections"] = c.selections;
  // the share of eligible packets actually selected (differs from the ratio with AdaptiveRatio
  // and when the buffer is full)
  m["edge_selected_share"] = c.eligible ? double(c.selections) / double(c.eligible) : 0.0;
  if (so.adaptiveRatio) {
    m["dcib_ratio_updates"] = c.ratioUpdates;
    m["dcib_ratio_min"] = c.ratioUpdates ? c.ratioMin : so.selectionRatio;
    m["dcib_ratio_max"] = c.ratioUpdates ? c.ratioMax : so.selectionRatio;
  }
  m["edge_skipped_full"] = c.skippedFull;
  m["edge_acks"] = c.acks;
  m["edge_acks_unmatched"] = c.acksUnmatched;
  m["edge_retransmissions"] = c.edgeRetransmissions;
  m["edge_acked_discards"] = c.ackedDiscards;
  m["edge_idle_copies"] = c.idleCopies;
  m["edge_stalled_peak_bytes"] = c.peakBytes;
  m["edge_stalled_peak_packets"] = c.peakPackets;
  m["edge_stalled_mean_bytes"] = net.qdisc->GetMeanStalledBytes();
  m["edge_ack_delay_mean_ms"] =
    c.ackedDiscards ? std::chrono::duration<double, std::milli>(c.ackDelaySum).count() / double(c.ackedDiscards) : 0.0;
  m["edge_ack_delay_max_ms"] = std::chrono::duration<double, std::milli>(c.ackDelayMax).count();
  if (const auto* r = net.ingress->GetEdgeReceiver()) {
    m["rcv_selected"] = r->counters().selected;
    m["rcv_copies"] = r->counters().copies;
    m["rcv_duplicates_suppressed"] = r->counters().duplicatesSuppressed;
  }
  m["router_acks_sent"] = net.ingress->GetAcksSent();
  if (net.interceptor) {
    const auto& x = net.interceptor->GetCounters();
    m["dupack_hold_ms"] = std::chrono::duration<double, std::milli>(net.interceptor->GetOptions().holdTimeout).count();
    m["edge_host_acks"] = x.acks;
    m["edge_dupacks"] = x.duplicates;
    m["edge_dupacks_allowed"] = x.forwardedAllowed;
    m["edge_dupacks_not_repairable"] = x.forwardedNotRepairable;
    m["edge_dupacks_after_release"] = x.forwardedReleasedHole;
    m["edge_dupacks_sack_gap"] = x.forwardedSackGap;
    m["edge_dupacks_local_drop"] = x.forwardedLocalDrop;
    m["edge_dupacks_flushed"] = x.flushed;
    m["edge_dupack_holes_flushed"] = x.holesFlushed;
    m["edge_dupacks_held"] = x.held;
    m["edge_dupacks_released"] = x.released;
    m["edge_dupacks_absorbed"] = x.absorbed;
    m["edge_dupacks_overflow"] = x.overflow;
    m["edge_dupack_holes"] = x.holes;
    m["edge_dupack_holes_filled"] = x.holesFilled;
    m["edge_dupack_holes_expired"] = x.holesExpired;
    if (net.interceptor->GetOptions().repairOnDupAck) {
      m["edge_dupack_repair_requests"] = x.repairRequests;
      m["edge_dupack_repairs"] = c.dupAckRetransmissions;
      m["edge_dupack_repairs_too_young"] = c.dupAckTooYoung;
    }
  }

  const auto& w = net.ingress->GetWanLoss().counters();
  m["wan_packets"] = w.packets;
  m["wan_drops_not_ect"] = w.dropsNotEct;
  m["wan_drops_ect"] = w.dropsEct;
  m["wan_loss_measured"] = w.packets ? double(w.dropsNotEct + w.dropsEct) / double(w.packets) : 0.0;
  m["wan_not_ect_drop_probability"] = net.ingress->GetWanLoss().dropProbability(Ecn::NotEct);

  const auto& s = net.red->GetStats();
  m["red_unforced_drops"] = s.GetNDroppedPackets(ns3::RedQueueDisc::UNFORCED_DROP);
  m["red_forced_drops"] = s.GetNDroppedPackets(ns3::RedQueueDisc::FORCED_DROP);
  m["red_overflow_drops"] = s.GetNDroppedPackets(ns3::QueueDisc::INTERNAL_QUEUE_DROP);
  m["red_unforced_marks"] = s.GetNMarkedPackets(ns3::RedQueueDisc::UNFORCED_MARK);
  m["red_forced_marks"] = s.GetNMarkedPackets(ns3::RedQueueDisc::FORCED_MARK);
  m["red_queue_limit_packets"] = net.bufferPackets;
  m["bdp_bytes"] = net.bdpBytes;
  m["base_rtt_ms"] = net.topo->baseRtt().GetSeconds() * 1e3;
  m["inter_router_rtt_ms"] = net.topo->interRouterRtt().GetSeconds() * 1e3;
}

void hostMetrics(RunContext& ctx, const TcpFlows& flows)
{
  uint64_t seg = 0, rtx = 0, rto = 0, rec = 0;
  for (const auto& f : flows.stats()) {
    seg += f.dataSegments;
    rtx += f.retransmissions;
    rto += f.rtoEpisodes;
    rec += f.recoveries;
  }
  auto& m = ctx.metrics;
  m["host_data_segments"] = seg;
  m["host_retransmissions"] = rtx;
  m["host_retransmission_ratio"] = seg ? double(rtx) / double(seg) : 0.0;
  m["host_rto_episodes"] = rto;
  m["host_recoveries"] = rec;
}

} // namespace

std::vector<ParamSpec> longFlowParams(const Defaults& d)
{
  auto v = commonParams(d);
  v.insert(v.begin() + 2, ParamSpec{"Flows",
                                    ParamType::Int,
                                    "15",
                                    "",
                                    "long-lived flows, one sender/receiver host pair each (paper: 15)",
                                    {},
                                    runner::Range::closed(1, 1000)});
  v.push_back({"Duration",
               ParamType::Double,
               num(d.durationS),
               "s",
               "simulated time (more than Warmup)",
               {},
               runner::Range::positive(runner::MaxTimeSeconds)});
  v.push_back(
    {"StartSpread", ParamType::Double, "10", "ms", "flows start uniformly in [100 ms, 100 ms + this]", {}, Ms});
  return v;
}

std::vector<ParamSpec> webSearchParams(const Defaults& d)
{
  auto v = commonParams(d);
  v.insert(
    v.begin() + 2,
    ParamSpec{
      "FlowCount", ParamType::Int, "1000", "", "web-search flows (paper: 1000)", {}, runner::Range::closed(1, 50000)});
  v.insert(v.begin() + 3, ParamSpec{"Hosts",
                                    ParamType::Int,
                                    "15",
                                    "",
                                    "hosts on each side; each flow picks a random sender and receiver",
                                    {},
                                    runner::Range::closed(1, 1000)});
  v.insert(v.begin() + 4, ParamSpec{"Load",
                                    ParamType::Double,
                                    "0.8",
                                    "",
                                    "offered load on the DCI (Poisson arrivals; paper: 0.8)",
                                    {},
                                    runner::Range{0, 1.5, true, false}});
  v.push_back({"MaxDuration",
               ParamType::Double,
               num(d.durationS),
               "s",
               "simulated-time limit; the run ends earlier once every flow completed",
               {},
               runner::Range::positive(runner::MaxTimeSeconds)});
  return v;
}

void runLongFlows(RunContext& ctx)
{
  using namespace ns3;
  const auto& p = ctx.params();
  int64_t n = p.getInt("Flows");
  double duration = p.getDouble("Duration");
  double warmup = p.getDouble("Warmup");
  if (!(duration > warmup))
    throw UsageError("need Duration > Warmup (" + num(duration) + " s, " + num(warmup) + " s)");
  auto net = buildNet(ctx, static_cast<uint32_t>(n));

  auto rv = CreateObject<UniformRandomVariable>();
  rv->SetStream(1002);
  std::vector<FlowSpec> specs;
  double spread = p.getDouble("StartSpread") * 1e-3;
  for (uint32_t i = 0; i < n; ++i)
    specs.push_back(FlowSpec{i, i, 0, Seconds(0.1 + rv->GetValue(0, spread))});
  TcpFlows flows(*net->topo, specs);
  flows.stopAt(Seconds(duration));

  // per-flow bytes at the start of the measurement window
  std::vector<uint64_t> rxAtWarmup(n, 0);
  uint64_t txAtWarmup = 0;
  Simulator::Schedule(Seconds(warmup), [&] {
    for (int64_t i = 0; i < n; ++i)
      rxAtWarmup[i] = flows.stats()[i].rxBytes;
    txAtWarmup = net->dciTxBytes;
  });

  Sampler sampler(ctx, *net, flows, Seconds(warmup));
  sampler.cwndOut = ctx.openTrace("cwnd.csv");
  if (sampler.cwndOut) {
    *sampler.cwndOut << "time_s";
    for (int64_t i = 0; i < n; ++i)
      *sampler.cwndOut << ",cwnd_" << i << "_bytes";
    *sampler.cwndOut << "\n";
  }

  ctx.runSimulation(Seconds(duration));

  double window = duration - warmup;
  std::vector<double> perFlow;
  uint64_t windowBytes = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t b = flows.stats()[i].rxBytes - rxAtWarmup[i];
    windowBytes += b;
    perFlow.push_back(double(b) * 8 / window / 1e9);
  }
  auto& m = ctx.metrics;
  m["goodput_gbps"] = double(windowBytes) * 8 / window / 1e9;
  m["dci_throughput_gbps"] = double(net->dciTxBytes - txAtWarmup) * 8 / window / 1e9;
  m["dci_utilization"] = double(net->dciTxBytes - txAtWarmup) * 8 / window / net->capacityBps;
  m["goodput_utilization"] = double(windowBytes) * 8 / window / net->capacityBps;
  m["per_flow_goodput_gbps"] = perFlow;
  m["jain_index"] = jainIndex(perFlow);
  std::vector<double> peakCwnd;
  for (const auto& f : flows.stats())
    peakCwnd.push_back(f.peakCwndBytes);
  m["per_flow_peak_cwnd_bytes"] = peakCwnd;
  m["throughput_p50_gbps"] = percentile(sampler.goodputSamples, 0.5);
  m["throughput_p99_gbps"] = percentile(sampler.goodputSamples, 0.99);
  m["throughput_p1_gbps"] = percentile(sampler.goodputSamples, 0.01);
  m["throughput_mean_gbps"] = mean(sampler.goodputSamples);
  m["window_s"] = window;
  hostMetrics(ctx, flows);
  edgeMetrics(ctx, *net);

  if (auto f = ctx.openTrace("flows.csv")) {
    *f << "flow,goodput_gbps,rx_bytes,data_segments,retransmissions,rto_episodes,recoveries\n";
    for (int64_t i = 0; i < n; ++i) {
      const auto& s = flows.stats()[i];
      *f << i << "," << perFlow[i] << "," << s.rxBytes << "," << s.dataSegments << "," << s.retransmissions << ","
         << s.rtoEpisodes << "," << s.recoveries << "\n";
    }
  }
}

void runWebSearch(RunContext& ctx)
{
  using namespace ns3;
  const auto& p = ctx.params();
  int64_t count = p.getInt("FlowCount");
  int64_t hosts = p.getInt("Hosts");
  double load = p.getDouble("Load");
  double maxDuration = p.getDouble("MaxDuration");
  auto net = buildNet(ctx, static_cast<uint32_t>(hosts));

  double lambda = WebSearchWorkload::arrivalRate(load, net->capacityBps);
  auto gap = CreateObject<ExponentialRandomVariable>();
  gap->SetAttribute("Mean", DoubleValue(1.0 / lambda));
  gap->SetStream(1003);
  auto size = CreateObject<UniformRandomVariable>();
  size->SetStream(1004);
  auto host = CreateObject<UniformRandomVariable>();
  host->SetStream(1005);
  std::vector<FlowSpec> specs;
  double t = 0.1;
  for (int64_t i = 0; i < count; ++i) {
    t += gap->GetValue();
    auto s = static_cast<uint32_t>(host->GetInteger(0, hosts - 1));
    auto r = static_cast<uint32_t>(host->GetInteger(0, hosts - 1));
    specs.push_back(FlowSpec{s, r, WebSearchWorkload::sample(size->GetValue()), Seconds(t)});
  }
  double lastArrival = t;
  TcpFlows flows(*net->topo, specs);

  Sampler sampler(ctx, *net, flows, Seconds(0));
  sampler.done = [&] {
    return std::all_of(flows.stats().begin(), flows.stats().end(), [](const FlowStats& f) { return f.completed; });
  };

  ctx.runSimulation(Seconds(maxDuration));

  std::vector<double> fct, small, large;
  uint64_t incomplete = 0;
  for (const auto& f : flows.stats()) {
    if (!f.completed) {
      ++incomplete;
      continue;
    }
    double ms = f.completionTime.GetSeconds() * 1e3;
    fct.push_back(ms);
    if (f.spec.bytes < 100'000)
      small.push_back(ms);
    else if (f.spec.bytes > 10'000'000)
      large.push_back(ms);
  }
  auto& m = ctx.metrics;
  m["flows"] = count;
  m["flows_completed"] = fct.size();
  m["flows_incomplete"] = incomplete;
  m["arrival_rate_per_s"] = lambda;
  m["last_arrival_s"] = lastArrival;
  m["mean_flow_bytes"] = WebSearchWorkload::meanBytes();
  m["fct_mean_ms"] = mean(fct);
  m["fct_p50_ms"] = percentile(fct, 0.5);
  m["fct_p99_ms"] = percentile(fct, 0.99);
  m["fct_max_ms"] = fct.empty() ? 0.0 : *std::max_element(fct.begin(), fct.end());
  m["fct_small_mean_ms"] = mean(small);
  m["fct_small_p99_ms"] = percentile(small, 0.99);
  m["fct_large_mean_ms"] = mean(large);
  m["goodput_mean_gbps"] = mean(sampler.goodputSamples);
  m["dci_utilization_mean"] = mean(sampler.dciSamples) * 1e9 / net->capacityBps;
  hostMetrics(ctx, flows);
  edgeMetrics(ctx, *net);

  if (auto f = ctx.openTrace("fct.csv")) {
    *f << "flow,sender,receiver,bytes,start_s,completed,fct_ms,retransmissions,rto_episodes\n";
    for (size_t i = 0; i < flows.stats().size(); ++i) {
      const auto& s = flows.stats()[i];
      *f << i << "," << s.spec.sender << "," << s.spec.receiver << "," << s.spec.bytes << ","
         << s.spec.start.GetSeconds() << "," << (s.completed ? 1 : 0) << ","
         << (s.completed ? s.completionTime.GetSeconds() * 1e3 : -1.0) << "," << s.retransmissions << ","
         << s.rtoEpisodes << "\n";
    }
  }
}

} // namespace ndnlab::dcib::scenarios
