// Duplicate-ACK interception at the source edge router (model/dupack-interceptor.hpp), on the
// plain model: time passed in, ints as the held ACKs.

#include "ns3/dcib/model/dupack-interceptor.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace ndnlab::dcib::test {
namespace {

using namespace std::chrono_literals;

constexpr uint32_t Mss = 8948;
constexpr uint32_t Isn = 1;

/// Data segment n of the flow 10.0.0.1:49153 -> 10.1.0.1:5000, as the edge router keys it.
PacketKey segment(uint32_t n, uint16_t ipId = 0, uint32_t isn = Isn)
{
  PacketKey k;
  k.src = 0x0a000001;
  k.dst = 0x0a010001;
  k.srcPort = 49153;
  k.dstPort = 5000;
  k.protocol = 6;
  k.seq = isn + n * Mss;
  k.ipId = ipId ? ipId : static_cast<uint16_t>(n + 1);
  return k;
}

const FlowId Flow = FlowId::ofData(segment(0));

/// The receiver's ACK whose cumulative ACK is the start of segment n.
HostAck ackOf(uint32_t n, bool sack, uint32_t isn = Isn)
{
  HostAck a;
  a.flow = Flow;
  a.ack = isn + n * Mss;
  a.sack = sack;
  return a;
}

TimePoint at(Duration d)
{
  return TimePoint(d);
}

InterceptorOptions opts(uint32_t allowance = 2, Duration hold = 12ms)
{
  InterceptorOptions o;
  o.allowance = allowance;
  o.holdTimeout = hold;
  return o;
}

struct Fixture
{
  explicit Fixture(InterceptorOptions o = opts()) : x(o) {}
  /// Sends the ACK; returns true when it was held (its payload is `id`).
  bool held(const HostAck& a, Duration t, int id)
  {
    return x.onHostAck(a, at(t), [id] { return id; }) == AckVerdict::Hold;
  }
  std::vector<int> expire(Duration t)
  {
    std::vector<int> out;
    x.expire(at(t), [&](int&& p) { out.push_back(p); });
    return out;
  }
  DupAckInterceptor<int> x;
};

TEST(DupAckInterceptor, OptionsAreValidated)
{
  EXPECT_THROW(DupAckInterceptor<int>(opts(2, 0ms)), std::invalid_argument);
  auto o = opts();
  o.maxHeldPerHole = 0;
  EXPECT_THROW(DupAckInterceptor<int>{o}, std::invalid_argument);
}

TEST(DupAckInterceptor, DuplicatesForAStalledCloneAreHeldBeyondTheAllowance)
{
  Fixture f;
  f.x.onStored(segment(5));                      // selected, clone kept, then lost in the WAN
  EXPECT_FALSE(f.held(ackOf(5, false), 1ms, 0)); // cumulative ACK reaching the hole: new
  EXPECT_FALSE(f.held(ackOf(5, true), 1ms, 1));  // duplicate 1
  EXPECT_FALSE(f.held(ackOf(5, true), 1ms, 2));  // duplicate 2
  EXPECT_TRUE(f.held(ackOf(5, true), 2ms, 3));   // the host's third: held
  EXPECT_TRUE(f.held(ackOf(5, true), 2ms, 4));
  const auto& c = f.x.counters();
  EXPECT_EQ(c.acks, 5u);
  EXPECT_EQ(c.duplicates, 4u);
  EXPECT_EQ(c.forwardedAllowed, 2u);
  EXPECT_EQ(c.held, 2u);
  EXPECT_EQ(c.holes, 1u);
  EXPECT_EQ(f.x.heldNow(), 2u);
  EXPECT_EQ(f.x.nextDeadline(), at(14ms));
}

TEST(DupAckInterceptor, RepairIsDueOnceForAStalledCloneWhenAsked)
{
  auto o = opts();
  Fixture off(o);
  off.x.onStored(segment(5));
  off.held(ackOf(5, false), 1ms, 0);
  EXPECT_FALSE(off.x.repairDue(ackOf(5, true))) << "repairOnDupAck is off by default";

  o.repairOnDupAck = true;
  Fixture f(o);
  f.x.onStored(segment(5));
  f.x.onStored(segment(9));
  EXPECT_FALSE(f.x.repairDue(ackOf(5, false))) << "the first ACK reaching the hole is new";
  f.held(ackOf(5, false), 1ms, 0);
  EXPECT_FALSE(f.x.repairDue(ackOf(4, true))) << "older than the host's cumulative ACK";
  EXPECT_TRUE(f.x.repairDue(ackOf(5, true)));
  f.x.onRepairSent(segment(5), at(1ms)); // the caller retransmitted the clone
  f.held(ackOf(5, true), 1ms, 1);
  EXPECT_FALSE(f.x.repairDue(ackOf(5, true))) << "its repair is in flight";
  EXPECT_FALSE(f.x.repairDue(ackOf(7, true))) << "segment 7 has no clone (sent ECT)";
  EXPECT_EQ(f.x.counters().repairRequests, 1u);
  // a non-SACK duplicate repeating the cumulative ACK asks too
  f.held(ackOf(9, false), 2ms, 2);
  EXPECT_TRUE(f.x.repairDue(ackOf(9, false)));
  EXPECT_EQ(f.x.counters().repairRequests, 2u);
}

TEST(DupAckInterceptor, DuplicatesWithoutSackCountToo)
{
  // a host without SACK: a duplicate is a pure ACK repeating the cumulative ACK
  Fixture f;
  f.x.onStored(segment(5));
  EXPECT_FALSE(f.held(ackOf(5, false), 1ms, 0));
  EXPECT_FALSE(f.held(ackOf(5, false), 1ms, 1));
  EXPECT_FALSE(f.held(ackOf(5, false), 1ms, 2));
  EXPECT_TRUE(f.held(ackOf(5, false), 1ms, 3));
  EXPECT_EQ(f.x.counters().duplicates, 3u);
}

TEST(DupAckInterceptor, HeldAcksAreDiscardedWhenTheHoleFills)
{
  Fixture f;
  f.x.onStored(segment(5));
  f.held(ackOf(5, false), 1ms, 0);
  f.held(ackOf(5, true), 1ms, 1);
  f.held(ackOf(5, true), 1ms, 2);
  ASSERT_TRUE(f.held(ackOf(5, true), 2ms, 3));
  ASSERT_TRUE(f.held(ackOf(5, true), 3ms, 4));
  // a router ACK revealed the gap: the edge retransmits the clone, the receiver's ACK moves on
  f.x.onRepairSent(segment(5), at(4ms));
  EXPECT_TRUE(f.held(ackOf(5, true), 5ms, 5));   // still a duplicate of the hole: held
  EXPECT_FALSE(f.held(ackOf(9, false), 9ms, 6)); // the hole is filled: forwarded
  const auto& c = f.x.counters();
  EXPECT_EQ(c.absorbed, 3u);
  EXPECT_EQ(c.holesFilled, 1u);
  EXPECT_EQ(c.released, 0u);
  EXPECT_EQ(f.x.heldNow(), 0u);
  EXPECT_TRUE(f.expire(100ms).empty()); // nothing left to release
  EXPECT_EQ(f.x.nextDeadline(), std::nullopt);
  EXPECT_EQ(c.holesExpired, 0u);
}

TEST(DupAckInterceptor, HeldAcksAreReleasedInOrderWhenTheHoldExpires)
{
  Fixture f;
  f.x.onStored(segment(5));
  f.held(ackOf(5, false), 1ms, 0);
  f.held(ackOf(5, true), 1ms, 1);
  f.held(ackOf(5, true), 1ms, 2);
  ASSERT_TRUE(f.held(ackOf(5, true), 2ms, 3)); // deadline 2 + 12 = 14 ms
  ASSERT_TRUE(f.held(ackOf(5, true), 6ms, 4));
  ASSERT_TRUE(f.held(ackOf(5, true), 10ms, 5));
  EXPECT_TRUE(f.expire(13ms).empty());
  EXPECT_EQ(f.expire(14ms), (std::vector<int>{3, 4, 5}));
  const auto& c = f.x.counters();
  EXPECT_EQ(c.released, 3u);
  EXPECT_EQ(c.holesExpired, 1u);
  EXPECT_EQ(f.x.heldNow(), 0u);
  // the host now recovers the hole itself: later duplicates for it pass
  EXPECT_FALSE(f.held(ackOf(5, true), 15ms, 6));
  EXPECT_EQ(c.forwardedReleasedHole, 1u);
  // a later hole of the same flow: the ACK that reaches it carries SACK blocks, so it counts
  // as one more duplicate after the released ones (no reset): held at once
  f.x.onStored(segment(20));
  EXPECT_TRUE(f.held(ackOf(20, true), 20ms, 7));
  EXPECT_EQ(c.holes, 2u);
}

TEST(DupAckInterceptor, HolesTheEdgeCannotRepairAreNotHeld)
{
  Fixture f;
  // no clone of segment 5 (an ECT packet: only the host can recover it)
  for (int i = 0; i < 6; ++i)
    EXPECT_FALSE(f.held(ackOf(5, i > 0), 1ms, i));
  EXPECT_EQ(f.x.counters().forwardedNotRepairable, 5u);
  EXPECT_EQ(f.x.counters().held, 0u);

  // a clone whose own router ACK came back: the segment reached the far edge
  Fixture g;
  g.x.onStored(segment(7));
  g.x.onDelivered(segment(7));
  EXPECT_EQ(g.x.trackedSegments(), 0u);
  for (int i = 0; i < 6; ++i)
    EXPECT_FALSE(g.held(ackOf(7, i > 0), 1ms, i));
  EXPECT_EQ(g.x.counters().held, 0u);
}

TEST(DupAckInterceptor, ARepairInFlightCountsUntilTheHoldTimeout)
{
  Fixture f;
  f.x.onStored(segment(5));
  f.x.onRepairSent(segment(5), at(1ms)); // retransmitted before the duplicates arrived
  EXPECT_TRUE(f.x.repairable(Flow, segment(5).seq, at(12ms)));
  EXPECT_FALSE(f.x.repairable(Flow, segment(5).seq, at(13ms)));
  f.held(ackOf(5, false), 2ms, 0);
  f.held(ackOf(5, true), 2ms, 1);
  f.held(ackOf(5, true), 2ms, 2);
  EXPECT_TRUE(f.held(ackOf(5, true), 3ms, 3));

  // the same sequence much later, the repair long gone (lost): not held
  Fixture g;
  g.x.onStored(segment(5));
  g.x.onRepairSent(segment(5), at(1ms));
  for (int i = 0; i < 5; ++i)
    EXPECT_FALSE(g.held(ackOf(5, i > 0), 20ms, i));
  EXPECT_EQ(g.x.trackedSegments(), 0u); // the stale repair was forgotten
}

TEST(DupAckInterceptor, ASegmentIsForgottenOnceItsClonesLeftAndItsRepairExpired)
{
  // two clones of one segment (the host retransmitted it and the edge selected it again);
  // one is repaired, the repair expires while the other is still stalled, then that one is
  // delivered: nothing refers to the segment any more (found by fuzz-dcib: it stayed tracked)
  Fixture f;
  f.x.onStored(segment(5));
  f.x.onStored(segment(5, 100));
  f.x.onRepairSent(segment(5), at(1ms));
  EXPECT_FALSE(f.held(ackOf(1, false), 20ms, 0)); // any ACK: the repair has expired
  EXPECT_TRUE(f.x.repairable(Flow, segment(5).seq, at(20ms))) << "a clone is still stalled";
  f.x.onDelivered(segment(5, 100));
  EXPECT_FALSE(f.x.repairable(Flow, segment(5).seq, at(20ms)));
  EXPECT_EQ(f.x.trackedSegments(), 0u);
}

TEST(DupAckInterceptor, ASackCarryingAdvanceToTheNextHoleIsHeldToo)
{
  // two selected segments lost in one window: the ACK that moves from the first hole to the
  // second carries SACK blocks, so the host counts it as a duplicate (and does not reset its
  // count): the allowance is per flow, not per hole
  Fixture f;
  f.x.onStored(segment(5));
  f.x.onStored(segment(9));
  f.held(ackOf(5, false), 1ms, 0);
  f.held(ackOf(5, true), 1ms, 1);
  f.held(ackOf(5, true), 1ms, 2);
  ASSERT_TRUE(f.held(ackOf(5, true), 1ms, 3));
  f.x.onRepairSent(segment(5), at(2ms));
  f.x.onRepairSent(segment(9), at(2ms));
  EXPECT_TRUE(f.held(ackOf(9, true), 8ms, 4)); // hole 5 filled, hole 9 still open
  EXPECT_EQ(f.x.counters().holesFilled, 1u);
  EXPECT_EQ(f.x.counters().holes, 2u);
  EXPECT_FALSE(f.held(ackOf(30, false), 8100us, 5)); // everything filled, no SACK: passes
  EXPECT_EQ(f.x.counters().holesFilled, 2u);
  EXPECT_EQ(f.x.counters().absorbed, 2u);
  // that ACK reset the host's count: a new hole gets the allowance again
  f.x.onStored(segment(40));
  EXPECT_FALSE(f.held(ackOf(40, false), 9ms, 6));
  EXPECT_FALSE(f.held(ackOf(40, true), 9ms, 7));
  EXPECT_FALSE(f.held(ackOf(40, true), 9ms, 8));
  EXPECT_TRUE(f.held(ackOf(40, true), 9ms, 9));
}

/// A duplicate for the hole at segment `hole` whose SACK blocks cover segments [a, b) for each
/// pair, most recent first as a receiver sends them.
HostAck sackAck(uint32_t hole, std::vector<std::pair<uint32_t, uint32_t>> ranges)
{
  HostAck a = ackOf(hole, true);
  for (auto [from, to] : ranges)
    a.blocks.push_back(SackBlock{Isn + from * Mss, Isn + to * Mss});
  return a;
}

/// The ACK reaching the hole at segment 5, then the allowance's two duplicates (SACKing 6 and
/// 6-7) at 1 ms: the next duplicate is the host's third.
void spendAllowance(Fixture& f)
{
  f.held(ackOf(5, false), 1ms, 0);
  f.held(sackAck(5, {{6, 7}}), 1ms, 1);
  f.held(sackAck(5, {{6, 8}}), 1ms, 2);
}

TEST(DupAckInterceptor, SackBlocksShowingAHoleTheEdgeCannotRepairAreLetThrough)
{
  // segment 5 (selected, stalled) and segment 8 (ECT: no clone) lost; the receiver holds 6-7
  // and 9-11
  Fixture f;
  f.x.onStored(segment(5));
  f.held(ackOf(5, false), 1ms, 0);
  EXPECT_FALSE(f.held(sackAck(5, {{6, 7}}), 1ms, 1));
  EXPECT_FALSE(f.held(sackAck(5, {{6, 8}}), 1ms, 2));
  // third duplicate: the host must recover segment 8 itself, so holding would only delay it
  EXPECT_FALSE(f.held(sackAck(5, {{9, 10}, {6, 8}}), 1ms, 3));
  EXPECT_EQ(f.x.counters().forwardedSackGap, 1u);
  EXPECT_EQ(f.x.counters().held, 0u);

  // the same, but segment 8 was selected too: both holes are repairable, the ACK is held
  Fixture g;
  g.x.onStored(segment(5));
  g.x.onStored(segment(8));
  spendAllowance(g);
  EXPECT_TRUE(g.held(sackAck(5, {{9, 10}, {6, 8}}), 1ms, 3));
}

TEST(DupAckInterceptor, AHoldIsLetGoWhenALaterSackShowsAnUnrepairableHole)
{
  Fixture f;
  f.x.onStored(segment(5));
  spendAllowance(f);
  ASSERT_TRUE(f.held(sackAck(5, {{6, 9}}), 1ms, 3));
  ASSERT_TRUE(f.held(sackAck(5, {{6, 10}}), 1ms, 4));
  // segment 10 was lost and only the host can resend it
  EXPECT_FALSE(f.held(sackAck(5, {{11, 12}, {6, 10}}), 2ms, 5));
  const auto& c = f.x.counters();
  EXPECT_EQ(c.flushed, 2u);
  EXPECT_EQ(c.holesFlushed, 1u);
  EXPECT_EQ(f.x.heldNow(), 0u);
  EXPECT_TRUE(f.expire(100ms).empty());
  // from now on the duplicates of hole 5 pass
  EXPECT_FALSE(f.held(sackAck(5, {{11, 13}, {6, 10}}), 2ms, 6));
  EXPECT_EQ(c.forwardedReleasedHole, 1u);
}

TEST(DupAckInterceptor, OnlyGapsBetweenReportedBlocksCount)
{
  Fixture f;
  f.x.onStored(segment(5));
  spendAllowance(f);
  // above the highest block is data in flight, not a hole; a D-SACK block below the cumulative
  // ACK says nothing about holes
  EXPECT_TRUE(f.held(sackAck(5, {{6, 9}, {2, 3}}), 1ms, 3));
  // adjacent blocks (no gap between them) are not a hole either
  EXPECT_TRUE(f.held(sackAck(5, {{9, 10}, {6, 9}}), 1ms, 4));
}

TEST(DupAckInterceptor, OverlappingBlocksCountAsTheirUnion)
{
  // a D-SACK block above the cumulative ACK comes first and lies inside the block after it
  // (RFC 2883): the receiver holds 6-11 and 14-15, so the hole is at 12 (not stalled: the host
  // must resend it), not at 8, where the D-SACK block ends (found by fuzz-dcib)
  Fixture f;
  f.x.onStored(segment(5));
  f.x.onStored(segment(8));
  spendAllowance(f);
  EXPECT_FALSE(f.held(sackAck(5, {{7, 8}, {6, 12}, {14, 15}}), 1ms, 3));
  EXPECT_EQ(f.x.counters().forwardedSackGap, 1u);

  // the same blocks with segment 12 stalled too: every hole is repairable, the ACK is held
  Fixture g;
  g.x.onStored(segment(5));
  g.x.onStored(segment(12));
  spendAllowance(g);
  EXPECT_TRUE(g.held(sackAck(5, {{7, 8}, {6, 12}, {14, 15}}), 1ms, 3));
}

TEST(DupAckInterceptor, SackGapCheckCanBeTurnedOff)
{
  auto o = opts();
  o.checkSackGaps = false;
  Fixture f(o);
  f.x.onStored(segment(5));
  spendAllowance(f);
  EXPECT_TRUE(f.held(sackAck(5, {{9, 10}, {6, 8}}), 1ms, 3));
}

TEST(DupAckInterceptor, HolesFromTheEdgesOwnQueueAreLeftToTheHostByDefault)
{
  // segment 5 was selected, then dropped by A's own RED queue: a congestion signal
  Fixture f;
  f.x.onStored(segment(5));
  f.x.onLocalDrop(segment(5));
  EXPECT_TRUE(f.x.repairable(Flow, segment(5).seq, at(1ms))); // A still resends it
  f.held(ackOf(5, false), 1ms, 0);
  for (int i = 1; i < 6; ++i)
    EXPECT_FALSE(f.held(ackOf(5, true), 1ms, i));
  EXPECT_EQ(f.x.counters().forwardedLocalDrop, 5u);
  EXPECT_EQ(f.x.counters().held, 0u);

  // a SACK gap at a locally dropped segment ends a hold of a WAN loss below it
  Fixture g;
  g.x.onStored(segment(5));
  g.x.onStored(segment(8));
  g.x.onLocalDrop(segment(8));
  spendAllowance(g);
  EXPECT_FALSE(g.held(sackAck(5, {{9, 10}, {6, 8}}), 1ms, 3));
  EXPECT_EQ(g.x.counters().forwardedSackGap, 1u);

  // with holdLocalDrops they are held like WAN losses
  auto o = opts();
  o.holdLocalDrops = true;
  Fixture h(o);
  h.x.onStored(segment(5));
  h.x.onLocalDrop(segment(5));
  h.held(ackOf(5, false), 1ms, 0);
  h.held(ackOf(5, true), 1ms, 1);
  h.held(ackOf(5, true), 1ms, 2);
  EXPECT_TRUE(h.held(ackOf(5, true), 1ms, 3));
}

TEST(DupAckInterceptor, AllowanceZeroHoldsEveryDuplicate)
{
  Fixture f(opts(0));
  f.x.onStored(segment(5));
  EXPECT_FALSE(f.held(ackOf(5, false), 1ms, 0));
  EXPECT_TRUE(f.held(ackOf(5, true), 1ms, 1));
}

TEST(DupAckInterceptor, OldAndDataCarryingAcksPass)
{
  Fixture f;
  f.x.onStored(segment(5));
  f.held(ackOf(5, false), 1ms, 0);
  f.held(ackOf(5, true), 1ms, 1);
  f.held(ackOf(5, true), 1ms, 2);
  ASSERT_TRUE(f.held(ackOf(5, true), 1ms, 3));
  EXPECT_FALSE(f.held(ackOf(3, true), 1ms, 4)); // reordered, older: the host ignores it
  auto withData = ackOf(5, true);
  withData.pure = false;
  EXPECT_FALSE(f.held(withData, 1ms, 5));
  EXPECT_EQ(f.x.heldNow(), 1u);
  // a data-carrying ACK beyond the hole still fills it
  withData.ack = segment(6).seq;
  EXPECT_FALSE(f.held(withData, 2ms, 6));
  EXPECT_EQ(f.x.heldNow(), 0u);
  EXPECT_EQ(f.x.counters().holesFilled, 1u);
}

TEST(DupAckInterceptor, TheHoldListKeepsTheNewestAcks)
{
  auto o = opts();
  o.maxHeldPerHole = 3;
  Fixture f(o);
  f.x.onStored(segment(5));
  f.held(ackOf(5, false), 1ms, 0);
  f.held(ackOf(5, true), 1ms, 1);
  f.held(ackOf(5, true), 1ms, 2);
  for (int i = 3; i < 8; ++i)
    ASSERT_TRUE(f.held(ackOf(5, true), 1ms, i));
  EXPECT_EQ(f.x.counters().overflow, 2u);
  EXPECT_EQ(f.x.heldNow(), 3u);
  EXPECT_EQ(f.expire(13ms), (std::vector<int>{5, 6, 7}));
}

TEST(DupAckInterceptor, FlowsAreIndependent)
{
  Fixture f;
  f.x.onStored(segment(5));
  f.held(ackOf(5, false), 1ms, 0);
  f.held(ackOf(5, true), 1ms, 1);
  f.held(ackOf(5, true), 1ms, 2);
  ASSERT_TRUE(f.held(ackOf(5, true), 1ms, 3));
  // another connection between the same hosts, same sequence numbers
  HostAck other = ackOf(5, true);
  other.flow.srcPort = 49154;
  EXPECT_FALSE(f.held(other, 1ms, 4)); // nothing stored for it
  EXPECT_EQ(f.x.heldNow(), 1u);
}

TEST(DupAckInterceptor, SequenceNumbersWrapAround)
{
  const uint32_t isn = 0xffffffffu - 3 * Mss; // segment 4 starts past the wrap
  Fixture f;
  f.x.onStored(segment(4, 0, isn));
  EXPECT_FALSE(f.held(ackOf(3, false, isn), 1ms, 0));
  EXPECT_FALSE(f.held(ackOf(4, false, isn), 1ms, 1)); // advanced across the wrap
  f.held(ackOf(4, true, isn), 1ms, 2);
  f.held(ackOf(4, true, isn), 1ms, 3);
  EXPECT_TRUE(f.held(ackOf(4, true, isn), 1ms, 4));
  EXPECT_FALSE(f.held(ackOf(3, true, isn), 1ms, 5)); // older, across the wrap
  EXPECT_FALSE(f.held(ackOf(6, false, isn), 2ms, 6));
  EXPECT_EQ(f.x.counters().holesFilled, 1u);
}

} // namespace
} // namespace ndnlab::dcib::test
