#include "core/codec/tlv.hpp"
#include "core/codec/tests/test-helpers.hpp"

#include <gtest/gtest.h>

namespace ndnlab {
namespace {

using test::hex;

std::string encodeVar(uint64_t n)
{
  Buffer b;
  appendVarNumber(b, n);
  EXPECT_EQ(b.size(), varNumberSize(n));
  return toHex(b);
}

TEST(VarNumber, EncodesShortestFormAtBoundaries)
{
  EXPECT_EQ(encodeVar(0), "00");
  EXPECT_EQ(encodeVar(252), "fc");
  EXPECT_EQ(encodeVar(253), "fd00fd");
  EXPECT_EQ(encodeVar(1024), "fd0400");
  EXPECT_EQ(encodeVar(65535), "fdffff");
  EXPECT_EQ(encodeVar(65536), "fe00010000");
  EXPECT_EQ(encodeVar(0xFFFFFFFFULL), "feffffffff");
  EXPECT_EQ(encodeVar(0x100000000ULL), "ff0000000100000000");
  EXPECT_EQ(encodeVar(UINT64_MAX), "ffffffffffffffffff");
}

DecodeResult<uint64_t> decodeVar(std::string_view h, size_t expectedPos)
{
  Buffer b = hex(h);
  size_t pos = 0;
  auto r = readVarNumber(b, pos);
  if (r)
    EXPECT_EQ(pos, expectedPos);
  else
    EXPECT_EQ(pos, 0u) << "position must not advance on failure";
  return r;
}

TEST(VarNumber, DecodesEveryForm)
{
  EXPECT_EQ(*decodeVar("fc", 1), 252u);
  EXPECT_EQ(*decodeVar("fd00fd", 3), 253u);
  EXPECT_EQ(*decodeVar("fdffff", 3), 65535u);
  EXPECT_EQ(*decodeVar("fe00010000", 5), 65536u);
  EXPECT_EQ(*decodeVar("feffffffff", 5), 0xFFFFFFFFULL);
  EXPECT_EQ(*decodeVar("ff0000000100000000", 9), 0x100000000ULL);
}

TEST(VarNumber, RejectsNonMinimalForms)
{
  for (auto h : {"fd0000", "fd00fc", "fe00000000", "fe0000ffff", "ff0000000000000000", "ff00000000ffffffff"}) {
    auto r = decodeVar(h, 0);
    ASSERT_FALSE(r) << h;
    EXPECT_EQ(r.error().code, DecodeErrc::BadVarNumber) << h;
  }
}

TEST(VarNumber, RejectsTruncated)
{
  for (auto h : {"", "fd", "fd01", "fe000100", "ff00000001000000"}) {
    auto r = decodeVar(h, 0);
    ASSERT_FALSE(r) << h;
    EXPECT_EQ(r.error().code, DecodeErrc::Truncated) << h;
  }
}

TEST(NonNegInt, EncodesOneTwoFourEightOctets)
{
  auto enc = [](uint64_t n) {
    Buffer b;
    appendNonNegInt(b, n);
    EXPECT_EQ(b.size(), nonNegIntSize(n));
    return toHex(b);
  };
  EXPECT_EQ(enc(0), "00");
  EXPECT_EQ(enc(255), "ff");
  EXPECT_EQ(enc(256), "0100");
  EXPECT_EQ(enc(65535), "ffff");
  EXPECT_EQ(enc(65536), "00010000");
  EXPECT_EQ(enc(0xFFFFFFFFULL), "ffffffff");
  EXPECT_EQ(enc(0x100000000ULL), "0000000100000000");
}

TEST(NonNegInt, DecodesValidLengthsAndRejectsOthers)
{
  EXPECT_EQ(*readNonNegInt(hex("07")), 7u);
  EXPECT_EQ(*readNonNegInt(hex("0100")), 256u);
  EXPECT_EQ(*readNonNegInt(hex("00010000")), 65536u);
  EXPECT_EQ(*readNonNegInt(hex("0000000100000000")), 0x100000000ULL);
  // Non-shortest but valid lengths are accepted (the spec only constrains the length).
  EXPECT_EQ(*readNonNegInt(hex("0001")), 1u);
  for (auto h : {"", "000001", "0000000001", "000000000001", "00000000000001", "000000000000000001"}) {
    auto r = readNonNegInt(hex(h));
    ASSERT_FALSE(r) << h;
    EXPECT_EQ(r.error().code, DecodeErrc::BadNonNegInt) << h;
  }
  Element e{tlv::InterestLifetime, hex("000001"), {}};
  auto r = readNonNegInt(e);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().tlvType, tlv::InterestLifetime);
}

TEST(TlvReader, ReadsSequenceAndReportsErrors)
{
  Buffer b = hex("0801 61 fd0100 00 0a04 01020304");
  TlvReader r(b);
  auto a = r.next();
  ASSERT_TRUE(a);
  EXPECT_EQ(a->type, 8u);
  EXPECT_EQ(toHex(a->value), "61");
  EXPECT_EQ(toHex(a->wire), "080161");
  EXPECT_EQ(r.peekType(), 256u);
  auto c = r.next();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->type, 256u);
  EXPECT_TRUE(c->value.empty());
  auto d = r.next();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->type, 10u);
  EXPECT_TRUE(r.atEnd());
  EXPECT_EQ(r.peekType(), 0u);

  // Length beyond the input.
  Buffer bad = hex("0805 6162");
  TlvReader r2(bad);
  auto e = r2.next();
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().code, DecodeErrc::BadLength);
  EXPECT_EQ(e.error().tlvType, 8u);
  // Type 0 is invalid.
  Buffer zero = hex("0000");
  auto z = TlvReader(zero).next();
  ASSERT_FALSE(z);
  EXPECT_EQ(z.error().code, DecodeErrc::BadVarNumber);
  // Type larger than 2^32-1 is invalid.
  Buffer huge = hex("ff000000010000000000");
  ASSERT_FALSE(TlvReader(huge).next());
  // Truncated length.
  Buffer trunc = hex("08fd01");
  auto t = TlvReader(trunc).next();
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code, DecodeErrc::Truncated);
}

TEST(TlvReader, SingleTlvRejectsTrailingBytes)
{
  Buffer b = hex("0800 00");
  auto r = readSingleTlv(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, DecodeErrc::TrailingBytes);
  ASSERT_TRUE(readSingleTlv(hex("0800")));
}

TEST(Tlv, CriticalRule)
{
  EXPECT_TRUE(tlv::isCritical(1));
  EXPECT_TRUE(tlv::isCritical(30));
  EXPECT_TRUE(tlv::isCritical(31));
  EXPECT_FALSE(tlv::isCritical(32));
  EXPECT_TRUE(tlv::isCritical(33));
  EXPECT_FALSE(tlv::isCritical(34));
  EXPECT_FALSE(tlv::isCritical(252));
  EXPECT_TRUE(tlv::isCritical(253));
}

TEST(Tlv, ReasonNamesAreStable)
{
  EXPECT_EQ(reasonName(DecodeErrc::CriticalUnknown), "critical-unknown");
  EXPECT_EQ(reasonName(DecodeErrc::TrailingBytes), "trailing-bytes");
  EXPECT_EQ(reasonName(DecodeErrc::BadName), "bad-name");
}

TEST(Hex, RoundTrip)
{
  Buffer b;
  EXPECT_TRUE(fromHex("0A ff\n10", b));
  EXPECT_EQ(toHex(b), "0aff10");
  Buffer odd;
  EXPECT_FALSE(fromHex("abc", odd));
  Buffer bad;
  EXPECT_FALSE(fromHex("zz", bad));
}

} // namespace
} // namespace ndnlab
