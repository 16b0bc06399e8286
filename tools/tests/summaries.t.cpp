// The end-of-run summaries of `ndnlab get` (ndncatchunks' wording) and `ndnlab ping` (ndnping's):
// what a user reads, computed from the engines' statistics.

#include "tools/common/summaries.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

namespace ndnlab::tools {
namespace {

using namespace std::chrono_literals;

TEST(Summaries, FetchAsNdncatchunksWritesIt)
{
  app::FetchStats s;
  s.elapsed = 2s;
  s.segments = 10;
  s.bytes = Bytes(250'000);
  s.interestsSent = 12;
  s.retransmissions = 2;
  s.rttSamples = 3;
  s.rttMin = 1ms;
  s.rttAvg = 2ms;
  s.rttMax = 3ms;
  EXPECT_EQ(formatRate(s.goodput()), "1.000000 Mbit/s");
  std::string sum = formatFetchSummary(s, true);
  EXPECT_NE(sum.find("Segments received: 10"), std::string::npos);
  EXPECT_NE(sum.find("Transferred size: 250.000 kB"), std::string::npos);
  EXPECT_NE(sum.find("Goodput: 1.000000 Mbit/s"), std::string::npos);
  EXPECT_NE(sum.find("Retransmitted segments: 2 (16.666667%)"), std::string::npos);
  EXPECT_NE(sum.find("RTT min/avg/max = 1.000/2.000/3.000 ms"), std::string::npos);
  // the fixed pipeline has no window lines; no RTT sample, no RTT figures
  s.rttSamples = 0;
  sum = formatFetchSummary(s, false);
  EXPECT_EQ(sum.find("Retransmitted segments"), std::string::npos);
  EXPECT_NE(sum.find("RTT stats unavailable"), std::string::npos);
}

TEST(Summaries, PingAsNdnpingWritesIt)
{
  app::PingStats s;
  s.sent = 4;
  s.received = 3;
  s.timeouts = 1;
  s.rttMin = 10ms;
  s.rttMax = 10ms;
  s.rttSumMs = 30;
  s.rttSumSqMs = 300;
  std::string sum = formatPingSummary(Name("/lab/node"), s, 3s);
  EXPECT_NE(sum.find("--- /lab/node ping statistics ---"), std::string::npos);
  EXPECT_NE(sum.find("4 packets transmitted, 3 received, 25% lost, 0% nacked, time 3000 ms"), std::string::npos);
  EXPECT_NE(sum.find("rtt min/avg/max/mdev = 10.000/10.000/10.000/0.000 ms"), std::string::npos);
}

TEST(Summaries, PingJsonHasTheScenarioKeysAndNoRttWithoutAReply)
{
  app::PingStats s;
  s.sent = 4;
  s.received = 3;
  s.timeouts = 1;
  s.rttMin = 10ms;
  s.rttMax = 12ms;
  s.rttSumMs = 33;
  s.rttSumSqMs = 363;
  auto j = nlohmann::json::parse(formatPingJson(Name("/lab"), s, 3s));
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["prefix"], "/lab");
  EXPECT_EQ(j["pings_sent"], 4);
  EXPECT_EQ(j["pings_received"], 3);
  EXPECT_EQ(j["pings_timed_out"], 1);
  EXPECT_DOUBLE_EQ(j["loss_percent"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(j["rtt_min_ms"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(j["rtt_avg_ms"].get<double>(), 11.0);
  EXPECT_DOUBLE_EQ(j["elapsed_s"].get<double>(), 3.0);
  s.received = 0;
  j = nlohmann::json::parse(formatPingJson(Name("/lab"), s, 3s));
  EXPECT_EQ(j["status"], "error");
  EXPECT_TRUE(j["rtt_min_ms"].is_null());
  EXPECT_TRUE(j["rtt_mdev_ms"].is_null());
}

} // namespace
} // namespace ndnlab::tools

namespace ndnlab::tools {
namespace {

TEST(ParseBitRate, AcceptsNumbersWithPrefixAndUnit)
{
  EXPECT_EQ(parseBitRate("12Mbit/s"), 12'000'000u);
  EXPECT_EQ(parseBitRate("12M"), 12'000'000u);
  EXPECT_EQ(parseBitRate("10mbit"), 10'000'000u);
  EXPECT_EQ(parseBitRate("1.5Gbps"), 1'500'000'000u);
  EXPECT_EQ(parseBitRate("500k"), 500'000u);
  EXPECT_EQ(parseBitRate("500000"), 500'000u);
  EXPECT_EQ(parseBitRate("0"), 0u);
}

TEST(ParseBitRate, RefusesAnythingElse)
{
  for (const char* bad : {"", "-1M", "M", "12 M", "12Mbyte/s", "12x", "inf", "nan", "1e30", " 12M"})
    EXPECT_FALSE(parseBitRate(bad)) << bad;
}

} // namespace
} // namespace ndnlab::tools
