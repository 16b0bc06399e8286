// Duplicate-ACK interception in a small simulation: a selected (Not-ECT) segment in the middle
// of a window is lost in the WAN; the receiver's duplicate ACKs race the edge router's
// retransmission. Without interception the host gets three duplicate ACKs first and enters fast
// recovery; with it, the edge router holds them until its retransmission fills the hole.

#include "ns3/dcib/helper/ack-interceptor.hpp"
#include "ns3/dcib/helper/dci-topology.hpp"
#include "ns3/dcib/helper/dcib-helper.hpp"
#include "ns3/dcib/helper/packet-key.hpp"
#include "ns3/dcib/helper/tcp-flows.hpp"
#include "ns3/dcib/tests/sim-fixture.hpp"

#include <ns3/boolean.h>
#include <ns3/config.h>
#include <ns3/double.h>
#include <ns3/fifo-queue-disc.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/tcp-header.h>
#include <ns3/uinteger.h>

#include <gtest/gtest.h>

namespace ndnlab::dcib::test {
namespace {

using namespace ns3;

using DupAckGlueTest = SimTest;

struct MidLossRun
{
  bool completed = false;
  bool droppedWasNotEct = false;
  bool edgeRetransmittedDropped = false;
  uint64_t hostRetransmissions = 0;
  uint64_t hostRecoveries = 0;
  uint64_t rtoEpisodes = 0;
  InterceptorCounters intercept;
};

/// One host pair, 1 Gbps, 1 ms DCI, every packet selected (r = 1: the next segment's router
/// ACK reveals the loss). A 400-segment flow loses segment 150 in the WAN, well inside its
/// window, so dozens of duplicate ACKs follow.
MidLossRun runMidLoss(bool intercept)
{
  setSmallTcpDefaults();

  DciTopology topo(smallDci(1));

  auto qdisc = CreateObjectWithAttributes<EdgeQueueDisc>("SelectionRatio", DoubleValue(1.0), "EnforceBound",
                                                         BooleanValue(false), "BufferSize", UintegerValue(10'000'000),
                                                         "InterRouterRtt", TimeValue(MilliSeconds(2)));
  auto fifo = CreateObjectWithAttributes<FifoQueueDisc>("MaxSize", StringValue("10000p"));
  auto ingress = CreateObject<DciIngress>();
  const uint32_t segments = 400;
  auto drop = Create<DropOneSegment>(10000, 1 + 150 * 1448);
  ingress->SetExtraLoss(drop);
  installDcib(topo.dci.Get(0), topo.aDciAddress, topo.dci.Get(1), qdisc, fifo, ingress);
  Ptr<AckInterceptor> interceptor;
  if (intercept) {
    interceptor = CreateObject<AckInterceptor>();
    interceptor->Install(qdisc, DynamicCast<PointToPointNetDevice>(topo.dci.Get(0)));
  }
  std::vector<PacketKey> retransmitted;
  qdisc->TraceConnectWithoutContext("EdgeRetransmit", MakeBoundCallback(&recordKey, &retransmitted));

  TcpFlows flows(topo, {FlowSpec{0, 0, segments * 1448, MilliSeconds(100)}});
  Simulator::Stop(Seconds(1));
  Simulator::Run();

  MidLossRun r;
  const auto& f = flows.stats().at(0);
  r.completed = f.completed;
  r.hostRetransmissions = f.retransmissions;
  r.hostRecoveries = f.recoveries;
  r.rtoEpisodes = f.rtoEpisodes;
  r.droppedWasNotEct = drop->droppedWasNotEct;
  EXPECT_TRUE(drop->dropped);
  for (const auto& k : retransmitted)
    r.edgeRetransmittedDropped |= (k == drop->key);
  if (interceptor)
    r.intercept = interceptor->GetCounters();
  Simulator::Destroy();
  return r;
}

TEST_F(DupAckGlueTest, InterceptionKeepsTheHostOutOfFastRecovery)
{
  // without interception: the edge router repairs the loss, but the host's third duplicate ACK
  // arrives first and it fast-retransmits (the race of docs/results/dcib.md)
  auto without = runMidLoss(false);
  EXPECT_TRUE(without.completed);
  EXPECT_TRUE(without.droppedWasNotEct);
  EXPECT_TRUE(without.edgeRetransmittedDropped);
  EXPECT_GE(without.hostRecoveries, 1u);
  EXPECT_GE(without.hostRetransmissions, 1u);

  reset();
  auto with = runMidLoss(true);
  EXPECT_TRUE(with.completed);
  EXPECT_TRUE(with.droppedWasNotEct);
  EXPECT_TRUE(with.edgeRetransmittedDropped);
  EXPECT_EQ(with.hostRecoveries, 0u);
  EXPECT_EQ(with.hostRetransmissions, 0u);
  EXPECT_EQ(with.rtoEpisodes, 0u);
  const auto& c = with.intercept;
  EXPECT_EQ(c.forwardedAllowed, 2u); // the host saw two duplicates, never a third
  EXPECT_GE(c.held, 1u);
  EXPECT_EQ(c.holes, 1u);
  EXPECT_EQ(c.holesFilled, 1u);
  EXPECT_EQ(c.holesExpired, 0u);
  EXPECT_EQ(c.released, 0u);
  EXPECT_EQ(c.absorbed + c.overflow, c.held);
}

struct SilentEdgeRun
{
  bool dropped = false;
  bool completed = false;
  uint64_t hostRecoveries = 0;
  uint64_t rtoEpisodes = 0;
  SenderCounters edge;
  InterceptorCounters intercept;
};

/// The mid-window loss of runMidLoss, but the destination edge router sends no router ACKs,
/// so only a duplicate ACK can tell A that its stalled clone is needed.
SilentEdgeRun runSilentEdge(bool repairOnDupAck)
{
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
  Config::SetDefault("ns3::TcpSocket::DelAckTimeout", StringValue("40ms"));
  Config::SetDefault("ns3::TcpSocketBase::MinRto", StringValue("200ms"));
  DciTopology topo(smallDci(1));
  auto qdisc = CreateObjectWithAttributes<EdgeQueueDisc>("SelectionRatio", DoubleValue(1.0), "EnforceBound",
                                                         BooleanValue(false), "BufferSize", UintegerValue(10'000'000),
                                                         "InterRouterRtt", TimeValue(MilliSeconds(2)));
  auto fifo = CreateObjectWithAttributes<FifoQueueDisc>("MaxSize", StringValue("10000p"));
  auto ingress = CreateObject<DciIngress>();
  auto drop = Create<DropOneSegment>(10000, 1 + 150 * 1448);
  ingress->SetExtraLoss(drop);
  installDcib(topo.dci.Get(0), topo.aDciAddress, topo.dci.Get(1), qdisc, fifo, ingress);
  // Q_rcv without a socket: B sends no router ACKs, so A keeps the clone stalled for ever
  ingress->EnableEdgeReceiver(ReceiverOptions{}, nullptr, topo.aDciAddress, RouterAckPort);
  auto interceptor = CreateObjectWithAttributes<AckInterceptor>("HoldTimeout", TimeValue(MilliSeconds(5)),
                                                                "RepairOnDupAck", BooleanValue(repairOnDupAck));
  interceptor->Install(qdisc, DynamicCast<PointToPointNetDevice>(topo.dci.Get(0)));

  TcpFlows flows(topo, {FlowSpec{0, 0, 400 * 1448, MilliSeconds(100)}});
  Simulator::Stop(Seconds(1));
  Simulator::Run();
  SilentEdgeRun r;
  const auto& f = flows.stats().at(0);
  r.dropped = drop->dropped;
  r.completed = f.completed;
  r.hostRecoveries = f.recoveries;
  r.rtoEpisodes = f.rtoEpisodes;
  r.edge = qdisc->GetCounters();
  r.intercept = interceptor->GetCounters();
  Simulator::Destroy();
  return r;
}

/// Without a router ACK the clone stays stalled: the hold must end and the host recover the
/// segment itself.
TEST_F(DupAckGlueTest, AHoldThatExpiresLetsTheHostRecover)
{
  auto r = runSilentEdge(false);
  EXPECT_TRUE(r.dropped);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.edge.edgeRetransmissions, 0u);
  const auto& c = r.intercept;
  EXPECT_EQ(c.holes, 1u);
  EXPECT_EQ(c.holesExpired, 1u);
  EXPECT_GE(c.released, 1u);
  EXPECT_GE(r.hostRecoveries, 1u); // the host's own fast retransmit, after the hold
  EXPECT_EQ(r.rtoEpisodes, 0u);
}

/// With RepairOnDupAck the receiver's first duplicate ACK makes A send its clone: the loss is
/// repaired with no router ACK and no help from the host.
TEST_F(DupAckGlueTest, ADuplicateAckRepairsAStalledCloneWithoutARouterAck)
{
  auto r = runSilentEdge(true);
  EXPECT_TRUE(r.dropped);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.edge.edgeRetransmissions, 1u);
  EXPECT_EQ(r.edge.dupAckRetransmissions, 1u);
  EXPECT_EQ(r.intercept.repairRequests, 1u);
  EXPECT_EQ(r.intercept.holesExpired, 0u);
  EXPECT_EQ(r.intercept.released, 0u);
  EXPECT_EQ(r.hostRecoveries, 0u);
  EXPECT_EQ(r.rtoEpisodes, 0u);
}

} // namespace
} // namespace ndnlab::dcib::test
