// Best-route strategy v5 through the forwarder (NFD best-route-strategy.cpp semantics).

#include "core/fw/tests/forwarder-fixture.hpp"

namespace ndnlab::fw::tests {
namespace {

using face::FaceScope;
using face::LinkType;
using namespace std::chrono_literals;

class BestRouteStrategyTest : public ForwarderFixture
{};

TEST_F(BestRouteStrategyTest, RetransmissionSuppressionTiming)
{
  TestFace c1 = addFace();
  TestFace producer = addFace();
  addRoute("/A", producer);

  c1.receiveInterest(makeInterest("/A/1", 1));
  ASSERT_EQ(producer.sentInterests().size(), 1u);
  advance(5ms);
  c1.receiveInterest(makeInterest("/A/1", 2));
  EXPECT_EQ(producer.sentInterests().size(), 1u) << "5 ms < 10 ms: suppressed";
  advance(5ms);
  c1.receiveInterest(makeInterest("/A/1", 3));
  EXPECT_EQ(producer.sentInterests().size(), 2u) << "10 ms since last: forwarded, interval -> 20";
  advance(19ms);
  c1.receiveInterest(makeInterest("/A/1", 4));
  EXPECT_EQ(producer.sentInterests().size(), 2u) << "19 ms < 20 ms: suppressed";
  advance(1ms);
  c1.receiveInterest(makeInterest("/A/1", 5));
  EXPECT_EQ(producer.sentInterests().size(), 3u) << "interval -> 40";
  for (int i = 0; i < 4; ++i) {
    advance(250ms);
    c1.receiveInterest(makeInterest("/A/1", static_cast<uint32_t>(10 + i)));
  }
  EXPECT_EQ(producer.sentInterests().size(), 7u) << "the interval never exceeds 250 ms";
  EXPECT_EQ(producer.sentInterests().back().interest->nonce(), 13u);
}

TEST_F(BestRouteStrategyTest, RetransmissionPrefersUnusedThenOldestUpstream)
{
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  TestFace p2 = addFace();
  addRoute("/A", p2, 20);
  addRoute("/A", p1, 10);

  c1.receiveInterest(makeInterest("/A/1", 1));
  EXPECT_EQ(p1.sentInterests().size(), 1u) << "lowest cost first";
  EXPECT_EQ(p2.sentInterests().size(), 0u);
  advance(10ms);
  c1.receiveInterest(makeInterest("/A/1", 2));
  EXPECT_EQ(p2.sentInterests().size(), 1u) << "retransmission to the unused upstream";
  advance(20ms);
  c1.receiveInterest(makeInterest("/A/1", 3));
  EXPECT_EQ(p1.sentInterests().size(), 2u) << "then to the upstream used longest ago";
}

TEST_F(BestRouteStrategyTest, NoRouteNack)
{
  TestFace c1 = addFace();
  c1.receiveInterest(makeInterest("/nowhere/1", 42), makeToken({4, 2}));
  auto nacks = c1.sentNacks();
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].reason, NackReason::NoRoute);
  EXPECT_EQ(nacks[0].interest->nonce(), 42u);
  EXPECT_EQ(*nacks[0].pitToken, makeToken({4, 2}));
  EXPECT_EQ(fw->pit().size(), 0u) << "rejected entries are finalized";
  EXPECT_EQ(fw->counters().nUnsatisfiedInterests, 1u);
  EXPECT_EQ(fw->counters().nOutNacks, 1u);
}

TEST_F(BestRouteStrategyTest, DoesNotForwardBackToIngress)
{
  TestFace c1 = addFace();
  addRoute("/A", c1);
  c1.receiveInterest(makeInterest("/A/1", 1));
  EXPECT_TRUE(c1.sentInterests().empty());
  EXPECT_EQ(c1.sentNacks().size(), 1u);
}

TEST_F(BestRouteStrategyTest, NackAggregationWaitsForAllUpstreams)
{
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  TestFace p2 = addFace();
  addRoute("/A", p1, 10);
  addRoute("/A", p2, 20);

  c1.receiveInterest(makeInterest("/A/1", 1), makeToken({5}));
  advance(10ms);
  c1.receiveInterest(makeInterest("/A/1", 2), makeToken({6}));
  ASSERT_EQ(p1.sentInterests().size(), 1u);
  ASSERT_EQ(p2.sentInterests().size(), 1u);

  p1.receiveNack(*p1.sentInterests()[0].interest, NackReason::NoRoute);
  EXPECT_TRUE(c1.sentNacks().empty()) << "p2 still pending";
  p2.receiveNack(*p2.sentInterests()[0].interest, NackReason::Congestion);
  auto nacks = c1.sentNacks();
  ASSERT_EQ(nacks.size(), 1u);
  EXPECT_EQ(nacks[0].reason, NackReason::Congestion) << "least severe reason";
  EXPECT_EQ(nacks[0].interest->nonce(), 2u) << "the downstream's latest Interest";
  EXPECT_EQ(*nacks[0].pitToken, makeToken({6}));
  EXPECT_EQ(fw->pit().size(), 0u);
}

TEST_F(BestRouteStrategyTest, NackToTheOnlyPendingUpstreamThatIsAlsoDownstream)
{
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  TestFace c2 = addFace();
  addRoute("/A", p1, 10);
  addRoute("/A", c2, 20);

  c1.receiveInterest(makeInterest("/A/1", 1));
  c2.receiveInterest(makeInterest("/A/1", 2)); // c2 is downstream too
  advance(10ms);
  c1.receiveInterest(makeInterest("/A/1", 3)); // retransmission reaches c2 as upstream
  ASSERT_EQ(p1.sentInterests().size(), 1u);
  ASSERT_EQ(c2.sentInterests().size(), 1u);

  p1.receiveNack(*p1.sentInterests()[0].interest, NackReason::Congestion);
  auto toC2 = c2.sentNacks();
  ASSERT_EQ(toC2.size(), 1u) << "c2 would otherwise wait on itself";
  EXPECT_EQ(toC2[0].reason, NackReason::Congestion);
  EXPECT_TRUE(c1.sentNacks().empty());
}

TEST_F(BestRouteStrategyTest, SuppressionParameters)
{
  ASSERT_TRUE(fw->setStrategy("/A", "/localhost/nfd/strategy/best-route/v=5/"
                                    "retx-suppression-initial~50/retx-suppression-max~80"));
  EXPECT_EQ(fw->strategyChoice().get("/A")->toUri(),
            "/localhost/nfd/strategy/best-route/v=5/retx-suppression-initial~50/retx-suppression-max~80");
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  addRoute("/A", p1);
  c1.receiveInterest(makeInterest("/A/1", 1));
  advance(40ms);
  c1.receiveInterest(makeInterest("/A/1", 2));
  EXPECT_EQ(p1.sentInterests().size(), 1u) << "40 ms < 50 ms";
  advance(10ms);
  c1.receiveInterest(makeInterest("/A/1", 3));
  EXPECT_EQ(p1.sentInterests().size(), 2u);
  advance(79ms);
  c1.receiveInterest(makeInterest("/A/1", 4));
  EXPECT_EQ(p1.sentInterests().size(), 2u) << "100 ms capped at 80";
  advance(1ms);
  c1.receiveInterest(makeInterest("/A/1", 5));
  EXPECT_EQ(p1.sentInterests().size(), 3u);

  EXPECT_FALSE(fw->setStrategy("/B", "/localhost/nfd/strategy/best-route/v=5/retx-suppression-initial~0"));
  EXPECT_FALSE(fw->setStrategy("/B", "/localhost/nfd/strategy/best-route/v=5/bogus~1"));
}

TEST_F(BestRouteStrategyTest, ForwardingHintSelectsRoute)
{
  TestFace c1 = addFace();
  TestFace byName = addFace();
  TestFace byHint = addFace();
  addRoute("/A", byName);
  addRoute("/isp", byHint);
  Interest i = makeInterest("/A/1", 1);
  i.setForwardingHint({Name("/nowhere"), Name("/isp/x")});
  c1.receiveInterest(i);
  EXPECT_TRUE(byName.sentInterests().empty());
  EXPECT_EQ(byHint.sentInterests().size(), 1u);
}

} // namespace
} // namespace ndnlab::fw::tests
