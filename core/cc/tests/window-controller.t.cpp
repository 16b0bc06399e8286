#include "core/cc/window-controller.hpp"

#include <gtest/gtest.h>

namespace ndnlab::cc {
namespace {

const TimePoint T0{};

WindowController
makeAimd(WindowControllerOptions o = {})
{
  return WindowController(std::make_unique<AimdWindow>(WindowOptions{}), o);
}

void
sendUpTo(WindowController& c, uint64_t from, uint64_t to)
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

} // namespace
} // namespace ndnlab::cc
