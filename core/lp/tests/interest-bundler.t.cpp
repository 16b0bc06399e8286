// BLEnD encoder (EIT) and decoder (DIT): the paper's rules (sections IV-A, IV-B), Fig. 6's gap
// case, retransmissions, the last partial bundle, stale bundles, interleaved prefixes, the flow
// id, the table bounds and the regenerated Interests.

#include "core/lp/interest-bundler.hpp"
#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

#include <set>

namespace ndnlab::lp {
namespace {

using Action = BundleEncoder::Action;
using Status = BundleDecoder::Status;

Interest seg(std::string_view prefix, uint64_t seq, uint32_t nonce = 0x11223344)
{
  Name n(prefix);
  n.appendSegment(seq);
  Interest i(std::move(n));
  i.setNonce(nonce);
  return i;
}

BundleTag tag(uint32_t cwnd, bool retx = false)
{
  return BundleTag{retx, cwnd};
}

InterestBundlerOptions withBi(uint32_t bi)
{
  InterestBundlerOptions o;
  o.bundleInterval = bi;
  return o;
}

class EncoderTest : public ::testing::Test
{
protected:
  BundleEncoder::Decision send(std::string_view prefix, uint64_t seq, uint32_t cwnd, bool retx = false)
  {
    return enc.onOutgoingInterest(seg(prefix, seq), tag(cwnd, retx), env.now());
  }

  ManualEnv env;
  BundleEncoder enc{env.rng(), withBi(10)};
};

TEST_F(EncoderTest, PassesInterestsItCannotBundle)
{
  EXPECT_EQ(enc.onOutgoingInterest(seg("/a", 1), std::nullopt, env.now()).action, Action::Pass);
  EXPECT_EQ(enc.onOutgoingInterest(Interest(Name("/a/b")), tag(20), env.now()).action, Action::Pass);
  Name versioned("/a");
  versioned.appendVersion(7);
  EXPECT_EQ(enc.onOutgoingInterest(Interest(versioned), tag(20), env.now()).action, Action::Pass);
  BundleEncoder off(env.rng(), withBi(0));
  EXPECT_EQ(off.onOutgoingInterest(seg("/a", 1), tag(20), env.now()).action, Action::Pass);
  EXPECT_EQ(enc.size(), 0u);
}

TEST_F(EncoderTest, BundlesEveryBiInterestsAndAbsorbsTheCoveredOnes)
{
  // cwnd >= BI: bundles [1,10], [11,20], [21,30] as in Fig. 6 (BI = 10)
  uint32_t flow = 0;
  for (uint64_t seq = 1; seq <= 30; ++seq) {
    auto d = send("/yt/ml.mp4", seq, 25);
    if (seq % 10 == 1) {
      ASSERT_EQ(d.action, Action::Send) << seq;
      EXPECT_EQ(d.header.startSeq, seq);
      EXPECT_EQ(d.header.endSeq, seq + 9);
      EXPECT_NE(d.header.flow, 0u);
      if (flow != 0) {
        EXPECT_EQ(d.header.flow, flow);
      }
      flow = d.header.flow;
    }
    else {
      EXPECT_EQ(d.action, Action::Absorb) << seq;
    }
  }
  EXPECT_EQ(enc.size(), 1u);
}

TEST_F(EncoderTest, BundleSizeIsMinOfCwndAndBi)
{
  auto d = send("/f", 0, 4);
  EXPECT_EQ(d.header.endSeq, 3u); // ES - SS + 1 = min(4, 10)
  d = send("/g", 0, 0);
  EXPECT_EQ(d.header.endSeq, 0u); // cwnd 0 reads as 1
  d = send("/h", 0, 1000);
  EXPECT_EQ(d.header.endSeq, 9u);
}

TEST_F(EncoderTest, LastPartialBundleAndShortBundlesDoNotSwallowLaterInterests)
{
  // The last bundle of a file: the transport's cwnd is the remaining count (paper IV-A).
  send("/f", 0, 20);                               // [0, 9]
  EXPECT_EQ(send("/f", 10, 3).header.endSeq, 12u); // [10, 12]
  EXPECT_EQ(send("/f", 11, 3).action, Action::Absorb);
  EXPECT_EQ(send("/f", 12, 3).action, Action::Absorb);
  // 13 is below LSS + BI = 20 but no bundle requested it: it starts the next bundle.
  auto d = send("/f", 13, 2);
  ASSERT_EQ(d.action, Action::Send);
  EXPECT_EQ(d.header.startSeq, 13u);
  EXPECT_EQ(d.header.endSeq, 14u);
}

TEST_F(EncoderTest, ThePapersRuleBlocksEverythingBelowLssPlusBi)
{
  InterestBundlerOptions o = withBi(10);
  o.paperEncoder = true;
  BundleEncoder paper(env.rng(), o);
  auto sendPaper = [&](uint64_t seq, uint32_t cwnd, bool retx = false) {
    return paper.onOutgoingInterest(seg("/f", seq), tag(cwnd, retx), env.now());
  };
  auto first = sendPaper(0, 3); // [0, 2]: cwnd 3
  ASSERT_EQ(first.action, Action::Send);
  EXPECT_EQ(first.header.endSeq, 2u);
  // 3..9: no bundle asked for them, yet below LSS + BI = 10: blocked (ndnlab's rule sends 3)
  for (uint64_t seq = 3; seq < 10; ++seq)
    EXPECT_EQ(sendPaper(seq, 20).action, Action::Absorb) << seq;
  auto d = sendPaper(10, 20); // seq >= LSS + BI: the next bundle, [10, 19]
  ASSERT_EQ(d.action, Action::Send);
  EXPECT_EQ(d.header.startSeq, 10u);
  EXPECT_EQ(d.header.endSeq, 19u);
  EXPECT_EQ(sendPaper(4, 20).action, Action::Absorb); // behind LSS: blocked too
  auto rtx = sendPaper(4, 20, true);                  // a retransmission always goes out alone
  ASSERT_EQ(rtx.action, Action::Send);
  EXPECT_TRUE(rtx.header.isSingle());
  EXPECT_EQ(sendPaper(20, 20).header.startSeq, 20u);
}

TEST_F(EncoderTest, RetransmissionGoesOutAloneAndKeepsTheEntry)
{
  auto first = send("/f", 0, 20); // [0, 9]
  auto rtx = send("/f", 3, 20, true);
  ASSERT_EQ(rtx.action, Action::Send);
  EXPECT_EQ(rtx.header, (BundleHeader{3, 3, first.header.flow}));
  EXPECT_TRUE(rtx.header.isSingle());
  EXPECT_EQ(send("/f", 4, 20).action, Action::Absorb); // still covered by [0, 9]
  // an RTx of a prefix the encoder does not know carries no flow
  EXPECT_EQ(send("/other", 5, 20, true).header, (BundleHeader{5, 5, 0}));
  EXPECT_EQ(enc.size(), 1u);
}

TEST_F(EncoderTest, InterestBehindTheLastBundleGoesOutAlone)
{
  send("/f", 0, 20);
  send("/f", 10, 20); // [10, 19]
  auto d = send("/f", 4, 20);
  ASSERT_EQ(d.action, Action::Send);
  EXPECT_TRUE(d.header.isSingle());
  EXPECT_EQ(send("/f", 15, 20).action, Action::Absorb);
  EXPECT_EQ(send("/f", 20, 20).header.startSeq, 20u);
}

TEST_F(EncoderTest, IsAheadMarksSegmentsBundledButNotYetSeen)
{
  auto name = [](uint64_t seq) {
    Name n("/f");
    n.appendSegment(seq);
    return n;
  };
  EXPECT_FALSE(enc.isAhead(name(0), env.now())); // unknown prefix
  send("/f", 0, 20);                             // [0, 9], seen up to 0
  EXPECT_FALSE(enc.isAhead(name(0), env.now()));
  EXPECT_TRUE(enc.isAhead(name(1), env.now()));
  EXPECT_TRUE(enc.isAhead(name(9), env.now()));
  EXPECT_FALSE(enc.isAhead(name(10), env.now())); // no bundle asked for it
  send("/f", 1, 20);
  send("/f", 2, 20);
  EXPECT_FALSE(enc.isAhead(name(2), env.now()));
  EXPECT_TRUE(enc.isAhead(name(3), env.now()));
  send("/f", 7, 20, true); // a retransmission does not count as seen
  EXPECT_TRUE(enc.isAhead(name(7), env.now()));
  EXPECT_FALSE(enc.isAhead(Name("/f/x"), env.now()));
}

TEST_F(EncoderTest, InterleavedPrefixesKeepSeparateEntries)
{
  auto a0 = send("/a", 0, 20);
  auto b0 = send("/b", 100, 5);
  EXPECT_NE(a0.header.flow, b0.header.flow);
  EXPECT_EQ(send("/a", 1, 20).action, Action::Absorb);
  EXPECT_EQ(send("/b", 104, 5).action, Action::Absorb);
  EXPECT_EQ(send("/b", 105, 5).header, (BundleHeader{105, 109, b0.header.flow}));
  EXPECT_EQ(send("/a", 10, 20).header, (BundleHeader{10, 19, a0.header.flow}));
  EXPECT_EQ(enc.size(), 2u);
}

TEST_F(EncoderTest, IdleEntryExpiresAndTheFlowRestarts)
{
  InterestBundlerOptions o = withBi(10);
  o.entryLifetime = std::chrono::seconds(2);
  BundleEncoder e(env.rng(), o);
  auto first = e.onOutgoingInterest(seg("/f", 0), tag(20), env.now());
  env.advance(std::chrono::milliseconds(1500));
  EXPECT_EQ(e.onOutgoingInterest(seg("/f", 5), tag(20), env.now()).action, Action::Absorb);
  env.advance(std::chrono::milliseconds(1500)); // refreshed by the absorbed Interest
  EXPECT_EQ(e.onOutgoingInterest(seg("/f", 6), tag(20), env.now()).action, Action::Absorb);
  env.advance(std::chrono::seconds(2));
  // forgotten: the same seq starts a new bundle with a new flow id
  auto again = e.onOutgoingInterest(seg("/f", 7), tag(20), env.now());
  ASSERT_EQ(again.action, Action::Send);
  EXPECT_EQ(again.header.startSeq, 7u);
  EXPECT_NE(again.header.flow, first.header.flow);
}

TEST_F(EncoderTest, TableIsBoundedLeastRecentlyUsedFirst)
{
  InterestBundlerOptions o = withBi(10);
  o.maxEntries = 2;
  BundleEncoder e(env.rng(), o);
  e.onOutgoingInterest(seg("/a", 0), tag(20), env.now());
  e.onOutgoingInterest(seg("/b", 0), tag(20), env.now());
  e.onOutgoingInterest(seg("/a", 1), tag(20), env.now()); // /a used last
  e.onOutgoingInterest(seg("/c", 0), tag(20), env.now()); // evicts /b
  EXPECT_EQ(e.size(), 2u);
  EXPECT_EQ(e.onOutgoingInterest(seg("/a", 2), tag(20), env.now()).action, Action::Absorb);
  EXPECT_EQ(e.onOutgoingInterest(seg("/b", 1), tag(20), env.now()).action, Action::Send);
}

TEST_F(EncoderTest, BundleIntervalIsCappedAndChangeable)
{
  BundleEncoder big(env.rng(), withBi(100000));
  EXPECT_EQ(big.onOutgoingInterest(seg("/f", 0), tag(1u << 20), env.now()).header.endSeq, MaxBundleSpan - 1);
  enc.setBundleInterval(3);
  EXPECT_EQ(send("/new", 0, 20).header.endSeq, 2u);
  // saturates at the top of the sequence space
  EXPECT_EQ(send("/top", UINT64_MAX - 1, 20).header.endSeq, UINT64_MAX);
}

// --- decoder -----------------------------------------------------------------------------------

class DecoderTest : public ::testing::Test
{
protected:
  BundleDecoder::Outcome recv(std::string_view prefix, uint64_t ss, uint64_t es, uint32_t flow = 7,
                              uint64_t endpoint = 0)
  {
    return dec.onIncomingBundle(seg(prefix, ss), BundleHeader{ss, es, flow}, endpoint, env.now());
  }

  ManualEnv env;
  BundleDecoder dec;
};

void expectRange(const BundleDecoder::Outcome& o, uint64_t first, uint64_t last, uint64_t gap = 0)
{
  ASSERT_EQ(o.status, Status::Regenerate);
  EXPECT_EQ(o.first, first);
  EXPECT_EQ(o.last, last);
  EXPECT_EQ(o.gapFilled, gap);
}

TEST_F(DecoderTest, Fig6LostBundleIsFilledByTheNextOne)
{
  // BI = 10: bundles SS = 1, 11, 21; the second is lost on the air.
  expectRange(recv("/yt/ml.mp4", 1, 10), 1, 10);
  // (SS = 11 lost: the receiver idles with PES = 10)
  expectRange(recv("/yt/ml.mp4", 21, 30), 11, 30, 10); // DSS = PES + 1 = 11
  expectRange(recv("/yt/ml.mp4", 31, 40), 31, 40);
}

TEST_F(DecoderTest, RetransmissionRegeneratesOnlyItself)
{
  expectRange(recv("/f", 1, 10), 1, 10);
  expectRange(recv("/f", 4, 4), 4, 4); // RTx below PES: PES stays 10
  expectRange(recv("/f", 11, 20), 11, 20);
  expectRange(recv("/f", 25, 25), 25, 25); // no gap fill for a single...
  expectRange(recv("/f", 26, 35), 26, 35); // ...but it advanced PES (a bundle of one)
  // a single of another flow does not move the entry
  expectRange(recv("/f", 50, 50, 99), 50, 50);
  expectRange(recv("/f", 36, 45), 36, 45);
}

TEST_F(DecoderTest, StaleBundlesAreDropped)
{
  expectRange(recv("/f", 1, 10), 1, 10);
  expectRange(recv("/f", 11, 20), 11, 20);
  EXPECT_EQ(recv("/f", 11, 20).status, Status::Stale); // duplicate frame
  EXPECT_EQ(recv("/f", 1, 10).status, Status::Stale);  // late frame
  EXPECT_EQ(recv("/f", 5, 20).status, Status::Stale);
  // overlapping the decoded range: only the new part is handed up
  expectRange(recv("/f", 15, 24), 21, 24);
}

TEST_F(DecoderTest, LastPartialBundle)
{
  expectRange(recv("/f", 0, 14), 0, 14);
  expectRange(recv("/f", 15, 17), 15, 17);
  EXPECT_EQ(recv("/f", 15, 17).status, Status::Stale);
}

TEST_F(DecoderTest, InterleavedPrefixesAndEndpointsAreIndependent)
{
  expectRange(recv("/a", 0, 9), 0, 9);
  expectRange(recv("/b", 0, 9), 0, 9);
  expectRange(recv("/a", 0, 9, 7, 2), 0, 9); // same prefix from another endpoint
  expectRange(recv("/b", 20, 29), 10, 29, 10);
  expectRange(recv("/a", 10, 19), 10, 19);
  EXPECT_EQ(dec.size(), 3u);
}

TEST_F(DecoderTest, NewFlowRestartsTheEntry)
{
  expectRange(recv("/f", 100, 109, 7), 100, 109);
  // the encoder forgot the prefix (or restarted): a new flow id, lower sequence numbers
  expectRange(recv("/f", 0, 9, 8), 0, 9);
  expectRange(recv("/f", 10, 19, 8), 10, 19);
}

TEST_F(DecoderTest, GapFillIsBounded)
{
  expectRange(recv("/f", 0, 9), 0, 9);
  auto o = recv("/f", 10000, 10009);
  expectRange(o, 10009 - (MaxBundleSpan - 1), 10009, MaxBundleSpan - 10);
  EXPECT_LE(o.last - o.first + 1, MaxBundleSpan);
}

TEST_F(DecoderTest, InvalidHeadersAreRejected)
{
  auto o = dec.onIncomingBundle(seg("/f", 5), BundleHeader{4, 9, 1}, 0, env.now());
  EXPECT_EQ(o.status, Status::Invalid);
  EXPECT_EQ(o.reason, "bundle-start-mismatch");
  o = dec.onIncomingBundle(Interest(Name("/f/x")), BundleHeader{0, 9, 1}, 0, env.now());
  EXPECT_EQ(o.status, Status::Invalid);
  EXPECT_EQ(o.reason, "bundle-not-segmented");
  o = recv("/f", 0, MaxBundleSpan); // span MaxBundleSpan + 1
  EXPECT_EQ(o.status, Status::Invalid);
  EXPECT_EQ(o.reason, "bundle-too-large");
  expectRange(recv("/f", 0, MaxBundleSpan - 1), 0, MaxBundleSpan - 1);
  EXPECT_EQ(dec.size(), 1u);
}

TEST_F(DecoderTest, EntriesExpireAndAreBounded)
{
  InterestBundlerOptions o;
  o.maxEntries = 1;
  o.entryLifetime = std::chrono::seconds(1);
  BundleDecoder d(o);
  auto at = [&](std::string_view p, uint64_t ss, uint64_t es) {
    return d.onIncomingBundle(seg(p, ss), BundleHeader{ss, es, 3}, 0, env.now());
  };
  expectRange(at("/a", 0, 9), 0, 9);
  expectRange(at("/b", 0, 9), 0, 9);     // evicts /a
  expectRange(at("/a", 20, 29), 20, 29); // /a unknown again: no gap fill
  env.advance(std::chrono::seconds(1));
  expectRange(at("/a", 40, 49), 40, 49); // expired: no gap fill
  EXPECT_EQ(d.size(), 1u);
}

/// One Interest (window 20) through an encoder that must send it, then its decoder.
BundleDecoder::Outcome across(BundleEncoder& enc, BundleDecoder& dec, std::string_view prefix, uint64_t seq, bool retx,
                              TimePoint now)
{
  auto d = enc.onOutgoingInterest(seg(prefix, seq), tag(20, retx), now);
  EXPECT_EQ(d.action, Action::Send) << seq;
  return dec.onIncomingBundle(seg(prefix, seq), d.header, 0, now);
}

TEST_F(EncoderTest, RetransmissionBeyondTheLastBundleKeepsBothTablesInStep)
{
  // Two consumers of /f: B reached segment 500, went idle, and the entry expired; A recreated
  // it lower. B's retransmission of 500 moves the decoder's PES to 500: A's next Interests must
  // still reach the decoder's output.
  InterestBundlerOptions o = withBi(10);
  o.entryLifetime = std::chrono::seconds(2);
  BundleEncoder e(env.rng(), o);
  BundleDecoder dec(o);
  auto pass = [&](uint64_t seq, bool retx) { return across(e, dec, "/f", seq, retx, env.now()); };
  pass(500, false); // B: [500, 509]
  env.advance(std::chrono::seconds(3));
  expectRange(pass(40, false), 40, 49);   // A: [40, 49], a new flow
  expectRange(pass(500, true), 500, 500); // B's RTx, beyond LES = 49
  expectRange(pass(50, false), 50, 50);   // A goes on: alone (past LES, not past 500), not stale
  expectRange(pass(51, false), 51, 51);
  expectRange(pass(501, false), 501, 510); // beyond 500: bundles again

  // a relay re-bundles a bundle of one as a retransmission: 60 beyond [40, 49], then 55
  BundleEncoder relay(env.rng(), o);
  BundleDecoder next(o);
  auto hop = [&](uint64_t seq, bool retx) { return across(relay, next, "/g", seq, retx, env.now()); };
  expectRange(hop(40, false), 40, 49);
  expectRange(hop(60, true), 60, 60);
  EXPECT_EQ(relay.onOutgoingInterest(seg("/g", 45), tag(20), env.now()).action, Action::Absorb);
  expectRange(hop(55, false), 55, 55); // was a bundle [55, 64] regenerated only from 61
  expectRange(hop(61, false), 61, 70);
}

// --- regenerated Interests -------------------------------------------------------------------

TEST(RegenerateTest, KeepsFieldsAndDerivesDistinctDeterministicNonces)
{
  Interest bundle = seg("/v/file", 20, 0xCAFEBABE);
  bundle.setLifetime(std::chrono::milliseconds(1234));
  bundle.setMustBeFresh(true);
  bundle.setHopLimit(9);
  bundle.tags.congestionMark = 1;

  std::set<uint32_t> nonces{0xCAFEBABE};
  for (uint64_t seq = 10; seq < 30; ++seq) {
    if (seq == 20)
      continue;
    Interest r = regenerateInterest(bundle, seq);
    Name expected("/v/file");
    expected.appendSegment(seq);
    EXPECT_EQ(r.name(), expected);
    EXPECT_EQ(r.lifetime(), std::chrono::milliseconds(1234));
    EXPECT_TRUE(r.mustBeFresh());
    EXPECT_EQ(r.hopLimit(), uint8_t{9});
    EXPECT_EQ(r.tags.congestionMark, 0u);
    ASSERT_TRUE(r.nonce());
    EXPECT_EQ(*r.nonce(), regeneratedNonce(0xCAFEBABE, seq));
    EXPECT_TRUE(nonces.insert(*r.nonce()).second) << seq;
    // the wire round trip is the same Interest
    auto decoded = Interest::decode(r.wireEncode());
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(decoded->name(), expected);
    EXPECT_EQ(decoded->nonce(), r.nonce());
  }
  EXPECT_NE(regeneratedNonce(1, 5), regeneratedNonce(2, 5));
  EXPECT_EQ(regeneratedNonce(1, 5), regeneratedNonce(1, 5));

  Interest noNonce = seg("/v/file", 20);
  noNonce.setNonce(std::nullopt);
  EXPECT_FALSE(regenerateInterest(noNonce, 21).nonce());
}

TEST(SplitSegmentTest, PrefixAndSeq)
{
  Name n("/a/b");
  n.appendSegment(77);
  auto s = splitSegment(n);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->seq, 77u);
  Name prefix("/a/b");
  EXPECT_TRUE(std::equal(s->prefix.begin(), s->prefix.end(), prefix.value().begin(), prefix.value().end()));
  EXPECT_FALSE(splitSegment(Name("/a/b")));
  EXPECT_FALSE(splitSegment(Name()));
}

// --- encoder and decoder together --------------------------------------------------------------

TEST(BundlerRoundTrip, InOrderStreamIsRegeneratedExactlyOnceAndInOrder)
{
  ManualEnv env;
  BundleEncoder enc(env.rng(), withBi(15));
  BundleDecoder dec;
  std::vector<uint64_t> handedUp;
  uint64_t frames = 0;
  const uint64_t total = 1000;
  for (uint64_t seq = 0; seq < total; ++seq) {
    // cwnd grows, then the last bundle is cut to the remaining count
    uint32_t cwnd = static_cast<uint32_t>(std::min<uint64_t>(2 + seq / 10, total - seq));
    auto d = enc.onOutgoingInterest(seg("/x", seq), tag(cwnd), env.now());
    if (d.action == Action::Absorb)
      continue;
    ASSERT_EQ(d.action, Action::Send);
    ++frames;
    auto o = dec.onIncomingBundle(seg("/x", seq), d.header, 0, env.now());
    ASSERT_EQ(o.status, Status::Regenerate);
    for (uint64_t s = o.first; s <= o.last; ++s)
      handedUp.push_back(s);
  }
  ASSERT_EQ(handedUp.size(), total);
  for (uint64_t s = 0; s < total; ++s)
    EXPECT_EQ(handedUp[s], s);
  EXPECT_LT(frames, total / 10); // mostly BI-sized bundles
}

// --- beyond the paper: loss detection and dynamic interval (VI-B) ------------------------------

using namespace std::chrono_literals;

Name segName(std::string_view prefix, uint64_t seq)
{
  Name n(prefix);
  n.appendSegment(seq);
  return n;
}

InterestBundlerOptions withDetection(uint32_t bi)
{
  InterestBundlerOptions o = withBi(bi);
  o.lossDetection = true;
  o.gapMin = 2ms;
  return o;
}

class LossDetectionTest : public ::testing::Test
{
protected:
  BundleEncoder::Decision send(uint64_t seq, uint32_t cwnd, bool retx = false)
  {
    return enc.onOutgoingInterest(seg("/f", seq), tag(cwnd, retx), env.now());
  }
  /// Data first..last come back one per `gap`.
  void data(uint64_t first, uint64_t last, Duration gap = 1ms)
  {
    for (uint64_t s = first; s <= last; ++s) {
      env.advance(gap);
      enc.onIncomingData(segName("/f", s), env.now());
    }
  }

  ManualEnv env;
  BundleEncoder enc{env.rng(), withDetection(10)};
};

TEST_F(LossDetectionTest, OffByDefault)
{
  BundleEncoder plain(env.rng(), withBi(10));
  plain.onOutgoingInterest(seg("/f", 0), tag(20), env.now());
  plain.onOutgoingInterest(seg("/f", 10), tag(20), env.now());
  plain.onIncomingData(segName("/f", 0), env.now());
  env.advance(10s);
  EXPECT_EQ(plain.nextDeadline(env.now()), std::nullopt);
  EXPECT_TRUE(plain.takeRecoveries(env.now()).empty());
}

TEST_F(LossDetectionTest, LostBundleIsReRequestedAfterAGapMuchShorterThanTheRto)
{
  // Fig. 6 with BI = 10 and a window of 20: bundles [0, 9] and [10, 19]; [10, 19] is lost.
  BundleDecoder dec;
  auto b0 = send(0, 20);
  ASSERT_EQ(b0.action, Action::Send);
  expectRange(dec.onIncomingBundle(seg("/f", 0), b0.header, 0, env.now()), 0, 9);
  for (uint64_t s = 1; s <= 10; ++s) {
    auto d = send(s, 20);
    if (s == 10) {
      EXPECT_EQ(d.header, (BundleHeader{10, 19, b0.header.flow})); // lost on the air
    }
  }
  EXPECT_TRUE(enc.nextDeadline(env.now()).has_value());
  data(0, 9); // one Data per ms
  const TimePoint lastData = env.now();
  // the consumer's window (11..19 absorbed) waits for Data that will never come
  for (uint64_t s = 11; s <= 19; ++s)
    EXPECT_EQ(send(s, 20).action, Action::Absorb);

  std::optional<TimePoint> due = enc.nextDeadline(env.now());
  ASSERT_TRUE(due.has_value());
  // the stall threshold follows the 1 ms gaps: far below any RTO (ndncatchunks' minimum 200 ms)
  EXPECT_GE(*due - lastData, 2ms);
  EXPECT_LE(*due - lastData, 10ms);
  env.advance(*due - env.now() - 1us);
  EXPECT_TRUE(enc.takeRecoveries(env.now()).empty()); // not yet
  env.advance(1us);
  auto rec = enc.takeRecoveries(env.now());
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0].header.startSeq, 10u);
  EXPECT_EQ(rec[0].header.endSeq, 19u);
  EXPECT_NE(rec[0].header.flow, b0.header.flow); // a new flow: decoded whatever the DIT holds
  EXPECT_NE(rec[0].header.flow, 0u);
  EXPECT_EQ(rec[0].interest.name(), segName("/f", 10));
  EXPECT_NE(rec[0].interest.nonce(), seg("/f", 10).nonce());

  // the decoder (PES = 9) regenerates the lost range
  expectRange(dec.onIncomingBundle(rec[0].interest, rec[0].header, 0, env.now()), 10, 19);
  // later bundles continue under the new flow, without gap fill
  data(10, 19);
  auto next = send(20, 20);
  EXPECT_EQ(next.header, (BundleHeader{20, 29, rec[0].header.flow}));
  expectRange(dec.onIncomingBundle(seg("/f", 20), next.header, 0, env.now()), 20, 29);
}

TEST_F(LossDetectionTest, ARecoveryBringsTheFrontierBackToLes)
{
  // an RTx beyond LES moved the frontier (the decoder's PES) to 15; the recovery restarts the
  // decoder at [first, LES = 9], so 10 may start a bundle again
  BundleDecoder dec;
  auto b0 = send(0, 10); // [0, 9]
  expectRange(dec.onIncomingBundle(seg("/f", 0), b0.header, 0, env.now()), 0, 9);
  expectRange(dec.onIncomingBundle(seg("/f", 15), send(15, 10, true).header, 0, env.now()), 15, 15);
  EXPECT_TRUE(send(12, 10).header.isSingle()); // past LES, not past 15
  data(0, 4);
  auto due = enc.nextDeadline(env.now());
  ASSERT_TRUE(due.has_value());
  env.advance(*due - env.now());
  auto rec = enc.takeRecoveries(env.now());
  ASSERT_EQ(rec.size(), 1u);
  expectRange(dec.onIncomingBundle(rec[0].interest, rec[0].header, 0, env.now()), 5, 9);
  auto next = send(10, 10);
  EXPECT_EQ(next.header, (BundleHeader{10, 19, rec[0].header.flow}));
  expectRange(dec.onIncomingBundle(seg("/f", 10), next.header, 0, env.now()), 10, 19);
}

TEST_F(LossDetectionTest, LostDataOfADecodedBundleAreReRequestedToo)
{
  // the bundle arrived (PES = 19) but the tail of its Data was lost: the new flow makes the
  // decoder regenerate the range instead of dropping the recovery as stale
  BundleDecoder dec;
  auto b0 = send(0, 10);
  expectRange(dec.onIncomingBundle(seg("/f", 0), b0.header, 0, env.now()), 0, 9);
  data(0, 6);
  env.advance(1s);
  auto rec = enc.takeRecoveries(env.now());
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_EQ(rec[0].header.startSeq, 7u);
  EXPECT_EQ(rec[0].header.endSeq, 9u);
  expectRange(dec.onIncomingBundle(rec[0].interest, rec[0].header, 0, env.now()), 7, 9);
}

TEST_F(LossDetectionTest, NothingIsRecoveredWhileDataFlowOrWhenEverythingCameBack)
{
  send(0, 20);  // [0, 9]
  send(10, 20); // [10, 19]
  for (uint64_t s = 0; s <= 19; ++s) {
    data(s, s);
    EXPECT_TRUE(enc.takeRecoveries(env.now()).empty()) << s;
  }
  // every bundled segment came back: nothing outstanding, no deadline
  EXPECT_EQ(enc.nextDeadline(env.now()), std::nullopt);
  env.advance(1s);
  EXPECT_TRUE(enc.takeRecoveries(env.now()).empty());
  // retransmissions and untagged Interests do not make anything outstanding
  send(5, 20, true);
  EXPECT_EQ(enc.nextDeadline(env.now()), std::nullopt);
}

TEST_F(LossDetectionTest, ThresholdFollowsTheGapsAndTheFirstBundleWaitsForGapMin)
{
  send(0, 20);
  // no sample yet: gapMin after the last Data, and 10 x gapMin after the bundle
  EXPECT_EQ(enc.gapThreshold(segName("/f", 0), env.now()), 2ms);
  EXPECT_EQ(*enc.nextDeadline(env.now()) - env.now(), 20ms);
  // the first Data after 5 ms (the round trip of the first bundle) is the first sample
  data(0, 0, 5ms);
  EXPECT_EQ(enc.gapThreshold(segName("/f", 0), env.now()), 5ms + 4 * 2500us);
  // steady 1 ms gaps pull the threshold down towards gapMin
  send(10, 20);
  send(20, 20);
  data(1, 29, 1ms);
  Duration steady = *enc.gapThreshold(segName("/f", 0), env.now());
  EXPECT_LT(steady, 5ms);
  EXPECT_GE(steady, 2ms);
  // irregular gaps raise it
  send(30, 20);
  for (uint64_t s = 30; s <= 38; ++s)
    data(s, s, s % 2 == 0 ? 1ms : 8ms);
  EXPECT_GT(*enc.gapThreshold(segName("/f", 0), env.now()), steady);
  EXPECT_EQ(enc.gapThreshold(segName("/g", 0), env.now()), std::nullopt);
}

TEST_F(LossDetectionTest, ABundleIsGivenALinkRoundTripBeforeItsDataAreOverdue)
{
  // round trips of 30 ms, Data 1 ms apart: a fresh bundle is not declared lost after a gap
  // threshold, but after a round trip
  for (uint64_t b = 0; b < 5; ++b) {
    send(10 * b, 10); // [10b, 10b + 9], the pipe drained before
    env.advance(29ms);
    data(10 * b, 10 * b + 9, 1ms);
  }
  send(50, 10);
  const TimePoint sent = env.now();
  Duration wait = *enc.nextDeadline(env.now()) - sent;
  EXPECT_GE(wait, 30ms);
  EXPECT_LE(wait, 60ms);
  env.advance(29ms);
  EXPECT_TRUE(enc.takeRecoveries(env.now()).empty());
  data(50, 50, 1ms); // on time
  EXPECT_TRUE(enc.takeRecoveries(env.now()).empty());
}

TEST_F(LossDetectionTest, RecoveriesBackOffAndStopUntilDataComeBack)
{
  send(0, 5); // [0, 4]
  TimePoint t0 = env.now();
  std::vector<Duration> at;
  for (int k = 0; k < 100 && at.size() < 10; ++k) {
    std::optional<TimePoint> due = enc.nextDeadline(env.now());
    if (!due)
      break;
    env.advance(*due - env.now());
    auto rec = enc.takeRecoveries(env.now());
    ASSERT_EQ(rec.size(), 1u);
    EXPECT_EQ(rec[0].header.startSeq, 0u); // no Data at all: from the first bundle's start
    EXPECT_EQ(rec[0].header.endSeq, 4u);
    at.push_back(env.now() - t0);
  }
  // 10 x gapMin (no round-trip sample), then twice and four times as long; then
  // maxRecoveries (3) is reached
  ASSERT_EQ(at.size(), 3u);
  EXPECT_EQ(at[0], 20ms);
  EXPECT_EQ(at[1], 20ms + 40ms);
  EXPECT_EQ(at[2], 20ms + 40ms + 80ms);
  EXPECT_EQ(enc.nextDeadline(env.now()), std::nullopt);
  // a Data resets the count
  data(0, 1);
  EXPECT_TRUE(enc.nextDeadline(env.now()).has_value());
}

TEST_F(LossDetectionTest, PrefixesAreWatchedSeparately)
{
  enc.onOutgoingInterest(seg("/a", 0), tag(5), env.now());
  enc.onOutgoingInterest(seg("/b", 0), tag(5), env.now());
  int recoveredB = 0;
  for (int k = 0; k < 200; ++k) { // /a keeps flowing, /b is silent
    env.advance(1ms);
    enc.onIncomingData(segName("/a", k % 5), env.now());
    if (k % 5 == 4)
      enc.onOutgoingInterest(seg("/a", 5 + k), tag(5), env.now());
    for (auto& r : enc.takeRecoveries(env.now())) {
      EXPECT_EQ(r.interest.name().getPrefix(-1), Name("/b"));
      ++recoveredB;
    }
  }
  EXPECT_EQ(recoveredB, 3);
}

TEST(DynamicIntervalTest, BundlesTrackTheWindowWithinMinAndMax)
{
  ManualEnv env;
  InterestBundlerOptions o = withBi(64);
  o.dynamicInterval = true;
  o.intervalMin = 4;
  o.cwndShare = 0.5;
  BundleEncoder enc(env.rng(), o);
  uint64_t seq = 0;
  auto span = [&](uint32_t cwnd) {
    auto d = enc.onOutgoingInterest(seg("/f", seq), tag(cwnd), env.now());
    EXPECT_EQ(d.action, Action::Send);
    seq = d.header.endSeq + 1;
    return d.header.endSeq - d.header.startSeq + 1;
  };
  EXPECT_EQ(span(40), 20u);  // half the window
  EXPECT_EQ(span(41), 21u);  // rounded up
  EXPECT_EQ(span(200), 64u); // BI is the maximum
  EXPECT_EQ(span(6), 4u);    // intervalMin
  EXPECT_EQ(span(3), 3u);    // never above the window
  EXPECT_EQ(span(0), 1u);
  // a decoded bundle (a relay) is re-bundled whole, up to BI
  auto relayed = enc.onOutgoingInterest(seg("/r", 0), BundleTag{false, 30, true}, env.now());
  EXPECT_EQ(relayed.header.endSeq, 29u);
  // cwndShare 1 and intervalMin 1: the paper's min(cwnd, BI)
  o.cwndShare = 1;
  o.intervalMin = 1;
  BundleEncoder paper(env.rng(), o);
  BundleEncoder fixed(env.rng(), withBi(64));
  for (uint32_t cwnd : {1u, 2u, 5u, 40u, 64u, 65u, 300u}) {
    auto a = paper.onOutgoingInterest(seg("/p", 1000 * cwnd), tag(cwnd), env.now());
    auto b = fixed.onOutgoingInterest(seg("/p", 1000 * cwnd), tag(cwnd), env.now());
    EXPECT_EQ(a.header.endSeq, b.header.endSeq) << cwnd;
  }
}

} // namespace
} // namespace ndnlab::lp
