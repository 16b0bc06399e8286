#include "ns3/dcib/model/edge-sender.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <utility>
#include <vector>

namespace ndnlab::dcib::test {
namespace {

using namespace std::chrono_literals;

PacketKey key(uint32_t n)
{
  PacketKey k;
  k.src = 0x0a000001;
  k.dst = 0x0a010001;
  k.protocol = 6;
  k.srcPort = 49153;
  k.dstPort = 5000;
  k.seq = 1 + n * 8948;
  k.ipId = static_cast<uint16_t>(n);
  return k;
}

TimePoint at(Duration d)
{
  return TimePoint(d);
}

SenderOptions opts(double r, SelectionMode mode = SelectionMode::Even)
{
  SenderOptions o;
  o.selectionRatio = r;
  o.selection = mode;
  o.bufferBytes = 1'000'000'000; // large: the bound does not interfere
  return o;
}

TEST(EdgeSender, EvenSelectionRatioIsExact)
{
  EdgeSender<int> s(opts(0.1), 1);
  int selected = 0;
  int lastGap = -1;
  int last = -1;
  bool evenlySpaced = true;
  for (int i = 0; i < 100'000; ++i) {
    if (s.select(9000, at(0ns))) {
      s.store(key(i), 9000, i, at(0ns));
      if (last >= 0) {
        if (lastGap >= 0 && i - last != lastGap)
          evenlySpaced = false;
        lastGap = i - last;
      }
      last = i;
      ++selected;
    }
  }
  EXPECT_EQ(selected, 10'000);
  EXPECT_TRUE(evenlySpaced);
  EXPECT_EQ(lastGap, 10);
  EXPECT_EQ(s.counters().selections, 10'000u);
  EXPECT_EQ(s.counters().packets, 100'000u);
}

TEST(EdgeSender, RandomSelectionRatioConverges)
{
  for (double r : {0.05, 0.1, 0.3}) {
    EdgeSender<int> s(opts(r, SelectionMode::Random), 42);
    const int n = 200'000;
    int selected = 0;
    for (int i = 0; i < n; ++i)
      if (s.select(1500, at(0ns))) {
        s.store(key(i), 1500, i, at(0ns));
        ++selected;
      }
    // binomial: 5 standard deviations
    double sd = std::sqrt(n * r * (1 - r));
    EXPECT_NEAR(selected, n * r, 5 * sd) << "r=" << r;
  }
}

TEST(EdgeSender, ShortPacketsAreNeverSelected)
{
  EdgeSender<int> s(opts(1.0), 1);
  EXPECT_FALSE(s.select(52, at(0ns))); // a pure ACK with timestamps
  EXPECT_TRUE(s.select(1000, at(0ns)));
  s.store(key(0), 1000, 0, at(0ns));
  EXPECT_EQ(s.counters().packets, 2u);
  EXPECT_EQ(s.counters().eligible, 1u);
}

TEST(EdgeSender, AckRetransmitsEveryEarlierStalledPacketThenDiscardsTheAckedOne)
{
  EdgeSender<int> s(opts(1.0), 1);
  for (int i = 1; i <= 15; ++i) {
    ASSERT_TRUE(s.select(9000, at(0ns)));
    s.store(key(i), 9000, i, at(Duration(i * 1000)));
  }
  ASSERT_EQ(s.stalledPackets(), 15u);

  std::vector<int> retransmitted;
  auto r = s.onAck(key(12), at(6ms), [&](int&& p) { retransmitted.push_back(p); });
  EXPECT_TRUE(r.matched);
  EXPECT_EQ(r.retransmitted, 11u);
  std::vector<int> expected{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  EXPECT_EQ(retransmitted, expected);
  // 12 discarded, 13..15 still stalled
  EXPECT_EQ(s.stalledPackets(), 3u);
  EXPECT_EQ(s.stalledBytes(), 3u * 9000);
  EXPECT_EQ(s.counters().edgeRetransmissions, 11u);
  EXPECT_EQ(s.counters().ackedDiscards, 1u);

  // in-order ACK for the head: nothing retransmitted
  retransmitted.clear();
  r = s.onAck(key(13), at(7ms), [&](int&& p) { retransmitted.push_back(p); });
  EXPECT_TRUE(r.matched);
  EXPECT_TRUE(retransmitted.empty());
  EXPECT_EQ(s.stalledPackets(), 2u);
}

TEST(EdgeSender, RetransmitNowTakesOnlyTheMatchingClone)
{
  EdgeSender<int> s(opts(1.0), 1);
  for (int i = 1; i <= 5; ++i) {
    ASSERT_TRUE(s.select(9000, at(0ns)));
    s.store(key(i), 9000, i, at(Duration(i * 1000)));
  }
  std::vector<int> sent;
  auto bySeq = [](uint32_t n) { return [n](const PacketKey& k) { return k.seq == key(n).seq; }; };
  EXPECT_TRUE(s.retransmitNow(bySeq(3), at(1ms), 0ns, [&](int&& p) { sent.push_back(p); }));
  EXPECT_EQ(sent, std::vector<int>{3});
  EXPECT_FALSE(s.isStored(key(3)));
  EXPECT_TRUE(s.isStored(key(2)));
  EXPECT_EQ(s.stalledPackets(), 4u);
  EXPECT_EQ(s.stalledBytes(), 4u * 9000);
  EXPECT_FALSE(s.retransmitNow(bySeq(3), at(1ms), 0ns, [&](int&& p) { sent.push_back(p); }))
    << "a clone is repaired once";
  EXPECT_FALSE(s.retransmitNow(bySeq(8), at(1ms), 0ns, [&](int&& p) { sent.push_back(p); }));

  // the router ACK of 5 retransmits 1, 2 and 4: not 3 again
  sent.clear();
  auto r = s.onAck(key(5), at(2ms), [&](int&& p) { sent.push_back(p); });
  EXPECT_TRUE(r.matched);
  EXPECT_EQ(sent, (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(s.stalledPackets(), 0u);
  EXPECT_EQ(s.counters().edgeRetransmissions, 4u);
  EXPECT_EQ(s.counters().dupAckRetransmissions, 1u);
}

TEST(EdgeSender, RetransmitNowLeavesAYoungCloneAlone)
{
  EdgeSender<int> s(opts(1.0), 1);
  ASSERT_TRUE(s.select(9000, at(0ns)));
  s.store(key(1), 9000, 1, at(10ms));
  std::vector<int> sent;
  auto isOne = [](const PacketKey& k) { return k.seq == key(1).seq; };
  EXPECT_FALSE(s.retransmitNow(isOne, at(15ms), 6ms, [&](int&& p) { sent.push_back(p); }))
    << "5 ms old: a duplicate ACK cannot be about this copy yet";
  EXPECT_TRUE(s.isStored(key(1)));
  EXPECT_EQ(s.counters().dupAckTooYoung, 1u);
  EXPECT_TRUE(s.retransmitNow(isOne, at(16ms), 6ms, [&](int&& p) { sent.push_back(p); }));
  EXPECT_EQ(sent, std::vector<int>{1});
}

TEST(EdgeSender, UnmatchedAckChangesNothing)
{
  EdgeSender<int> s(opts(1.0), 1);
  for (int i = 1; i <= 5; ++i) {
    ASSERT_TRUE(s.select(9000, at(0ns)));
    s.store(key(i), 9000, i, at(0ns));
  }
  int calls = 0;
  auto once = [&](int&&) { ++calls; };
  s.onAck(key(3), at(1ms), once); // retransmits 1, 2
  EXPECT_EQ(calls, 2);
  // a late ACK for 2 (already retransmitted and removed) and one for a key never stored
  auto r = s.onAck(key(2), at(2ms), once);
  EXPECT_FALSE(r.matched);
  r = s.onAck(key(99), at(2ms), once);
  EXPECT_FALSE(r.matched);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(s.stalledPackets(), 2u);
  EXPECT_EQ(s.counters().acksUnmatched, 2u);
  EXPECT_EQ(s.counters().acks, 3u);
}

TEST(EdgeSender, FullBufferSendsEctInsteadOfSelecting)
{
  auto o = opts(1.0);
  o.bufferBytes = 3 * 9000;
  o.enforceBound = false;
  EdgeSender<int> s(o, 1);
  int stored = 0;
  for (int i = 0; i < 5; ++i)
    if (s.select(9000, at(0ns))) {
      s.store(key(i), 9000, i, at(0ns));
      ++stored;
    }
  EXPECT_EQ(stored, 3);
  EXPECT_EQ(s.counters().skippedFull, 2u);
  EXPECT_EQ(s.counters().peakBytes, 27'000u);
  EXPECT_EQ(s.counters().peakPackets, 3u);
}

TEST(EdgeSender, BufferBound)
{
  // paper section III-D: B = 2 MB, tau = 10 ms, C = 10 Gbps -> r <= 0.16
  SenderOptions o;
  o.bufferBytes = 2'000'000;
  o.interRouterRtt = 10ms;
  o.linkRate = BitRate{10'000'000'000};
  EXPECT_NEAR(o.boundRatio(), 0.16, 1e-12);
  o.selectionRatio = 0.3;
  EXPECT_NEAR(o.effectiveRatio(), 0.16, 1e-12);
  o.enforceBound = false;
  EXPECT_DOUBLE_EQ(o.effectiveRatio(), 0.3);
  o.selectionRatio = 0.1;
  o.enforceBound = true;
  EXPECT_DOUBLE_EQ(o.effectiveRatio(), 0.1);

  o.selectionRatio = 1.5;
  EXPECT_THROW(o.validate(), std::invalid_argument);
}

TEST(EdgeSender, EnforcedBoundLimitsTheSelectionRatio)
{
  SenderOptions o;
  o.selectionRatio = 0.5;
  o.bufferBytes = 750'000; // 6 ms * 10 Gbps = 7.5 MB -> bound 0.1
  o.interRouterRtt = 6ms;
  EdgeSender<int> s(o, 1);
  int selected = 0;
  for (int i = 0; i < 1000; ++i)
    if (s.select(100, at(0ns))) {
      s.store(key(i), 100, i, at(0ns));
      ++selected;
    }
  EXPECT_EQ(selected, 100);
}

TEST(EdgeSender, IdleCopiesOnlyInLowPriorityMode)
{
  auto o = opts(1.0);
  EdgeSender<int> stalled(o, 1);
  ASSERT_TRUE(stalled.select(9000, at(0ns)));
  stalled.store(key(1), 9000, 1, at(0ns));
  EXPECT_FALSE(stalled.hasIdleCopy());
  EXPECT_FALSE(stalled.takeIdleCopy(at(1ms)).has_value());

  o.buffer = BufferMode::LowPriority;
  EdgeSender<int> low(o, 1);
  for (int i = 1; i <= 3; ++i) {
    ASSERT_TRUE(low.select(9000, at(0ns)));
    low.store(key(i), 9000, i, at(0ns));
  }
  ASSERT_TRUE(low.hasIdleCopy());
  EXPECT_EQ(*low.takeIdleCopy(at(1ms)), 1);
  // the ACK for 1 no longer matches (its clone left as a copy); the ACK for 3 recovers 2
  std::vector<int> rtx;
  EXPECT_FALSE(low.onAck(key(1), at(2ms), [&](int&& p) { rtx.push_back(p); }).matched);
  EXPECT_TRUE(low.onAck(key(3), at(2ms), [&](int&& p) { rtx.push_back(p); }).matched);
  EXPECT_EQ(rtx, std::vector<int>{2});
  EXPECT_EQ(low.counters().idleCopies, 1u);
  EXPECT_FALSE(low.hasIdleCopy());
}

TEST(EdgeSender, OccupancyStatistics)
{
  EdgeSender<int> s(opts(1.0), 1);
  ASSERT_TRUE(s.select(1000, at(0ns)));
  s.store(key(1), 1000, 1, at(0ms));
  ASSERT_TRUE(s.select(1000, at(0ns)));
  s.store(key(2), 1000, 2, at(1ms));
  s.onAck(key(2), at(4ms), [](int&&) {});
  // 1000 B for 1 ms, 2000 B for 3 ms, then 0: mean over [0, 8 ms] = 7000/8
  EXPECT_NEAR(s.meanStalledBytes(at(8ms)), 7000.0 / 8, 1e-9);
  EXPECT_EQ(s.counters().ackDelayMax, 3ms);
}

/// Offers `count` packets of `bytes` spaced `gap` apart from `start`; each selected packet is
/// acknowledged `ackDelay` after it was stored (in order, as B would). Returns the selections.
int offer(EdgeSender<int>& s, int first, int count, uint32_t bytes, TimePoint start, Duration gap, Duration ackDelay,
          std::deque<std::pair<TimePoint, int>>& pending)
{
  int selected = 0;
  auto noRetransmit = [](int&&) { ADD_FAILURE() << "no clone is lost here"; };
  for (int i = 0; i < count; ++i) {
    TimePoint t = start + gap * i;
    while (!pending.empty() && pending.front().first <= t) {
      s.onAck(key(pending.front().second), pending.front().first, noRetransmit);
      pending.pop_front();
    }
    if (s.select(bytes, t)) {
      s.store(key(first + i), bytes, first + i, t);
      pending.emplace_back(t + ackDelay, first + i);
      ++selected;
    }
  }
  return selected;
}

TEST(EdgeSender, AdaptiveRatioFollowsTheMeasuredRate)
{
  SenderOptions o;
  o.selectionRatio = 1.0; // upper limit
  o.adaptiveRatio = true;
  o.bufferBytes = 1'000'000;
  o.interRouterRtt = 10ms;
  EdgeSender<int> s(o, 1);
  std::deque<std::pair<TimePoint, int>> pending;
  // 10 MB/s: B / (R * tau) = 10, so every packet is protected
  int slow = offer(s, 0, 1000, 1000, at(0ms), 100us, 10ms, pending);
  EXPECT_EQ(slow, 1000);
  EXPECT_DOUBLE_EQ(s.currentRatio(), 1.0);
  // 1 GB/s: B / (R * tau) = 0.1 from the first full interval at that rate on
  int fast = offer(s, 1000, 100'000, 1000, at(100ms), 1us, 10ms, pending);
  EXPECT_NEAR(s.currentRatio(), 0.1, 1e-3);
  // the first interval at the new rate still runs at ratio 1: the buffer takes 1000 clones
  // (1 MB) and the other 9000 packets are sent unprotected (skippedFull); then 10% of 90 000
  EXPECT_NEAR(fast, 1000 + 9000, 20);
  EXPECT_EQ(s.counters().skippedFull, 9000u);
  EXPECT_NEAR(s.counters().ratioMin, 0.1, 1e-3);
  EXPECT_DOUBLE_EQ(s.counters().ratioMax, 1.0);
  EXPECT_GT(s.counters().ratioUpdates, 10u);
  // and back: a slow phase restores full protection
  offer(s, 200'000, 1000, 1000, at(300ms), 100us, 10ms, pending);
  EXPECT_DOUBLE_EQ(s.currentRatio(), 1.0);
}

TEST(EdgeSender, AdaptiveRatioCoversTheMeasuredAckDelay)
{
  SenderOptions o;
  o.selectionRatio = 1.0;
  o.adaptiveRatio = true;
  o.bufferBytes = 1'000'000;
  o.interRouterRtt = 10ms;
  EdgeSender<int> s(o, 1);
  std::deque<std::pair<TimePoint, int>> pending;
  // 100 MB/s with ACKs 40 ms late: B / (R * 40 ms) = 0.25, not B / (R * tau) = 1
  offer(s, 0, 200'000, 1000, at(0ms), 10us, 40ms, pending);
  EXPECT_NEAR(s.currentRatio(), 0.25, 0.01);
  EXPECT_LE(s.counters().peakBytes, o.bufferBytes);
}

TEST(EdgeSender, StaticRatioIgnoresTheRate)
{
  auto o = opts(0.1);
  EdgeSender<int> s(o, 1);
  std::deque<std::pair<TimePoint, int>> pending;
  EXPECT_EQ(offer(s, 0, 10'000, 1000, at(0ms), 1us, 1ms, pending), 1000);
  EXPECT_DOUBLE_EQ(s.currentRatio(), 0.1);
  EXPECT_EQ(s.counters().ratioUpdates, 0u);
}

} // namespace
} // namespace ndnlab::dcib::test
