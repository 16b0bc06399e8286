#include "core/lp/packet.hpp"

#include <gtest/gtest.h>

namespace ndnlab::lp {
namespace {

Buffer hex(std::string_view h)
{
  Buffer b;
  EXPECT_TRUE(fromHex(h, b)) << h;
  return b;
}

/// Wraps field TLVs (hex) into an LpPacket TLV.
Buffer lp(std::string_view fieldsHex)
{
  Buffer value = hex(fieldsHex);
  Buffer out;
  appendTlv(out, tlv::LpPacket, value);
  return out;
}

LpErrc errorOf(const Buffer& frame)
{
  auto r = decodeFrame(frame);
  EXPECT_FALSE(r.ok()) << toHex(frame);
  return r.ok() ? LpErrc::Malformed : r.error().code;
}

PitToken token(std::string_view h)
{
  Buffer b = hex(h);
  PitToken t;
  t.size = static_cast<uint8_t>(b.size());
  std::copy(b.begin(), b.end(), t.bytes.begin());
  return t;
}

// --- encoding of every field ----------------------------------------------------------------

struct FieldCase
{
  const char* name;
  LpPacket pkt;
  const char* fieldsHex; ///< expected TLV-VALUE of the LpPacket
};

std::vector<FieldCase> fieldCases()
{
  std::vector<FieldCase> cases;
  auto add = [&](const char* name, auto fill, const char* h) {
    LpPacket p;
    fill(p);
    cases.push_back({name, std::move(p), h});
  };
  add(
    "Sequence", [](LpPacket& p) { p.sequence = 0x0102030405060708; }, "5108 0102030405060708");
  add(
    "SequenceSmallStillEightOctets", [](LpPacket& p) { p.sequence = 1; }, "5108 0000000000000001");
  add(
    "FragIndex", [](LpPacket& p) { p.fragIndex = 1; }, "5201 01");
  add(
    "FragCount", [](LpPacket& p) { p.fragCount = 300; }, "5302 012c");
  add(
    "PitToken", [](LpPacket& p) { p.pitToken = token("00010001d862"); }, "6206 00010001d862");
  add(
    "NackNoReason", [](LpPacket& p) { p.nack = 0; }, "fd0320 00");
  add(
    "NackNoRoute", [](LpPacket& p) { p.nack = 150; }, "fd0320 05 fd0321 01 96");
  add(
    "NackCongestion", [](LpPacket& p) { p.nack = 50; }, "fd0320 05 fd0321 01 32");
  add(
    "IncomingFaceId", [](LpPacket& p) { p.incomingFaceId = 300; }, "fd032c 02 012c");
  add(
    "NextHopFaceId", [](LpPacket& p) { p.nextHopFaceId = 256; }, "fd0330 02 0100");
  add(
    "CachePolicyNoCache", [](LpPacket& p) { p.cachePolicy = CachePolicyType::NoCache; }, "fd0334 05 fd0335 01 01");
  add(
    "CongestionMark", [](LpPacket& p) { p.congestionMark = 1; }, "fd0340 01 01");
  add(
    "TwoAcks",
    [](LpPacket& p) {
      p.acks = {5, 0xffffffffffffffff};
    },
    "fd0344 08 0000000000000005 fd0344 08 ffffffffffffffff");
  add(
    "TxSequence", [](LpPacket& p) { p.txSequence = 7; }, "fd0348 08 0000000000000007");
  add(
    "NonDiscovery", [](LpPacket& p) { p.nonDiscovery = true; }, "fd034c 00");
  add(
    "PrefixAnnouncement",
    [](LpPacket& p) {
      p.prefixAnnouncement = Buffer{0x06, 0x00};
    },
    "fd0350 02 0600");
  return cases;
}

TEST(LpPacket, EncodesEveryFieldAndDecodesItBack)
{
  for (auto& c : fieldCases()) {
    SCOPED_TRACE(c.name);
    Buffer payload = hex("0503 0701 08"); // fragment bytes are opaque to lp/
    c.pkt.fragment = ByteSpan(payload);
    Buffer expected = lp(std::string(c.fieldsHex) + " 5005 0503070108");

    SharedBuffer wire = encode(c.pkt);
    EXPECT_EQ(toHex(*wire), toHex(expected));
    EXPECT_EQ(encodedSize(c.pkt), wire->size());

    auto d = decodeFrame(*wire);
    ASSERT_TRUE(d.ok()) << reasonName(d.error().code);
    EXPECT_FALSE(d->bare);
    EXPECT_EQ(d->sequence, c.pkt.sequence);
    EXPECT_EQ(d->fragIndex, c.pkt.fragIndex);
    EXPECT_EQ(d->fragCount, c.pkt.fragCount);
    EXPECT_EQ(d->pitToken, c.pkt.pitToken);
    EXPECT_EQ(d->nack, c.pkt.nack);
    EXPECT_EQ(d->incomingFaceId, c.pkt.incomingFaceId);
    EXPECT_EQ(d->nextHopFaceId, c.pkt.nextHopFaceId);
    EXPECT_EQ(d->cachePolicy, c.pkt.cachePolicy);
    EXPECT_EQ(d->congestionMark, c.pkt.congestionMark);
    EXPECT_EQ(d->acks, c.pkt.acks);
    EXPECT_EQ(d->txSequence, c.pkt.txSequence);
    EXPECT_EQ(d->nonDiscovery, c.pkt.nonDiscovery);
    EXPECT_EQ(d->prefixAnnouncement, c.pkt.prefixAnnouncement);
    ASSERT_TRUE(d->fragment.has_value());
    EXPECT_EQ(toHex(*d->fragment), "0503070108");
  }
}

TEST(LpPacket, AllFieldsTogetherAreInIncreasingOrder)
{
  LpPacket p;
  Buffer payload = hex("0600");
  p.sequence = 9;
  p.fragIndex = 0;
  p.fragCount = 2;
  p.pitToken = token("ab");
  p.nack = 100;
  p.incomingFaceId = 1;
  p.nextHopFaceId = 2;
  p.cachePolicy = CachePolicyType::NoCache;
  p.congestionMark = 3;
  p.acks = {1};
  p.txSequence = 4;
  p.nonDiscovery = true;
  p.prefixAnnouncement = Buffer{0x06, 0x00};
  p.fragment = ByteSpan(payload);
  SharedBuffer wire = encode(p);
  EXPECT_EQ(toHex(*wire), toHex(lp("5108 0000000000000009 5201 00 5301 02 6201 ab fd0320 05 fd0321 01 64"
                                   "fd032c 01 01 fd0330 01 02 fd0334 05 fd0335 01 01 fd0340 01 03"
                                   "fd0344 08 0000000000000001 fd0348 08 0000000000000004 fd034c 00"
                                   "fd0350 02 0600 5002 0600")));
  auto d = decodeFrame(*wire);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->hasHeaderFields());
  EXPECT_EQ(headerFieldsSize(*d), headerFieldsSize(p));
}

TEST(LpPacket, OnlyFragmentHasNoHeaderFields)
{
  auto d = decodeFrame(lp("5002 0600"));
  ASSERT_TRUE(d.ok());
  EXPECT_FALSE(d->hasHeaderFields());
  EXPECT_FALSE(d->isIdle());
  EXPECT_FALSE(d->bare);
}

// --- bare packets and IDLE ------------------------------------------------------------------

TEST(LpPacket, BareInterestAndDataAreFragments)
{
  for (const char* h : {"0505 0703 080161", "0602 0700"}) {
    Buffer frame = hex(h);
    auto d = decodeFrame(frame);
    ASSERT_TRUE(d.ok());
    EXPECT_TRUE(d->bare);
    ASSERT_TRUE(d->fragment.has_value());
    EXPECT_EQ(d->fragment->data(), frame.data()); // a view, not a copy
    EXPECT_EQ(d->fragment->size(), frame.size());
    EXPECT_FALSE(d->hasHeaderFields());
  }
}

TEST(LpPacket, NoFragmentIsIdle)
{
  auto empty = decodeFrame(lp(""));
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->isIdle());

  auto acks = decodeFrame(lp("fd0344 08 0000000000000001 fd0344 08 0000000000000002"));
  ASSERT_TRUE(acks.ok());
  EXPECT_TRUE(acks->isIdle());
  EXPECT_EQ(acks->acks, (std::vector<uint64_t>{1, 2}));
}

TEST(LpPacket, EmptyFragmentIsNotIdle)
{
  auto d = decodeFrame(lp("5000"));
  ASSERT_TRUE(d.ok());
  ASSERT_FALSE(d->isIdle());
  EXPECT_TRUE(d->fragment->empty());
}

TEST(LpPacket, UnknownOuterTypeIsRejected)
{
  EXPECT_EQ(errorOf(hex("0700")), LpErrc::UnknownType);
  EXPECT_EQ(errorOf(hex("5000")), LpErrc::UnknownType); // a Fragment alone is not a frame
  EXPECT_EQ(errorOf(hex("fd0320 00")), LpErrc::UnknownType);
}

// --- order, repetition, unknown fields ------------------------------------------------------

TEST(LpPacket, FieldsOutOfOrderAreRejected)
{
  EXPECT_EQ(errorOf(lp("5301 02 5201 00 5000")), LpErrc::FieldOutOfOrder);
  EXPECT_EQ(errorOf(lp("6201 01 5108 0000000000000001 5000")), LpErrc::FieldOutOfOrder);
  EXPECT_EQ(errorOf(lp("fd0340 01 01 fd0320 00 5000")), LpErrc::FieldOutOfOrder);
  // nothing may follow Fragment, not even a second Fragment or an ignorable field
  EXPECT_EQ(errorOf(lp("5000 5201 00")), LpErrc::FieldOutOfOrder);
  EXPECT_EQ(errorOf(lp("5000 5000")), LpErrc::FieldOutOfOrder);
  EXPECT_EQ(errorOf(lp("5000 fd0324 00")), LpErrc::FieldOutOfOrder);
  // an ignorable unknown field must also respect the order
  EXPECT_EQ(errorOf(lp("fd0340 01 01 fd0324 00 5000")), LpErrc::FieldOutOfOrder);
}

TEST(LpPacket, NonRepeatableFieldsMustNotRepeat)
{
  EXPECT_EQ(errorOf(lp("6201 01 6201 02 5000")), LpErrc::FieldRepeated);
  EXPECT_EQ(errorOf(lp("5108 0000000000000001 5108 0000000000000002")), LpErrc::FieldRepeated);
  EXPECT_EQ(errorOf(lp("fd0340 01 01 fd0340 01 01")), LpErrc::FieldRepeated);
  EXPECT_EQ(errorOf(lp("fd034c 00 fd034c 00")), LpErrc::FieldRepeated);
  EXPECT_EQ(errorOf(lp("fd0324 00 fd0324 00")), LpErrc::FieldRepeated);
  EXPECT_TRUE(decodeFrame(lp("fd0344 08 0000000000000001 fd0344 08 0000000000000001")).ok());
}

TEST(LpPacket, UnknownFieldRuleForEveryType)
{
  // Every TLV-TYPE up to 1100 as a lone empty header field: a known field either decodes or
  // fails with a value error; an unknown one is ignored exactly when in [800,959] and %4 == 0.
  for (uint32_t t = 1; t <= 1100; ++t) {
    if (t == tlv::Fragment)
      continue;
    Buffer value;
    appendTlvEmpty(value, t);
    appendTlvEmpty(value, tlv::Fragment);
    Buffer frame;
    appendTlv(frame, tlv::LpPacket, value);
    auto r = decodeFrame(frame);
    if (isKnownHeaderField(t)) {
      if (!r.ok()) {
        EXPECT_EQ(r.error().code, LpErrc::BadFieldValue) << t;
      }
      continue;
    }
    bool ignorable = t >= 800 && t <= 959 && t % 4 == 0;
    EXPECT_EQ(canIgnoreUnknownField(t), ignorable) << t;
    if (ignorable) {
      ASSERT_TRUE(r.ok()) << t;
      EXPECT_FALSE(r->hasHeaderFields()) << t;
      EXPECT_FALSE(r->isIdle()) << t;
    }
    else {
      ASSERT_FALSE(r.ok()) << t;
      EXPECT_EQ(r.error().code, LpErrc::UnknownCriticalField) << t;
      EXPECT_EQ(r.error().fieldType, t);
    }
  }
}

TEST(LpPacket, UnknownFieldSpotChecks)
{
  EXPECT_TRUE(decodeFrame(lp("fd0324 03 010203 5000")).ok());             // 804: ignorable
  EXPECT_TRUE(decodeFrame(lp("fd03bc 00 5000")).ok());                    // 956: ignorable
  EXPECT_EQ(errorOf(lp("fd0331 00 5000")), LpErrc::UnknownCriticalField); // 817 (old IncomingFaceId)
  EXPECT_EQ(errorOf(lp("fd03c0 00 5000")), LpErrc::UnknownCriticalField); // 960: out of range
  EXPECT_EQ(errorOf(lp("5401 01 5000")), LpErrc::UnknownCriticalField);   // 84: ndnSIM HopCount
  EXPECT_EQ(errorOf(lp("6301 01 5000")), LpErrc::UnknownCriticalField);   // 99
  EXPECT_EQ(errorOf(lp("0700 5000")), LpErrc::UnknownCriticalField);      // a Name in the header
  // known fields around an ignorable unknown one keep their values
  auto d = decodeFrame(lp("6201 aa fd0324 00 fd0340 01 01 5000"));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->pitToken, token("aa"));
  EXPECT_EQ(d->congestionMark, 1u);
}

// --- bad values and malformed input ---------------------------------------------------------

TEST(LpPacket, BadFieldValuesAreRejected)
{
  const char* bad[] = {
    "5104 00000001 5000",                                                           // Sequence not 8 octets
    "5109 000000000000000001 5000",                                                 // Sequence 9 octets
    "5203 000001 5000",                                                             // FragIndex NonNegInt of 3 octets
    "5300 5000",                                                                    // FragCount empty
    "6200 5000",                                                                    // PitToken empty
    "6221 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20 5000", // 33 octets
    "fd0320 03 fd0321 00 5000",                                                     // NackReason empty
    "fd0320 02 fd0321 5000",                                                        // Nack value truncated
    "fd032c 03 000001 5000",                                                        // IncomingFaceId 3 octets
    "fd0330 00 5000",                                                               // NextHopFaceId empty
    "fd0334 00 5000",                // CachePolicy without CachePolicyType
    "fd0334 05 fd0335 01 00 5000",   // CachePolicyType 0 (invalid)
    "fd0334 05 fd0335 01 02 5000",   // unknown CachePolicyType
    "fd0334 04 fd0335 00 5000",      // CachePolicyType empty
    "fd0340 00 5000",                // CongestionMark empty
    "fd0344 07 00000000000001 5000", // Ack 7 octets
    "fd0348 00 5000",                // TxSequence empty
    "fd034c 01 00 5000",             // NonDiscovery not empty
  };
  for (const char* h : bad)
    EXPECT_EQ(errorOf(lp(h)), LpErrc::BadFieldValue) << h;
}

TEST(LpPacket, NackIgnoresUnknownInnerElementsAndKeepsUnknownCodes)
{
  auto d = decodeFrame(lp("fd0320 07 fd0321 01 07 2000 5000"));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->nack, 7u);
  auto noReason = decodeFrame(lp("fd0320 02 2000 5000"));
  ASSERT_TRUE(noReason.ok());
  EXPECT_EQ(noReason->nack, 0u);
}

TEST(LpPacket, MalformedFramesAreRejected)
{
  const char* bad[] = {
    "",               // empty
    "64",             // no length
    "6405 5002 06",   // value shorter than length
    "6404 5003 0600", // inner Fragment longer than the LpPacket value
    "6400 00",        // trailing byte after the LpPacket
    "0502 0700 ff",   // trailing byte after a bare Interest
    "fd0064 00",      // TLV-TYPE not in shortest form
    "64fd0002 5000",  // TLV-LENGTH not in shortest form
    "6403 5000 00",   // inner TLV-TYPE 0
    "6403 5000 fd",   // inner VAR-NUMBER truncated
  };
  for (const char* h : bad)
    EXPECT_EQ(errorOf(hex(h)), LpErrc::Malformed) << h;
}

TEST(LpPacket, EveryTruncationOfAValidPacketFailsCleanly)
{
  LpPacket p;
  Buffer payload(300, 0x42);
  p.sequence = 1;
  p.fragIndex = 0;
  p.fragCount = 1;
  p.pitToken = token("0102030405");
  p.nack = 150;
  p.cachePolicy = CachePolicyType::NoCache;
  p.acks = {1, 2};
  p.prefixAnnouncement = Buffer{0x06, 0x00};
  p.fragment = ByteSpan(payload);
  SharedBuffer wire = encode(p);
  ASSERT_TRUE(decodeFrame(*wire).ok());
  for (size_t n = 0; n < wire->size(); ++n) {
    Buffer cut(wire->begin(), wire->begin() + n);
    EXPECT_FALSE(decodeFrame(cut).ok()) << n;
  }
}

TEST(LpPacket, ClearHeaderFieldsKeepsFragment)
{
  Buffer payload = hex("0600");
  LpPacket p;
  p.pitToken = token("01");
  p.acks = {1};
  p.fragment = ByteSpan(payload);
  p.clearHeaderFields();
  EXPECT_FALSE(p.hasHeaderFields());
  ASSERT_TRUE(p.fragment.has_value());
  EXPECT_EQ(p.fragment->data(), payload.data());
}

} // namespace
} // namespace ndnlab::lp
