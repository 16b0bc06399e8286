// `ndnlab perf`'s engines as ns-3 applications: PerfConsumerApp against PerfProducerApp over
// point-to-point links, window and paced, the same figures the tool reports.

#include "ns3/ndnlab/tests/sim-fixture.hpp"

#include "ns3/ndnlab/apps/perf-apps.hpp"

#include <ns3/nstime.h>

namespace ndnlab::sim::test {
namespace {

class PerfAppsTest : public SimTest
{
protected:
  /// Producer on node 1 of a 2-node chain, consumer on node 0 with `attrs`.
  ns3::Ptr<PerfConsumerApp> install(Chain& chain, const std::map<std::string, std::string>& attrs)
  {
    StackHelper().Install(chain.nodes);
    RouteHelper::AddRoute(chain.nodes.Get(0), "/perf", chain.nodes.Get(1));
    AppHelper producer("ndnlab::PerfProducerApp");
    producer.SetPrefix("/perf");
    server = ns3::DynamicCast<PerfProducerApp>(producer.Install(chain.nodes.Get(1)).Get(0));
    AppHelper consumer("ndnlab::PerfConsumerApp");
    consumer.SetPrefix("/perf");
    for (const auto& [k, v] : attrs)
      consumer.SetAttribute(k, ns3::StringValue(v));
    auto app = ns3::DynamicCast<PerfConsumerApp>(consumer.Install(chain.nodes.Get(0)).Get(0));
    app->TraceConnectWithoutContext("Interval", ns3::MakeCallback(&PerfAppsTest::OnInterval, this));
    return app;
  }

  void OnInterval(const app::PerfInterval& iv) { intervals.push_back(iv); }

  ns3::Ptr<PerfProducerApp> server;
  std::vector<app::PerfInterval> intervals;
};

TEST_F(PerfAppsTest, WindowModeFillsTheLink)
{
  Chain chain(2, "10Mbps", "5ms");
  auto app = install(chain, {{"Duration", "2s"}, {"Interval", "500ms"}, {"Payload", "1000"}});
  ns3::Simulator::Stop(ns3::Seconds(10));
  ns3::Simulator::Run();
  ASSERT_TRUE(app->GetReport());
  const app::PerfReport& r = *app->GetReport();
  EXPECT_EQ(r.elapsed, std::chrono::seconds(2));
  ASSERT_EQ(r.intervals.size(), 4u);
  ASSERT_EQ(intervals.size(), 4u); // the trace source saw each
  const double bps = static_cast<double>(r.sum.bytes) * 8 / 2;
  EXPECT_GT(bps, 5e6);  // content of a 10 Mbit/s link after slow start
  EXPECT_LT(bps, 10e6); // never beyond it
  ASSERT_TRUE(r.server);
  EXPECT_GE(r.server->bytes, r.sum.bytes);
  EXPECT_FALSE(r.server->cpu); // simulated hosts have no CPU figures
  EXPECT_EQ(server->GetCounters().sessions, 1u);
}

TEST_F(PerfAppsTest, PacedModeCountsTheLinkLoss)
{
  Chain chain(2, "10Mbps", "5ms");
  chain.addLoss(0, 0, 0.1, 1); // 10 % of the Data lost on the way back
  auto app = install(chain, {{"Duration", "1s"}, {"Payload", "1000"}, {"BitRate", "2000000"}, {"Lifetime", "100ms"}});
  ns3::Simulator::Stop(ns3::Seconds(5));
  ns3::Simulator::Run();
  ASSERT_TRUE(app->GetReport());
  const app::PerfReport& r = *app->GetReport();
  EXPECT_EQ(r.mode, "paced");
  EXPECT_EQ(r.sum.interests, 250u); // 2 Mbit/s of 1000-byte content for 1 s
  EXPECT_EQ(r.sum.retransmissions, 0u);
  EXPECT_EQ(r.sum.packets(), 250u);
  EXPECT_GT(r.sum.lost, 10u);
  EXPECT_LT(r.sum.lost, 45u);
  EXPECT_EQ(r.sum.bytes, r.sum.segments * 1000);
}

TEST_F(PerfAppsTest, BytesOverParallelFlowsArriveExactly)
{
  Chain chain(2, "10Mbps", "5ms");
  auto app = install(chain, {{"Bytes", "100001"}, {"Parallel", "2"}, {"Pipeline", "aimd"}});
  ns3::Simulator::Stop(ns3::Seconds(10));
  ns3::Simulator::Run();
  ASSERT_TRUE(app->GetReport());
  const app::PerfReport& r = *app->GetReport();
  EXPECT_FALSE(r.error);
  EXPECT_EQ(r.sum.bytes, 100'001u);
  ASSERT_EQ(r.flows.size(), 2u);
  EXPECT_EQ(r.flows[0].bytes, 50'001u);
  EXPECT_EQ(r.flows[1].bytes, 50'000u);
  EXPECT_EQ(r.pipeline, "aimd");
}

} // namespace
} // namespace ndnlab::sim::test
