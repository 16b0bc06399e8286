// Multicast strategy v4 through the forwarder (NFD multicast-strategy.cpp semantics).

#include "core/fw/tests/forwarder-fixture.hpp"

namespace ndnlab::fw::tests {
namespace {

using face::FaceScope;
using face::LinkType;
using namespace std::chrono_literals;

class MulticastStrategyTest : public ForwarderFixture
{};

TEST_F(MulticastStrategyTest, FanOutWithPerUpstreamSuppression)
{
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  TestFace p2 = addFace();
  TestFace p3 = addFace();
  addRoute("/M", p1);
  addRoute("/M", p2);
  addRoute("/M", p3);
  addRoute("/M", c1);
  ASSERT_TRUE(fw->setStrategy("/M", "/localhost/nfd/strategy/multicast"));

  c1.receiveInterest(makeInterest("/M/1", 1));
  EXPECT_EQ(p1.sentInterests().size(), 1u);
  EXPECT_EQ(p2.sentInterests().size(), 1u);
  EXPECT_EQ(p3.sentInterests().size(), 1u);
  EXPECT_TRUE(c1.sentInterests().empty()) << "never back to the ingress";

  advance(5ms);
  c1.receiveInterest(makeInterest("/M/1", 2));
  EXPECT_EQ(p1.sentInterests().size(), 1u) << "suppressed";
  advance(5ms);
  c1.receiveInterest(makeInterest("/M/1", 3));
  EXPECT_EQ(p1.sentInterests().size(), 2u);
  EXPECT_EQ(p2.sentInterests().size(), 2u);

  p2.receiveData(makeData("/M/1"));
  EXPECT_EQ(c1.sentData().size(), 1u);
  EXPECT_TRUE(p1.sentData().empty());
}

TEST_F(MulticastStrategyTest, NewNextHopGetsPendingInterest)
{
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  TestFace p2 = addFace();
  addRoute("/M", p1);
  ASSERT_TRUE(fw->setStrategy("/M", "/localhost/nfd/strategy/multicast"));
  c1.receiveInterest(makeInterest("/M/1", 1));
  EXPECT_EQ(p1.sentInterests().size(), 1u);
  addRoute("/M", p2);
  EXPECT_EQ(p2.sentInterests().size(), 1u);
}

TEST_F(MulticastStrategyTest, NoNextHopNacksNoRouteUnlessSuppressed)
{
  ASSERT_TRUE(fw->setStrategy("/", "/localhost/nfd/strategy/multicast/v=4"));
  TestFace c1 = addFace();
  c1.receiveInterest(makeInterest("/none/1", 1));
  ASSERT_EQ(c1.sentNacks().size(), 1u);
  EXPECT_EQ(c1.sentNacks()[0].reason, NackReason::NoRoute);
  EXPECT_EQ(fw->pit().size(), 0u);

  TestFace p1 = addFace();
  addRoute("/M", p1);
  c1.clearSent();
  c1.receiveInterest(makeInterest("/M/1", 2));
  advance(2ms);
  c1.receiveInterest(makeInterest("/M/1", 3));
  EXPECT_TRUE(c1.sentNacks().empty()) << "suppressed is not the same as no route";
  EXPECT_EQ(p1.sentInterests().size(), 1u);
}

TEST_F(MulticastStrategyTest, ProducerRegionStripsForwardingHint)
{
  ForwarderOptions o;
  o.networkRegions = {Name("/isp/region")};
  fw = std::make_unique<Forwarder>(env, o);
  TestFace c1 = addFace();
  TestFace p1 = addFace();
  addRoute("/A", p1);
  Interest i = makeInterest("/A/1", 1);
  i.setForwardingHint({Name("/isp")});
  c1.receiveInterest(i);
  auto up = p1.sentInterests();
  ASSERT_EQ(up.size(), 1u);
  EXPECT_TRUE(up[0].interest->forwardingHint().empty());
}

} // namespace
} // namespace ndnlab::fw::tests
