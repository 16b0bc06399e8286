// The stream producer (core/stream/producer.hpp) on the manual clock with a scripted endpoint:
// Fig. 9 names with typed components, key and delta numbering, FEC parity that recovers a frame,
// the producer-side PIT (an early Interest answered when its frame appears with d_gen = its
// wait, expiry at its lifetime, the bound), the history, the metadata, freshness and options.

#include "core/stream/producer.hpp"

#include "core/app/tests/test-link.hpp"
#include "core/fec/reed-solomon.hpp"

#include <gtest/gtest.h>

namespace ndnlab::stream::tests {
namespace {

using namespace std::chrono_literals;
using app::test::FakeEndpoint;

Buffer pattern(size_t n, uint8_t seed = 3)
{
  Buffer b(n);
  for (size_t i = 0; i < n; ++i)
    b[i] = static_cast<uint8_t>(i * 7 + seed);
  return b;
}

StreamProducerOptions twoThreads()
{
  StreamProducerOptions o;
  o.threads = {{"lo", Rate::kbps(200)}, {"hi", Rate::kbps(1000)}};
  return o;
}

class StreamProducerTest : public ::testing::Test
{
protected:
  Interest interest(const Name& n, bool canBePrefix = false, Duration lifetime = 2000ms)
  {
    Interest i(n);
    i.setCanBePrefix(canBePrefix).setNonce(++m_nonce).setLifetime(lifetime);
    return i;
  }
  Name seg(std::string_view thread, FrameType t, uint64_t frame, SegmentKind k = SegmentKind::Data, uint64_t s = 0)
  {
    return segmentName("/alice/camera", thread, t, frame, k, s);
  }
  SegmentContent content(const Data& d)
  {
    auto c = decodeSegmentContent(d.content());
    EXPECT_TRUE(c.ok()) << c.error().message;
    return c.ok() ? c.value() : SegmentContent{};
  }

  ManualEnv env;
  FakeEndpoint ep;
  security::DigestSigner signer;
  uint32_t m_nonce = 0;
};

TEST_F(StreamProducerTest, BadOptionsRefused)
{
  auto refused = [&](auto change) {
    StreamProducerOptions o = twoThreads();
    change(o);
    EXPECT_THROW(StreamProducer(env, ep, "/alice", signer, o), std::invalid_argument);
  };
  refused([](auto& o) { o.threads.clear(); });
  refused([](auto& o) { o.threads[1].name = "lo"; });
  refused([](auto& o) { o.threads[0].name = ""; });
  refused([](auto& o) { o.threads[0].name = "_meta"; });
  refused([](auto& o) { o.threads[0].bitrate = Rate(); });
  refused([](auto& o) { o.stream = ""; });
  refused([](auto& o) { o.sampleRate = 0; });
  refused([](auto& o) { o.payloadSize = 0; });
  refused([](auto& o) { o.payloadSize = 8001; });
  refused([](auto& o) { o.parityRatio = -0.1; });
  refused([](auto& o) { o.parityRatio = 1.5; });
  refused([](auto& o) { o.deltaFreshness = -1ms; });
  refused([](auto& o) { o.history = 0; });
  refused([](auto& o) { o.pitLimit = 0; });
  EXPECT_NO_THROW(StreamProducer(env, ep, "/alice", signer, twoThreads()));
}

TEST_F(StreamProducerTest, FrameSegmentsNamesHeaderAndFreshness)
{
  StreamProducer p(env, ep, "/alice", signer, twoThreads());
  EXPECT_EQ(p.base(), Name("/alice/camera"));
  const Buffer frame = pattern(2500);
  env.advance(5ms);
  auto pub = p.publish(1, Frame{.key = true, .data = frame, .captureTime = UnixMillis(1'700'000'000'001)});
  EXPECT_EQ(pub.type, FrameType::Key);
  EXPECT_EQ(pub.number, 0u);
  EXPECT_EQ(pub.dataSegments, 3u) << "ceil(2500 / 1000)";
  EXPECT_EQ(pub.paritySegments, 1u) << "ceil(0.2 x 3)";

  const Data* d1 = p.segment(1, FrameType::Key, 0, SegmentKind::Data, 1);
  ASSERT_NE(d1, nullptr);
  EXPECT_EQ(d1->name(), Name("/alice/camera/hi/key/seq=0/data/seg=1"));
  EXPECT_TRUE(d1->name()[-3].isSequenceNumber());
  EXPECT_TRUE(d1->name()[-1].isSegment());
  EXPECT_EQ(d1->finalBlockSegment(), std::optional<uint64_t>(2));
  EXPECT_EQ(d1->freshnessPeriod(), 900ms) << "key frames: the code's 900 ms";
  EXPECT_TRUE(security::verifyData(*d1, security::DigestVerifier()));
  SegmentContent c = content(*d1);
  EXPECT_EQ(c.header.dataSegments, 3u);
  EXPECT_EQ(c.header.paritySegments, 1u);
  EXPECT_EQ(c.header.frameLength, 2500u);
  EXPECT_EQ(c.header.generationDelay, 0ms) << "nobody waited";
  EXPECT_EQ(c.header.playbackNumber, 0u);
  EXPECT_EQ(c.header.gopKey, std::optional<uint64_t>(0));
  EXPECT_EQ(c.header.captureTime, UnixMillis(1'700'000'000'001));
  EXPECT_EQ(c.payload.size(), 834u) << "equal shards of ceil(2500 / 3)";

  const Data* par = p.segment(1, FrameType::Key, 0, SegmentKind::Parity, 0);
  ASSERT_NE(par, nullptr);
  EXPECT_EQ(par->name(), Name("/alice/camera/hi/key/seq=0/parity/seg=0"));
  EXPECT_EQ(par->finalBlockSegment(), std::optional<uint64_t>(0));
  EXPECT_EQ(p.segment(1, FrameType::Key, 0, SegmentKind::Parity, 1), nullptr);

  p.publish(1, Frame{.key = false, .data = pattern(300)});
  const Data* delta = p.segment(1, FrameType::Delta, 0, SegmentKind::Data, 0);
  ASSERT_NE(delta, nullptr);
  EXPECT_EQ(delta->freshnessPeriod(), 15ms) << "delta frames: the code's 15 ms for samples";
  EXPECT_EQ(content(*delta).header.captureTime, env.clock().unixNow()) << "default: the Env's time";
  EXPECT_EQ(content(*delta).payload.size(), 300u) << "a small frame is not padded to the payload size";

  const auto& n = p.counters();
  EXPECT_EQ(n.frames, 2u);
  EXPECT_EQ(n.keyFrames, 1u);
  EXPECT_EQ(n.segments, 4u);
  EXPECT_EQ(n.paritySegments, 2u);
}

TEST_F(StreamProducerTest, KeyAndDeltaNumberedApart)
{
  StreamProducer p(env, ep, "/alice", signer, twoThreads());
  const Buffer f = pattern(100);
  std::vector<PublishedFrame> got;
  for (bool key : {true, false, false, true, false})
    got.push_back(p.publish(0, Frame{.key = key, .data = f}));
  const std::vector<std::pair<FrameType, uint64_t>> want = {
    {FrameType::Key, 0}, {FrameType::Delta, 0}, {FrameType::Delta, 1}, {FrameType::Key, 1}, {FrameType::Delta, 2}};
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].type, want[i].first) << i;
    EXPECT_EQ(got[i].number, want[i].second) << i;
    EXPECT_EQ(got[i].playback, i);
  }
  EXPECT_EQ(content(*p.segment(0, FrameType::Delta, 2, SegmentKind::Data, 0)).header.gopKey, std::optional<uint64_t>(1))
    << "a delta frame names its GOP's key frame";
  EXPECT_EQ(content(*p.segment(0, FrameType::Delta, 1, SegmentKind::Data, 0)).header.playbackNumber, 2u);
  p.publish(1, Frame{.key = false, .data = f});
  EXPECT_EQ(content(*p.segment(1, FrameType::Delta, 0, SegmentKind::Data, 0)).header.gopKey, std::nullopt)
    << "threads are numbered apart; no key frame there yet";
}

TEST_F(StreamProducerTest, ParityRecoversTheFrame)
{
  StreamProducerOptions o = twoThreads();
  o.parityRatio = 0.5;
  StreamProducer p(env, ep, "/alice", signer, o);
  const Buffer frame = pattern(3700, 11);
  auto pub = p.publish(0, Frame{.key = false, .data = frame});
  ASSERT_EQ(pub.dataSegments, 4u);
  ASSERT_EQ(pub.paritySegments, 2u);

  // data segments 0 and 2 lost; parity 0 and 1 arrive
  std::vector<std::optional<fec::ShardView>> shards(6);
  std::vector<SegmentContent> arrived;
  for (auto [kind, s] :
       {std::pair{SegmentKind::Data, 1}, {SegmentKind::Data, 3}, {SegmentKind::Parity, 0}, {SegmentKind::Parity, 1}}) {
    const Data* d = p.segment(0, FrameType::Delta, 0, kind, s);
    ASSERT_NE(d, nullptr);
    SegmentContent c = content(*d);
    EXPECT_EQ(c.header.paritySegments, 2u);
    shards[(kind == SegmentKind::Data ? 0 : c.header.dataSegments) + s] = c.payload;
  }
  fec::ReedSolomon rs(4, 2);
  auto data = rs.recover(shards);
  ASSERT_TRUE(data.has_value());
  EXPECT_EQ(fec::join(*data, 3700), frame);

  StreamProducerOptions off = twoThreads();
  off.parityRatio = 0;
  FakeEndpoint ep2;
  StreamProducer q(env, ep2, "/bob", signer, off);
  EXPECT_EQ(q.publish(0, Frame{.key = true, .data = frame}).paritySegments, 0u);
  EXPECT_EQ(content(*q.segment(0, FrameType::Key, 0, SegmentKind::Data, 0)).header.paritySegments, 0u);
  EXPECT_EQ(q.counters().paritySegments, 0u);
}

TEST_F(StreamProducerTest, KeptSegmentAnsweredAtOnce)
{
  StreamProducer p(env, ep, "/alice", signer, twoThreads());
  p.publish(0, Frame{.key = true, .data = pattern(1500)});
  Interest i = interest(seg("lo", FrameType::Key, 0, SegmentKind::Data, 1));
  i.tags.pitToken = PitToken{1, 2, 3};
  ep.deliverInterest(i);
  ASSERT_EQ(ep.sentData.size(), 1u);
  EXPECT_EQ(ep.sentData[0].name(), seg("lo", FrameType::Key, 0, SegmentKind::Data, 1));
  EXPECT_EQ(ep.sentData[0].tags.pitToken, i.tags.pitToken);
  EXPECT_EQ(content(ep.sentData[0]).header.generationDelay, 0ms);

  // a frame-level Interest with CanBePrefix gets the first data segment
  ep.deliverInterest(interest(frameName("/alice/camera", "lo", FrameType::Key, 0), true));
  ASSERT_EQ(ep.sentData.size(), 2u);
  EXPECT_EQ(ep.sentData[1].name(), seg("lo", FrameType::Key, 0));
  // without CanBePrefix nothing matches it; a segment beyond the frame does not exist
  ep.deliverInterest(interest(frameName("/alice/camera", "lo", FrameType::Key, 0)));
  ep.deliverInterest(interest(seg("lo", FrameType::Key, 0, SegmentKind::Data, 2)));
  EXPECT_EQ(ep.sentData.size(), 2u);
  EXPECT_EQ(p.counters().answeredAtOnce, 2u);
  EXPECT_EQ(p.counters().noSuchSegment, 2u);
}

TEST_F(StreamProducerTest, EarlyInterestAnsweredWhenItsFrameAppearsWithDgen)
{
  StreamProducer p(env, ep, "/alice", signer, twoThreads());
  ep.deliverInterest(interest(seg("hi", FrameType::Delta, 0, SegmentKind::Data, 0)));
  env.advance(10ms);
  ep.deliverInterest(interest(seg("hi", FrameType::Delta, 0, SegmentKind::Data, 0))); // a second consumer
  ep.deliverInterest(interest(seg("hi", FrameType::Delta, 0, SegmentKind::Parity, 0)));
  ep.deliverInterest(interest(seg("hi", FrameType::Delta, 0, SegmentKind::Data, 7))); // beyond the frame
  EXPECT_EQ(p.pitSize(), 4u);
  EXPECT_TRUE(ep.sentData.empty());

  env.advance(30ms);
  p.publish(1, Frame{.key = false, .data = pattern(1800)});
  EXPECT_EQ(p.pitSize(), 0u);
  ASSERT_EQ(ep.sentData.size(), 3u);
  EXPECT_EQ(ep.sentData[0].name(), seg("hi", FrameType::Delta, 0));
  EXPECT_EQ(content(ep.sentData[0]).header.generationDelay, 40ms) << "from the earliest Interest that waited";
  EXPECT_EQ(ep.sentData[1].name(), seg("hi", FrameType::Delta, 0));
  EXPECT_EQ(ep.sentData[2].name(), seg("hi", FrameType::Delta, 0, SegmentKind::Parity, 0));
  EXPECT_EQ(content(ep.sentData[2]).header.generationDelay, 30ms);
  EXPECT_EQ(content(*p.segment(1, FrameType::Delta, 0, SegmentKind::Data, 1)).header.generationDelay, 0ms)
    << "no Interest waited for segment 1";
  EXPECT_EQ(p.counters().answeredAfterWait, 3u);
  EXPECT_EQ(p.counters().noSuchSegment, 1u);

  // the kept segment keeps its d_gen: a later Interest gets the same Data
  ep.deliverInterest(interest(seg("hi", FrameType::Delta, 0)));
  ASSERT_EQ(ep.sentData.size(), 4u);
  EXPECT_EQ(content(ep.sentData[3]).header.generationDelay, 40ms);

  env.advance(1s);
  EXPECT_EQ(p.counters().expired, 0u) << "answered Interests do not expire";
}

TEST_F(StreamProducerTest, HeldInterestGetsItsPitTokenBack)
{
  StreamProducer p(env, ep, "/alice", signer, twoThreads());
  Interest i = interest(seg("lo", FrameType::Key, 0));
  i.tags.pitToken = PitToken{9, 8, 7, 6};
  ep.deliverInterest(i);
  env.advance(3ms);
  p.publish(0, Frame{.key = true, .data = pattern(10)});
  ASSERT_EQ(ep.sentData.size(), 1u);
  EXPECT_EQ(ep.sentData[0].tags.pitToken, i.tags.pitToken);
  EXPECT_EQ(content(ep.sentData[0]).header.generationDelay, 3ms);
}

TEST_F(StreamProducerTest, ParityWithinTheShardLimit)
{
  StreamProducerOptions o = twoThreads();
  o.payloadSize = 1;
  StreamProducer p(env, ep, "/alice", signer, o);
  auto a = p.publish(0, Frame{.key = false, .data = pattern(250)});
  EXPECT_EQ(a.dataSegments, 250u);
  EXPECT_EQ(a.paritySegments, 5u) << "ceil(0.2 x 250) = 50 asked, 255 - 250 fit";
  auto b = p.publish(0, Frame{.key = false, .data = pattern(300)});
  EXPECT_EQ(b.dataSegments, 300u);
  EXPECT_EQ(b.paritySegments, 0u) << "more than 255 data segments: no parity";
  EXPECT_EQ(p.counters().fecLimited, 2u);
  const Data* last = p.segment(0, FrameType::Delta, 1, SegmentKind::Data, 299);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(content(*last).header.dataSegments, 300u) << "a frame without parity may have more than 255 segments";
}

TEST_F(StreamProducerTest, EarlyInterestExpiresAtItsLifetime)
{
  StreamProducer p(env, ep, "/alice", signer, twoThreads());
  ep.deliverInterest(interest(seg("lo", FrameType::Delta, 2), false, 100ms));
  ep.deliverInterest(interest(seg("lo", FrameType::Delta, 3), false, 300ms));
  env.advance(99ms);
  EXPECT_EQ(p.pitSize(), 2u);
  env.advance(1ms);
  EXPECT_EQ(p.pitSize(), 1u);
  EXPECT_EQ(p.counters().expired, 1u);
  for (int f = 0; f < 3; ++f)
    p.publish(0, Frame{.key = false, .data = pattern(10)});
  EXPECT_TRUE(ep.sentData.empty()) << "frame 2 came after its Interest expired";
  env.advance(200ms);
  EXPECT_EQ(p.counters().expired, 2u);
  EXPECT_EQ(p.pitSize(), 0u);
  p.publish(0, Frame{.key = false, .data = pattern(10)});
  EXPECT_TRUE(ep.sentData.empty());
}

TEST_F(StreamProducerTest, PitIsBounded)
{
  StreamProducerOptions o = twoThreads();
  o.pitLimit = 3;
  StreamProducer p(env, ep, "/alice", signer, o);
  for (uint64_t f = 0; f < 5; ++f)
    ep.deliverInterest(interest(seg("lo", FrameType::Delta, f)));
  EXPECT_EQ(p.pitSize(), 3u);
  EXPECT_EQ(p.counters().pitFull, 2u);
  p.publish(0, Frame{.key = false, .data = pattern(10)});
  EXPECT_EQ(p.pitSize(), 2u);
  ep.deliverInterest(interest(seg("lo", FrameType::Delta, 9)));
  EXPECT_EQ(p.pitSize(), 3u) << "room again once a frame answered its Interest";
  EXPECT_EQ(p.counters().pitFull, 2u);
}

TEST_F(StreamProducerTest, FramesOlderThanTheHistoryGetNoData)
{
  StreamProducerOptions o = twoThreads();
  o.history = 2;
  StreamProducer p(env, ep, "/alice", signer, o);
  p.publish(0, Frame{.key = true, .data = pattern(10)});
  p.publish(0, Frame{.key = false, .data = pattern(10)});
  p.publish(0, Frame{.key = false, .data = pattern(10)});
  EXPECT_EQ(p.segment(0, FrameType::Key, 0, SegmentKind::Data, 0), nullptr) << "the oldest frame of the thread went";
  ep.deliverInterest(interest(seg("lo", FrameType::Key, 0)));
  ep.deliverInterest(interest(seg("lo", FrameType::Delta, 0)));
  ASSERT_EQ(ep.sentData.size(), 1u);
  EXPECT_EQ(ep.sentData[0].name(), seg("lo", FrameType::Delta, 0));
  EXPECT_EQ(p.counters().tooOld, 1u);
  EXPECT_EQ(p.pitSize(), 0u) << "an old frame is never held";
}

TEST_F(StreamProducerTest, MetadataAnswersTheLatestFrameNumbers)
{
  StreamProducer p(env, ep, "/alice", signer, twoThreads());
  for (bool key : {true, false, false, true, false, false, false})
    p.publish(0, Frame{.key = key, .data = pattern(10)});
  Interest i = interest(metaName("/alice/camera"), true);
  i.setMustBeFresh(true);
  ep.deliverInterest(i);
  ASSERT_EQ(ep.sentData.size(), 1u);
  const Data& d = ep.sentData[0];
  EXPECT_EQ(d.name(), Name("/alice/camera/_meta/v=7/seg=0")) << "version: the frames published";
  EXPECT_TRUE(i.matchesData(d));
  EXPECT_EQ(d.freshnessPeriod(), 10ms) << "the code's metadata freshness";
  auto m = decodeStreamMeta(d.content());
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->sampleRate, 30);
  ASSERT_EQ(m->threads.size(), 2u);
  EXPECT_EQ(m->threads[0].name, "lo");
  EXPECT_EQ(m->threads[0].bitrate.bps(), 200e3);
  EXPECT_EQ(m->threads[0].latestKey, std::optional<uint64_t>(1));
  EXPECT_EQ(m->threads[0].latestDelta, std::optional<uint64_t>(4));
  EXPECT_EQ(m->threads[1].name, "hi");
  EXPECT_EQ(m->threads[1].latestKey, std::nullopt) << "nothing published there yet";
  EXPECT_EQ(m->threads[1].latestDelta, std::nullopt);
  EXPECT_EQ(p.counters().metadataSent, 1u);

  ep.deliverInterest(interest(metaName("/alice/camera"))); // no CanBePrefix: cannot match
  EXPECT_EQ(ep.sentData.size(), 1u);
  EXPECT_EQ(p.counters().malformed, 1u);
}

TEST_F(StreamProducerTest, EndAnswersHeldAndLaterInterestsPastTheLastFrameWithTheMarker)
{
  StreamProducer p(env, ep, "/alice", signer, twoThreads());
  for (bool key : {true, false, false})
    p.publish(0, Frame{.key = key, .data = pattern(10)});
  ep.deliverInterest(interest(seg("lo", FrameType::Delta, 2))); // held: delta 2 is not made yet
  ASSERT_EQ(p.pitSize(), 1u);
  p.end();
  EXPECT_TRUE(p.ended());
  EXPECT_EQ(p.pitSize(), 0u);
  ASSERT_EQ(ep.sentData.size(), 1u);
  const Data& marker = ep.sentData[0];
  EXPECT_EQ(marker.name(), seg("lo", FrameType::Delta, 2));
  ASSERT_TRUE(isEndMarker(marker.content()));
  auto m = decodeStreamMeta(marker.content());
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->threads[0].frameCount, std::optional<uint64_t>(3));
  EXPECT_EQ(m->threads[0].latestKey, std::optional<uint64_t>(0));
  EXPECT_EQ(m->threads[0].latestDelta, std::optional<uint64_t>(1));
  EXPECT_EQ(m->threads[1].frameCount, std::optional<uint64_t>(0)) << "a thread with nothing published ends too";

  ep.deliverInterest(interest(seg("lo", FrameType::Key, 1)));   // past the end: the marker
  ep.deliverInterest(interest(seg("lo", FrameType::Delta, 0))); // kept: the segment itself
  ASSERT_EQ(ep.sentData.size(), 3u);
  EXPECT_TRUE(isEndMarker(ep.sentData[1].content()));
  EXPECT_FALSE(isEndMarker(ep.sentData[2].content()));
  EXPECT_EQ(p.counters().endMarkers, 2u);

  Interest mi = interest(metaName("/alice/camera"), true);
  ep.deliverInterest(mi);
  ASSERT_EQ(ep.sentData.size(), 4u);
  EXPECT_EQ(ep.sentData[3].name(), Name("/alice/camera/_meta/v=4/seg=0")) << "a new version at the end";
  EXPECT_EQ(decodeStreamMeta(ep.sentData[3].content())->threads[0].frameCount, std::optional<uint64_t>(3));
  EXPECT_THROW(p.publish(0, Frame{.key = false, .data = pattern(10)}), std::logic_error);
  env.advance(5s); // the held Interest's timer went with it
  EXPECT_EQ(p.counters().expired, 0u);
}

TEST_F(StreamProducerTest, MalformedAndForeignInterestsGetNoData)
{
  StreamProducer p(env, ep, "/alice", signer, twoThreads());
  p.publish(0, Frame{.key = true, .data = pattern(10)});
  ep.deliverInterest(interest(Name("/alice/camera/mid/key/seq=0/data/seg=0"))); // no such thread
  ep.deliverInterest(interest(Name("/alice/camera/lo/audio/seq=0")));
  ep.deliverInterest(interest(Name("/alice/camera/lo/key/0/data/seg=0")));
  ep.deliverInterest(interest(Name("/alice/camera"), true));
  ep.deliverInterest(interest(Name("/bob/camera/lo/key/seq=0/data/seg=0")));
  EXPECT_TRUE(ep.sentData.empty());
  EXPECT_TRUE(ep.sentNacks.empty());
  EXPECT_EQ(p.pitSize(), 0u);
  EXPECT_EQ(p.counters().malformed, 4u);
  EXPECT_EQ(p.counters().ignored, 1u);
  EXPECT_EQ(p.counters().interests, 4u);
}

TEST_F(StreamProducerTest, DestroyedWithHeldInterestsCancelsTheirTimers)
{
  {
    StreamProducer p(env, ep, "/alice", signer, twoThreads());
    ep.deliverInterest(interest(seg("lo", FrameType::Delta, 0)));
    EXPECT_EQ(env.clockImpl.pending(), 1u);
  }
  EXPECT_EQ(env.clockImpl.pending(), 0u);
  EXPECT_FALSE(ep.onInterest);
}

} // namespace
} // namespace ndnlab::stream::tests
