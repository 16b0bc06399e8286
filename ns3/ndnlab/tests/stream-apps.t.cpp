// The real-time stream apps (ns3/ndnlab/apps/stream-apps.hpp) over the rtsd-star scenario, run
// through the runner's command line as `ndnlab-sim` runs them: the stream plays to its end
// with the consumer's metrics under `stream`, a lossy L2 is recovered from, and one seed gives
// one result.

#include "ns3/ndnlab/apps/stream-apps.hpp"
#include "ns3/runner/tests/run-cli.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace ndnlab::sim::test {
namespace {

using simtest::expectUsageError;
using simtest::runCli;

TEST(StreamApps, BitratesParseAsTheToolWritesThem)
{
  auto t = parseStreamBitrates("200k,1000k,3M");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].name, "200k");
  EXPECT_DOUBLE_EQ(t[0].bitrate.bps(), 200e3);
  EXPECT_DOUBLE_EQ(t[2].bitrate.bps(), 3e6);
  for (const char* bad : {"", "0k", "k", "200k,200k", "200x", "1,,2", "-5k"})
    EXPECT_THROW(parseStreamBitrates(bad), std::invalid_argument) << bad;
}

TEST(StreamApps, RtsdStarPlaysTheStreamToItsEnd)
{
  auto r = runCli({"rtsd-star", "--StreamTime=6", "--InitialPipeline=4"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& m = r.result["metrics"];
  const auto& s = m["stream"];
  EXPECT_EQ(s["state"], "ended");
  EXPECT_EQ(s["lambda_initial"], 4);
  EXPECT_GT(s["lambda_final"].get<uint64_t>(), 0u);
  EXPECT_GT(s["chasing_ms"].get<double>(), 0);
  EXPECT_GT(s["first_frame_ms"].get<double>(), 0);
  // 180 frames published; the consumer joined 1 s in, at the latest frame
  EXPECT_EQ(m["producer"]["frames"], 180);
  const auto rendered = s["frames_rendered"].get<uint64_t>();
  EXPECT_GT(rendered, 100u);
  EXPECT_LE(rendered, 180u);
  EXPECT_EQ(s["frames_lost"], 0);
  EXPECT_GE(s["drd_final_ms"].get<double>(), 100); // the RTT of the two 25 ms links
  EXPECT_GT(m["l2_utilization"].get<double>(), 0);
  EXPECT_LT(m["l2_utilization"].get<double>(), 1);
}

TEST(StreamApps, RtsdStarRecoversFromALossyLink)
{
  auto r = runCli({"rtsd-star", "--StreamTime=8", "--Loss=0,0.03"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& s = r.result["metrics"]["stream"];
  EXPECT_EQ(s["state"], "ended");
  EXPECT_GT(s["frames_rendered"].get<uint64_t>(), 100u);
  EXPECT_GT(s["frames_fec"].get<uint64_t>() + s["frames_rtx"].get<uint64_t>(), 0u);
}

TEST(StreamApps, RtsdStarSameSeedSameMetrics)
{
  auto run = [](const char* seed) {
    auto r = runCli({"rtsd-star", "--StreamTime=4", "--Loss=0,0.02", std::string("--seed=") + seed});
    EXPECT_EQ(r.exitCode, 0) << r.result.dump();
    return r.result["metrics"];
  };
  const auto a = run("3");
  const auto b = run("3");
  EXPECT_EQ(a, b);
  EXPECT_TRUE(a.contains("stream"));
}

TEST(StreamApps, RtsdStarRefusesBadStreamParameters)
{
  expectUsageError({"rtsd-star", "--Bitrates=200k,200k"}, "given twice");
  expectUsageError({"rtsd-star", "--Loss=0,0,0"}, "Loss");
}

TEST(StreamApps, RtsdScaleTwoConsumersPlayOneProducersStream)
{
  auto r = runCli({"rtsd-scale", "--Test=consumers", "--StreamTime=16", "--SecondStart=6"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& m = r.result["metrics"];
  for (const char* c : {"stream", "stream2"}) {
    EXPECT_EQ(m[c]["state"], "ended") << c;
    EXPECT_EQ(m[c]["frames_lost"], 0) << c;
  }
  EXPECT_GT(m["stream2"]["frames_rendered"].get<uint64_t>(), 100u);
  // the face toward the consumers carries the stream twice; the producer's face at most that
  // (once when C2's Interests reach R within best-route's retransmission suppression interval
  // of C1's, else R forwards them as retransmissions: docs/results/rtsd.md)
  const auto& face1 = m["faces"]["face1"];
  const auto& face2 = m["faces"]["face2"];
  EXPECT_GT(face2["after_mbps"].get<double>(), 1.8 * face2["before_mbps"].get<double>());
  EXPECT_LE(face1["after_mbps"].get<double>(), face2["after_mbps"].get<double>());
  EXPECT_NEAR(face1["before_mbps"].get<double>(), face2["before_mbps"].get<double>(), 1e-9);
}

TEST(StreamApps, RtsdScaleTheStreamGoesOnThroughTheSecondRouter)
{
  auto r = runCli({"rtsd-scale", "--Test=failover", "--StreamTime=12", "--FailTime=6"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& m = r.result["metrics"];
  const auto& s = m["stream"];
  EXPECT_EQ(s["state"], "ended");
  EXPECT_GT(s["frames_rendered"].get<uint64_t>(), 300u);
  EXPECT_EQ(m["faces"]["r1"]["after_mbps"].get<double>(), 0);
  EXPECT_GT(m["faces"]["r2"]["after_mbps"].get<double>(), 1.0); // the 1000 kbit/s stream and its parity
}

TEST(StreamApps, RtsdScaleRefusesAnEventOutsideTheStream)
{
  expectUsageError({"rtsd-scale", "--Test=failover", "--FailTime=50"}, "--FailTime");
  expectUsageError({"rtsd-scale", "--SecondStart=0.5"}, "--SecondStart");
}

} // namespace
} // namespace ndnlab::sim::test
