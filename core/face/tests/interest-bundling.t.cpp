// BLEnD in GenericLinkService: when the encoder runs (bundling on, BI > 0, wireless medium),
// what goes on the wire (BundleHeader, absorbed Interests), BundleTag handling per face,
// the decoder on every face (regenerated Interests, stale and invalid bundles, counters),
// and a randomized run: a windowed consumer with retransmissions, a lossy wireless link with
// bundling and a producer, where every segment reaches the consumer exactly once.

#include "core/face/dummy-transport.hpp"
#include "core/face/generic-link-service.hpp"
#include "core/face/impaired-transport.hpp"
#include "core/face/internal-transport.hpp"
#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace ndnlab::face {
namespace {

Interest segInterest(std::string_view prefix, uint64_t seq, std::optional<BundleTag> tag, uint32_t nonce = 0x0A0B0C0D)
{
  Name n(prefix);
  n.appendSegment(seq);
  Interest i(std::move(n));
  i.setNonce(nonce);
  i.setLifetime(std::chrono::milliseconds(2000));
  i.tags.bundle = tag;
  return i;
}

uint64_t segOf(const Name& n)
{
  return n.at(-1).toNumber().value_or(UINT64_MAX);
}

class BundlingTest : public ::testing::Test
{
protected:
  BundlingTest() { init({.bundling = true, .bundler = {.bundleInterval = 10}}, Medium::Wireless); }

  void init(LinkServiceOptions opts, Medium medium, FaceScope scope = FaceScope::NonLocal)
  {
    service.reset();
    transport = std::make_unique<DummyTransport>(scope);
    transport->setMedium(medium);
    service = std::make_unique<GenericLinkService>(env, opts);
    service->setFaceId(300);
    service->attach(*transport);
    service->onReceiveInterest = [this](Interest&& i, EndpointId) { interests.push_back(std::move(i)); };
    service->onReceiveData = [this](Data&& d, EndpointId) { data.push_back(std::move(d)); };
  }

  void injectData(std::string_view prefix, uint64_t seq)
  {
    Name n(prefix);
    n.appendSegment(seq);
    Data d(n);
    d.setContent(ByteSpan(Buffer(10, 1)));
    d.setSignatureValue(Buffer(32, 0));
    transport->injectFrame(*d.wireEncode());
  }

  lp::LpPacket sentLp(size_t i)
  {
    auto r = lp::decodeFrame(transport->sent.at(i).frame);
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : lp::LpPacket{};
  }

  /// An LpPacket frame carrying `i` with a BundleHeader (and optionally a BundleTag).
  Buffer bundleFrame(const Interest& i, lp::BundleHeader h, std::optional<BundleTag> tag = {})
  {
    lp::LpPacket p;
    p.bundle = h;
    p.bundleTag = tag;
    SharedBuffer wire = i.wireEncode();
    p.fragment = ByteSpan(*wire);
    return *lp::encode(p);
  }

  const LinkService::Counters& counters() const { return service->counters(); }

  ManualEnv env;
  std::unique_ptr<DummyTransport> transport;
  std::unique_ptr<GenericLinkService> service;
  std::vector<Interest> interests;
  std::vector<Data> data;
};

// --- encoder ---------------------------------------------------------------------------------

TEST_F(BundlingTest, EncoderRunsOnlyWhenOnAndWireless)
{
  EXPECT_TRUE(service->isBundlingActive());
  init({.bundling = true}, Medium::Wired);
  EXPECT_FALSE(service->isBundlingActive());
  init({}, Medium::Wireless);
  EXPECT_FALSE(service->isBundlingActive()); // off by default
  init({.bundling = true, .bundler = {.bundleInterval = 0}}, Medium::Wireless);
  EXPECT_FALSE(service->isBundlingActive()); // BI = 0

  // wired with bundling on: every Interest goes out as is, no bundle field, no tag field
  init({.bundling = true}, Medium::Wired);
  for (uint64_t s = 0; s < 5; ++s)
    service->sendInterest(segInterest("/f", s, BundleTag{false, 20}));
  ASSERT_EQ(transport->sent.size(), 5u);
  for (size_t k = 0; k < 5; ++k) {
    EXPECT_TRUE(sentLp(k).bare);
  }
  EXPECT_EQ(counters().nOutBundles, 0u);

  // the medium is read at send time: switching it turns the encoder on
  transport->setMedium(Medium::Wireless);
  EXPECT_TRUE(service->isBundlingActive());
}

TEST_F(BundlingTest, SendsBundlesAndAbsorbsCoveredInterests)
{
  for (uint64_t s = 1; s <= 30; ++s)
    service->sendInterest(segInterest("/yt/ml.mp4", s, BundleTag{false, 25}, 1000 + s));
  ASSERT_EQ(transport->sent.size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    lp::LpPacket p = sentLp(k);
    ASSERT_TRUE(p.bundle);
    EXPECT_EQ(p.bundle->startSeq, 1 + 10 * k);
    EXPECT_EQ(p.bundle->endSeq, 10 + 10 * k);
    EXPECT_FALSE(p.bundleTag); // the tag is consumed, never forwarded
    auto i = Interest::decode(*p.fragment);
    ASSERT_TRUE(i.ok());
    EXPECT_EQ(segOf(i->name()), 1 + 10 * k);
    EXPECT_EQ(i->nonce(), 1001 + 10 * k); // Name, Nonce and lifetime of the Interest kept
    EXPECT_EQ(i->lifetime(), std::chrono::milliseconds(2000));
  }
  EXPECT_EQ(counters().nOutBundles, 3u);
  EXPECT_EQ(counters().nOutInterestsAbsorbed, 27u);
  EXPECT_EQ(env.traceImpl.count(EventKind::InterestAbsorbed), 27u);
  EXPECT_EQ(env.traceImpl.count(EventKind::BundleOut), 3u);
  EXPECT_EQ(service->bundleEncoderEntries(), 1u);
}

TEST_F(BundlingTest, RetransmissionsAndUntaggedInterestsGoOutAlone)
{
  service->sendInterest(segInterest("/f", 0, BundleTag{false, 25})); // [0, 9]
  service->sendInterest(segInterest("/f", 3, BundleTag{true, 25}));  // RTx
  service->sendInterest(segInterest("/f", 4, std::nullopt));         // e.g. a python-ndn consumer
  Interest plain(Name("/not/segmented"));
  plain.setNonce(1);
  plain.tags.bundle = BundleTag{false, 25};
  service->sendInterest(plain);
  ASSERT_EQ(transport->sent.size(), 4u);
  EXPECT_EQ(sentLp(1).bundle->startSeq, 3u);
  EXPECT_EQ(sentLp(1).bundle->endSeq, 3u);
  EXPECT_TRUE(sentLp(2).bare);
  EXPECT_TRUE(sentLp(3).bare);
}

TEST_F(BundlingTest, SetBundlingAtRunTime)
{
  init({}, Medium::Wireless);
  service->sendInterest(segInterest("/f", 0, BundleTag{false, 25}));
  service->setBundling(true, 4);
  EXPECT_TRUE(service->options().bundling);
  service->sendInterest(segInterest("/f", 1, BundleTag{false, 25}));
  service->sendInterest(segInterest("/f", 2, BundleTag{false, 25}));
  ASSERT_EQ(transport->sent.size(), 2u);
  EXPECT_EQ(sentLp(1).bundle->endSeq, 4u);
  service->setBundling(false, 4);
  service->sendInterest(segInterest("/f", 3, BundleTag{false, 25}));
  EXPECT_EQ(transport->sent.size(), 3u);
}

TEST_F(BundlingTest, DataAheadOfItsInterestIsHeldUntilTheInterestComesDown)
{
  service->sendInterest(segInterest("/f", 0, BundleTag{false, 25})); // bundle [0, 9]
  service->sendInterest(segInterest("/f", 1, BundleTag{false, 25})); // absorbed
  injectData("/f", 1);                                               // its Interest went down: handed up at once
  injectData("/f", 3);  // asked for by the bundle, not yet by the consumer: held
  injectData("/f", 12); // no bundle asked for it: handed up (the forwarder decides)
  ASSERT_EQ(data.size(), 2u);
  EXPECT_EQ(segOf(data[0].name()), 1u);
  EXPECT_EQ(segOf(data[1].name()), 12u);
  EXPECT_EQ(counters().nInDataEarly, 1u);
  EXPECT_EQ(service->heldEarlyData(), 1u);

  service->sendInterest(segInterest("/f", 2, BundleTag{false, 25}));
  service->sendInterest(segInterest("/f", 3, BundleTag{false, 25})); // absorbed: releases seg 3
  EXPECT_EQ(data.size(), 2u);                                        // not from inside the send
  env.advance(Duration::zero());
  ASSERT_EQ(data.size(), 3u);
  EXPECT_EQ(segOf(data[2].name()), 3u);
  EXPECT_EQ(service->heldEarlyData(), 0u);
  EXPECT_EQ(counters().nInDataEarlyExpired, 0u);
  EXPECT_EQ(env.traceImpl.count(EventKind::DataEarly), 1u);
}

TEST_F(BundlingTest, HeldDataExpires)
{
  init({.bundling = true, .bundler = {.bundleInterval = 10, .entryLifetime = std::chrono::seconds(1)}},
       Medium::Wireless);
  service->sendInterest(segInterest("/f", 0, BundleTag{false, 25}));
  injectData("/f", 5);
  env.advance(std::chrono::milliseconds(1500));
  injectData("/f", 6); // the entry expired too: not ahead any more, handed up
  EXPECT_EQ(data.size(), 1u);
  service->sendInterest(segInterest("/f", 5, BundleTag{false, 25})); // a new bundle now
  env.advance(Duration::zero());
  EXPECT_EQ(data.size(), 1u);
  EXPECT_EQ(counters().nInDataEarly, 1u);
  EXPECT_EQ(counters().nInDataEarlyExpired, 1u);
  EXPECT_EQ(service->heldEarlyData(), 0u);
}

TEST_F(BundlingTest, ThePapersWayHoldsNoData)
{
  init({.bundling = true, .bundler = {.bundleInterval = 10, .holdEarlyData = false}}, Medium::Wireless);
  service->sendInterest(segInterest("/f", 0, BundleTag{false, 25})); // bundle [0, 9]
  injectData("/f", 3); // ahead of its Interest: handed up, for the forwarder to drop as unsolicited
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(segOf(data[0].name()), 3u);
  EXPECT_EQ(counters().nInDataEarly, 0u);
  EXPECT_EQ(service->heldEarlyData(), 0u);
}

TEST_F(BundlingTest, NoHoldingWithoutTheEncoder)
{
  init({.bundling = true}, Medium::Wired);
  service->sendInterest(segInterest("/f", 0, BundleTag{false, 25}));
  injectData("/f", 3);
  EXPECT_EQ(data.size(), 1u);
  EXPECT_EQ(counters().nInDataEarly, 0u);
}

// --- BundleTag on the wire -------------------------------------------------------------------

TEST_F(BundlingTest, BundleTagIsEmittedOnlyWithEmitBundleTag)
{
  init({}, Medium::Wired, FaceScope::Local);
  service->sendInterest(segInterest("/f", 0, BundleTag{true, 7}));
  EXPECT_TRUE(sentLp(0).bare); // forwarder faces never emit it
  init({.emitBundleTag = true}, Medium::Wired, FaceScope::Local);
  service->sendInterest(segInterest("/f", 0, BundleTag{true, 7}));
  service->sendInterest(segInterest("/f", 1, std::nullopt));
  EXPECT_EQ(sentLp(0).bundleTag, (BundleTag{true, 7}));
  EXPECT_TRUE(sentLp(1).bare);
}

TEST_F(BundlingTest, ReceivedBundleTagBecomesThePacketTag)
{
  init({}, Medium::Wired, FaceScope::Local);
  lp::LpPacket p;
  p.bundleTag = BundleTag{true, 12};
  Interest i = segInterest("/f", 5, std::nullopt);
  SharedBuffer wire = i.wireEncode();
  p.fragment = ByteSpan(*wire);
  transport->injectFrame(*lp::encode(p));
  ASSERT_EQ(interests.size(), 1u);
  EXPECT_EQ(interests[0].tags.bundle, (BundleTag{true, 12}));
}

// --- decoder ---------------------------------------------------------------------------------

TEST_F(BundlingTest, DecoderRegeneratesInOrderOnAnyFace)
{
  init({}, Medium::Wired); // bundling off, wired: received bundles are still decoded
  Interest b = segInterest("/yt/ml.mp4", 1, std::nullopt, 0xABCD0001);
  b.setHopLimit(7);
  transport->injectFrame(bundleFrame(b, {1, 10, 5}));
  ASSERT_EQ(interests.size(), 10u);
  std::set<uint32_t> nonces;
  for (size_t k = 0; k < 10; ++k) {
    const Interest& r = interests[k];
    EXPECT_EQ(segOf(r.name()), k + 1);
    EXPECT_EQ(r.name().getPrefix(-1), Name("/yt/ml.mp4"));
    EXPECT_EQ(r.lifetime(), std::chrono::milliseconds(2000));
    EXPECT_EQ(r.hopLimit(), uint8_t{7});
    ASSERT_TRUE(r.nonce());
    nonces.insert(*r.nonce());
    // regenerated Interests carry a tag for a further wireless hop, marked as decoded
    EXPECT_EQ(r.tags.bundle, (BundleTag{false, 10, true}));
  }
  EXPECT_EQ(interests[0].nonce(), 0xABCD0001u); // the Interest on the wire is kept as is
  EXPECT_EQ(nonces.size(), 10u);                // distinct Nonces
  EXPECT_EQ(counters().nInBundles, 1u);
  EXPECT_EQ(counters().nInInterestsRegenerated, 9u);
  EXPECT_EQ(env.traceImpl.count(EventKind::InterestRegenerated), 9u);
  EXPECT_EQ(service->bundleDecoderEntries(), 1u);
}

TEST_F(BundlingTest, DecoderFillsTheGapOfALostBundle)
{
  // Fig. 6: BI = 10, the bundle SS = 11 is lost
  transport->injectFrame(bundleFrame(segInterest("/f", 1, std::nullopt), {1, 10, 5}));
  transport->injectFrame(bundleFrame(segInterest("/f", 21, std::nullopt), {21, 30, 5}));
  ASSERT_EQ(interests.size(), 30u);
  for (size_t k = 0; k < 30; ++k)
    EXPECT_EQ(segOf(interests[k].name()), k + 1);
  EXPECT_EQ(counters().nInInterestsGapFilled, 10u);
  EXPECT_EQ(counters().nInInterestsRegenerated, 28u);
}

TEST_F(BundlingTest, StaleAndInvalidBundlesAreCountedDrops)
{
  Buffer f = bundleFrame(segInterest("/f", 1, std::nullopt), {1, 10, 5});
  transport->injectFrame(f);
  transport->injectFrame(f); // duplicate
  EXPECT_EQ(interests.size(), 10u);
  EXPECT_EQ(counters().nInBundlesStale, 1u);
  EXPECT_EQ(env.traceImpl.count(EventKind::Drop, DropReason::BundleStale), 1u);

  transport->injectFrame(bundleFrame(segInterest("/f", 12, std::nullopt), {11, 20, 5}));
  transport->injectFrame(bundleFrame(segInterest("/f", 0, std::nullopt), {0, 1000, 5}));
  EXPECT_EQ(counters().nInBundlesInvalid, 2u);
  EXPECT_EQ(env.traceImpl.count(EventKind::Drop, DropReason::BundleInvalid), 2u);
  EXPECT_EQ(counters().nInBundles, 4u);
  EXPECT_EQ(interests.size(), 10u);
}

TEST_F(BundlingTest, RetransmissionSingleIsHandedUpAsIs)
{
  transport->injectFrame(bundleFrame(segInterest("/f", 1, std::nullopt), {1, 10, 5}));
  transport->injectFrame(bundleFrame(segInterest("/f", 4, std::nullopt, 77), {4, 4, 5}));
  ASSERT_EQ(interests.size(), 11u);
  EXPECT_EQ(segOf(interests[10].name()), 4u);
  EXPECT_EQ(interests[10].nonce(), 77u);
  EXPECT_EQ(interests[10].tags.bundle, (BundleTag{true, 1, true}));
}

// --- two link services over a lossy wireless link ----------------------------------------------

/// Consumer node (app + PIT) -> bundling link service -> lossy link -> decoding link service
/// -> producer node (answers every Interest). The consumer keeps `window` Interests
/// outstanding, retransmits after `rto` with the RTx flag, and accepts a Data only while its
/// PIT entry is pending (as a forwarder does), so each segment reaches it at most once.
struct LossyRun
{
  struct Result
  {
    std::map<uint64_t, int> delivered; ///< segment -> times handed to the app
    uint64_t consumerInterests = 0;    ///< Interests the consumer node sent down (incl. RTx)
    uint64_t retransmissions = 0;
    uint64_t interestFrames = 0; ///< Interest frames that left the consumer's link service
    LinkService::Counters enc, dec;
    bool finished = false;
    Duration elapsed{};
  };

  static Result run(uint64_t seed, double loss, Duration jitter, uint64_t total, uint32_t bi, uint32_t window,
                    LinkServiceOptions consumerOpts = {.bundling = true})
  {
    ManualEnv env(seed);
    auto [a, b] = InternalTransport::makePair(env);
    ImpairmentOptions imp;
    imp.loss = loss;
    imp.delay = std::chrono::milliseconds(5);
    imp.jitter = jitter; // reorders frames, so late (stale) bundles occur
    auto ta = std::make_unique<ImpairedTransport>(env, std::move(a), imp);
    auto tb = std::make_unique<ImpairedTransport>(env, std::move(b), imp);
    ta->setMedium(Medium::Wireless);
    tb->setMedium(Medium::Wireless);
    consumerOpts.bundler.bundleInterval = bi;
    GenericLinkService consumerLs(env, consumerOpts);
    GenericLinkService producerLs(env, {});
    consumerLs.attach(*ta);
    producerLs.attach(*tb);

    Result r;
    const Duration rto = std::chrono::milliseconds(100);
    std::map<uint64_t, TimerId> pending; // the consumer's PIT
    uint64_t next = 0;
    std::function<void(uint64_t, bool)> express = [&](uint64_t seq, bool retx) {
      Interest i = segInterest("/file", seq, BundleTag{retx, window}, env.rng().next32());
      ++r.consumerInterests;
      r.retransmissions += retx ? 1 : 0;
      pending[seq] = env.timers().schedule(rto, [&, seq] { express(seq, true); });
      consumerLs.sendInterest(i);
    };
    auto fill = [&] {
      while (pending.size() < window && next < total)
        express(next++, false);
    };
    consumerLs.onReceiveData = [&](Data&& d, EndpointId) {
      uint64_t seq = segOf(d.name());
      auto it = pending.find(seq);
      if (it == pending.end())
        return; // unsolicited (e.g. bundled ahead of the consumer's Interest): dropped
      env.timers().cancel(it->second);
      pending.erase(it);
      ++r.delivered[seq];
      fill();
    };
    producerLs.onReceiveInterest = [&](Interest&& i, EndpointId) {
      Data d(i.name());
      d.setContent(ByteSpan(Buffer(100, 0x5A)));
      d.setSignatureValue(Buffer(32, 0));
      producerLs.sendData(d);
    };

    fill();
    TimePoint start = env.now();
    for (int step = 0; step < 100000 && r.delivered.size() < total; ++step)
      env.advance(std::chrono::milliseconds(1));
    r.finished = r.delivered.size() == total;
    r.elapsed = env.now() - start;
    for (auto& [seq, t] : pending)
      env.timers().cancel(t);
    r.interestFrames = consumerLs.counters().nOutBundles;
    r.enc = consumerLs.counters();
    r.dec = producerLs.counters();
    return r;
  }
};

TEST(BundlingLossyLink, EverySegmentIsDeliveredExactlyOnce)
{
  const uint64_t total = 600;
  uint64_t gapFilled = 0, stale = 0, runs = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    for (double loss : {0.0, 0.05, 0.2}) {
      for (uint32_t window : {4u, 20u}) {
        SCOPED_TRACE(testing::Message() << "seed=" << seed << " loss=" << loss << " window=" << window);
        Duration jitter = loss > 0 ? std::chrono::milliseconds(4) : Duration::zero();
        auto r = LossyRun::run(seed, loss, jitter, total, 15, window);
        ASSERT_TRUE(r.finished) << r.delivered.size() << " of " << total;
        for (uint64_t s = 0; s < total; ++s)
          EXPECT_EQ(r.delivered[s], 1) << s;
        // every Interest that left the consumer's link service carried a bundle header, and
        // the bundler cut the Interest frames well below one per Interest
        EXPECT_EQ(r.enc.nOutBundles + r.enc.nOutInterestsAbsorbed, r.consumerInterests);
        const uint64_t perFrame = std::min<uint64_t>(window, 15); // Interests per bundle
        if (loss == 0.0) {
          EXPECT_EQ(r.retransmissions, 0u);
          EXPECT_EQ(r.interestFrames, (total + perFrame - 1) / perFrame);
          EXPECT_EQ(r.dec.nInBundlesStale, 0u);
          EXPECT_EQ(r.dec.nInInterestsRegenerated, total - r.interestFrames);
        }
        else {
          EXPECT_LT(r.interestFrames, r.consumerInterests * 3 / 4);
        }
        gapFilled += r.dec.nInInterestsGapFilled;
        stale += r.dec.nInBundlesStale;
        ++runs;
      }
    }
  }
  // over the lossy runs the decoder filled the range of lost bundles and dropped late ones
  EXPECT_GT(gapFilled, 0u);
  EXPECT_GT(stale, 0u);
  EXPECT_EQ(runs, 48u);
}

TEST(BundlingLossyLink, WithoutBundlingEveryInterestIsAFrame)
{
  // the same consumer over a wired medium: the link service passes every Interest
  ManualEnv env(3);
  auto [a, b] = InternalTransport::makePair(env);
  GenericLinkService ls(env, {.bundling = true});
  ls.attach(*a);
  int received = 0;
  b->onReceive = [&](ByteSpan, EndpointId) { ++received; };
  for (uint64_t s = 0; s < 50; ++s)
    ls.sendInterest(segInterest("/file", s, BundleTag{false, 20}));
  env.advance(std::chrono::milliseconds(1));
  EXPECT_EQ(received, 50);
}

// --- beyond the paper: loss detection (VI-B) -------------------------------------------------

TEST_F(BundlingTest, LostBundleIsReRequestedOnTheFaceTimerLongBeforeAnRto)
{
  using namespace std::chrono_literals;
  init({.bundling = true, .bundler = {.bundleInterval = 10, .lossDetection = true, .gapMin = 2ms}}, Medium::Wireless);
  for (uint64_t s = 0; s < 20; ++s) // bundles [0, 9] and [10, 19]; the second is lost
    service->sendInterest(segInterest("/f", s, BundleTag{false, 20}));
  ASSERT_EQ(transport->sent.size(), 2u);
  const uint32_t flow = sentLp(0).bundle->flow;
  for (uint64_t s = 0; s < 10; ++s) {
    env.advance(1ms);
    injectData("/f", s);
  }
  EXPECT_EQ(data.size(), 10u);
  const TimePoint lastData = env.now();
  while (transport->sent.size() == 2u && env.now() - lastData < 200ms)
    env.advance(100us);
  ASSERT_EQ(transport->sent.size(), 3u);
  EXPECT_LE(env.now() - lastData, 10ms); // ndncatchunks' RTO is at least 200 ms
  lp::LpPacket rec = sentLp(2);
  ASSERT_TRUE(rec.bundle.has_value());
  EXPECT_EQ(rec.bundle->startSeq, 10u);
  EXPECT_EQ(rec.bundle->endSeq, 19u);
  EXPECT_NE(rec.bundle->flow, flow);
  auto i = Interest::decode(std::make_shared<const Buffer>(rec.fragment->begin(), rec.fragment->end()));
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(segOf(i->name()), 10u);
  EXPECT_EQ(i->lifetime(), std::chrono::milliseconds(2000)); // the bundle Interest's fields
  EXPECT_EQ(counters().nOutBundleRecoveries, 1u);
  EXPECT_EQ(counters().nOutBundles, 2u);
  EXPECT_EQ(env.traceImpl.count(EventKind::BundleRecovery), 1u);

  // the recovered Data stop the timer; nothing more goes out
  for (uint64_t s = 10; s < 20; ++s) {
    env.advance(1ms);
    injectData("/f", s);
  }
  env.advance(1s);
  EXPECT_EQ(transport->sent.size(), 3u);
}

TEST_F(BundlingTest, WithoutLossDetectionNothingIsReRequested)
{
  using namespace std::chrono_literals;
  for (uint64_t s = 0; s < 20; ++s)
    service->sendInterest(segInterest("/f", s, BundleTag{false, 20}));
  injectData("/f", 0);
  env.advance(10s);
  EXPECT_EQ(transport->sent.size(), 2u);
  EXPECT_EQ(counters().nOutBundleRecoveries, 0u);
}

TEST(BundlingLossyLink, LossDetectionDeliversEverySegmentWithFewerRetransmissions)
{
  using namespace std::chrono_literals;
  const uint64_t total = 600;
  uint64_t retxPlain = 0, retxDetect = 0, recoveries = 0;
  Duration timePlain{}, timeDetect{};
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    for (double loss : {0.05, 0.2}) {
      for (uint32_t window : {10u, 20u}) {
        SCOPED_TRACE(testing::Message() << "seed=" << seed << " loss=" << loss << " window=" << window);
        auto plain = LossyRun::run(seed, loss, 0ms, total, 15, window);
        auto detect = LossyRun::run(seed, loss, 0ms, total, 15, window,
                                    {.bundling = true, .bundler = {.lossDetection = true, .gapMin = 20ms}});
        ASSERT_TRUE(detect.finished) << detect.delivered.size() << " of " << total;
        for (uint64_t s = 0; s < total; ++s)
          EXPECT_EQ(detect.delivered[s], 1) << s;
        retxPlain += plain.retransmissions;
        retxDetect += detect.retransmissions;
        timePlain += plain.elapsed;
        timeDetect += detect.elapsed;
        recoveries += detect.enc.nOutBundleRecoveries;
      }
    }
  }
  // the encoder recovers stalls 20 ms after the last Data instead of the consumer's 100 ms RTO
  EXPECT_GT(recoveries, 0u);
  EXPECT_LT(retxDetect, retxPlain);
  EXPECT_LT(timeDetect, timePlain);
}

} // namespace
} // namespace ndnlab::face
