#include "core/app/constant-rate-consumer.hpp"
#include "core/app/segment-server.hpp"
#include "core/app/tests/test-link.hpp"

#include <gtest/gtest.h>

namespace ndnlab::app {
namespace {

using namespace std::chrono_literals;
using test::Link;

class CbrTest : public ::testing::Test
{
protected:
  void SetUp() override
  {
    SegmentServer::Options o;
    o.segmentSize = 100;
    o.version = 9;
    server = std::make_unique<SegmentServer>(env, link.producer, "/lab/file", signer, o);
    server->publish(Buffer(10'000, 0x5a)); // 100 segments
  }

  std::unique_ptr<ConstantRateConsumer> make(ConstantRateConsumer::Options o)
  {
    auto c = std::make_unique<ConstantRateConsumer>(env, link.consumer, o);
    c->onData = [this](uint64_t seg, Duration rtt, ByteSpan content) {
      segs.push_back(seg);
      rtts.push_back(rtt);
      bytes += content.size();
    };
    return c;
  }

  ManualEnv env;
  Link link{env, 10ms};
  security::DigestSigner signer;
  std::unique_ptr<SegmentServer> server;
  std::vector<uint64_t> segs;
  std::vector<Duration> rtts;
  size_t bytes = 0;
};

TEST_F(CbrTest, SendsAtTheConfiguredFrequency)
{
  ConstantRateConsumer::Options o;
  o.frequency = 100;
  o.maxCount = 20;
  auto c = make(o);
  c->start("/lab/file/v=9");
  env.advance(95ms);
  EXPECT_EQ(link.consumer.sentInterests.size(), 10u); // at 0, 10, ..., 90 ms
  env.advance(1s);
  ASSERT_EQ(link.consumer.sentInterests.size(), 20u);
  EXPECT_EQ(link.consumer.sentInterests[0].name(), Name("/lab/file/v=9/seg=0"));
  EXPECT_EQ(link.consumer.sentInterests[19].name(), Name("/lab/file/v=9/seg=19"));
  EXPECT_EQ(link.consumer.sentInterests[0].lifetime(), 2000ms);
  EXPECT_EQ(c->counters().data, 20u);
  EXPECT_EQ(bytes, 2000u);
  for (Duration r : rtts)
    EXPECT_EQ(r, 20ms);
  EXPECT_EQ(env.traceImpl.count(EventKind::CbrData), 20u);
}

TEST_F(CbrTest, TimedOutSegmentsAreRetransmittedWhenAsked)
{
  ConstantRateConsumer::Options o;
  o.frequency = 100;
  o.maxCount = 10;
  o.lifetime = 100ms;
  o.retransmit = true;
  int seg3 = 0;
  link.interestFilter = [&](Interest& i) { return !(i.name()[-1].toNumber() == 3u && seg3++ == 0); };
  auto c = make(o);
  c->start("/lab/file/v=9");
  env.advance(2s);
  EXPECT_EQ(c->counters().timeouts, 1u);
  EXPECT_EQ(c->counters().retransmissions, 1u);
  EXPECT_EQ(c->counters().data, 10u);
  EXPECT_EQ(link.consumer.sentInterests.size(), 11u);
  EXPECT_EQ(env.traceImpl.count(EventKind::CbrTimeout), 1u);
}

TEST_F(CbrTest, NoRetransmissionByDefaultAndNacksCounted)
{
  ConstantRateConsumer::Options o;
  o.frequency = 50;
  o.firstSegment = 98; // segments 98, 99 exist; 100.. are Nacked by the server
  o.maxCount = 4;
  auto c = make(o);
  c->start("/lab/file/v=9");
  env.advance(2s);
  EXPECT_EQ(c->counters().data, 2u);
  EXPECT_EQ(c->counters().nacks, 2u);
  EXPECT_EQ(c->counters().retransmissions, 0u);
  EXPECT_EQ(link.consumer.sentInterests.size(), 4u);
}

TEST_F(CbrTest, OnlyAnswersToItsOwnInterestsCount)
{
  // a Data one component deeper than the segment, or a Nack of another transmission (another
  // Nonce), answers nothing this consumer sent
  ConstantRateConsumer::Options o;
  o.maxCount = 1;
  o.lifetime = 100ms;
  link.interestFilter = [&](Interest& i) {
    link.producer.putData(Data(i.name().getPrefix(-1).append("x").append(i.name()[-1])));
    Nack stale{i, NackReason::Congestion};
    stale.interest.setNonce(*i.nonce() + 1);
    link.producer.putNack(stale);
    return false;
  };
  auto c = make(o);
  c->start("/lab/file/v=9");
  env.advance(1s);
  EXPECT_TRUE(segs.empty());
  EXPECT_EQ(c->counters().data, 0u);
  EXPECT_EQ(c->counters().nacks, 0u);
  EXPECT_EQ(c->counters().unexpectedData, 1u);
  EXPECT_EQ(c->counters().timeouts, 1u);
}

TEST_F(CbrTest, RandomizedGapsKeepTheMeanRate)
{
  ConstantRateConsumer::Options o;
  o.frequency = 200;
  o.randomize = "exponential";
  auto c = make(o);
  c->start("/lab/file/v=9");
  env.advance(10s);
  c->stop();
  size_t n = link.consumer.sentInterests.size();
  EXPECT_GT(n, 1800u);
  EXPECT_LT(n, 2200u);
}

TEST_F(CbrTest, FollowsTheRateStampedInData)
{
  // 500 kbit/s over 1,250-byte Data = 50 Interests/s: a 20 ms gap after the first answer
  ConstantRateConsumer::Options o;
  o.frequency = 40; // 25 ms until then
  o.followRate = true;
  o.rateDataSize = 1250;
  link.dataFilter = [](Data& d) {
    d.tags.mirccRate = Rate::kbps(500);
    return true;
  };
  auto c = make(o);
  c->start("/lab/file/v=9");
  env.advance(19ms);
  EXPECT_EQ(c->frequency(), 40.0);
  env.advance(1ms); // Data of segment 0 (RTT 20 ms)
  EXPECT_EQ(c->frequency(), 50.0);
  env.advance(70ms); // sent at 0, then 40 (20 ms after the answer, not 25 after 0), 60, 80
  EXPECT_EQ(link.consumer.sentInterests.size(), 4u);
}

TEST_F(CbrTest, CoarseTickHoldsDueInterestsUntilTheTick)
{
  ConstantRateConsumer::Options o;
  o.frequency = 100;
  o.tick = 100ms;
  auto c = make(o);
  c->start("/lab/file/v=9");
  env.advance(99ms);
  EXPECT_TRUE(link.consumer.sentInterests.empty()) << "nothing leaves between ticks";
  EXPECT_EQ(c->held(), 10u); // fell due at 0, 10, ..., 90 ms
  env.advance(1ms);
  EXPECT_GE(link.consumer.sentInterests.size(), 10u) << "everything due leaves at the tick";
  EXPECT_LE(c->held(), 1u);
  EXPECT_EQ(c->counters().ticks, 1u);
}

TEST_F(CbrTest, SmootheningReleasesHeldInterestsOnData)
{
  ConstantRateConsumer::Options o;
  o.frequency = 100;
  o.tick = 100ms;
  auto plain = make(o);
  plain->start("/lab/file/v=9");
  env.advance(125ms);
  const size_t withoutSmoothening = link.consumer.sentInterests.size();
  EXPECT_EQ(plain->counters().smoothenedSends, 0u);
  plain->stop();

  link.consumer.sentInterests.clear();
  o.smoothening = true;
  o.firstSegment = 50;
  auto smooth = make(o);
  smooth->start("/lab/file/v=9");
  env.advance(125ms);
  // the Data answering the tick's Interests arrive at 120 ms and take the 110 ms Interest along
  EXPECT_GT(link.consumer.sentInterests.size(), withoutSmoothening);
  EXPECT_GE(smooth->counters().smoothenedSends, 1u);
}

TEST_F(CbrTest, SmootheningReleasesHeldInterestsOnNack)
{
  ConstantRateConsumer::Options o;
  o.frequency = 100;
  o.tick = 100ms;
  o.smoothening = true;
  o.firstSegment = 100; // past the content: the server answers with Nacks
  auto c = make(o);
  c->start("/lab/file/v=9");
  env.advance(119ms);
  const size_t atTick = link.consumer.sentInterests.size();
  env.advance(1ms); // the Nacks of the tick's Interests
  EXPECT_GT(c->counters().nacks, 0u);
  EXPECT_GT(link.consumer.sentInterests.size(), atTick);
  EXPECT_GE(c->counters().smoothenedSends, 1u);
}

TEST_F(CbrTest, InvalidOptionsThrow)
{
  ConstantRateConsumer::Options o;
  o.frequency = 0;
  EXPECT_THROW(make(o), std::invalid_argument);
  o.frequency = 1;
  o.randomize = "poisson";
  EXPECT_THROW(make(o), std::invalid_argument);
  o.randomize = "none";
  o.smoothening = true; // without a tick
  EXPECT_THROW(make(o), std::invalid_argument);
  o.tick = -1ms;
  EXPECT_THROW(make(o), std::invalid_argument);
}

} // namespace
} // namespace ndnlab::app
