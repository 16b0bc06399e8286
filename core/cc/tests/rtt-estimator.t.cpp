#include "core/cc/rtt-estimator.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ndnlab::cc {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

TEST(RttEstimator, InitialRtoIsOneSecond)
{
  RttEstimator e;
  EXPECT_EQ(e.rto(), std::chrono::seconds(1));
  EXPECT_FALSE(e.hasSamples());
  EXPECT_EQ(e.srtt(), Duration::zero());
}

TEST(RttEstimator, FirstSampleSetsSrttAndHalfVariance)
{
  RttEstimator e; // k = 8 (ndncatchunks)
  e.addMeasurement(milliseconds(100));
  EXPECT_EQ(e.srtt(), milliseconds(100));
  EXPECT_EQ(e.rttVar(), milliseconds(50));
  EXPECT_EQ(e.rto(), milliseconds(500)); // 100 + 8*50
}

TEST(RttEstimator, SecondSampleEwma)
{
  RttEstimator e;
  e.addMeasurement(milliseconds(100));
  e.addMeasurement(milliseconds(200));
  // RTTVAR = 0.75*50 + 0.25*|100-200| = 62.5; SRTT = 0.875*100 + 0.125*200 = 112.5
  EXPECT_EQ(e.rttVar(), microseconds(62500));
  EXPECT_EQ(e.srtt(), microseconds(112500));
  EXPECT_EQ(e.rto(), microseconds(612500)); // 112.5 + 8*62.5
}

TEST(RttEstimator, KIsTheVarianceMultiplier)
{
  RttEstimator::Options o;
  o.k = 4;
  RttEstimator e(o);
  e.addMeasurement(milliseconds(100));
  e.addMeasurement(milliseconds(200));
  EXPECT_EQ(e.rto(), microseconds(362500)); // 112.5 + 4*62.5

  o.k = 0;
  RttEstimator e0(o);
  e0.addMeasurement(milliseconds(300));
  EXPECT_EQ(e0.rto(), milliseconds(300));
}

TEST(RttEstimator, ExpectedSamplesDivideTheGains)
{
  RttEstimator e;
  e.addMeasurement(milliseconds(100));
  e.addMeasurement(milliseconds(200), 2);
  // alpha/2 = 0.0625, beta/2 = 0.125
  EXPECT_EQ(e.rttVar(), microseconds(56250)); // 0.875*50 + 0.125*100
  EXPECT_EQ(e.srtt(), microseconds(106250));  // 0.9375*100 + 0.0625*200
  EXPECT_EQ(e.rto(), microseconds(556250));
}

TEST(RttEstimator, ClampsToMinAndMax)
{
  RttEstimator e;
  e.addMeasurement(milliseconds(1));
  EXPECT_EQ(e.rto(), milliseconds(200));

  RttEstimator::Options o;
  o.maxRto = std::chrono::seconds(2);
  RttEstimator big(o);
  big.addMeasurement(std::chrono::seconds(1));
  EXPECT_EQ(big.rto(), std::chrono::seconds(2)); // 1 + 8*0.5 = 5 s, clamped
}

TEST(RttEstimator, BackoffDoublesUpToMax)
{
  RttEstimator e;
  e.addMeasurement(milliseconds(100)); // 500 ms
  e.backoffRto();
  EXPECT_EQ(e.rto(), milliseconds(1000));
  e.backoffRto();
  EXPECT_EQ(e.rto(), milliseconds(2000));
  for (int i = 0; i < 10; ++i)
    e.backoffRto();
  EXPECT_EQ(e.rto(), std::chrono::seconds(60));
  EXPECT_EQ(e.backoffsSinceSample(), 12u);
  // a new sample recomputes from SRTT/RTTVAR
  e.addMeasurement(milliseconds(100));
  EXPECT_LT(e.rto(), std::chrono::seconds(1));
  EXPECT_EQ(e.backoffsSinceSample(), 0u);
}

TEST(RttEstimator, Statistics)
{
  RttEstimator e;
  e.addMeasurement(milliseconds(10));
  e.addMeasurement(milliseconds(30));
  e.addMeasurement(milliseconds(20));
  EXPECT_EQ(e.sampleCount(), 3u);
  EXPECT_EQ(e.minRtt(), milliseconds(10));
  EXPECT_EQ(e.maxRtt(), milliseconds(30));
  EXPECT_EQ(e.avgRtt(), milliseconds(20));
}

TEST(RttEstimator, RejectsBadOptions)
{
  RttEstimator::Options o;
  o.alpha = 0;
  EXPECT_THROW(RttEstimator{o}, std::invalid_argument);
  o = {};
  o.k = -1;
  EXPECT_THROW(RttEstimator{o}, std::invalid_argument);
  o = {};
  o.maxRto = milliseconds(100);
  EXPECT_THROW(RttEstimator{o}, std::invalid_argument);
}

} // namespace
} // namespace ndnlab::cc
