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
  send("/f", 0, 20);                       // [0, 9]
  EXPECT_EQ(send("/f", 10, 3).header.endSeq, 12u); // [10, 12]
  EXPECT_EQ(send("/f", 11, 3).action, Action::Absorb);
  EXPECT_EQ(send("/f", 12, 3).action, Action::Absorb);
  // 13 is below LSS + BI = 20 but no bundle requested it: it starts the next bundle.
  auto d = send("/f", 13, 2);
  ASSERT_EQ(d.action, Action::Send);
  EXPECT_EQ(d.header.startSeq, 13u);
  EXPECT_EQ(d.header.endSeq, 14u);
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
  EXPECT_EQ(big.onOutgoingInterest(seg("/f", 0), tag(1u << 20), env.now()).header.endSeq,
            MaxBundleSpan - 1);
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
  expectRange(recv("/f", 4, 4), 4, 4);   // RTx below PES: PES stays 10
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
  expectRange(at("/b", 0, 9), 0, 9); // evicts /a
  expectRange(at("/a", 20, 29), 20, 29); // /a unknown again: no gap fill
  env.advance(std::chrono::seconds(1));
  expectRange(at("/a", 40, 49), 40, 49); // expired: no gap fill
  EXPECT_EQ(d.size(), 1u);
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

} // namespace
} // namespace ndnlab::lp
