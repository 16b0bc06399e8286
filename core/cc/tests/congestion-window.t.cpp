#include "core/cc/congestion-window.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace ndnlab::cc {
namespace {

using std::chrono::milliseconds;

const TimePoint T0{};

TEST(Registry, NamesAndFactory)
{
  const auto& names = windowAlgorithms();
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names[0], "fixed");
  EXPECT_EQ(names[1], "aimd");
  EXPECT_EQ(names[2], "cubic");
  for (const auto& n : names) {
    EXPECT_TRUE(isWindowAlgorithm(n));
    EXPECT_EQ(makeWindow(n, {}, T0)->algorithm(), n);
  }
  EXPECT_FALSE(isWindowAlgorithm("reno"));
  try {
    makeWindow("reno", {}, T0);
    FAIL();
  }
  catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("fixed, aimd, cubic"), std::string::npos);
  }
}

TEST(Registry, ValidatesOptions)
{
  WindowOptions o;
  o.initCwnd = 0;
  EXPECT_THROW(makeWindow("aimd", o, T0), std::invalid_argument);
  o = {};
  o.cubic.beta = 1.5;
  EXPECT_THROW(makeWindow("cubic", o, T0), std::invalid_argument);
}

TEST(FixedWindow, NeverChanges)
{
  WindowOptions o;
  o.fixedSize = 8;
  auto w = makeWindow("fixed", o, T0);
  EXPECT_FALSE(w->isAdaptive());
  EXPECT_EQ(w->cwnd(), 8);
  w->increase(T0, milliseconds(10));
  w->decrease(T0);
  EXPECT_EQ(w->cwnd(), 8);
}

TEST(AimdWindow, Defaults)
{
  AimdWindow w({});
  EXPECT_TRUE(w.isAdaptive());
  EXPECT_EQ(w.cwnd(), 2.0);
  EXPECT_TRUE(std::isinf(w.ssthresh()));
}

TEST(AimdWindow, SlowStartThenCongestionAvoidance)
{
  AimdWindow w({});
  w.increase(T0, {});
  w.increase(T0, {});
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 5.0); // slow start: +1 each
  w.decrease(T0);
  EXPECT_DOUBLE_EQ(w.ssthresh(), 2.5); // max(2, 5*0.5)
  EXPECT_DOUBLE_EQ(w.cwnd(), 2.5);
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 3.0); // CA: +1/floor(2.5)
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 3.0 + 1.0 / 3.0); // +1/floor(3)
  w.decrease(T0);
  EXPECT_DOUBLE_EQ(w.ssthresh(), 2.0); // max(2, 1.667)
  EXPECT_DOUBLE_EQ(w.cwnd(), 2.0);
}

TEST(AimdWindow, StepBetaAndResetToInit)
{
  WindowOptions o;
  o.initCwnd = 1;
  o.aimd.step = 2;
  o.aimd.beta = 0.25;
  o.aimd.resetToInit = true;
  AimdWindow w(o);
  for (int i = 0; i < 5; ++i)
    w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 11.0);
  w.decrease(T0);
  EXPECT_DOUBLE_EQ(w.ssthresh(), 2.75);
  EXPECT_DOUBLE_EQ(w.cwnd(), 1.0); // reset to init
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 3.0); // slow start (1 < 2.75): +2
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 3.0 + 2.0 / 3.0); // CA: +2/floor(3)
}

TEST(AimdWindow, ConsumerPconFloorAndIncrease)
{
  // ndnSIM's ConsumerPcon: the window may fall to the initial window, and avoidance adds 1/cwnd
  WindowOptions o;
  o.initCwnd = 1;
  o.aimd.minSsthresh = 1;
  o.aimd.floorIncrease = false;
  AimdWindow w(o);
  w.increase(T0, {});
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 3.0);
  w.decrease(T0);
  EXPECT_DOUBLE_EQ(w.cwnd(), 1.5);
  w.decrease(T0);
  EXPECT_DOUBLE_EQ(w.cwnd(), 1.0) << "ndncatchunks would stop at 2";
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 2.0); // 1/1
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 2.5); // 1/2
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 2.9); // 1/2.5, where ndncatchunks adds 1/floor(2.5) = 0.5
  WindowOptions bad;
  bad.aimd.minSsthresh = 0.5;
  EXPECT_THROW(bad.validate(), std::invalid_argument);
}

TEST(AimdWindow, InitialSsthresh)
{
  WindowOptions o;
  o.initSsthresh = 3;
  AimdWindow w(o);
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 3.0);
  w.increase(T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 3.0 + 1.0 / 3.0);
}

TEST(CubicWindow, SlowStartAndDecrease)
{
  CubicWindow w({}, T0);
  for (int i = 0; i < 8; ++i)
    w.increase(T0, milliseconds(100));
  EXPECT_DOUBLE_EQ(w.cwnd(), 10.0);
  w.decrease(T0 + std::chrono::seconds(1));
  EXPECT_DOUBLE_EQ(w.wmax(), 10.0);
  EXPECT_DOUBLE_EQ(w.lastWmax(), 10.0);
  EXPECT_DOUBLE_EQ(w.ssthresh(), 7.0); // max(2, 10*0.7)
  EXPECT_DOUBLE_EQ(w.cwnd(), 7.0);
}

TEST(CubicWindow, CongestionAvoidanceHandComputed)
{
  WindowOptions o;
  o.cubic.fastConvergence = true;
  CubicWindow w(o, T0);
  for (int i = 0; i < 8; ++i)
    w.increase(T0, milliseconds(100));
  const TimePoint tDec = T0 + std::chrono::seconds(1);
  w.decrease(tDec); // wmax 10, cwnd 7

  // t = 0.5 s, SRTT = 100 ms: K = cbrt(10*0.3/0.4) = 1.95743;
  // W_cubic = 0.4*(0.5-K)^3 + 10 = 8.76170; W_est = 7 + (0.9/1.7)*5 = 9.64706 (wins);
  // cwnd = 7 + (9.64706 - 7)/7 = 7.37815
  w.increase(tDec + milliseconds(500), milliseconds(100));
  EXPECT_NEAR(w.cwnd(), 7.378151260504202, 1e-9);

  // t = 3 s: W_cubic = 10.45328, W_est = 22.88235; cwnd += (22.88235 - 7.37815)/7.37815
  w.increase(tDec + milliseconds(3000), milliseconds(100));
  EXPECT_NEAR(w.cwnd(), 9.479518003101013, 1e-9);

  // fast convergence: cwnd 9.4795 < last wmax 10 -> wmax = cwnd*(1+0.7)/2
  w.decrease(tDec + milliseconds(3000));
  EXPECT_NEAR(w.lastWmax(), 9.479518003101013, 1e-9);
  EXPECT_NEAR(w.wmax(), 8.05759030263586, 1e-9);
  EXPECT_NEAR(w.ssthresh(), 6.635662602170709, 1e-9);
  EXPECT_NEAR(w.cwnd(), 6.635662602170709, 1e-9);
}

TEST(CubicWindow, NoFastConvergenceKeepsCwndAsWmax)
{
  CubicWindow w({}, T0);
  for (int i = 0; i < 8; ++i)
    w.increase(T0, milliseconds(100));
  w.decrease(T0); // wmax 10, cwnd 7
  w.decrease(T0); // cwnd 7 < lastWmax 10 but fast convergence is off
  EXPECT_DOUBLE_EQ(w.wmax(), 7.0);
  EXPECT_DOUBLE_EQ(w.cwnd(), 4.9);
  w.decrease(T0);
  w.decrease(T0);
  EXPECT_DOUBLE_EQ(w.cwnd(), 2.401);
  w.decrease(T0);
  EXPECT_DOUBLE_EQ(w.cwnd(), 2.0); // never below initCwnd
}

TEST(CubicWindow, CubicTermWinsWithLargeRtt)
{
  CubicWindow w({}, T0);
  for (int i = 0; i < 8; ++i)
    w.increase(T0, milliseconds(100));
  w.decrease(T0); // wmax 10, cwnd 7, epoch T0
  // With a 10 s SRTT W_est stays near 7; at t = K the cubic target is wmax = 10.
  const double k = std::cbrt(10 * 0.3 / 0.4);
  w.increase(T0 + std::chrono::nanoseconds(static_cast<int64_t>(k * 1e9)), std::chrono::seconds(10));
  EXPECT_NEAR(w.cwnd(), 7 + 3.0 / 7, 1e-6);
}

TEST(CubicWindow, WithoutTcpFriendlyRegionOnlyTheCubicCurveCounts)
{
  // ndnSIM's ConsumerPcon: no W_est. Right after a decrease the cubic target is near the window
  // itself, so a short-RTT flow barely grows where the Reno estimate would pull it up.
  WindowOptions o;
  o.cubic.tcpFriendly = false;
  CubicWindow plain(o, T0);
  CubicWindow friendly({}, T0);
  for (auto* w : {&plain, &friendly}) {
    for (int i = 0; i < 8; ++i)
      w->increase(T0, milliseconds(1));
    w->decrease(T0); // wmax 10, cwnd 7
  }
  const auto t = T0 + milliseconds(50); // 50 RTTs of 1 ms later
  plain.increase(t, milliseconds(1));
  friendly.increase(t, milliseconds(1));
  EXPECT_NEAR(plain.cwnd(), 7.0 + (0.4 * std::pow(0.05 - std::cbrt(7.5), 3) + 10 - 7) / 7, 1e-9);
  EXPECT_LT(plain.cwnd(), 7.05);
  EXPECT_GT(friendly.cwnd(), 10.0); // W_est = 7 + 0.53 x 50 = 33.5: +26.5/7
}

TEST(CubicWindow, NoSrttSkipsRenoEstimate)
{
  WindowOptions o;
  o.initSsthresh = 2; // start in congestion avoidance
  CubicWindow w(o, T0);
  w.increase(T0 + milliseconds(100), Duration::zero());
  EXPECT_TRUE(std::isfinite(w.cwnd()));
  EXPECT_DOUBLE_EQ(w.wmax(), 2.0);
}

TEST(WindowEvent, Dispatch)
{
  AimdWindow w({});
  w.onEvent(WindowEvent::Ack, T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 3.0);
  w.onEvent(WindowEvent::Congestion, T0, {});
  EXPECT_DOUBLE_EQ(w.cwnd(), 2.0);
}

} // namespace
} // namespace ndnlab::cc
