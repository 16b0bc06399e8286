// The stream consumer's estimators (core/stream/estimators.hpp) against hand-computed values:
// Interest demand (Eq. 1), pipeline bursting and withholding, DRD windows kept apart for original
// and cached Data, and latest-data detection (Eq. 3) with the paper's three parameter sets:
// stale bursts never count as stable, a steady arrival at the sample period does after K.

#include "core/stream/estimators.hpp"

#include <gtest/gtest.h>

namespace ndnlab::stream::tests {
namespace {

using namespace std::chrono_literals;
const TimePoint T0{std::chrono::seconds(10)};
constexpr Duration Period = std::chrono::microseconds(33333); // 30 frames/s

TEST(InterestDemand, Eq1)
{
  EXPECT_EQ(interestDemand(100ms, Period), 4u) << "the paper's case: 100 ms RTT at 30 frames/s";
  EXPECT_EQ(interestDemand(Period * 3, Period), 3u) << "exactly three periods";
  EXPECT_EQ(interestDemand(0ms, Period), 1u) << "at least one";
  EXPECT_EQ(interestDemand(-5ms, Period), 1u) << "DRD' below d_gen reads as zero";
  EXPECT_THROW(interestDemand(100ms, 0ms), std::invalid_argument);
}

TEST(PipelineAdjustment, BurstDoublesWithholdTakesAQuarter)
{
  EXPECT_EQ(burst(4), 8u);
  EXPECT_EQ(withhold(8), 6u);
  EXPECT_EQ(withhold(4), 3u);
  EXPECT_EQ(withhold(1), 1u) << "never empty";
  EXPECT_EQ(burst(0), 1u);
}

TEST(DrdEstimator, WindowsOriginalAndCachedApart)
{
  DrdEstimator d(200ms, 150ms);
  EXPECT_EQ(d.original(T0), 150ms) << "initial estimate";
  d.add(T0, 100ms, false);
  d.add(T0 + 50ms, 120ms, false);
  d.add(T0 + 60ms, 20ms, true);
  EXPECT_EQ(d.original(T0 + 60ms), 110ms);
  EXPECT_EQ(d.cached(T0 + 60ms), 20ms);
  EXPECT_EQ(d.latest(T0 + 60ms), 20ms) << "the last Data came from a cache";
  // 250 ms on: the first sample left the window
  EXPECT_EQ(d.original(T0 + 230ms), 120ms);
  // nothing in the window: the last mean stays
  EXPECT_EQ(d.original(T0 + 2s), 120ms);
  d.add(T0 + 2s, 90ms, false);
  EXPECT_EQ(d.latest(T0 + 2s), 90ms);
  EXPECT_THROW(DrdEstimator(0ms), std::invalid_argument);
}

TEST(StabilityEstimator, SteadyArrivalAtThePeriodIsLatestAfterK)
{
  for (auto params : {StabilityParams::low(), StabilityParams::medium(), StabilityParams::high()}) {
    StabilityEstimator s(params, Period);
    size_t samples = 0;
    while (!s.latest() && samples < 1000) {
      s.add(Period);
      ++samples;
    }
    // 2N samples fill both windows; the first stable one is the 2N-th, the K-th in a row ends it
    EXPECT_EQ(samples, 2 * params.n + params.k - 1) << "N = " << params.n;
  }
}

TEST(StabilityEstimator, StaleBurstsNeverCountAsStable)
{
  // stale data comes in bursts: a few Data back to back, then a gap as long as the burst's worth
  for (auto params : {StabilityParams::low(), StabilityParams::medium(), StabilityParams::high()}) {
    StabilityEstimator s(params, Period);
    for (int i = 0; i < 600; ++i) {
      const Duration delta = (i % 4 == 3) ? Period * 4 - 3ms : 1ms; // mean = the period, bursty
      s.add(delta);
      EXPECT_FALSE(s.latest()) << "sample " << i << ", N = " << params.n;
    }
  }
}

TEST(StabilityEstimator, ArrivalAtAnotherRateIsNotTheLatest)
{
  // cached data drained faster than the producer makes it: steady, but at half the period
  StabilityEstimator s(StabilityParams::medium(), Period);
  for (int i = 0; i < 200; ++i)
    s.add(Period / 2);
  EXPECT_FALSE(s.latest()) << "1 - |T/2 - T| / T = 0.5 < theta2 = 0.7";
  // Low accepts it (0.5 >= 0.5): a false latest-data detection, as the paper warns
  StabilityEstimator low(StabilityParams::low(), Period);
  for (int i = 0; i < 200; ++i)
    low.add(Period / 2);
  EXPECT_TRUE(low.latest());
}

TEST(StabilityEstimator, OneUnstableSampleRestartsTheRunAndResetForgets)
{
  StabilityEstimator s(StabilityParams::low(), Period);
  for (int i = 0; i < 8; ++i)
    s.add(Period);
  EXPECT_EQ(s.stableRun(), 3u);
  s.add(Period * 5);
  EXPECT_EQ(s.stableRun(), 0u);
  s.reset();
  EXPECT_FALSE(s.add(Period));
  EXPECT_THROW(StabilityParams::named("extreme"), std::invalid_argument);
  EXPECT_EQ(StabilityParams::named("high").n, 30u);
  EXPECT_THROW(StabilityEstimator(StabilityParams{0.1, 1.5, 3, 4}, Period), std::invalid_argument);
  EXPECT_THROW(StabilityEstimator(StabilityParams::low(), 0ms), std::invalid_argument);
}

} // namespace
} // namespace ndnlab::stream::tests
