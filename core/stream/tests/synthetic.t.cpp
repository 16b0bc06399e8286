// SyntheticFeed and syntheticSizes (core/stream/synthetic.hpp) on the manual clock: one frame
// per sample period on every thread, a key frame every GOP, sizes that average the bitrate,
// the end of the stream after the asked frame count, and nothing after stop().

#include "core/stream/synthetic.hpp"

#include "core/app/tests/test-link.hpp"

#include <gtest/gtest.h>

namespace ndnlab::stream::tests {
namespace {

using namespace std::chrono_literals;
using app::test::FakeEndpoint;

StreamProducerOptions twoThreads()
{
  StreamProducerOptions o;
  o.threads = {{"lo", Rate::kbps(200)}, {"hi", Rate::kbps(1000)}};
  o.sampleRate = 25;
  return o;
}

TEST(SyntheticSizes, AGopAveragesTheBitrateWithKeyFramesFourTimesADelta)
{
  const auto s = syntheticSizes(Rate::kbps(1000), 25, 10);
  EXPECT_NEAR(static_cast<double>(s.key), 4.0 * static_cast<double>(s.delta), 4); // each rounded
  // a GOP: one key frame and 9 delta frames, 10 frames of 1000 kbit/s at 25 frames/s
  EXPECT_NEAR(static_cast<double>(s.key + 9 * s.delta), 10 * 1e6 / 8 / 25, 4);
  const auto keys = syntheticSizes(Rate::kbps(1000), 25, 1);
  EXPECT_EQ(keys.key, 5000u);
}

TEST(SyntheticFeed, PublishesEveryThreadEachPeriodAndEndsTheStream)
{
  ManualEnv env;
  FakeEndpoint ep;
  security::DigestSigner signer;
  StreamProducer producer(env, ep, "/alice", signer, twoThreads());
  SyntheticFeed feed(env, producer, 5, 12);
  int ends = 0;
  feed.onEnd = [&] { ++ends; };

  feed.start();
  EXPECT_EQ(producer.counters().frames, 2u) << "the first frame of each thread at once";
  env.advance(39ms);
  EXPECT_EQ(producer.counters().frames, 2u);
  env.advance(1ms); // 40 ms: the second period
  EXPECT_EQ(producer.counters().frames, 4u);
  env.advance(1s);
  EXPECT_EQ(feed.published(), 12u);
  EXPECT_EQ(producer.counters().frames, 24u);
  EXPECT_EQ(producer.counters().keyFrames, 6u) << "frames 0, 5 and 10 of each thread";
  EXPECT_TRUE(producer.ended());
  EXPECT_EQ(ends, 1);
  EXPECT_EQ(producer.metadata().threads[0].frameCount, std::optional<uint64_t>(12));
}

TEST(SyntheticFeed, StopLeavesTheStreamOpen)
{
  ManualEnv env;
  FakeEndpoint ep;
  security::DigestSigner signer;
  StreamProducer producer(env, ep, "/alice", signer, twoThreads());
  SyntheticFeed feed(env, producer, 5, 0);
  feed.start();
  env.advance(100ms);
  feed.stop();
  const auto frames = producer.counters().frames;
  env.advance(1s);
  EXPECT_EQ(producer.counters().frames, frames);
  EXPECT_FALSE(producer.ended());
}

} // namespace
} // namespace ndnlab::stream::tests
