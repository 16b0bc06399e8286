#include "core/codec/interest.hpp"
#include "core/codec/data.hpp"
#include "core/codec/nack.hpp"
#include "core/codec/tests/test-helpers.hpp"

#include <gtest/gtest.h>

namespace ndnlab {
namespace {

using namespace std::chrono_literals;
using test::hex;

// Name /a = 0703 080161
Interest decodeOk(std::string_view h)
{
  auto r = Interest::decode(hex(h));
  EXPECT_TRUE(r) << h << ": " << (r ? "" : reasonName(r.error().code)) << " type " << (r ? 0 : r.error().tlvType);
  return r ? *r : Interest();
}

DecodeError decodeErr(std::string_view h)
{
  auto r = Interest::decode(hex(h));
  EXPECT_FALSE(r) << h;
  return r ? DecodeError{} : r.error();
}

TEST(Interest, EncodesMinimal)
{
  Interest i(Name("/a"));
  EXPECT_EQ(toHex(*i.wireEncode()), "0505"
                                    "0703080161");
  i.setNonce(0x01020304);
  EXPECT_EQ(toHex(*i.wireEncode()), "050b"
                                    "0703080161"
                                    "0a0401020304");
}

TEST(Interest, EncodesEveryElementInOrder)
{
  Interest i(Name("/a"));
  i.setCanBePrefix(true)
    .setMustBeFresh(true)
    .setForwardingHint({Name("/h")})
    .setNonce(0xA0B0C0D0)
    .setLifetime(1000ms)
    .setHopLimit(64);
  EXPECT_EQ(toHex(*i.wireEncode()), "051d"
                                    "0703080161"
                                    "2100"
                                    "1200"
                                    "1e05"
                                    "0703080168"
                                    "0a04a0b0c0d0"
                                    "0c0203e8"
                                    "220140");
  auto d = Interest::decode(*i.wireEncode());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->name(), Name("/a"));
  EXPECT_TRUE(d->canBePrefix());
  EXPECT_TRUE(d->mustBeFresh());
  ASSERT_EQ(d->forwardingHint().size(), 1u);
  EXPECT_EQ(d->forwardingHint()[0], Name("/h"));
  EXPECT_EQ(d->nonce(), 0xA0B0C0D0u);
  EXPECT_EQ(d->lifetime(), 1000ms);
  EXPECT_TRUE(d->hasLifetime());
  EXPECT_EQ(d->hopLimit(), 64);
  EXPECT_FALSE(d->appParameters());
}

TEST(Interest, DefaultsWhenAbsent)
{
  Interest i = decodeOk("0505 0703080161");
  EXPECT_FALSE(i.canBePrefix());
  EXPECT_FALSE(i.mustBeFresh());
  EXPECT_TRUE(i.forwardingHint().empty());
  EXPECT_FALSE(i.nonce());
  EXPECT_FALSE(i.hasLifetime());
  EXPECT_EQ(i.lifetime(), Interest::DefaultLifetime);
  EXPECT_FALSE(i.hopLimit());
  EXPECT_FALSE(i.signatureInfo());
}

TEST(Interest, LifetimeDefaultOmittedButExplicitKept)
{
  Interest i(Name("/a"));
  i.setLifetime(4000ms);
  EXPECT_FALSE(i.hasLifetime());
  EXPECT_EQ(toHex(*i.wireEncode()), "0505"
                                    "0703080161");
  // An explicit 4000 on the wire survives decode + re-encode.
  Interest d = decodeOk("0509 0703080161 0c020fa0");
  EXPECT_TRUE(d.hasLifetime());
  d.setNonce(std::nullopt); // invalidate the cached wire
  EXPECT_EQ(toHex(*d.wireEncode()), "0509"
                                    "0703080161"
                                    "0c020fa0");
  // Large lifetimes use the 4- and 8-octet forms.
  d.setLifetime(std::chrono::milliseconds(0x10000));
  EXPECT_EQ(toHex(*d.wireEncode()), "050b"
                                    "0703080161"
                                    "0c0400010000");
  Interest big = decodeOk("050f 0703080161 0c080000000100000000");
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(big.lifetime()).count(), 0x100000000LL);
}

TEST(Interest, KeepsWireUntilSetterCalled)
{
  auto wire = std::make_shared<const Buffer>(hex("050b 0703080161 0a0401020304"));
  auto r = Interest::decode(wire);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->wireEncode(), wire); // same buffer, not a copy
  Interest copy = *r;
  EXPECT_EQ(copy.wireEncode(), wire);
  copy.setHopLimit(3);
  EXPECT_NE(copy.wireEncode(), wire);
  EXPECT_EQ(toHex(*copy.wireEncode()), "050e"
                                       "0703080161"
                                       "0a0401020304"
                                       "220103");
  EXPECT_EQ(r->wireEncode(), wire);
  EXPECT_EQ(copy.wireSize(), 16u);
}

TEST(Interest, NonCanonicalWireIsPreserved)
{
  // Unknown non-critical element is kept in the cached wire but dropped on re-encode.
  auto wire = std::make_shared<const Buffer>(hex("0508 0703080161 800161"));
  auto r = Interest::decode(wire);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r->wireEncode(), *wire);
  r->setMustBeFresh(false);
  EXPECT_EQ(toHex(*r->wireEncode()), "0505"
                                     "0703080161");
}

TEST(InterestDecode, OuterAndNameErrors)
{
  EXPECT_EQ(decodeErr("0605 0703080161").code, DecodeErrc::UnexpectedType);
  EXPECT_EQ(decodeErr("0500").code, DecodeErrc::MissingElement);
  auto e = decodeErr("0506 0a0401020304");
  EXPECT_EQ(e.code, DecodeErrc::MissingElement);
  EXPECT_EQ(e.tlvType, tlv::Name);
  // Non-critical element before Name is still invalid: Name must be first.
  EXPECT_EQ(decodeErr("0508 800100 0703080161").code, DecodeErrc::MissingElement);
  e = decodeErr("0502 0700");
  EXPECT_EQ(e.code, DecodeErrc::BadName);
  EXPECT_EQ(e.tlvType, tlv::Name);
  EXPECT_EQ(decodeErr("0505 0703000161").code, DecodeErrc::BadVarNumber);
  EXPECT_EQ(decodeErr("0505 0703010161").code, DecodeErrc::BadName);
  EXPECT_EQ(decodeErr("0505 0703080161 00").code, DecodeErrc::TrailingBytes);
  EXPECT_EQ(decodeErr("0506 0703080161").code, DecodeErrc::BadLength);
  EXPECT_EQ(decodeErr("05").code, DecodeErrc::Truncated);
  EXPECT_EQ(decodeErr("").code, DecodeErrc::Truncated);
  EXPECT_EQ(decodeErr("05fd0005 0703080161").code, DecodeErrc::BadVarNumber);
  // Two params-digest components.
  std::string d32(64, '0');
  auto two = Interest::decode(hex("0548 0744 0220" + d32 + "0220" + d32 + " 2400"));
  ASSERT_FALSE(two);
  EXPECT_EQ(two.error().code, DecodeErrc::BadName);
}

TEST(InterestDecode, ElementValueRules)
{
  struct Case
  {
    const char* hex;
    DecodeErrc code;
    uint32_t type;
  };
  const Case cases[] = {
    {"0508 0703080161 210100", DecodeErrc::BadValue, tlv::CanBePrefix},
    {"0508 0703080161 120100", DecodeErrc::BadValue, tlv::MustBeFresh},
    {"050a 0703080161 0a03010203", DecodeErrc::BadValue, tlv::Nonce},
    {"050c 0703080161 0a050102030405", DecodeErrc::BadValue, tlv::Nonce},
    {"0507 0703080161 0a00", DecodeErrc::BadValue, tlv::Nonce},
    {"0509 0703080161 22020102", DecodeErrc::BadValue, tlv::HopLimit},
    {"0507 0703080161 2200", DecodeErrc::BadValue, tlv::HopLimit},
    {"050a 0703080161 0c03000001", DecodeErrc::BadNonNegInt, tlv::InterestLifetime},
    {"0507 0703080161 0c00", DecodeErrc::BadNonNegInt, tlv::InterestLifetime},
    {"0507 0703080161 1e00", DecodeErrc::BadValue, tlv::ForwardingHint},
    {"050a 0703080161 1e03 080161", DecodeErrc::BadValue, tlv::ForwardingHint},
    {"050b 0703080161 1e04 0702 0100", DecodeErrc::BadName, 1},
    {"050a 0703080161 1e03 0705 08", DecodeErrc::BadLength, tlv::ForwardingHint},
    {"050a 0703080161 2c03 1b0100", DecodeErrc::MissingElement, tlv::ApplicationParameters},
  };
  for (const auto& c : cases) {
    auto e = decodeErr(c.hex);
    EXPECT_EQ(e.code, c.code) << c.hex << " got " << reasonName(e.code);
    EXPECT_EQ(e.tlvType, c.type) << c.hex;
  }
}

TEST(InterestDecode, EvolvabilityRule)
{
  // Out-of-order critical elements abort.
  auto e = decodeErr("0509 0703080161 1200 2100");
  EXPECT_EQ(e.code, DecodeErrc::CriticalUnknown);
  EXPECT_EQ(e.tlvType, tlv::CanBePrefix);
  e = decodeErr("050d 0703080161 0a0401020304 1200");
  EXPECT_EQ(e.code, DecodeErrc::CriticalUnknown);
  EXPECT_EQ(e.tlvType, tlv::MustBeFresh);
  e = decodeErr("050e 0703080161 220101 0a0401020304");
  EXPECT_EQ(e.code, DecodeErrc::CriticalUnknown);
  EXPECT_EQ(e.tlvType, tlv::Nonce);
  e = decodeErr("050d 0703080161 0c0101 1e03070108");
  EXPECT_EQ(e.tlvType, tlv::ForwardingHint);
  // Duplicate critical element.
  e = decodeErr("0511 0703080161 0a0401020304 0a0401020304");
  EXPECT_EQ(e.code, DecodeErrc::CriticalUnknown);
  EXPECT_EQ(e.tlvType, tlv::Nonce);
  // Second Name.
  e = decodeErr("050a 0703080161 0703080162");
  EXPECT_EQ(e.code, DecodeErrc::CriticalUnknown);
  EXPECT_EQ(e.tlvType, tlv::Name);
  // Unknown critical: retired Selectors (9), grandfathered range, odd numbers.
  EXPECT_EQ(decodeErr("0507 0703080161 0900").code, DecodeErrc::CriticalUnknown);
  EXPECT_EQ(decodeErr("0507 0703080161 1f00").code, DecodeErrc::CriticalUnknown);
  EXPECT_EQ(decodeErr("0507 0703080161 8100").code, DecodeErrc::CriticalUnknown);
  EXPECT_EQ(decodeErr("0509 0703080161 fd010100").code, DecodeErrc::CriticalUnknown);

  // Unknown non-critical elements are skipped anywhere after Name.
  Interest i = decodeOk("0515 0703080161 800161 0a0401020304 fd010000 220105");
  EXPECT_EQ(i.nonce(), 0x01020304u);
  EXPECT_EQ(i.hopLimit(), 5);
  // Out-of-order non-critical elements are skipped (HopLimit after ApplicationParameters).
  i = decodeOk("050c 0703080161 2402cafe 220105");
  EXPECT_FALSE(i.hopLimit());
  ASSERT_TRUE(i.appParameters());
  EXPECT_EQ(toHex(*i.appParameters()), "cafe");
  // Duplicate non-critical HopLimit: the first one wins.
  i = decodeOk("050b 0703080161 220101 220102");
  EXPECT_EQ(i.hopLimit(), 1);
}

TEST(InterestDecode, TruncationAtEveryByteFails)
{
  Interest i(Name("/a/b"));
  i.setCanBePrefix(true)
    .setMustBeFresh(true)
    .setForwardingHint({Name("/h")})
    .setNonce(1)
    .setLifetime(10ms)
    .setHopLimit(2)
    .setAppParameters(Buffer{1, 2, 3});
  SignatureInfo si;
  si.nonce = Buffer{9, 9, 9, 9, 9, 9, 9, 9};
  i.setSignature(si, Buffer(32, 0xAA));
  Buffer wire = *i.wireEncode();
  ASSERT_TRUE(Interest::decode(wire));
  for (size_t n = 0; n < wire.size(); ++n) {
    Buffer cut(wire.begin(), wire.begin() + static_cast<ptrdiff_t>(n));
    EXPECT_FALSE(Interest::decode(cut)) << n;
    // Also with a consistent outer length (inner truncation).
    if (n > 2) {
      Buffer inner;
      appendTlvHeader(inner, tlv::Interest, n - 2);
      inner.insert(inner.end(), wire.begin() + 2, wire.begin() + static_cast<ptrdiff_t>(n));
      auto r = Interest::decode(inner); // must not crash; may succeed when cut on an element boundary
      (void)r;
    }
  }
}

TEST(InterestForwardingHint, NewAndDelegationForms)
{
  Interest i = decodeOk("0514 0703080161 1e0d 0703080168 0706080169 08016a");
  ASSERT_EQ(i.forwardingHint().size(), 2u);
  EXPECT_EQ(i.forwardingHint()[1], Name("/i/j"));
  // Old form: Delegation(31) { Preference(30) Name }.
  i = decodeOk("0518 0703080161 1e11 1f08 1e0101 0703080168 1f05 0703080169");
  ASSERT_EQ(i.forwardingHint().size(), 2u);
  EXPECT_EQ(i.forwardingHint()[0], Name("/h"));
  EXPECT_EQ(i.forwardingHint()[1], Name("/i"));
  i.setNonce(1);
  // Re-encoded in the current form.
  auto again = Interest::decode(*i.wireEncode());
  ASSERT_TRUE(again);
  EXPECT_EQ(again->forwardingHint(), i.forwardingHint());
}

TEST(InterestParams, SetAppParametersComputesDigest)
{
  Interest i(Name("/a"));
  i.setNonce(0x01020304);
  i.setAppParameters(Buffer{0xCA, 0xFE});
  ASSERT_EQ(i.name().size(), 2u);
  EXPECT_TRUE(i.name()[-1].isParamsDigest());
  auto digest = sha256(hex("2402cafe"));
  EXPECT_EQ(toHex(i.name()[-1].value()), toHex(digest));
  EXPECT_TRUE(i.hasValidParamsDigest());
  EXPECT_EQ(toHex(*i.wireEncode()), "0531"
                                    "0725"
                                    "080161"
                                    "0220" +
                                      toHex(digest) +
                                      "0a0401020304"
                                      "2402cafe");
  auto d = Interest::decode(*i.wireEncode());
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->hasValidParamsDigest());

  // Replacing parameters replaces the digest in place (components after it are kept).
  Interest j(Name("/a"));
  j.setAppParameters(Buffer{1});
  Name withSuffix = j.name();
  withSuffix.appendSegment(0);
  j.setName(withSuffix);
  j.setAppParameters(Buffer{2});
  ASSERT_EQ(j.name().size(), 3u);
  EXPECT_TRUE(j.name()[1].isParamsDigest());
  EXPECT_EQ(toHex(j.name()[1].value()), toHex(sha256(hex("240102"))));
  EXPECT_TRUE(j.name()[2].isSegment());
  EXPECT_TRUE(j.hasValidParamsDigest());

  // Empty parameters are still parameters.
  Interest k(Name("/a"));
  k.setAppParameters(Buffer{});
  EXPECT_EQ(toHex(k.name()[-1].value()), toHex(sha256(hex("2400"))));
  // Removing parameters removes the digest.
  k.setAppParameters(std::nullopt);
  EXPECT_EQ(k.name(), Name("/a"));
  EXPECT_TRUE(k.hasValidParamsDigest());
}

TEST(InterestParams, DigestValidation)
{
  std::string good = toHex(sha256(hex("2402cafe")));
  std::string bad(64, '0');
  auto mk = [](const std::string& d) { return Interest::decode(hex("052b 0725 080161 0220" + d + " 2402cafe")); };
  ASSERT_TRUE(mk(good));
  EXPECT_TRUE(mk(good)->hasValidParamsDigest());
  ASSERT_TRUE(mk(bad));
  EXPECT_FALSE(mk(bad)->hasValidParamsDigest());
  // Digest component without parameters, parameters without digest.
  auto noParams = Interest::decode(hex("0527 0725 080161 0220" + good));
  ASSERT_TRUE(noParams);
  EXPECT_FALSE(noParams->hasValidParamsDigest());
  auto noDigest = Interest::decode(hex("0509 0703080161 2402cafe"));
  ASSERT_TRUE(noDigest);
  EXPECT_FALSE(noDigest->hasValidParamsDigest());
  EXPECT_TRUE(decodeOk("0505 0703080161").hasValidParamsDigest());
  // Unknown non-critical elements after ApplicationParameters are covered by the digest.
  std::string withExtra = toHex(sha256(hex("2402cafe 800101")));
  auto x = Interest::decode(hex("052e 0725 080161 0220" + withExtra + " 2402cafe 800101"));
  ASSERT_TRUE(x);
  EXPECT_TRUE(x->hasValidParamsDigest());
}

TEST(InterestSigned, SignedPortionAndDigest)
{
  Interest i(Name("/a/b"));
  i.setNonce(0x01020304);
  SignatureInfo si;
  si.type = static_cast<uint32_t>(SignatureType::HmacWithSha256);
  si.keyLocator = Name("/k");
  si.nonce = Buffer{1, 2, 3, 4, 5, 6, 7, 8};
  si.time = 1700000000000ULL;
  si.seqNum = 7;
  i.setSignature(si, std::nullopt);
  ASSERT_TRUE(i.appParameters()); // empty parameters added
  EXPECT_TRUE(i.appParameters()->empty());
  std::string sigInfoHex = "2c21"
                           "1b0104"
                           "1c05"
                           "070308016b"
                           "26080102030405060708"
                           "28080000018bcfe56800"
                           "2a0107";
  EXPECT_EQ(toHex(i.signedPortion()), "080161"
                                      "080162"
                                      "2400" +
                                        sigInfoHex);
  Buffer value(32, 0x5A);
  i.setSignature(si, value);
  EXPECT_EQ(toHex(i.signedPortion()), "080161"
                                      "080162"
                                      "2400" +
                                        sigInfoHex);
  std::string tail = "2400" + sigInfoHex + "2e20" + toHex(value);
  EXPECT_EQ(toHex(i.name()[-1].value()), toHex(sha256(hex(tail))));
  EXPECT_TRUE(i.hasValidParamsDigest());

  auto d = Interest::decode(*i.wireEncode());
  ASSERT_TRUE(d);
  ASSERT_TRUE(d->signatureInfo());
  EXPECT_EQ(*d->signatureInfo(), si);
  EXPECT_EQ(*d->signatureValue(), value);
  EXPECT_EQ(d->signedPortion(), i.signedPortion());
  EXPECT_TRUE(d->hasValidParamsDigest());
  EXPECT_EQ(*d->wireEncode(), *i.wireEncode());

  // Signature elements without their partner.
  std::string name = "0725 080161 0220" + std::string(64, '0');
  auto e = decodeErr("052e" + name + "2400 2c03 1b0100");
  EXPECT_EQ(e.code, DecodeErrc::MissingElement);
  EXPECT_EQ(e.tlvType, tlv::InterestSignatureValue);
  e = decodeErr("052b" + name + "2400 2e00");
  EXPECT_EQ(e.code, DecodeErrc::MissingElement);
  EXPECT_EQ(e.tlvType, tlv::InterestSignatureInfo);
  // Bad SignatureInfo content.
  e = decodeErr("0530" + name + "2400 2c03 1c0100 2e00");
  EXPECT_EQ(e.code, DecodeErrc::MissingElement);
  EXPECT_EQ(e.tlvType, tlv::SignatureType);
  e = decodeErr("0532" + name + "2400 2c05 1b0100 2600 2e00");
  EXPECT_EQ(e.code, DecodeErrc::BadValue);
  EXPECT_EQ(e.tlvType, tlv::SignatureNonce);
  e = decodeErr("0532" + name + "2400 2c05 1b0100 8100 2e00");
  EXPECT_EQ(e.code, DecodeErrc::CriticalUnknown);
  EXPECT_EQ(e.tlvType, 0x81u);
  // A repeated non-critical element (SignatureSeqNum) is skipped: the first one wins.
  auto dup = Interest::decode(hex("0536" + name + "2400 2c09 1b0100 2a0101 2a0102 2e00"));
  ASSERT_TRUE(dup);
  EXPECT_EQ(dup->signatureInfo()->seqNum, 1u);
  // Unknown non-critical element inside SignatureInfo is skipped.
  auto ok = Interest::decode(hex("0532" + name + "2400 2c05 1b0100 8000 2e00"));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->signatureInfo()->type, 0u);
}

TEST(Nack, ReasonCodes)
{
  EXPECT_EQ(nackReasonFromCode(50), NackReason::Congestion);
  EXPECT_EQ(nackReasonFromCode(100), NackReason::Duplicate);
  EXPECT_EQ(nackReasonFromCode(150), NackReason::NoRoute);
  EXPECT_EQ(nackReasonFromCode(0), NackReason::None);
  EXPECT_EQ(nackReasonFromCode(51), NackReason::None);
  EXPECT_EQ(toString(NackReason::NoRoute), "NoRoute");
  EXPECT_EQ(toString(NackReason::None), "None");
  EXPECT_EQ(toString(NackReason::Congestion), "Congestion");
  EXPECT_EQ(toString(NackReason::Duplicate), "Duplicate");
  EXPECT_TRUE(isLessSevere(NackReason::Congestion, NackReason::Duplicate));
  EXPECT_TRUE(isLessSevere(NackReason::Duplicate, NackReason::NoRoute));
  EXPECT_TRUE(isLessSevere(NackReason::NoRoute, NackReason::None));
  EXPECT_FALSE(isLessSevere(NackReason::None, NackReason::Congestion));
  EXPECT_FALSE(isLessSevere(NackReason::Duplicate, NackReason::Duplicate));
}

} // namespace
} // namespace ndnlab
