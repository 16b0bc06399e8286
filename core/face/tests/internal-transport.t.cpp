#include "core/face/internal-transport.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

namespace ndnlab::face {
namespace {

SharedBuffer frameOf(std::initializer_list<uint8_t> bytes)
{
  return std::make_shared<const Buffer>(bytes);
}

class InternalTransportTest : public ::testing::Test
{
protected:
  InternalTransportTest()
  {
    auto pair = InternalTransport::makePair(env, "internal://forwarder", "internal://app");
    a = std::move(pair.first);
    b = std::move(pair.second);
    a->onReceive = [this](ByteSpan f, EndpointId) { rxA.emplace_back(f.begin(), f.end()); };
    b->onReceive = [this](ByteSpan f, EndpointId) { rxB.emplace_back(f.begin(), f.end()); };
  }

  ManualEnv env;
  std::unique_ptr<InternalTransport> a, b;
  std::vector<Buffer> rxA, rxB;
};

TEST_F(InternalTransportTest, Properties)
{
  EXPECT_EQ(a->scope(), FaceScope::Local);
  EXPECT_EQ(a->mtu(), MtuUnlimited);
  EXPECT_EQ(a->persistency(), FacePersistency::Permanent);
  EXPECT_EQ(a->linkType(), LinkType::PointToPoint);
  EXPECT_EQ(a->state(), TransportState::Up);
  EXPECT_EQ(a->localUri(), "internal://forwarder");
  EXPECT_EQ(a->remoteUri(), "internal://app");
  EXPECT_EQ(b->localUri(), "internal://app");
  EXPECT_EQ(b->remoteUri(), "internal://forwarder");
}

TEST_F(InternalTransportTest, DeliversAsynchronouslyInOrder)
{
  a->send(frameOf({1}));
  a->send(frameOf({2, 2}));
  b->send(frameOf({3}));
  EXPECT_TRUE(rxB.empty()); // nothing delivered inside send()
  EXPECT_TRUE(rxA.empty());
  EXPECT_EQ(a->sendQueueLength(), 3u);
  env.clockImpl.runAll();
  ASSERT_EQ(rxB.size(), 2u);
  EXPECT_EQ(rxB[0], Buffer{1});
  EXPECT_EQ(rxB[1], (Buffer{2, 2}));
  ASSERT_EQ(rxA.size(), 1u);
  EXPECT_EQ(rxA[0], Buffer{3});
  EXPECT_EQ(a->sendQueueLength(), 0u);
  EXPECT_EQ(env.now(), TimePoint{}); // zero delay: no simulated time passes
  EXPECT_EQ(a->counters().nOutPackets, 2u);
  EXPECT_EQ(b->counters().nInPackets, 2u);
  EXPECT_EQ(b->counters().nInBytes, 3u);
}

TEST_F(InternalTransportTest, ReplyFromAReceiveCallbackDoesNotRecurse)
{
  int depth = 0;
  int maxDepth = 0;
  int pingPongs = 0;
  a->onReceive = [&](ByteSpan f, EndpointId) {
    maxDepth = std::max(maxDepth, ++depth);
    if (++pingPongs < 10)
      a->send(std::make_shared<const Buffer>(f.begin(), f.end()));
    --depth;
  };
  b->onReceive = [&](ByteSpan f, EndpointId) {
    maxDepth = std::max(maxDepth, ++depth);
    b->send(std::make_shared<const Buffer>(f.begin(), f.end()));
    --depth;
  };
  a->send(frameOf({9}));
  env.clockImpl.runAll();
  EXPECT_EQ(pingPongs, 10);
  EXPECT_EQ(maxDepth, 1);
}

TEST_F(InternalTransportTest, ClosingOneEndClosesBoth)
{
  std::vector<TransportState> statesB;
  b->onStateChange = [&](TransportState, TransportState s) { statesB.push_back(s); };
  a->send(frameOf({1})); // queued for b before the close: b may still receive it
  b->send(frameOf({2})); // queued for a: discarded, a is closed
  a->close();
  EXPECT_EQ(a->state(), TransportState::Closed);
  env.clockImpl.runAll();
  EXPECT_EQ(b->state(), TransportState::Closed);
  EXPECT_EQ(statesB, (std::vector<TransportState>{TransportState::Closing, TransportState::Closed}));
  EXPECT_TRUE(rxA.empty()); // frames to a closed end are discarded
  // sends after close go nowhere
  a->send(frameOf({3}));
  b->send(frameOf({4}));
  env.clockImpl.runAll();
  EXPECT_TRUE(rxA.empty());
  EXPECT_LE(rxB.size(), 1u);
}

TEST_F(InternalTransportTest, DestroyingOneEndClosesTheOther)
{
  a->send(frameOf({1}));
  b->send(frameOf({2}));
  b.reset(); // with a frame pending for it
  env.clockImpl.runAll();
  EXPECT_EQ(a->state(), TransportState::Closed);
  EXPECT_EQ(rxA.size(), 1u); // sent before b went away
  a->send(frameOf({3}));     // no peer: silently nothing
  env.clockImpl.runAll();
}

TEST_F(InternalTransportTest, ReceiverDestroyedInsideItsCallback)
{
  b->onReceive = [&](ByteSpan, EndpointId) { b.reset(); };
  a->send(frameOf({1}));
  a->send(frameOf({2}));
  env.clockImpl.runAll();
  EXPECT_FALSE(b);
  EXPECT_EQ(a->state(), TransportState::Closed);
}

TEST_F(InternalTransportTest, ClosedFromItsOwnCallbackStopsDelivery)
{
  int n = 0;
  b->onReceive = [&](ByteSpan, EndpointId) {
    ++n;
    b->close();
  };
  a->send(frameOf({1}));
  a->send(frameOf({2}));
  env.clockImpl.runAll();
  EXPECT_EQ(n, 1);
  EXPECT_EQ(a->state(), TransportState::Closed);
}

TEST(InternalTransport, CarriesLinkServiceTraffic)
{
  ManualEnv env;
  auto [fwdT, appT] = InternalTransport::makePair(env);
  GenericLinkService fwd(env, {.allowLocalFields = true});
  GenericLinkService app(env, {.allowLocalFields = true});
  fwd.attach(*fwdT);
  app.attach(*appT);

  std::vector<Interest> atFwd;
  std::vector<Data> atApp;
  fwd.onReceiveInterest = [&](Interest&& i, EndpointId) { atFwd.push_back(std::move(i)); };
  app.onReceiveData = [&](Data&& d, EndpointId) { atApp.push_back(std::move(d)); };

  Interest i{Name("/localhost/nfd/status/general")};
  i.setNonce(7);
  i.tags.pitToken = PitToken{};
  i.tags.pitToken->size = 1;
  i.tags.pitToken->bytes[0] = 0x42;
  i.tags.nextHopFaceId = 256; // not sent by GenericLinkService: NFD semantics
  app.sendInterest(i);
  EXPECT_TRUE(atFwd.empty());
  env.clockImpl.runAll();
  ASSERT_EQ(atFwd.size(), 1u);
  EXPECT_EQ(atFwd[0].name(), i.name());
  EXPECT_EQ(atFwd[0].tags.pitToken, i.tags.pitToken);

  Data d{atFwd[0].name()};
  d.setSignatureValue(Buffer(32, 0));
  d.tags.pitToken = atFwd[0].tags.pitToken;
  d.tags.incomingFaceId = 1;
  fwd.sendData(d);
  env.clockImpl.runAll();
  ASSERT_EQ(atApp.size(), 1u);
  EXPECT_EQ(atApp[0].name(), i.name());
  EXPECT_EQ(atApp[0].tags.pitToken, i.tags.pitToken);
  EXPECT_FALSE(atApp[0].tags.incomingFaceId); // a receiver never trusts IncomingFaceId
}

} // namespace
} // namespace ndnlab::face
