// RouteHelper shortest paths over the channel graph, static routes toward a neighbour, and the
// constant-rate consumer application.

#include "ns3/ndnlab/tests/sim-fixture.hpp"

#include "ns3/ndnlab/apps/constant-rate-consumer-app.hpp"

#include <ns3/channel.h>
#include <ns3/double.h>

namespace ndnlab::sim::test {
namespace {

/// (neighbour node id, cost) of every nexthop of `prefix` on `node`.
std::map<uint32_t, uint64_t> routesOf(ns3::Ptr<ns3::Node> node, const std::string& prefix)
{
  auto stack = node->GetObject<NdnStack>();
  std::map<uint32_t, uint64_t> out;
  table::FibEntry* e = stack->GetForwarder().fib().findExactMatch(Name(prefix));
  if (e == nullptr)
    return out;
  for (const auto& nh : e->nextHops()) {
    NetDeviceTransport* t = stack->GetTransport(nh.face->id());
    ns3::Ptr<ns3::Channel> ch = t->GetNetDevice()->GetChannel();
    for (std::size_t j = 0; j < ch->GetNDevices(); ++j) {
      if (ch->GetDevice(j) != t->GetNetDevice())
        out[ch->GetDevice(j)->GetNode()->GetId()] = nh.cost;
    }
  }
  return out;
}

/// 0-1-3 and 0-2-3 (two hops), 0-4-5-3 (three hops).
class RoutesTest : public SimTest
{
protected:
  void SetUp() override
  {
    SimTest::SetUp();
    nodes.Create(6);
    ns3::PointToPointHelper p2p;
    for (auto [a, b] : std::vector<std::pair<int, int>>{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {0, 4}, {4, 5}, {5, 3}})
      p2p.Install(nodes.Get(a), nodes.Get(b));
    StackHelper().Install(nodes);
  }
  ns3::NodeContainer nodes;
};

TEST_F(RoutesTest, ShortestPathsToTheOrigin)
{
  RouteHelper routes;
  routes.AddOrigin("/p", nodes.Get(3));
  routes.CalculateRoutes();
  EXPECT_EQ(routesOf(nodes.Get(0), "/p"), (std::map<uint32_t, uint64_t>{{1, 2}, {2, 2}})); // equal-cost pair
  EXPECT_EQ(routesOf(nodes.Get(1), "/p"), (std::map<uint32_t, uint64_t>{{3, 1}}));
  EXPECT_EQ(routesOf(nodes.Get(4), "/p"), (std::map<uint32_t, uint64_t>{{5, 2}}));
  EXPECT_TRUE(routesOf(nodes.Get(3), "/p").empty()); // the origin routes to its producer itself
}

TEST_F(RoutesTest, AllPathsAndMetrics)
{
  RouteHelper routes;
  routes.AddOrigin("/p", nodes.Get(3));
  routes.SetFaceMetric(nodes.Get(0), RouteHelper::FaceToward(nodes.Get(0), nodes.Get(1)), 5);
  routes.CalculateRoutes(true);
  // via 1 costs 5 + 1, via 2 costs 1 + 1, via 4 costs 1 + 2
  EXPECT_EQ(routesOf(nodes.Get(0), "/p"), (std::map<uint32_t, uint64_t>{{1, 6}, {2, 2}, {4, 3}}));
  // node 4: via 5 (2) or back via 0 (1 + 2)
  EXPECT_EQ(routesOf(nodes.Get(4), "/p"), (std::map<uint32_t, uint64_t>{{0, 3}, {5, 2}}));
}

TEST_F(RoutesTest, StaticRouteTowardANeighbour)
{
  RouteHelper::AddRoute(nodes.Get(0), "/q", nodes.Get(4), 7);
  EXPECT_EQ(routesOf(nodes.Get(0), "/q"), (std::map<uint32_t, uint64_t>{{4, 7}}));
  EXPECT_THROW(RouteHelper::AddRoute(nodes.Get(0), "/q", nodes.Get(3)), std::invalid_argument);
}

class CbrAppTest : public SimTest
{};

TEST_F(CbrAppTest, InterestsAtTheConfiguredRateOverALink)
{
  Chain chain(2, "10Mbps", "5ms");
  StackHelper stack;
  stack.Install(chain.nodes);
  RouteHelper::AddRoute(chain.nodes.Get(0), "/lab", chain.nodes.Get(1));
  AppHelper producer("ndnlab::ProducerApp");
  producer.SetPrefix("/lab/file");
  producer.SetAttribute("Version", ns3::UintegerValue(1));
  producer.SetAttribute("PayloadSize", ns3::UintegerValue(1000));
  producer.SetAttribute("FileSize", ns3::UintegerValue(1'000'000));
  producer.Install(chain.nodes.Get(1));
  AppHelper consumer("ndnlab::ConstantRateConsumerApp");
  consumer.SetPrefix("/lab/file/v=1");
  consumer.SetAttribute("Frequency", ns3::DoubleValue(50));
  consumer.SetAttribute("StopTime", ns3::TimeValue(ns3::Seconds(2)));
  auto app = ns3::DynamicCast<ConstantRateConsumerApp>(consumer.Install(chain.nodes.Get(0)).Get(0));
  ns3::Simulator::Stop(ns3::Seconds(3));
  ns3::Simulator::Run();
  app::ConstantRateConsumerCounters c = app->GetCounters();
  EXPECT_EQ(c.interestsSent, 100u); // 50/s from 0 s to 2 s
  EXPECT_GE(c.data, 99u);           // the last one may still be in flight at StopTime
  EXPECT_EQ(c.timeouts, 0u);
  EXPECT_EQ(c.bytes.count(), c.data * 1000);
}

} // namespace
} // namespace ndnlab::sim::test
