#include "core/codec/data.hpp"
#include "core/codec/interest.hpp"
#include "core/codec/tests/test-helpers.hpp"

#include <gtest/gtest.h>

namespace ndnlab {
namespace {

using namespace std::chrono_literals;
using test::hex;

/// Wraps a body (hex) into a TLV of the given type, computing the length.
std::string tlvHex(uint32_t type, std::string_view bodyHex)
{
  Buffer body = hex(bodyHex);
  Buffer out;
  appendTlv(out, type, body);
  return toHex(out);
}

const std::string kSig = "16031b0100"
                         "1700"; // DigestSha256, empty value

Data decodeOk(const std::string& h)
{
  auto r = Data::decode(hex(h));
  EXPECT_TRUE(r) << h << ": " << (r ? "" : reasonName(r.error().code)) << " type " << (r ? 0 : r.error().tlvType);
  return r ? *r : Data();
}

DecodeError decodeErr(const std::string& h)
{
  auto r = Data::decode(hex(h));
  EXPECT_FALSE(r) << h;
  return r ? DecodeError{} : r.error();
}

TEST(Sha256, KnownAnswer)
{
  EXPECT_EQ(toHex(sha256(asBytes("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(toHex(sha256({})), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Data, EncodesMinimalWithDefaultSignature)
{
  Data d(Name("/a"));
  EXPECT_EQ(toHex(*d.wireEncode()), "060c"
                                    "0703080161"
                                    "16031b0100"
                                    "1700");
  d.setContent(asBytes("hi"));
  EXPECT_EQ(toHex(*d.wireEncode()), "0610"
                                    "0703080161"
                                    "15026869"
                                    "16031b0100"
                                    "1700");
  Data empty(Name("/a"));
  empty.setContent(ByteSpan());
  EXPECT_TRUE(empty.hasContent());
  EXPECT_EQ(toHex(*empty.wireEncode()), "060e"
                                        "0703080161"
                                        "1500"
                                        "16031b0100"
                                        "1700");
}

TEST(Data, RoundTripsEveryField)
{
  Data d(Name("/a/seg=1"));
  d.setContentType(static_cast<uint64_t>(ContentType::Key))
    .setFreshnessPeriod(1000ms)
    .setFinalBlockId(Name("/seg=9")[0])
    .setContent(asBytes("hello"));
  SignatureInfo si;
  si.type = static_cast<uint32_t>(SignatureType::Sha256WithEcdsa);
  si.keyLocator = Name("/k/KEY/1");
  d.setSignatureInfo(si).setSignatureValue(Buffer{1, 2, 3});
  std::string expected = "0636"
                         "0706"
                         "080161"
                         "320101"
                         "140c"
                         "180102"
                         "190203e8"
                         "1a03320109"
                         "150568656c6c6f"
                         "1612"
                         "1b0103"
                         "1c0d"
                         "070b"
                         "08016b"
                         "08034b4559"
                         "080131"
                         "1703010203";
  EXPECT_EQ(toHex(*d.wireEncode()), expected);

  auto r = Data::decode(*d.wireEncode());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name(), Name("/a/seg=1"));
  EXPECT_EQ(r->contentType(), 2u);
  EXPECT_EQ(r->freshnessPeriod(), 1000ms);
  ASSERT_TRUE(r->finalBlockId());
  EXPECT_EQ(r->finalBlockId()->toUri(), "seg=9");
  EXPECT_EQ(r->finalBlockSegment(), 9u);
  EXPECT_EQ(toHex(r->content()), toHex(asBytes("hello")));
  EXPECT_EQ(r->signatureInfo(), si);
  EXPECT_EQ(toHex(r->signatureValue()), "010203");
  EXPECT_EQ(toHex(r->signedPortion()), expected.substr(4, expected.size() - 4 - 10));
  r->setFreshnessPeriod(1000ms); // invalidate: re-encoding reproduces the same bytes
  EXPECT_EQ(toHex(*r->wireEncode()), expected);
  EXPECT_EQ(toHex(r->signedPortion()), expected.substr(4, expected.size() - 4 - 10));
}

TEST(Data, DecodeSharesWireWithoutCopy)
{
  auto wire = std::make_shared<const Buffer>(hex("0610 0703080161 15026869 16031b0100 1700"));
  auto r = Data::decode(wire);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->wireEncode(), wire);
  EXPECT_GE(r->content().data(), wire->data());
  EXPECT_LE(r->content().data() + r->content().size(), wire->data() + wire->size());
  // The content view survives the original Data and the caller's pointer.
  Data copy = *r;
  auto* raw = wire.get();
  wire.reset();
  r = Data::decode(hex("0505 0703080161")); // overwrite (fails)
  EXPECT_EQ(toHex(copy.content()), "6869");
  EXPECT_EQ(copy.wireEncode().get(), raw);
  copy.setName(Name("/b"));
  EXPECT_EQ(toHex(*copy.wireEncode()), "0610"
                                       "0703080162"
                                       "15026869"
                                       "16031b0100"
                                       "1700");
}

TEST(Data, SharedContentSetters)
{
  auto buf = std::make_shared<const Buffer>(Buffer{1, 2, 3, 4});
  Data d(Name("/a"));
  d.setContent(buf);
  EXPECT_EQ(d.content().data(), buf->data());
  d.setContent(buf, ByteSpan(*buf).subspan(1, 2));
  EXPECT_EQ(toHex(d.content()), "0203");
  EXPECT_EQ(toHex(*d.wireEncode()), "0610"
                                    "0703080161"
                                    "15020203"
                                    "16031b0100"
                                    "1700");
  d.setContent(SharedBuffer());
  EXPECT_FALSE(d.hasContent());
}

TEST(Data, OmitsDefaultMetaInfoFields)
{
  Data d = decodeOk(tlvHex(tlv::Data, "0703080161 1406 180100 190100" + kSig));
  EXPECT_EQ(d.contentType(), 0u);
  EXPECT_EQ(d.freshnessPeriod(), 0ms);
  EXPECT_FALSE(d.finalBlockId());
  EXPECT_EQ(d.wireSize(), 22u); // cached wire kept as received
  d.setContentType(0);
  EXPECT_EQ(toHex(*d.wireEncode()), "060c"
                                    "0703080161" +
                                      kSig);
}

TEST(DataDecode, Errors)
{
  struct Case
  {
    std::string body;
    DecodeErrc code;
    uint32_t type;
  };
  const Case cases[] = {
    {"", DecodeErrc::MissingElement, tlv::Name},
    {kSig, DecodeErrc::MissingElement, tlv::Name},
    {"0703080161 1603 1b0100", DecodeErrc::MissingElement, tlv::SignatureValue},
    {"0703080161 1700", DecodeErrc::MissingElement, tlv::SignatureInfo},
    {"0703080161 1700 1603 1b0100", DecodeErrc::CriticalUnknown, tlv::SignatureInfo},
    {"0703080161 1500 1400" + kSig, DecodeErrc::CriticalUnknown, tlv::MetaInfo},
    {"0703080161 1500 1500" + kSig, DecodeErrc::CriticalUnknown, tlv::Content},
    {"0703080161 0900" + kSig, DecodeErrc::CriticalUnknown, 9},
    {"0703080161 8100" + kSig, DecodeErrc::CriticalUnknown, 0x81},
    {"0703080161" + kSig + "1700", DecodeErrc::CriticalUnknown, tlv::SignatureValue},
    {"0703010161" + kSig, DecodeErrc::BadName, 1},
    {"0703080161 1403 18020001" + kSig, DecodeErrc::BadLength, tlv::ContentType},
    {"0703080161 1405 1803000001" + kSig, DecodeErrc::BadNonNegInt, tlv::ContentType},
    {"0703080161 1402 1900" + kSig, DecodeErrc::BadNonNegInt, tlv::FreshnessPeriod},
    {"0703080161 1402 1a00" + kSig, DecodeErrc::BadValue, tlv::FinalBlockId},
    {"0703080161 1408 1a06 080161 080162" + kSig, DecodeErrc::BadValue, tlv::FinalBlockId},
    {"0703080161 1405 1a03 010161" + kSig, DecodeErrc::BadName, 1},
    {"0703080161 1405 190101 1800" + kSig, DecodeErrc::CriticalUnknown, tlv::ContentType},
    {"0703080161 1402 1700" + kSig, DecodeErrc::CriticalUnknown, tlv::SignatureValue},
    {"0703080161 1600 1700", DecodeErrc::Truncated, 0},
    {"0703080161 1603 1c0100 1700", DecodeErrc::MissingElement, tlv::SignatureType},
    {"0703080161 1605 1b03000001 1700", DecodeErrc::BadNonNegInt, tlv::SignatureType},
    {"0703080161 1605 1b0100 1c00 1700", DecodeErrc::BadValue, tlv::KeyLocator},
    {"0703080161 1607 1b0100 1c02 0800 1700", DecodeErrc::BadValue, tlv::KeyLocator},
    {"0703080161 1609 1b0100 1c04 0702 0100 1700", DecodeErrc::BadName, 1},
    {"0703080161 160b 1b0100 1c02 1d00 1c02 1d00 1700", DecodeErrc::CriticalUnknown, tlv::KeyLocator},
  };
  for (const auto& c : cases) {
    auto e = decodeErr(tlvHex(tlv::Data, c.body));
    EXPECT_EQ(e.code, c.code) << c.body << " got " << reasonName(e.code);
    EXPECT_EQ(e.tlvType, c.type) << c.body;
  }
  EXPECT_EQ(decodeErr("050c 0703080161" + kSig).code, DecodeErrc::UnexpectedType);
  EXPECT_EQ(decodeErr("060c 0703080161" + kSig + "00").code, DecodeErrc::TrailingBytes);
}

TEST(DataDecode, SkipsNonCriticalAndAcceptsKeyDigest)
{
  Data d = decodeOk(tlvHex(tlv::Data, "0703080161 800100 1406 800100 180100 "
                                      "1500 8200"
                                      "160d 1b0101 1c06 1d0401020304 8400 1702abcd"));
  EXPECT_EQ(d.signatureInfo().type, 1u);
  ASSERT_TRUE(d.signatureInfo().keyLocator);
  EXPECT_EQ(std::get<KeyDigest>(*d.signatureInfo().keyLocator).bytes, (Buffer{1, 2, 3, 4}));
  EXPECT_EQ(toHex(d.signatureValue()), "abcd");
}

TEST(DataDecode, ValidityPeriodAndSignatureExtras)
{
  SignatureInfo si;
  si.type = 3;
  si.keyLocator = Name("/k");
  si.validityPeriod = hex("fd00fe0f 3230323430313031543030303030 30 fd00ff0f 3230333030313031543030303030 30");
  si.time = 5;
  Data d(Name("/c"));
  d.setSignatureInfo(si);
  auto r = Data::decode(*d.wireEncode());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->signatureInfo(), si);
}

TEST(DataDecode, TruncationAtEveryByteFails)
{
  Data d(Name("/a/b/seg=3"));
  d.setContentType(1).setFreshnessPeriod(5s).setFinalBlockId(Name("/seg=3")[0]).setContent(Buffer(300, 7));
  SignatureInfo si;
  si.type = 1;
  si.keyLocator = Name("/k");
  d.setSignatureInfo(si).setSignatureValue(Buffer(256, 1));
  Buffer wire = *d.wireEncode();
  ASSERT_TRUE(Data::decode(wire));
  for (size_t n = 0; n < wire.size(); ++n)
    EXPECT_FALSE(Data::decode(ByteSpan(wire).first(n))) << n;
}

TEST(Data, ImplicitDigestAndFullName)
{
  Data d(Name("/a"));
  d.setContent(asBytes("x"));
  auto wire = d.wireEncode();
  EXPECT_EQ(toHex(d.implicitDigest()), toHex(sha256(*wire)));
  Name full = d.fullName();
  ASSERT_EQ(full.size(), 2u);
  EXPECT_TRUE(full[-1].isImplicitDigest());
  EXPECT_EQ(toHex(full[-1].value()), toHex(sha256(*wire)));
  auto before = d.implicitDigest();
  d.setContent(asBytes("y"));
  EXPECT_NE(toHex(d.implicitDigest()), toHex(before));
  EXPECT_EQ(toHex(d.implicitDigest()), toHex(sha256(*d.wireEncode())));
}

TEST(Data, FreshnessClampsHugeValues)
{
  Data d = decodeOk(tlvHex(tlv::Data, "0703080161 140a 1908ffffffffffffffff" + kSig));
  EXPECT_GT(d.freshnessPeriod(), std::chrono::hours(24 * 365 * 100));
}

TEST(MatchesData, NameRules)
{
  Data data(Name("/a/b"));
  data.setContent(asBytes("x"));
  Name digest;
  digest.appendImplicitDigest(data.implicitDigest());

  auto match = [&](Interest i) { return i.matchesData(data); };
  EXPECT_TRUE(match(Interest(Name("/a/b"))));
  EXPECT_FALSE(match(Interest(Name("/a"))));
  EXPECT_TRUE(match(Interest(Name("/a")).setCanBePrefix(true)));
  EXPECT_TRUE(match(Interest(Name("/a/b")).setCanBePrefix(true)));
  EXPECT_FALSE(match(Interest(Name("/a/c")).setCanBePrefix(true)));
  EXPECT_FALSE(match(Interest(Name("/a/b/c"))));
  EXPECT_FALSE(match(Interest(Name("/a/b/c")).setCanBePrefix(true)));
  EXPECT_FALSE(match(Interest(Name("/a/b/c/d")).setCanBePrefix(true)));
  // MustBeFresh is not part of matching (the CS checks freshness).
  EXPECT_TRUE(match(Interest(Name("/a/b")).setMustBeFresh(true)));

  Name full = data.fullName();
  EXPECT_TRUE(match(Interest(full)));
  EXPECT_TRUE(match(Interest(full).setCanBePrefix(true)));
  Name wrong("/a/b");
  wrong.appendImplicitDigest(Buffer(32, 0));
  EXPECT_FALSE(match(Interest(wrong)));
  EXPECT_FALSE(match(Interest(wrong).setCanBePrefix(true)));
  Name otherPrefix("/a/c");
  otherPrefix.append(digest);
  EXPECT_FALSE(match(Interest(otherPrefix)));
  // A digest in the middle is an ordinary component for prefix matching.
  Data deep(Name("/a").append(digest).append("z"));
  EXPECT_TRUE(Interest(Name("/a").append(digest)).setCanBePrefix(true).matchesData(deep));
  // An Interest of full-name length whose last component is not a digest cannot match.
  Data one(Name("/a"));
  EXPECT_FALSE(Interest(Name("/a/b")).setCanBePrefix(true).matchesData(one));
  // Data whose name already ends with a digest-type component: exact match still works.
  Data dd(Name("/a").append(digest));
  EXPECT_TRUE(Interest(dd.name()).matchesData(dd));
}

TEST(Interest, MatchesInterest)
{
  Interest a(Name("/a"));
  Interest b(Name("/a"));
  b.setNonce(5).setLifetime(1s).setForwardingHint({Name("/h")});
  EXPECT_TRUE(a.matchesInterest(b));
  b.setCanBePrefix(true);
  EXPECT_FALSE(a.matchesInterest(b));
  a.setCanBePrefix(true).setMustBeFresh(true);
  EXPECT_FALSE(a.matchesInterest(b));
}

} // namespace
} // namespace ndnlab
