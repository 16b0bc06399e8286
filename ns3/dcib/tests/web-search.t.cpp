#include "ns3/dcib/model/web-search.hpp"

#include <gtest/gtest.h>

#include <random>

namespace ndnlab::dcib::test {
namespace {

TEST(WebSearch, QuantilesFollowTheCdf)
{
  EXPECT_EQ(WebSearchWorkload::sample(0.15), 10'000u);
  EXPECT_EQ(WebSearchWorkload::sample(0.53), 80'000u);
  EXPECT_EQ(WebSearchWorkload::sample(0.70), 1'000'000u);
  EXPECT_EQ(WebSearchWorkload::sample(0.75), 1'500'000u); // linear between 1 MB and 2 MB
  EXPECT_EQ(WebSearchWorkload::sample(1.0), 30'000'000u);
  EXPECT_GE(WebSearchWorkload::sample(0.0), 1u);
}

TEST(WebSearch, MeanAndArrivalRate)
{
  EXPECT_NEAR(WebSearchWorkload::meanBytes(), 1.71125e6, 1.0);
  // 80% of 10 Gbps: 8e9 / (8 * 1.71 MB) flows per second
  EXPECT_NEAR(WebSearchWorkload::arrivalRate(0.8, 10e9), 8e9 / (8 * 1.71125e6), 1e-6);

  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  double sum = 0;
  const int n = 400'000;
  for (int i = 0; i < n; ++i)
    sum += double(WebSearchWorkload::sample(u(rng)));
  EXPECT_NEAR(sum / n, WebSearchWorkload::meanBytes(), 0.02 * WebSearchWorkload::meanBytes());
}

} // namespace
} // namespace ndnlab::dcib::test
