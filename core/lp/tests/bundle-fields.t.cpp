// The BLEnD NDNLPv2 fields: BundleTag (880) and BundleHeader (884). Wire form, order with the
// other fields, validation, and that a legacy receiver may ignore them (type in [800, 959],
// type % 4 == 0).

#include "core/lp/packet.hpp"

#include "core/codec/tests/test-helpers.hpp"

#include <gtest/gtest.h>

namespace ndnlab::lp {
namespace {

using ndnlab::test::hex;
using ndnlab::test::lpElementTypes;
using ndnlab::test::lpPacket;

TEST(BundleFields, NumbersAreIgnorableByLegacyReceivers)
{
  EXPECT_TRUE(canIgnoreUnknownField(tlv::BundleTag));
  EXPECT_TRUE(canIgnoreUnknownField(tlv::BundleHeader));
  EXPECT_TRUE(isKnownHeaderField(tlv::BundleTag));
  EXPECT_TRUE(isKnownHeaderField(tlv::BundleHeader));
  EXPECT_FALSE(isKnownHeaderField(tlv::BundleStartSeq)); // inner element only
}

TEST(BundleFields, EncodeAndDecode)
{
  Buffer payload = hex("0503 0701 08");
  struct Case
  {
    const char* name;
    std::optional<BundleTag> tag;
    std::optional<BundleHeader> header;
    const char* fieldsHex;
  } cases[] = {
    {"Tag", BundleTag{false, 15}, std::nullopt, "fd0370 05 fd0372 01 0f"},
    {"TagRetx", BundleTag{true, 300}, std::nullopt, "fd0370 0a fd0371 00 fd0372 02 012c"},
    {"Header", std::nullopt, BundleHeader{15, 29, 0xA1B2C3D4},
     "fd0374 12 fd0375 01 0f fd0376 01 1d fd0377 04 a1b2c3d4"},
    {"HeaderNoFlow", std::nullopt, BundleHeader{7, 7, 0}, "fd0374 0a fd0375 01 07 fd0376 01 07"},
    {"Both", BundleTag{false, 2}, BundleHeader{0, 1, 5},
     "fd0370 05 fd0372 01 02 fd0374 0f fd0375 01 00 fd0376 01 01 fd0377 01 05"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    LpPacket p;
    p.bundleTag = c.tag;
    p.bundle = c.header;
    p.fragment = ByteSpan(payload);
    EXPECT_TRUE(p.hasHeaderFields());
    SharedBuffer wire = encode(p);
    EXPECT_EQ(toHex(*wire), toHex(lpPacket(std::string(c.fieldsHex) + " 5005 0503070108")));
    EXPECT_EQ(encodedSize(p), wire->size());
    auto d = decodeFrame(*wire);
    ASSERT_TRUE(d.ok()) << reasonName(d.error().code);
    EXPECT_EQ(d->bundleTag, c.tag);
    EXPECT_EQ(d->bundle, c.header);
  }
}

TEST(BundleFields, ComeAfterTheStandardFieldsAndBeforeFragment)
{
  LpPacket p;
  Buffer payload = hex("0500");
  p.pitToken = PitToken{1, {0xab}};
  p.congestionMark = 1;
  p.prefixAnnouncement = Buffer{0x06, 0x00};
  p.bundleTag = BundleTag{true, 1};
  p.bundle = BundleHeader{3, 3, 0};
  p.fragment = ByteSpan(payload);
  auto d = decodeFrame(*encode(p));
  ASSERT_TRUE(d.ok()) << reasonName(d.error().code);
  EXPECT_EQ(d->bundle, p.bundle);
  EXPECT_EQ(d->congestionMark, p.congestionMark);
  // out of order: BundleHeader before CongestionMark
  EXPECT_EQ(decodeFrame(lpPacket("fd0374 0a fd0375 01 03 fd0376 01 03 fd0340 01 01 5002 0500")).error().code,
            LpErrc::FieldOutOfOrder);
  // repeated
  EXPECT_EQ(decodeFrame(lpPacket("fd0370 05 fd0372 01 01 fd0370 05 fd0372 01 01 5002 0500")).error().code,
            LpErrc::FieldRepeated);
}

TEST(BundleFields, ValidatesValues)
{
  auto code = [](std::string_view fields) {
    auto d = decodeFrame(lpPacket(std::string(fields) + " 5002 0500"));
    return d.ok() ? std::optional<LpErrc>() : std::optional<LpErrc>(d.error().code);
  };
  EXPECT_EQ(code("fd0370 00"), LpErrc::BadFieldValue);                           // no Cwnd
  EXPECT_EQ(code("fd0370 07 fd0372 03 000001"), LpErrc::BadFieldValue);          // bad NNI
  EXPECT_EQ(code("fd0374 05 fd0375 01 03"), LpErrc::BadFieldValue);              // no EndSeq
  EXPECT_EQ(code("fd0374 0a fd0375 01 05 fd0376 01 04"), LpErrc::BadFieldValue); // ES < SS
  EXPECT_EQ(code("fd0374 16 fd0375 01 05 fd0376 01 05 fd0377 08 0000000100000000"),
            LpErrc::BadFieldValue);                           // flow above 32 bits
  EXPECT_EQ(code("fd0374 03 fd0375"), LpErrc::BadFieldValue); // truncated inner
  EXPECT_EQ(code("fd0374 0a fd0375 01 05 fd0376 01 09"), std::nullopt);
  // unknown inner elements are skipped; a huge Cwnd saturates
  auto d = decodeFrame(lpPacket("fd0370 11 fd0372 08 00000001ffffffff fd03a0 01 00 5002 0500"));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->bundleTag->cwnd, UINT32_MAX);
  EXPECT_FALSE(d->bundleTag->retransmission);
}

TEST(BundleFields, LegacyDecoderView)
{
  // What a receiver that knows none of ndnlab's fields does: skip them (ignorable range).
  Buffer frame = lpPacket("fd0340 01 01 fd0370 05 fd0372 01 0f fd0374 0a fd0375 01 00 fd0376 01 0e 5002 0500");
  int ignored = 0;
  for (uint32_t type : lpElementTypes(frame)) {
    if (type != tlv::Fragment && type != tlv::CongestionMark) {
      EXPECT_TRUE(canIgnoreUnknownField(type)) << type;
      ++ignored;
    }
  }
  EXPECT_EQ(ignored, 2);
}

} // namespace
} // namespace ndnlab::lp
