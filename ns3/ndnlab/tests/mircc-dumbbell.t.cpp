// Scenario mircc-dumbbell (issue 28 item 5): MIRCC on every node shares the paper's dumbbell;
// the coarse clock breaks it and smoothening mends it (the directions of Kato et al.'s Sec. IV-V);
// the same seed gives the same metrics. Each run simulates 13 s of a 12 Mbit/s dumbbell in
// well under a second.

#include "ns3/runner/tests/run-cli.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ndnlab::sim::test {
namespace {

using simtest::expectUsageError;
using simtest::runCli;

nlohmann::json run(std::vector<std::string> args)
{
  args.insert(args.begin(), "mircc-dumbbell");
  args.push_back("--Traces=none");
  auto r = runCli(args);
  EXPECT_EQ(r.exitCode, 0) << r.result.dump();
  return r.result["metrics"];
}

double flow(const nlohmann::json& m, const char* f, const char* key)
{
  return m["flows"][f][key].get<double>();
}

TEST(MirccDumbbell, FineClockFillsTheAccessLinkAloneAndSharesTheBottleneck)
{
  const auto m = run({"--Tick=100"});
  // 10 Mbit/s of 1,250-byte Data = 1,000/s alone; 12 Mbit/s shared = 600/s each
  EXPECT_NEAR(flow(m, "C1", "rate_pps_alone"), 1000, 100);
  EXPECT_NEAR(flow(m, "C1", "rate_pps_shared"), 600, 60);
  EXPECT_NEAR(flow(m, "C2", "rate_pps_shared"), 600, 60);
  EXPECT_GT(m["jain_index_shared"].get<double>(), 0.99);
  EXPECT_LT(flow(m, "C1", "loss_rate"), 0.1);
  EXPECT_LT(flow(m, "C2", "loss_rate"), 0.1);
  EXPECT_EQ(m["nodes"]["R2"]["queue_drops"].get<uint64_t>(), 0u) << "shaping keeps the Data within the link";
}

TEST(MirccDumbbell, CoarseClockLosesMostAndSmootheningMendsIt)
{
  const auto coarse = run({"--Tick=500"});
  const auto smooth = run({"--Tick=500", "--Smoothening=true"});
  for (const char* f : {"C1", "C2"}) {
    EXPECT_GT(flow(coarse, f, "loss_rate"), 0.5) << f;
    EXPECT_LT(flow(smooth, f, "loss_rate"), 0.5) << f;
    EXPECT_GT(flow(coarse, f, "rate_pps_shared"), flow(smooth, f, "rate_pps_shared")) << f;
  }
  EXPECT_GT(coarse["nodes"]["C1"]["shaper_drops"].get<uint64_t>(), 0u) << "the consumer's token bucket overflows";
}

TEST(MirccDumbbell, ShapersThatHoldATickTakeTheCoarseClocksBursts)
{
  // 750 ms: a tick of Interests at the access rate is 750, more than the paper's 200
  const auto paperDepth = run({"--Tick=750", "--Smoothening=true", "--QueueStamping=true"});
  const auto tickDepth = run({"--Tick=750", "--Smoothening=true", "--QueueStamping=true", "--TickShapers=true"});
  uint64_t dropsPaper = 0, dropsTick = 0;
  for (const char* n : {"C1", "C2", "R1", "R2"}) {
    dropsPaper += paperDepth["nodes"][n]["shaper_drops"].get<uint64_t>();
    dropsTick += tickDepth["nodes"][n]["shaper_drops"].get<uint64_t>();
  }
  EXPECT_GT(dropsPaper, 0u);
  EXPECT_EQ(dropsTick, 0u);
  for (const char* f : {"C1", "C2"})
    EXPECT_EQ(flow(tickDepth, f, "loss_rate"), 0.0) << f;
  // what the deeper shapers cost: Interests wait longer in them
  EXPECT_GT(tickDepth["queueing_delay_ms_shared"].get<double>(), 0.0);
  EXPECT_GT(flow(tickDepth, "C1", "rtt_ms_shared"), flow(tickDepth, "C1", "rtt_ms_min"));
}

TEST(MirccDumbbell, SameSeedSameMetrics)
{
  EXPECT_EQ(run({"--Tick=250", "--seed=3"}), run({"--Tick=250", "--seed=3"}));
}

TEST(MirccDumbbell, WindowConsumersRunOverTheSameRouters)
{
  const auto m = run({"--Cc=aimd"});
  EXPECT_GT(flow(m, "C1", "rate_pps_shared"), 0);
  EXPECT_GT(flow(m, "C2", "rate_pps_shared"), 0);
}

TEST(MirccDumbbell, GetsRatePipelineFollowsTheRateToo)
{
  const auto m = run({"--RateConsumer=get"});
  EXPECT_NEAR(flow(m, "C1", "rate_pps_alone"), 1000, 150);
  EXPECT_NEAR(flow(m, "C1", "rate_pps_shared"), 600, 90);
  EXPECT_NEAR(flow(m, "C2", "rate_pps_shared"), 600, 90);
}

TEST(MirccDumbbell, NetworkDescribesGetsConsumersOnly)
{
  auto r = runCli({"mircc-dumbbell", "--RateConsumer=get", "--Tick=250", "--Smoothening=true", "--network"});
  ASSERT_EQ(r.exitCode, 0) << r.result.dump();
  const auto& n = r.result;
  EXPECT_EQ(n["links"][2]["rate_bps"], 12e6);
  EXPECT_EQ(n["links"][2]["delay_s"], 0.1);
  EXPECT_EQ(n["mircc"]["interval_ms"], 250.0);
  const auto& c2 = n["apps"][3];
  EXPECT_EQ(c2["node"], "C2");
  EXPECT_EQ(c2["start_s"], 3.0);
  EXPECT_EQ(c2["stop_s"], 8.0);
  EXPECT_EQ(c2["args"], nlohmann::json({"--cc", "mircc", "--tick", "250", "--initial-rate", "100", "--rate-data-size",
                                        "1250", "--smoothening"}));
  expectUsageError({"mircc-dumbbell", "--network"}, "RateConsumer=get");
}

TEST(MirccDumbbell, BadTimesAndOptionsAreUsageErrors)
{
  expectUsageError({"mircc-dumbbell", "--C2Start=9"}, "C2Start");
  expectUsageError({"mircc-dumbbell", "--C1Stop=0.5"}, "C1Start");
  expectUsageError({"mircc-dumbbell", "--Cc=aimd", "--Smoothening=true"}, "Smoothening");
  expectUsageError({"mircc-dumbbell", "--Tick=0"}, "Tick");
}

} // namespace
} // namespace ndnlab::sim::test
