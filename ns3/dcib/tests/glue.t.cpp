// ns-3 glue of DCIB: RED with ECN on selected/unselected packets, the router ACK header, and a
// small simulation where the edge router recovers a lost packet before the host reacts.

#include "ns3/dcib/helper/dci-topology.hpp"
#include "ns3/dcib/helper/dcib-helper.hpp"
#include "ns3/dcib/helper/packet-key.hpp"
#include "ns3/dcib/helper/router-ack-header.hpp"
#include "ns3/dcib/helper/tcp-flows.hpp"
#include "ns3/dcib/tests/sim-fixture.hpp"

#include <ns3/config.h>
#include <ns3/double.h>
#include <ns3/fifo-queue-disc.h>
#include <ns3/inet-socket-address.h>
#include <ns3/ipv4-queue-disc-item.h>
#include <ns3/on-off-helper.h>
#include <ns3/ppp-header.h>
#include <ns3/red-queue-disc.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/tcp-header.h>
#include <ns3/uinteger.h>
#include <ns3/boolean.h>

#include <gtest/gtest.h>

namespace ndnlab::dcib::test {
namespace {

using namespace ns3;

using GlueTest = SimTest;

/// An IPv4 item carrying a TCP segment of `payload` bytes (as a queue disc sees it).
Ptr<Ipv4QueueDiscItem> tcpItem(uint32_t n, Ipv4Header::EcnType ecn, uint32_t payload = 1448)
{
  auto p = Create<Packet>(payload);
  TcpHeader tcp;
  tcp.SetSourcePort(49153);
  tcp.SetDestinationPort(5000);
  tcp.SetSequenceNumber(SequenceNumber32(1 + n * payload));
  tcp.SetFlags(TcpHeader::ACK);
  p->AddHeader(tcp);
  Ipv4Header ip;
  ip.SetSource(Ipv4Address("10.0.0.1"));
  ip.SetDestination(Ipv4Address("10.0.1.1"));
  ip.SetProtocol(6);
  ip.SetIdentification(static_cast<uint16_t>(n));
  ip.SetPayloadSize(p->GetSize());
  ip.SetEcn(ecn);
  return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);
}

Ptr<RedQueueDisc> congestedRed()
{
  // thresholds far below the backlog the tests build, QW = 1: the average is the queue length
  return CreateObjectWithAttributes<RedQueueDisc>(
    "MaxSize", StringValue("10000p"), "MinTh", DoubleValue(10), "MaxTh", DoubleValue(30), "QW", DoubleValue(1.0),
    "UseEcn", BooleanValue(true), "UseHardDrop", BooleanValue(false), "Gentle", BooleanValue(true), "LinkBandwidth",
    StringValue("1Gbps"), "LinkDelay", StringValue("1ms"), "MeanPktSize", UintegerValue(1500));
}

struct EcnTally
{
  uint32_t droppedNotEct = 0, droppedEct = 0, markedEct = 0, markedOther = 0;
};

void onDrop(EcnTally* t, Ptr<const QueueDiscItem> item, const char*)
{
  auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
  (ip->GetHeader().GetEcn() == Ipv4Header::ECN_NotECT ? t->droppedNotEct : t->droppedEct)++;
}

void onMark(EcnTally* t, Ptr<const QueueDiscItem> item, const char*)
{
  auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
  // a marked packet is CE now; it was ECT before
  (ip->GetHeader().GetEcn() == Ipv4Header::ECN_CE ? t->markedEct : t->markedOther)++;
}

TEST_F(GlueTest, RedWithEcnDropsNotEctAndMarksEct)
{
  auto red = congestedRed();
  red->Initialize();
  EcnTally t;
  red->TraceConnectWithoutContext("DropBeforeEnqueue", MakeBoundCallback(&onDrop, &t));
  red->TraceConnectWithoutContext("Mark", MakeBoundCallback(&onMark, &t));
  for (uint32_t i = 0; i < 2000; ++i)
    red->Enqueue(tcpItem(i, i % 10 == 0 ? Ipv4Header::ECN_NotECT : Ipv4Header::ECN_ECT0));
  EXPECT_GT(t.droppedNotEct, 150u); // past 2*MaxTh every Not-ECT packet is dropped
  EXPECT_EQ(t.droppedEct, 0u);
  EXPECT_GT(t.markedEct, 1500u);
  EXPECT_EQ(t.markedOther, 0u);
}

/// An edge queue disc (r = 0.1, a buffer for every clone) over a congested RED queue, its drops
/// and marks counted in `t`, after 2000 packets of hosts without ECN (every one Not-ECT).
Ptr<EdgeQueueDisc> edgeOverRedAfterBacklog(EcnTally& t, bool markAfterQueue)
{
  auto q = CreateObjectWithAttributes<EdgeQueueDisc>("SelectionRatio", DoubleValue(0.1), "BufferSize",
                                                     UintegerValue(100'000'000), "MarkAfterQueue",
                                                     BooleanValue(markAfterQueue));
  q->SetMainQueueDisc(congestedRed());
  q->Initialize();
  q->TraceConnectWithoutContext("DropBeforeEnqueue", MakeBoundCallback(&onDrop, &t));
  q->TraceConnectWithoutContext("Mark", MakeBoundCallback(&onMark, &t));
  for (uint32_t i = 0; i < 2000; ++i)
    q->Enqueue(tcpItem(i, Ipv4Header::ECN_NotECT));
  return q;
}

TEST_F(GlueTest, EdgeQueueDiscSelectsThenRedDropsOnlySelectedPackets)
{
  EcnTally t;
  auto q = edgeOverRedAfterBacklog(t, false);
  const auto& c = q->GetCounters();
  EXPECT_EQ(c.selections, 200u);
  EXPECT_EQ(q->GetStalledPackets(), 200u); // every selected packet has its clone
  EXPECT_GT(t.droppedNotEct, 150u);
  EXPECT_LE(t.droppedNotEct, 200u); // only selected packets are dropped
  EXPECT_EQ(t.droppedEct, 0u);
  EXPECT_GT(t.markedEct, 1500u);
}

TEST_F(GlueTest, MarkAfterQueueLetsTheOwnRedDropAsWithoutDcib)
{
  EcnTally t;
  auto q = edgeOverRedAfterBacklog(t, true);
  // the RED queue saw every packet Not-ECT: it drops selected and unselected ones alike and
  // marks none
  EXPECT_EQ(q->GetCounters().selections, 200u);
  EXPECT_GT(t.droppedNotEct, 1500u);
  EXPECT_EQ(t.markedEct + t.markedOther, 0u);
  // what leaves: the selected packets Not-ECT (their clones are stored), the others ECT(0)
  uint32_t notEct = 0, ect0 = 0, other = 0;
  while (auto item = q->Dequeue()) {
    auto ip = DynamicCast<Ipv4QueueDiscItem>(item);
    auto ecn = ip->GetHeader().GetEcn();
    (ecn == Ipv4Header::ECN_NotECT ? notEct : ecn == Ipv4Header::ECN_ECT0 ? ect0 : other)++;
    if (ecn == Ipv4Header::ECN_NotECT) {
      EXPECT_TRUE(q->IsStored(makeKey(ip->GetHeader(), ip->GetPacket())));
    }
  }
  EXPECT_EQ(notEct + ect0, 2000u - t.droppedNotEct);
  EXPECT_GT(notEct, 0u);
  EXPECT_GT(ect0, notEct);
  EXPECT_EQ(other, 0u);
}

TEST_F(GlueTest, RouterAckHeaderRoundTrip)
{
  PacketKey k;
  k.src = 0x0a000001;
  k.dst = 0x0a010203;
  k.seq = 0xdeadbeef;
  k.ipId = 4242;
  k.srcPort = 49153;
  k.dstPort = 5000;
  k.protocol = 6;
  auto p = Create<Packet>();
  p->AddHeader(RouterAckHeader(k));
  EXPECT_EQ(p->GetSize(), RouterAckHeader::Size);
  RouterAckHeader h;
  p->RemoveHeader(h);
  EXPECT_EQ(h.key(), k);
}

TEST_F(GlueTest, KeyIsTheSameAtBothEdges)
{
  auto item = tcpItem(7, Ipv4Header::ECN_NotECT);
  PacketKey atA = makeKey(item->GetHeader(), item->GetPacket());
  // what B's device receives: PPP + IPv4 + TCP
  auto frame = item->GetPacket()->Copy();
  frame->AddHeader(item->GetHeader());
  PppHeader ppp;
  ppp.SetProtocol(0x0021);
  frame->AddHeader(ppp);
  Ptr<Packet> rest;
  auto ip = parsePppIpv4(frame, rest);
  ASSERT_TRUE(ip.has_value());
  EXPECT_EQ(makeKey(*ip, rest), atA);
  EXPECT_EQ(atA.seq, 1u + 7 * 1448);
  EXPECT_EQ(atA.ipId, 7);
}

struct TailLossRun
{
  bool completed = false;
  Time fct;
  uint64_t hostRetransmissions = 0;
  uint64_t rtoEpisodes = 0;
  uint64_t edgeRetransmissions = 0;
  bool droppedWasSelected = false;
  bool edgeRetransmittedDropped = false;
};

/// Two hosts per side, 1 Gbps, 1 ms DCI. Flow 0: 100 segments of TCP; its last segment is
/// lost in the WAN (a tail loss: no later segment, so no duplicate ACKs). Sender 1 keeps UDP
/// traffic crossing the DCI, whose selected packets make B acknowledge, so A learns of the gap.
TailLossRun runTailLoss(bool dcib)
{
  setSmallTcpDefaults();

  DciTopology topo(smallDci(2));

  auto qdisc = CreateObjectWithAttributes<EdgeQueueDisc>("Enabled", BooleanValue(dcib), "SelectionRatio",
                                                         DoubleValue(1.0), "EnforceBound", BooleanValue(false),
                                                         "BufferSize", UintegerValue(10'000'000));
  auto fifo = CreateObjectWithAttributes<FifoQueueDisc>("MaxSize", StringValue("10000p"));
  auto ingress = CreateObject<DciIngress>();
  const uint32_t bytes = 100 * 1448;
  auto drop = Create<DropOneSegment>(10000, 1 + bytes);
  ingress->SetExtraLoss(drop);
  auto edges = installDcib(topo.dci.Get(0), topo.aDciAddress, topo.dci.Get(1), qdisc, fifo, ingress);
  std::vector<PacketKey> retransmitted;
  qdisc->TraceConnectWithoutContext("EdgeRetransmit", MakeBoundCallback(&recordKey, &retransmitted));

  TcpFlows flows(topo, {FlowSpec{0, 0, bytes, MilliSeconds(100)}});

  OnOffHelper udp("ns3::UdpSocketFactory", InetSocketAddress(topo.receiverAddresses[1], 9));
  udp.SetConstantRate(DataRate("100Mbps"), 1000);
  auto bg = udp.Install(topo.senders.Get(1));
  bg.Start(MilliSeconds(50));
  bg.Stop(Seconds(1));

  Simulator::Stop(Seconds(1.5));
  Simulator::Run();

  TailLossRun r;
  const auto& f = flows.stats().at(0);
  r.completed = f.completed;
  r.fct = f.completionTime;
  r.hostRetransmissions = f.retransmissions;
  r.rtoEpisodes = f.rtoEpisodes;
  r.edgeRetransmissions = qdisc->GetCounters().edgeRetransmissions;
  EXPECT_TRUE(drop->dropped);
  for (const auto& k : retransmitted)
    r.edgeRetransmittedDropped |= (k == drop->key);
  Simulator::Destroy();
  return r;
}

TEST_F(GlueTest, EdgeRouterRecoversATailLossWithoutHostRetransmission)
{
  auto with = runTailLoss(true);
  EXPECT_TRUE(with.completed);
  EXPECT_TRUE(with.edgeRetransmittedDropped);
  EXPECT_GE(with.edgeRetransmissions, 1u);
  EXPECT_EQ(with.hostRetransmissions, 0u);
  EXPECT_EQ(with.rtoEpisodes, 0u);

  reset();
  // the same loss without DCIB: the host needs its retransmission timeout
  auto without = runTailLoss(false);
  EXPECT_TRUE(without.completed);
  EXPECT_EQ(without.edgeRetransmissions, 0u);
  EXPECT_GE(without.hostRetransmissions, 1u);
  EXPECT_GE(without.rtoEpisodes, 1u);
  EXPECT_GT(without.fct, with.fct + MilliSeconds(150));
}

// TcpFlows follows each sender's congestion window: slow start grows it past the initial
// window while the flow sends its 100 segments, and the peak is never below the current value.
TEST_F(GlueTest, FlowsFollowTheSendersCongestionWindow)
{
  setSmallTcpDefaults();
  DciTopology topo(smallDci(1));
  TcpFlows flows(topo, {FlowSpec{0, 0, 100 * 1448, MilliSeconds(10)}});
  EXPECT_EQ(flows.stats().at(0).cwndBytes, 0u);
  Simulator::Stop(Seconds(0.2));
  Simulator::Run();
  const auto& f = flows.stats().at(0);
  ASSERT_TRUE(f.completed);
  EXPECT_GT(f.peakCwndBytes, 10u * 1448); // ns-3's initial window: 10 segments
  EXPECT_GE(f.peakCwndBytes, f.cwndBytes);
  EXPECT_GT(f.cwndBytes, 0u);
  Simulator::Destroy();
}

// Nothing of DCIB keeps the source edge router's queue disc alive once the simulation is
// destroyed: its egress device's PhyTxEnd trace used to hold it, and it holds the device.
TEST_F(GlueTest, TheEdgeQueueDiscIsFreedWithTheSimulation)
{
  setSmallTcpDefaults();
  Ptr<EdgeQueueDisc> qdisc = CreateObject<EdgeQueueDisc>();
  {
    DciTopology topo(smallDci(1));
    auto fifo = CreateObjectWithAttributes<FifoQueueDisc>("MaxSize", StringValue("10000p"));
    installDcib(topo.dci.Get(0), topo.aDciAddress, topo.dci.Get(1), qdisc, fifo, CreateObject<DciIngress>());
    TcpFlows flows(topo, {FlowSpec{0, 0, 100 * 1448, MilliSeconds(10)}});
    Simulator::Stop(Seconds(0.2));
    Simulator::Run();
    ASSERT_TRUE(flows.stats().at(0).completed);
    EXPECT_GT(qdisc->GetCounters().selections, 0u);
  }
  Simulator::Destroy();
  EXPECT_EQ(qdisc->GetReferenceCount(), 1u); // this test's own
}

} // namespace
} // namespace ndnlab::dcib::test
