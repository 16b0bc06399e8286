#include "core/app/segment-server.hpp"
#include "core/app/tests/test-link.hpp"

#include <gtest/gtest.h>

namespace ndnlab::app {
namespace {

using test::FakeEndpoint;

Buffer pattern(size_t n)
{
  Buffer b(n);
  for (size_t i = 0; i < n; ++i)
    b[i] = static_cast<uint8_t>(i * 7 + 3);
  return b;
}

class SegmentServerTest : public ::testing::Test
{
protected:
  Interest interestFor(const Name& n, bool canBePrefix = false)
  {
    Interest i(n);
    i.setCanBePrefix(canBePrefix).setNonce(1);
    return i;
  }

  ManualEnv env;
  FakeEndpoint ep;
  security::DigestSigner signer;
};

TEST_F(SegmentServerTest, SegmentsDecodeBack)
{
  SegmentServer::Options o;
  o.segmentSize = 1000;
  o.version = 42;
  SegmentServer server(env, ep, "/test/file", signer, o);
  Buffer content = pattern(3500);
  server.publish(content);

  ASSERT_EQ(server.segmentCount(), 4u);
  EXPECT_EQ(server.versionedName(), Name("/test/file/v=42"));
  EXPECT_EQ(server.prefix(), Name("/test/file"));
  EXPECT_EQ(server.contentSize(), Bytes(3500));

  Buffer joined;
  security::DigestVerifier verifier;
  for (size_t i = 0; i < 4; ++i) {
    // decode from the wire, as a consumer would
    auto d = Data::decode(ByteSpan(*server.segment(i).wireEncode()));
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->name(), Name("/test/file/v=42").appendSegment(i));
    EXPECT_EQ(d->finalBlockSegment(), std::optional<uint64_t>(3));
    EXPECT_EQ(d->freshnessPeriod(), std::chrono::milliseconds(10000));
    EXPECT_EQ(d->signatureInfo().type, static_cast<uint32_t>(SignatureType::DigestSha256));
    EXPECT_TRUE(security::verifyData(*d, verifier));
    joined.insert(joined.end(), d->content().begin(), d->content().end());
  }
  EXPECT_EQ(joined, content);
  EXPECT_GE(server.storedSize().count(), 3500u);
  EXPECT_LT(server.storedSize().count(), 3500u + 4 * 120);
}

TEST_F(SegmentServerTest, EmptyContentIsOneEmptySegment)
{
  SegmentServer server(env, ep, "/empty", signer);
  server.publish(ByteSpan());
  ASSERT_EQ(server.segmentCount(), 1u);
  EXPECT_TRUE(server.segment(0).content().empty());
  EXPECT_EQ(server.segment(0).finalBlockSegment(), std::optional<uint64_t>(0));
}

TEST_F(SegmentServerTest, ExactMultipleOfSegmentSize)
{
  SegmentServer::Options o;
  o.segmentSize = 100;
  SegmentServer server(env, ep, "/x", signer, o);
  server.publish(pattern(300));
  EXPECT_EQ(server.segmentCount(), 3u);
}

TEST_F(SegmentServerTest, ReaderWithShortReads)
{
  SegmentServer::Options o;
  o.segmentSize = 64;
  SegmentServer server(env, ep, "/r", signer, o);
  Buffer content = pattern(1000);
  size_t pos = 0;
  server.publish([&](uint8_t* buf, size_t n) {
    size_t k = std::min<size_t>({n, 7, content.size() - pos});
    std::copy_n(content.begin() + pos, k, buf);
    pos += k;
    return k;
  });
  ASSERT_EQ(server.segmentCount(), 16u); // ceil(1000/64)
  Buffer joined;
  for (size_t i = 0; i < server.segmentCount(); ++i)
    joined.insert(joined.end(), server.segment(i).content().begin(), server.segment(i).content().end());
  EXPECT_EQ(joined, content);
}

TEST_F(SegmentServerTest, VersionFromNameAndClock)
{
  SegmentServer a(env, ep, "/a/v=7", signer);
  EXPECT_EQ(a.prefix(), Name("/a"));
  EXPECT_EQ(a.versionedName(), Name("/a/v=7"));

  FakeEndpoint ep2;
  SegmentServer b(env, ep2, "/b", signer);
  EXPECT_EQ(b.versionedName()[-1].toNumber(), std::optional<uint64_t>(env.clock().unixNow().count()));
}

TEST_F(SegmentServerTest, AnswersSegmentsAndNacksUnknown)
{
  SegmentServer::Options o;
  o.segmentSize = 10;
  o.version = 5;
  SegmentServer server(env, ep, "/p", signer, o);
  server.publish(pattern(25));

  ep.deliverInterest(interestFor("/p/v=5/seg=2"));
  ASSERT_EQ(ep.sentData.size(), 1u);
  EXPECT_EQ(ep.sentData[0].name(), Name("/p/v=5/seg=2"));
  EXPECT_EQ(ep.sentData[0].content().size(), 5u);

  ep.deliverInterest(interestFor("/p/v=5/seg=3"));
  ASSERT_EQ(ep.sentNacks.size(), 1u);
  EXPECT_EQ(ep.sentNacks[0].reason, NackReason::None);
  EXPECT_EQ(ep.sentNacks[0].interest.name(), Name("/p/v=5/seg=3"));

  ep.deliverInterest(interestFor("/p/v=4/seg=0")); // other version, under the prefix: not ours
  ep.deliverInterest(interestFor("/other/v=5/seg=0"));
  EXPECT_EQ(ep.sentData.size(), 1u);
  EXPECT_EQ(ep.sentNacks.size(), 1u);
  EXPECT_EQ(server.counters().ignored, 2u);
}

TEST_F(SegmentServerTest, BarePrefixWithCanBePrefixGetsSegmentZero)
{
  SegmentServer::Options o;
  o.version = 9;
  SegmentServer server(env, ep, "/p", signer, o);
  server.publish(pattern(20000));

  ep.deliverInterest(interestFor("/p", true));
  ASSERT_EQ(ep.sentData.size(), 1u);
  EXPECT_EQ(ep.sentData[0].name(), Name("/p/v=9/seg=0"));

  ep.deliverInterest(interestFor("/p/v=9", true));
  ASSERT_EQ(ep.sentData.size(), 2u);
  EXPECT_EQ(ep.sentData[1].name(), Name("/p/v=9/seg=0"));

  ep.deliverInterest(interestFor("/p", false)); // exact name /p matches nothing
  EXPECT_EQ(ep.sentNacks.size(), 1u);
}

TEST_F(SegmentServerTest, AnswersFullNamesOfEverySegment)
{
  SegmentServer::Options o;
  o.segmentSize = 10;
  o.version = 5;
  SegmentServer server(env, ep, "/p", signer, o);
  server.publish(pattern(25));

  // segment 2 by its full name (ndnputchunks answers only segment 0 this way)
  ep.deliverInterest(interestFor(server.segment(2).fullName()));
  ASSERT_EQ(ep.sentData.size(), 1u);
  EXPECT_EQ(ep.sentData[0].name(), Name("/p/v=5/seg=2"));

  // segment 2's name with segment 1's digest: no Data satisfies it
  Name wrong = Name("/p/v=5/seg=2").append(server.segment(1).fullName()[-1]);
  ep.deliverInterest(interestFor(wrong));
  EXPECT_EQ(ep.sentData.size(), 1u);
  ASSERT_EQ(ep.sentNacks.size(), 1u);
  EXPECT_EQ(ep.sentNacks[0].interest.name(), wrong);
}

TEST_F(SegmentServerTest, NacksSegmentNumbersSpelledNonMinimally)
{
  // seg=%00%02 reads as 2, but segment 2 (named seg=%02) does not satisfy it: a Data would be
  // dropped as unsolicited by the forwarder, so the producer Nacks instead
  SegmentServer::Options o;
  o.segmentSize = 10;
  o.version = 5;
  SegmentServer server(env, ep, "/p", signer, o);
  server.publish(pattern(25));

  const uint8_t two[] = {0x00, 0x02};
  Name name = Name("/p/v=5").append(tlv::SegmentNameComponent, two);
  ASSERT_TRUE(name[-1].isSegment());
  ep.deliverInterest(interestFor(name));
  EXPECT_TRUE(ep.sentData.empty());
  ASSERT_EQ(ep.sentNacks.size(), 1u);
  EXPECT_EQ(ep.sentNacks[0].interest.name(), name);
}

TEST_F(SegmentServerTest, AnswersMetadataDiscovery)
{
  SegmentServer::Options o;
  o.version = 1234;
  SegmentServer server(env, ep, "/p/q", signer, o);
  server.publish(pattern(10));

  Interest disc(SegmentServer::discoveryName("/p/q"));
  EXPECT_EQ(disc.name().toUri(), "/p/q/32=metadata");
  disc.setCanBePrefix(true).setMustBeFresh(true).setNonce(5);
  ep.deliverInterest(disc);
  ASSERT_EQ(ep.sentData.size(), 1u);
  auto md = Data::decode(ByteSpan(*ep.sentData[0].wireEncode()));
  ASSERT_TRUE(md.ok());
  ASSERT_EQ(md->name().size(), 5u);
  EXPECT_TRUE(Name("/p/q/32=metadata").isPrefixOf(md->name()));
  EXPECT_EQ(md->name()[3].toNumber(), std::optional<uint64_t>(env.clock().unixNow().count()));
  EXPECT_TRUE(md->name()[3].isVersion());
  EXPECT_EQ(md->name()[4].toNumber(), std::optional<uint64_t>(0));
  EXPECT_TRUE(md->name()[4].isSegment());
  EXPECT_EQ(md->freshnessPeriod(), std::chrono::milliseconds(10));
  EXPECT_TRUE(disc.matchesData(*md));
  auto versioned = Name::decode(md->content());
  ASSERT_TRUE(versioned.ok());
  EXPECT_EQ(*versioned, Name("/p/q/v=1234"));
  EXPECT_TRUE(security::verifyData(*md, security::DigestVerifier()));
  EXPECT_EQ(server.counters().metadataSent, 1u);

  // without CanBePrefix: Nack
  Interest bad(SegmentServer::discoveryName("/p/q"));
  bad.setNonce(6);
  ep.deliverInterest(bad);
  EXPECT_EQ(ep.sentData.size(), 1u);
  EXPECT_EQ(ep.sentNacks.size(), 1u);
}

TEST_F(SegmentServerTest, EchoesPitToken)
{
  SegmentServer::Options o;
  o.version = 1;
  SegmentServer server(env, ep, "/p", signer, o);
  server.publish(pattern(10));
  Interest i = interestFor("/p/v=1/seg=0");
  PitToken tok;
  tok.size = 2;
  tok.bytes[0] = 0xAB;
  tok.bytes[1] = 0xCD;
  i.tags.pitToken = tok;
  ep.deliverInterest(i);
  ASSERT_EQ(ep.sentData.size(), 1u);
  ASSERT_TRUE(ep.sentData[0].tags.pitToken.has_value());
  EXPECT_EQ(*ep.sentData[0].tags.pitToken, tok);
  EXPECT_FALSE(server.segment(0).tags.pitToken.has_value()); // the stored segment is untouched
}

TEST_F(SegmentServerTest, OtherSigners)
{
  security::HmacSigner hmac(Buffer(32, 0x11), Name("/key/hmac"));
  SegmentServer::Options o;
  o.segmentSize = 100;
  SegmentServer server(env, ep, "/h", hmac, o);
  server.publish(pattern(250));
  security::HmacVerifier v(Buffer(32, 0x11));
  for (size_t i = 0; i < server.segmentCount(); ++i)
    EXPECT_TRUE(security::verifyData(server.segment(i), v));
}

TEST_F(SegmentServerTest, RejectsBadOptions)
{
  SegmentServer::Options o;
  o.segmentSize = 0;
  EXPECT_THROW(SegmentServer(env, ep, "/x", signer, o), std::invalid_argument);
  o.segmentSize = 9000;
  EXPECT_THROW(SegmentServer(env, ep, "/x", signer, o), std::invalid_argument);
}

} // namespace
} // namespace ndnlab::app
