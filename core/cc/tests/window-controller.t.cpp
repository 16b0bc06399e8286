#include "core/cc/window-controller.hpp"

#include <gtest/gtest.h>

namespace ndnlab::cc {
namespace {

using namespace std::chrono_literals;

const TimePoint T0{};

/// ndncatchunks' controller: the lost-segment gate, no HyStart++ (ndnlab's defaults differ).
WindowControllerOptions catchunksControl()
{
  WindowControllerOptions o;
  o.cwaGate = CwaGate::LostSegment;
  o.hystart = false;
  return o;
}

WindowController makeAimd(WindowControllerOptions o = catchunksControl())
{
  return WindowController(std::make_unique<AimdWindow>(WindowOptions{}), o);
}

void sendUpTo(WindowController& c, uint64_t from, uint64_t to)
{
  for (uint64_t s = from; s <= to; ++s)
    c.onInterestSent(s, false);
}

TEST(WindowController, UnmarkedDataGrows)
{
  auto c = makeAimd();
  sendUpTo(c, 0, 1);
  EXPECT_FALSE(c.onData(0, false, T0, {}));
  EXPECT_DOUBLE_EQ(c.cwnd(), 3.0);
  EXPECT_EQ(c.highData(), 0u);
}

TEST(WindowController, ConservativeWindowAdaptationOneDecreasePerRtt)
{
  auto c = makeAimd();
  sendUpTo(c, 0, 9);
  for (uint64_t s = 0; s < 4; ++s)
    c.onData(s, false, T0, {});
  EXPECT_DOUBLE_EQ(c.cwnd(), 6.0);

  EXPECT_TRUE(c.onLoss(5, T0)); // 5 > recPoint 0
  EXPECT_DOUBLE_EQ(c.cwnd(), 3.0);
  EXPECT_EQ(c.recoveryPoint(), 9u);
  // more losses among segments already outstanding at the event: no further decrease
  EXPECT_FALSE(c.onLoss(7, T0));
  EXPECT_FALSE(c.onLoss(9, T0));
  EXPECT_DOUBLE_EQ(c.cwnd(), 3.0);
  // a loss beyond the recovery point is a new event
  sendUpTo(c, 10, 12);
  EXPECT_TRUE(c.onLoss(11, T0));
  EXPECT_DOUBLE_EQ(c.cwnd(), 2.0);
  EXPECT_EQ(c.counters().lossDecreases, 2u);
}

TEST(WindowController, TransmissionGateCountsLostRetransmissions)
{
  // The lost-segment gate never counts a retransmission lost again (its segment lies below the
  // recovery point); the transmission gate does, once per window sent after the decrease.
  for (CwaGate gate : {CwaGate::LostSegment, CwaGate::Transmission}) {
    SCOPED_TRACE(toString(gate));
    WindowControllerOptions o;
    o.cwaGate = gate;
    o.hystart = false;
    auto c = makeAimd(o);
    uint64_t tx5 = 0;
    for (uint64_t s = 0; s <= 9; ++s) {
      const uint64_t tx = c.onInterestSent(s, false);
      if (s == 5)
        tx5 = tx;
    }
    for (uint64_t s = 0; s < 4; ++s)
      c.onData(s, false, T0, {});
    EXPECT_TRUE(c.onLoss(5, T0, tx5));
    EXPECT_DOUBLE_EQ(c.cwnd(), 3.0);
    // another Interest of the same flight: the same episode under both gates
    EXPECT_FALSE(c.onLoss(7, T0, tx5 + 2));
    // the retransmission of 5, sent after the decrease, is lost too
    const uint64_t retx5 = c.onInterestSent(5, true);
    EXPECT_GT(retx5, c.transmissions() - 1);
    EXPECT_EQ(c.onLoss(5, T0, retx5), gate == CwaGate::Transmission);
    EXPECT_EQ(c.counters().lossDecreases, gate == CwaGate::Transmission ? 2u : 1u);
  }
}

TEST(WindowController, TransmissionGateMarksOncePerWindowSentAfterTheDecrease)
{
  WindowControllerOptions o;
  o.hystart = false;
  auto c = makeAimd(o);
  std::vector<uint64_t> tx;
  for (uint64_t s = 0; s <= 9; ++s)
    tx.push_back(c.onInterestSent(s, false));
  EXPECT_TRUE(c.onData(0, true, T0, {}, std::nullopt, tx[0]));
  EXPECT_FALSE(c.onData(1, true, T0, {}, std::nullopt, tx[1])); // sent before the decrease
  const uint64_t later = c.onInterestSent(10, false);
  EXPECT_TRUE(c.onData(10, true, T0, {}, std::nullopt, later));
  EXPECT_EQ(c.counters().markDecreases, 2u);
}

TEST(WindowController, HyStartWithoutCssEntersAvoidanceAtTheRttRise)
{
  WindowControllerOptions o;
  o.hystart = true;
  o.hystartCssRounds = 0;
  auto c = makeAimd(o);
  uint64_t next = 0;
  // rounds of 2, 4, 8 samples at 10 ms, then 20 ms (a rise of more than the 4 ms threshold)
  for (Duration rtt : {Duration(10ms), Duration(10ms), Duration(10ms), Duration(20ms), Duration(20ms)}) {
    const uint64_t end = next + static_cast<uint64_t>(c.cwnd());
    for (uint64_t s = next; s < end; ++s)
      c.onInterestSent(s, false);
    for (uint64_t s = next; s < end && c.hystartPhase() != HyStartPhase::Done; ++s)
      c.onData(s, false, T0, rtt, rtt);
    next = end;
  }
  EXPECT_EQ(c.hystartPhase(), HyStartPhase::Done);
  EXPECT_EQ(c.counters().hystartExits, 1u);
  EXPECT_DOUBLE_EQ(c.window().ssthresh(), c.cwnd()); // congestion avoidance from the rise on
  EXPECT_EQ(c.counters().lossDecreases, 0u);
}

TEST(WindowController, DisableCwaDecreasesOnEveryLoss)
{
  auto c = makeAimd({.ignoreMarks = false, .disableCwa = true});
  sendUpTo(c, 0, 20);
  for (uint64_t s = 0; s < 6; ++s)
    c.onData(s, false, T0, {});
  EXPECT_DOUBLE_EQ(c.cwnd(), 8.0);
  EXPECT_TRUE(c.onLoss(7, T0));
  EXPECT_TRUE(c.onLoss(8, T0));
  EXPECT_DOUBLE_EQ(c.cwnd(), 2.0);
  EXPECT_EQ(c.counters().lossDecreases, 2u);
}

TEST(WindowController, HighDataGateDecreasesForOldLossesOnceDataPassedTheRecoveryPoint)
{
  // ndnSIM ConsumerPcon: the recovery point is next + 0.5 x (next - highData), and a timeout
  // for any segment decreases once the highest Data is beyond it.
  auto c = makeAimd({.cwaGate = CwaGate::HighData});
  sendUpTo(c, 0, 9);
  for (uint64_t s = 0; s < 4; ++s)
    c.onData(s, false, T0, {});
  EXPECT_DOUBLE_EQ(c.cwnd(), 6.0);
  EXPECT_TRUE(c.onLoss(1, T0));
  EXPECT_DOUBLE_EQ(c.cwnd(), 3.0);
  EXPECT_EQ(c.recoveryPoint(), 13u); // next 10 + 0.5 x (10 - 3)
  sendUpTo(c, 10, 20);
  for (uint64_t s = 4; s <= 13; ++s)
    c.onData(s, false, T0, {});
  EXPECT_FALSE(c.onLoss(2, T0)) << "highData 13 has not passed the recovery point";
  c.onData(14, false, T0, {});
  const double before = c.cwnd();
  EXPECT_TRUE(c.onLoss(2, T0)) << "an old segment, but the Data stream passed the recovery point";
  EXPECT_DOUBLE_EQ(c.cwnd(), before / 2);
  EXPECT_EQ(c.recoveryPoint(), 21u + 3u); // next 21 + floor(0.5 x (21 - 14))
  EXPECT_EQ(c.counters().lossDecreases, 2u);
}

TEST(WindowController, LostSegmentGateIgnoresOldLossesAfterADecrease)
{
  // the same sequence under ndncatchunks' gate: segment 2 is below the recovery point for good
  auto c = makeAimd();
  sendUpTo(c, 0, 9);
  for (uint64_t s = 0; s < 4; ++s)
    c.onData(s, false, T0, {});
  EXPECT_TRUE(c.onLoss(5, T0));
  sendUpTo(c, 10, 20);
  for (uint64_t s = 4; s <= 14; ++s)
    c.onData(s, false, T0, {});
  EXPECT_FALSE(c.onLoss(2, T0));
  EXPECT_EQ(c.counters().lossDecreases, 1u);
}

TEST(WindowController, CwaGateNamesRoundTrip)
{
  for (auto g : {CwaGate::LostSegment, CwaGate::HighData, CwaGate::Transmission})
    EXPECT_EQ(parseCwaGate(toString(g)), g);
  EXPECT_FALSE(parseCwaGate("highdata").has_value());
  EXPECT_THROW(makeAimd({.cwaRttSuppress = -1}), std::invalid_argument);
}

TEST(WindowController, MarksDecreaseOncePerRtt)
{
  auto c = makeAimd();
  sendUpTo(c, 0, 9);
  for (uint64_t s = 0; s < 4; ++s)
    c.onData(s, false, T0, {});
  EXPECT_DOUBLE_EQ(c.cwnd(), 6.0);
  EXPECT_TRUE(c.onData(4, true, T0, {})); // highData 4 > recPoint 0
  EXPECT_DOUBLE_EQ(c.cwnd(), 3.0);
  EXPECT_FALSE(c.onData(5, true, T0, {})); // 5 <= recPoint 9: counted, no change
  EXPECT_DOUBLE_EQ(c.cwnd(), 3.0);
  EXPECT_EQ(c.counters().marks, 2u);
  EXPECT_EQ(c.counters().markDecreases, 1u);
  // a marked Data must not grow the window either
  c.onData(6, false, T0, {});
  EXPECT_DOUBLE_EQ(c.cwnd(), 3.0 + 1.0 / 3.0);
}

TEST(WindowController, IgnoreMarksGrows)
{
  auto c = makeAimd({.ignoreMarks = true, .disableCwa = false});
  sendUpTo(c, 0, 5);
  c.onData(0, false, T0, {});
  EXPECT_FALSE(c.onData(1, true, T0, {}));
  EXPECT_DOUBLE_EQ(c.cwnd(), 4.0);
  EXPECT_EQ(c.counters().marks, 1u);
  EXPECT_EQ(c.counters().markDecreases, 0u);
}

TEST(WindowController, RetransmissionsDoNotMoveHighInterest)
{
  auto c = makeAimd();
  sendUpTo(c, 0, 5);
  c.onInterestSent(2, true);
  EXPECT_EQ(c.highInterest(), 5u);
}

// --- HyStart++ (RFC 9406) ---------------------------------------------------------------

/// Drives rounds of a window-limited sender: each round sends floor(cwnd) new segments, then
/// their Data arrive with the RTT rttOfRound(round); returns cwnd after each round.
template<typename RttFn>
std::vector<double> runRounds(WindowController& c, int rounds, RttFn rttOfRound, uint64_t& next, TimePoint& now)
{
  std::vector<double> after;
  for (int r = 0; r < rounds; ++r) {
    uint64_t n = static_cast<uint64_t>(c.cwnd());
    uint64_t first = next;
    for (uint64_t i = 0; i < n; ++i)
      c.onInterestSent(next++, false);
    Duration rtt = rttOfRound(r);
    now += rtt;
    for (uint64_t s = first; s < first + n; ++s)
      c.onData(s, false, now, rtt, rtt);
    after.push_back(c.cwnd());
  }
  return after;
}

WindowController makeHyStart(std::string_view algo = "aimd")
{
  WindowOptions w;
  w.initCwnd = 10;
  return WindowController(makeWindow(algo, w, T0), {.hystart = true, .hystartCssRounds = 5});
}

TEST(HyStart, OffSlowStartRunsToTheFirstLoss)
{
  WindowOptions w;
  w.initCwnd = 10;
  WindowController c(makeWindow("aimd", w, T0), catchunksControl());
  uint64_t next = 0;
  TimePoint now = T0;
  auto cw = runRounds(
    c, 8, [](int r) { return std::chrono::milliseconds(r < 4 ? 1 : 20); }, next, now);
  EXPECT_DOUBLE_EQ(cw.back(), 10.0 * 256) << "doubling every round despite the RTT rise";
  EXPECT_EQ(c.hystartPhase(), HyStartPhase::Done);
  EXPECT_EQ(c.counters().hystartExits, 0u);
}

TEST(HyStart, RttRiseEndsSlowStartThroughConservativeSlowStart)
{
  auto c = makeHyStart();
  uint64_t next = 0;
  TimePoint now = T0;
  // rounds 0-3 at 1 ms: plain slow start, the window doubles
  auto cw = runRounds(
    c, 4, [](int) { return std::chrono::milliseconds(1); }, next, now);
  EXPECT_DOUBLE_EQ(cw.back(), 160.0);
  EXPECT_EQ(c.hystartPhase(), HyStartPhase::SlowStart);

  // the RTT rises by 5 ms (threshold clamp(1ms/8, 2ms, 16ms) = 2 ms): CSS, growth / 4
  double before = c.cwnd();
  cw = runRounds(
    c, 1, [](int) { return std::chrono::milliseconds(6); }, next, now);
  EXPECT_EQ(c.hystartPhase(), HyStartPhase::Conservative);
  EXPECT_EQ(c.counters().hystartExits, 1u);
  // the first 8 samples of the round still grew the window by one each
  EXPECT_NEAR(cw.back(), before + 8 + (before - 8) / 4, 1.0);

  // in CSS each round grows by about a quarter, and after 5 CSS rounds slow start is over
  std::vector<double> css = runRounds(
    c, 5, [](int) { return std::chrono::milliseconds(6); }, next, now);
  for (size_t i = 1; i + 1 < css.size(); ++i)
    EXPECT_NEAR(css[i] / css[i - 1], 1.25, 0.01) << "CSS round " << i;
  EXPECT_EQ(c.hystartPhase(), HyStartPhase::Done);
  // the exit happened at the first Data of the last round; the rest of it grew by 1/cwnd each
  EXPECT_LE(c.window().ssthresh(), c.cwnd());
  EXPECT_NEAR(c.window().ssthresh(), css.back(), 1.0) << "congestion avoidance from here";

  // congestion avoidance: about +1 segment per round (AIMD step 1)
  double ca0 = c.cwnd();
  runRounds(
    c, 3, [](int) { return std::chrono::milliseconds(6); }, next, now);
  EXPECT_NEAR(c.cwnd() - ca0, 3.0, 0.5);
}

TEST(HyStart, RttFallingBackReturnsToSlowStart)
{
  auto c = makeHyStart();
  uint64_t next = 0;
  TimePoint now = T0;
  runRounds(
    c, 3, [](int) { return std::chrono::milliseconds(1); }, next, now);
  runRounds(
    c, 1, [](int) { return std::chrono::milliseconds(10); }, next, now);
  ASSERT_EQ(c.hystartPhase(), HyStartPhase::Conservative);
  runRounds(
    c, 1, [](int) { return std::chrono::milliseconds(2); }, next, now);
  EXPECT_EQ(c.hystartPhase(), HyStartPhase::SlowStart);
  EXPECT_EQ(c.counters().hystartSpurious, 1u);
}

TEST(HyStart, LossEndsIt)
{
  auto c = makeHyStart();
  uint64_t next = 0;
  TimePoint now = T0;
  runRounds(
    c, 2, [](int) { return std::chrono::milliseconds(1); }, next, now);
  ASSERT_EQ(c.hystartPhase(), HyStartPhase::SlowStart);
  EXPECT_TRUE(c.onLoss(next - 1, now, c.transmissions()));
  EXPECT_EQ(c.hystartPhase(), HyStartPhase::Done);
}

TEST(HyStart, CubicEntersAnEpochAtTheExitWindow)
{
  auto c = makeHyStart("cubic");
  uint64_t next = 0;
  TimePoint now = T0;
  runRounds(
    c, 4, [](int) { return std::chrono::milliseconds(1); }, next, now);
  runRounds(
    c, 6, [](int) { return std::chrono::milliseconds(8); }, next, now);
  ASSERT_EQ(c.hystartPhase(), HyStartPhase::Done);
  auto& cubic = dynamic_cast<const CubicWindow&>(c.window());
  EXPECT_DOUBLE_EQ(cubic.wmax(), c.window().ssthresh());
  // right after the exit CUBIC is in its concave region: the window barely moves
  double w = c.cwnd();
  runRounds(
    c, 3, [](int) { return std::chrono::milliseconds(8); }, next, now);
  EXPECT_LT(c.cwnd(), w * 1.1);
}

TEST(HyStart, WithoutCssTheRiseIsMeasuredFromTheLowestRtt)
{
  // a queue that grows by 1.5 ms per round, less than the 2 ms threshold: Linux's rule (no CSS)
  // compares each round with the lowest RTT and sees it; RFC 9406's round-to-round rule does not
  auto rtt = [](int r) { return std::chrono::microseconds(10000 + 1500 * std::max(0, r - 2)); };
  WindowOptions w;
  w.initCwnd = 10;
  WindowController linuxRule(makeWindow("aimd", w, T0), {.hystart = true, .hystartCssRounds = 0});
  uint64_t next = 0;
  TimePoint now = T0;
  runRounds(linuxRule, 5, rtt, next, now); // rounds at 10, 10, 10, 11.5, 13 ms
  EXPECT_EQ(linuxRule.counters().hystartExits, 1u);
  EXPECT_EQ(linuxRule.hystartPhase(), HyStartPhase::Done);

  auto rfc = makeHyStart();
  next = 0;
  now = T0;
  runRounds(rfc, 5, rtt, next, now);
  EXPECT_EQ(rfc.counters().hystartExits, 0u);
  EXPECT_EQ(rfc.hystartPhase(), HyStartPhase::SlowStart);
}

} // namespace
} // namespace ndnlab::cc
