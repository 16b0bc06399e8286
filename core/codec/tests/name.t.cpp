#include "core/codec/name.hpp"
#include "core/codec/tests/test-helpers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

namespace ndnlab {
namespace {

using test::hex;

const std::string kDigestHex = "28bad4b5275bd392dbb670c75cf0b66f13f7942b21e80f55c0e86b374753a548";

TEST(Name, BuildsTypedComponents)
{
  Name n;
  n.append("a")
    .appendSegment(3)
    .appendByteOffset(300)
    .appendVersion(1)
    .appendTimestamp(0x10000)
    .appendSequenceNumber(0x100000000ULL)
    .appendKeyword("metadata")
    .appendImplicitDigest(hex(kDigestHex))
    .appendParamsDigest(hex(kDigestHex))
    .append(0x1234, asBytes("x"));
  ASSERT_EQ(n.size(), 10u);
  EXPECT_TRUE(n[0].isGeneric());
  EXPECT_TRUE(n[1].isSegment());
  EXPECT_EQ(n[1].toNumber(), 3u);
  EXPECT_TRUE(n[2].isByteOffset());
  EXPECT_EQ(n[2].toNumber(), 300u);
  EXPECT_TRUE(n[3].isVersion());
  EXPECT_TRUE(n[4].isTimestamp());
  EXPECT_EQ(n[4].toNumber(), 0x10000u);
  EXPECT_TRUE(n[5].isSequenceNumber());
  EXPECT_EQ(n[5].toNumber(), 0x100000000ULL);
  EXPECT_TRUE(n[6].isKeyword("metadata"));
  EXPECT_FALSE(n[6].isKeyword("metadat"));
  EXPECT_TRUE(n[7].isImplicitDigest());
  EXPECT_TRUE(n[8].isParamsDigest());
  EXPECT_EQ(n[9].type(), 0x1234u);
  EXPECT_EQ(n[-1].type(), 0x1234u);
  EXPECT_TRUE(n[-10].isGeneric());
  EXPECT_EQ(n.toUri(), "/a/seg=3/off=300/v=1/t=65536/seq=4294967296/32=metadata/sha256digest=" + kDigestHex +
                         "/params-sha256=" + kDigestHex + "/4660=x");
  EXPECT_EQ(Name(n.toUri()), n);
}

TEST(Name, WireEncodingAndDecode)
{
  Name n("/a/seg=256");
  EXPECT_EQ(toHex(n.wireEncode()), "0707"
                                   "080161"
                                   "32020100");
  EXPECT_EQ(n.wireSize(), 9u);
  auto d = Name::decode(n.wireEncode());
  ASSERT_TRUE(d);
  EXPECT_EQ(*d, n);
  EXPECT_EQ(toHex(n[1].wire()), "32020100");
  EXPECT_EQ(toHex(n[1].value()), "0100");

  auto empty = Name::decode(hex("0700"));
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  EXPECT_EQ(empty->toUri(), "/");
}

TEST(Name, DecodeRejectsInvalidComponents)
{
  struct Case
  {
    const char* hex;
    DecodeErrc code;
  };
  const Case cases[] = {
    {"0703 000161", DecodeErrc::BadVarNumber},     // type 0
    {"0706 fe0001000000", DecodeErrc::BadName},    // type 65536
    {"0703 fd00fd", DecodeErrc::Truncated},        // type 253, missing length
    {"0705 fd00080100", DecodeErrc::BadVarNumber}, // non-minimal type 8
    {"0703 010161", DecodeErrc::BadName},          // implicit digest of 1 octet
    {"0703 020161", DecodeErrc::BadName},          // params digest of 1 octet
    {"0703 080561", DecodeErrc::BadLength},        // component longer than the name
    {"0803 080161", DecodeErrc::UnexpectedType},   // not a Name
    {"0703 080161 00", DecodeErrc::TrailingBytes},
  };
  for (const auto& c : cases) {
    auto r = Name::decode(hex(c.hex));
    ASSERT_FALSE(r) << c.hex;
    EXPECT_EQ(r.error().code, c.code) << c.hex << " got " << reasonName(r.error().code);
  }
  // Types up to 65535 are fine, including unassigned ones.
  auto ok = Name::decode(hex("0704 fdffff00"));
  ASSERT_TRUE(ok);
  EXPECT_EQ((*ok)[0].type(), 65535u);
  EXPECT_EQ(ok->toUri(), "/65535=...");
}

TEST(NameUri, GenericEscaping)
{
  EXPECT_EQ(Name("/hello/world").toUri(), "/hello/world");
  Name n;
  n.append(std::string_view("a b/c=%\x01\xff~-._", 13));
  EXPECT_EQ(n.toUri(), "/a%20b%2Fc%3D%25%01%FF~-._");
  EXPECT_EQ(Name(n.toUri()), n);
  // Lowercase hex decodes too.
  EXPECT_EQ(Name("/a%2fb"), Name().append("a/b"));
}

TEST(NameUri, PeriodOnlyComponents)
{
  Name n;
  n.append("").append(".").append("..").append("...").append(".a");
  EXPECT_EQ(n.toUri(), "/.../..../...../....../.a");
  EXPECT_EQ(Name(n.toUri()), n);
  EXPECT_EQ(Name("/...")[0].value().size(), 0u);
  EXPECT_EQ(Name("/8=....")[0].toUri(), "....");
  EXPECT_FALSE(Name::parse("/."));
  EXPECT_FALSE(Name::parse("/a/.."));
  EXPECT_FALSE(Name::parse("/seg=."));
}

TEST(NameUri, TypedForms)
{
  EXPECT_EQ(Name("/seg=0")[0].toUri(), "seg=0");
  EXPECT_EQ(Name("/off=5")[0].type(), tlv::ByteOffsetNameComponent);
  EXPECT_EQ(Name("/v=7")[0].type(), tlv::VersionNameComponent);
  EXPECT_EQ(Name("/t=9")[0].type(), tlv::TimestampNameComponent);
  EXPECT_EQ(Name("/seq=18446744073709551615")[0].toNumber(), UINT64_MAX);
  EXPECT_EQ(Name("/8=abc"), Name("/abc"));
  EXPECT_EQ(Name("/8=abc").toUri(), "/abc");
  EXPECT_EQ(Name("/32=metadata")[0].type(), tlv::KeywordNameComponent);
  EXPECT_EQ(Name("/50=%00").toUri(), "/seg=0");
  // A numeric-type component whose value is not a NonNegativeInteger prints as <type>=<value>.
  EXPECT_EQ(Name("/50=abc").toUri(), "/50=abc");
  EXPECT_EQ(Name("/54=%00%00%00").toUri(), "/54=%00%00%00");
  // Valid but non-shortest NonNegativeInteger: still a number, printed losslessly.
  EXPECT_EQ(Name("/50=%00%01")[0].toNumber(), 1u);
  EXPECT_TRUE(Name("/50=%00%01")[0].isSegment());
  EXPECT_EQ(Name("/50=%00%01").toUri(), "/50=%00%01");
  EXPECT_EQ(Name("/sha256digest=" + kDigestHex)[0].type(), tlv::ImplicitSha256DigestComponent);
  // Hex digits may be uppercase; printing is lowercase.
  std::string upper = kDigestHex;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  EXPECT_EQ(Name("/params-sha256=" + upper).toUri(), "/params-sha256=" + kDigestHex);
  EXPECT_EQ(Name("/1=" + std::string(32, 'a')).toUri(), "/sha256digest=" + toHex(asBytes(std::string(32, 'a'))));
  EXPECT_EQ(Name("/65535=x")[0].type(), 65535u);
  EXPECT_EQ(Name("/1000=x").toUri(), "/1000=x");
}

TEST(NameUri, RejectsBadInput)
{
  for (const char* bad :
       {"/seg=", "/seg=abc", "/seg=-1", "/seg=18446744073709551616", "/v=1.5", "/sha256digest=abcd",
        "/params-sha256="
        "zz",
        "/0=x", "/65536=x", "/01=x", "/foo=bar", "/a%2", "/a%zz", "/a//b", "/1=abc", "/2=", "http://x/a",
        "/sha256digest=28bad4b5275bd392dbb670c75cf0b66f13f7942b21e80f55c0e86b374753a54"}) {
    auto r = Name::parse(bad);
    EXPECT_FALSE(r) << bad;
    if (!r) {
      EXPECT_FALSE(r.error().empty());
    }
    EXPECT_THROW(Name{std::string_view(bad)}, std::invalid_argument) << bad;
  }
  try {
    Name("/seg=x");
    FAIL();
  }
  catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("seg=x"), std::string::npos) << e.what();
  }
}

TEST(NameUri, SchemeAuthorityAndSlashes)
{
  Name ab("/a/b");
  EXPECT_EQ(Name("ndn:/a/b"), ab);
  EXPECT_EQ(Name("ndn://authority/a/b"), ab);
  EXPECT_EQ(Name("ndn://authority"), Name());
  EXPECT_EQ(Name("a/b"), ab);
  EXPECT_EQ(Name("/a/b/"), ab);
  EXPECT_EQ(Name("/"), Name());
  EXPECT_EQ(Name(""), Name());
  EXPECT_EQ(Name("ndn:"), Name());
  // A colon after the first slash is part of a component (percent-encoded on output).
  EXPECT_EQ(Name("/a:b").toUri(), "/a%3Ab");
}

TEST(NameOrder, CanonicalOrder)
{
  // Type first, then length, then bytes.
  std::vector<Name> sorted = {
    Name(),           Name("/sha256digest=" + kDigestHex),
    Name("/8=..."),   Name("/a"),
    Name("/a/b"),     Name("/a/seg=0"),
    Name("/b"),       Name("/z"),
    Name("/aa"),      Name("/32=a"),
    Name("/seg=255"), Name("/seg=256"),
    Name("/252=x"),   Name("/253=x"),
    Name("/65535=x"),
  };
  for (size_t i = 0; i < sorted.size(); ++i) {
    for (size_t j = 0; j < sorted.size(); ++j) {
      int expected = i < j ? -1 : i > j ? 1 : 0;
      EXPECT_EQ(sorted[i].compare(sorted[j]), expected) << sorted[i] << " vs " << sorted[j];
    }
  }
  EXPECT_TRUE(Name("/a") < Name("/b"));
  EXPECT_TRUE(Name("/a") == Name("/8=a"));
}

TEST(NameOrder, ComponentCompare)
{
  Name n("/a/b/aa/32=a/seg=1");
  EXPECT_LT(n[0].compare(n[1]), 0);
  EXPECT_LT(n[1].compare(n[2]), 0); // shorter first
  EXPECT_LT(n[2].compare(n[3]), 0); // type 8 < 32
  EXPECT_GT(n[4].compare(n[3]), 0);
  EXPECT_EQ(n[0].compare(Name("/a")[0]), 0);
}

TEST(NamePrefix, GetPrefixAndIsPrefixOf)
{
  Name n("/a/b/c");
  EXPECT_EQ(n.getPrefix(0), Name());
  EXPECT_EQ(n.getPrefix(2), Name("/a/b"));
  EXPECT_EQ(n.getPrefix(10), n);
  EXPECT_EQ(n.getPrefix(-1), Name("/a/b"));
  EXPECT_EQ(n.getPrefix(-3), Name());
  EXPECT_EQ(n.getPrefix(-5), Name());
  EXPECT_EQ(n.getPrefix(2).size(), 2u);
  EXPECT_TRUE(Name().isPrefixOf(n));
  EXPECT_TRUE(Name("/a").isPrefixOf(n));
  EXPECT_TRUE(n.isPrefixOf(n));
  EXPECT_FALSE(Name("/a/c").isPrefixOf(n));
  EXPECT_FALSE(n.isPrefixOf(Name("/a/b")));
  // Byte prefix inside a component is not a component prefix.
  EXPECT_FALSE(Name("/a/b").isPrefixOf(Name("/a/bc")));
  EXPECT_FALSE(Name("/ab").isPrefixOf(Name("/a")));
  // Appending to a prefix keeps offsets consistent.
  Name p = n.getPrefix(1);
  p.append("x").appendSegment(1);
  EXPECT_EQ(p.toUri(), "/a/x/seg=1");
  Name q("/q");
  q.append(n);
  EXPECT_EQ(q.toUri(), "/q/a/b/c");
  EXPECT_EQ(q[-1].toUri(), "c");
  Name r;
  r.append(n[1]);
  EXPECT_EQ(r, Name("/b"));
}

TEST(NameHash, ConsistentWithEqualityAndPrefixes)
{
  Name n("/a/b/c/seg=1");
  EXPECT_EQ(n.hash(), Name("/a/b/c/seg=1").hash());
  EXPECT_NE(n.hash(), Name("/a/b/c/seg=2").hash());
  std::vector<size_t> all;
  n.prefixHashes(all);
  ASSERT_EQ(all.size(), n.size() + 1);
  for (size_t i = 0; i <= n.size(); ++i) {
    EXPECT_EQ(n.hashPrefix(i), n.getPrefix(static_cast<ptrdiff_t>(i)).hash()) << i;
    EXPECT_EQ(all[i], n.hashPrefix(i)) << i;
    EXPECT_EQ(Name::hashValue(n.prefixValue(i)), n.hashPrefix(i)) << i;
  }
  EXPECT_EQ(n.hashPrefix(99), n.hash());
  EXPECT_EQ(Name().hash(), Name("/").hash());
  // Component boundaries matter: /ab and /a/b differ.
  EXPECT_NE(Name("/ab").hash(), Name("/a/b").hash());
  std::unordered_set<Name, NameHash> set;
  for (int i = 0; i < 1000; ++i)
    set.insert(Name("/p").appendSequenceNumber(static_cast<uint64_t>(i)));
  EXPECT_EQ(set.size(), 1000u);
  std::unordered_set<size_t> hashes;
  for (const auto& x : set)
    hashes.insert(x.hash());
  EXPECT_GE(hashes.size(), 999u);
}

TEST(Name, StreamOutput)
{
  std::ostringstream os;
  os << Name("/a/v=3");
  EXPECT_EQ(os.str(), "/a/v=3");
}

} // namespace
} // namespace ndnlab
