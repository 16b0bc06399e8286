#include "core/app/ping.hpp"
#include "core/app/tests/test-link.hpp"

#include <gtest/gtest.h>

namespace ndnlab::app {
namespace {

using namespace std::chrono_literals;
using test::Link;

class PingTest : public ::testing::Test
{
protected:
  ManualEnv env;
  Link link{env, 5ms};
  security::DigestSigner signer;
};

TEST_F(PingTest, RepliesAndStatistics)
{
  PingServer::Options so;
  so.payloadSize = 100;
  PingServer server(env, link.producer, "/lab/node", signer, so);

  PingClient::Options co;
  co.count = 3;
  co.startSeq = 1000;
  PingClient client(env, link.consumer, "/lab/node", co);
  std::vector<std::pair<uint64_t, Duration>> replies;
  client.onReply = [&](uint64_t seq, Duration rtt) { replies.emplace_back(seq, rtt); };
  bool finished = false;
  client.onFinish = [&] { finished = true; };
  client.start();
  env.advance(10s);

  ASSERT_TRUE(finished);
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(replies[0].first, 1000u);
  EXPECT_EQ(replies[2].first, 1002u);
  EXPECT_EQ(replies[0].second, 10ms);

  const Interest& i = link.consumer.sentInterests.at(1);
  EXPECT_EQ(i.name(), Name("/lab/node/ping/1001"));
  EXPECT_TRUE(i.mustBeFresh());
  EXPECT_FALSE(i.canBePrefix());
  EXPECT_EQ(i.lifetime(), 4000ms);

  ASSERT_EQ(link.producer.sentData.size(), 3u);
  const Data& d = link.producer.sentData[0];
  EXPECT_EQ(d.name(), Name("/lab/node/ping/1000"));
  EXPECT_EQ(d.content().size(), 100u);
  EXPECT_EQ(d.freshnessPeriod(), 1000ms);
  EXPECT_TRUE(security::verifyData(d, security::DigestVerifier()));

  const auto& s = client.stats();
  EXPECT_EQ(s.sent, 3u);
  EXPECT_EQ(s.received, 3u);
  EXPECT_EQ(s.timeouts, 0u);
  EXPECT_DOUBLE_EQ(s.rttAvgMs(), 10.0);
  EXPECT_DOUBLE_EQ(s.rttMdevMs(), 0.0);
}

TEST_F(PingTest, IntervalBetweenPings)
{
  PingClient::Options co;
  co.count = 3;
  co.interval = 250ms;
  PingClient client(env, link.consumer, "/x", co);
  client.start();
  EXPECT_EQ(link.consumer.sentInterests.size(), 1u);
  env.advance(249ms);
  EXPECT_EQ(link.consumer.sentInterests.size(), 1u);
  env.advance(1ms);
  EXPECT_EQ(link.consumer.sentInterests.size(), 2u);
  env.advance(10s);
  EXPECT_EQ(link.consumer.sentInterests.size(), 3u);
}

TEST_F(PingTest, TimeoutsWithoutServer)
{
  PingClient::Options co;
  co.count = 2;
  co.timeout = 500ms;
  PingClient client(env, link.consumer, "/nobody", co);
  std::vector<uint64_t> timeouts;
  client.onTimeout = [&](uint64_t seq) { timeouts.push_back(seq); };
  bool finished = false;
  client.onFinish = [&] { finished = true; };
  client.start();
  env.advance(499ms);
  EXPECT_TRUE(timeouts.empty());
  env.advance(1ms);
  EXPECT_EQ(timeouts.size(), 1u);
  env.advance(10s);
  EXPECT_EQ(timeouts.size(), 2u);
  EXPECT_TRUE(finished);
  EXPECT_DOUBLE_EQ(client.stats().lossPercent(), 100.0);
}

TEST_F(PingTest, NackReplies)
{
  link.producer.onInterest = [&](const Interest& i) { link.producer.putNack(Nack{i, NackReason::NoRoute}); };
  PingClient::Options co;
  co.count = 1;
  PingClient client(env, link.consumer, "/x", co);
  NackReason got = NackReason::None;
  client.onNackReply = [&](uint64_t, Duration, NackReason r) { got = r; };
  client.start();
  env.advance(1s);
  EXPECT_EQ(got, NackReason::NoRoute);
  EXPECT_EQ(client.stats().nacked, 1u);
  EXPECT_DOUBLE_EQ(client.stats().nackPercent(), 100.0);
}

TEST_F(PingTest, OnlyTheNameSentAnswersAPing)
{
  // the client reads the sequence number from the name; /x/ping/07 and /x/ping/7 are different
  // names, so only the one it sent answers ping 7
  link.producer.onInterest = [&](const Interest& i) {
    Name padded = i.name().getPrefix(-1);
    padded.append("0" + i.name()[-1].toUri());
    link.producer.putData(Data(padded));
  };
  PingClient::Options co;
  co.count = 1;
  co.startSeq = 7;
  co.timeout = 100ms;
  PingClient client(env, link.consumer, "/x", co);
  client.start();
  env.advance(1s);
  EXPECT_EQ(client.stats().received, 0u);
  EXPECT_EQ(client.stats().timeouts, 1u);
}

TEST_F(PingTest, ServerIgnoresOtherNamesAndHonoursMax)
{
  PingServer::Options so;
  so.maxPings = 1;
  PingServer server(env, link.producer, "/p", signer, so);
  bool finished = false;
  server.onFinish = [&] { finished = true; };
  Interest other("/p/other/1");
  other.setNonce(1);
  link.producer.deliverInterest(other);
  Interest bare("/p/ping");
  bare.setNonce(2);
  link.producer.deliverInterest(bare);
  EXPECT_TRUE(link.producer.sentData.empty());
  Interest a("/p/ping/1");
  a.setNonce(3);
  link.producer.deliverInterest(a);
  Interest b("/p/ping/2");
  b.setNonce(4);
  link.producer.deliverInterest(b);
  EXPECT_EQ(link.producer.sentData.size(), 1u);
  EXPECT_TRUE(finished);
}

TEST_F(PingTest, ClientIdComponent)
{
  PingClient::Options co;
  co.clientId = "me";
  co.startSeq = 5;
  PingClient client(env, link.consumer, "/x", co);
  EXPECT_EQ(client.makeName(5), Name("/x/ping/me/5"));
}

} // namespace
} // namespace ndnlab::app
