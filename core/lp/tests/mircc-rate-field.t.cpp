// The MIRCC explicit-rate NDNLPv2 field, MirccRate (888): a NonNegativeInteger in bit/s on Data
// and Nack frames (docs/mechanisms/mircc.md). Wire form, order with the other fields,
// validation, and that a legacy receiver may ignore it (type in [800, 959], type % 4 == 0).

#include "core/lp/packet.hpp"

#include "core/codec/tests/test-helpers.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace ndnlab::lp {
namespace {

using ndnlab::test::hex;
using ndnlab::test::lpElementTypes;
using ndnlab::test::lpPacket;

TEST(MirccRateField, NumberIsIgnorableByLegacyReceivers)
{
  EXPECT_EQ(tlv::MirccRate, 888u);
  EXPECT_TRUE(canIgnoreUnknownField(tlv::MirccRate));
  EXPECT_TRUE(isKnownHeaderField(tlv::MirccRate));
  // numbers NFD/ndn-cxx, NDNts, ndnd and ndnlab's BLEnD fields use: not reused
  for (uint32_t t : {800u, 812u, 816u, 820u, 832u, 836u, 840u, 844u, 848u, 857u, 858u, 880u, 884u})
    EXPECT_NE(tlv::MirccRate, t);
}

TEST(MirccRateField, EncodeAndDecodeOnData)
{
  Buffer data = hex("0603 0701 08"); // fragment bytes are opaque to lp/
  LpPacket p;
  p.mirccRate = Rate::mbps(12);
  p.fragment = ByteSpan(data);
  EXPECT_TRUE(p.hasHeaderFields());
  SharedBuffer wire = encode(p);
  // 12 000 000 bit/s = 0x00B71B00, the 4-octet NonNegativeInteger form
  EXPECT_EQ(toHex(*wire), toHex(lpPacket("fd0378 04 00b71b00 5005 0603070108")));
  EXPECT_EQ(encodedSize(p), wire->size());
  auto d = decodeFrame(*wire);
  ASSERT_TRUE(d.ok()) << reasonName(d.error().code);
  EXPECT_EQ(d->mirccRate, Rate::mbps(12));
  ASSERT_TRUE(d->fragment);
  EXPECT_EQ(toHex(*d->fragment), "0603070108");
}

TEST(MirccRateField, EncodeAndDecodeOnNackWithOtherFields)
{
  Buffer interest = hex("0503 0701 08");
  LpPacket p;
  p.pitToken = PitToken{1, {0xab}};
  p.nack = 50; // Congestion
  p.congestionMark = 1;
  p.bundle = BundleHeader{3, 3, 0};
  p.mirccRate = Rate::kbps(800);
  p.fragment = ByteSpan(interest);
  SharedBuffer wire = encode(p);
  // fields in increasing type order; MirccRate (888) after BundleHeader (884), Fragment last
  EXPECT_EQ(toHex(*wire), toHex(lpPacket("6201 ab fd0320 05 fd0321 01 32 fd0340 01 01 "
                                         "fd0374 0a fd0375 01 03 fd0376 01 03 fd0378 04 000c3500 5005 0503070108")));
  auto d = decodeFrame(*wire);
  ASSERT_TRUE(d.ok()) << reasonName(d.error().code);
  EXPECT_EQ(d->nack, 50u);
  EXPECT_EQ(d->congestionMark, 1u);
  EXPECT_EQ(d->bundle, p.bundle);
  EXPECT_EQ(d->mirccRate, Rate::kbps(800));
}

TEST(MirccRateField, WireValueIsWholeBitsPerSecondRoundedDown)
{
  EXPECT_EQ(toWireRate(Rate::bitsPerSecond(999999.9)), 999999u);
  EXPECT_EQ(toWireRate(Rate::bitsPerSecond(0.5)), 0u);
  EXPECT_EQ(toWireRate(Rate()), 0u);
  EXPECT_EQ(toWireRate(Rate::bitsPerSecond(-3)), 0u);
  EXPECT_EQ(toWireRate(Rate::bitsPerSecond(std::numeric_limits<double>::quiet_NaN())), 0u);
  EXPECT_EQ(toWireRate(Rate::bitsPerSecond(1e30)), UINT64_MAX);
  EXPECT_EQ(toWireRate(Rate::bitsPerSecond(std::numeric_limits<double>::infinity())), UINT64_MAX);
  EXPECT_EQ(toWireRate(Rate::gbps(100)), 100'000'000'000u);
  EXPECT_EQ(fromWireRate(100'000'000'000u), Rate::gbps(100));

  // a zero rate is a valid field (one octet 0), distinct from no field
  LpPacket p;
  Buffer data = hex("0600");
  p.mirccRate = Rate();
  p.fragment = ByteSpan(data);
  EXPECT_EQ(toHex(*encode(p)), toHex(lpPacket("fd0378 01 00 5002 0600")));
  auto d = decodeFrame(*encode(p));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->mirccRate, Rate());
  // the largest value decodes and re-encodes unchanged (saturation, no wrap)
  auto big = decodeFrame(lpPacket("fd0378 08 ffffffffffffffff 5002 0600"));
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(toWireRate(*big->mirccRate), UINT64_MAX);
}

TEST(MirccRateField, ValidatesValueAndPlace)
{
  auto code = [](std::string_view fields) {
    auto d = decodeFrame(lpPacket(std::string(fields) + " 5002 0600"));
    return d.ok() ? std::optional<LpErrc>() : std::optional<LpErrc>(d.error().code);
  };
  EXPECT_EQ(code("fd0378 00"), LpErrc::BadFieldValue);        // empty
  EXPECT_EQ(code("fd0378 03 000001"), LpErrc::BadFieldValue); // not 1, 2, 4 or 8 octets
  EXPECT_EQ(code("fd0378 01 05 fd0378 01 05"), LpErrc::FieldRepeated);
  EXPECT_EQ(code("fd0378 01 05 fd0374 0a fd0375 01 03 fd0376 01 03"), LpErrc::FieldOutOfOrder);
  EXPECT_EQ(code("fd0378 02 0100"), std::nullopt);
  // nothing may follow Fragment
  EXPECT_EQ(decodeFrame(lpPacket("5002 0600 fd0378 01 05")).error().code, LpErrc::FieldOutOfOrder);
}

TEST(MirccRateField, LegacyDecoderView)
{
  // What a receiver that does not know MirccRate does (NFD, ndn-cxx, NDNts, python-ndn):
  // every field it does not know is in the ignorable range, so it skips the field and reads
  // the Data and the Nack as if the field were absent.
  for (const char* fields : {"fd0340 01 01 fd0378 04 00b71b00 5002 0600",               // Data
                             "fd0320 05 fd0321 01 32 fd0378 02 0100 5004 0502 0700"}) { // Nack
    SCOPED_TRACE(fields);
    int ignored = 0;
    for (uint32_t type : lpElementTypes(lpPacket(fields))) {
      bool legacyKnows = type == tlv::Fragment || type == tlv::CongestionMark || type == tlv::LpNack;
      if (!legacyKnows) {
        EXPECT_TRUE(canIgnoreUnknownField(type)) << type;
        ++ignored;
      }
    }
    EXPECT_EQ(ignored, 1);
  }
}

} // namespace
} // namespace ndnlab::lp
