#include "core/security/signer.hpp"

#include <gtest/gtest.h>

namespace ndnlab::security {
namespace {

Data makeData()
{
  Data d(Name("/a/b/seg=0"));
  const char content[] = "hello";
  d.setContent(asBytes(content));
  d.setFreshnessPeriod(std::chrono::seconds(1));
  return d;
}

/// Encodes, decodes and returns the decoded copy, so verification runs on wire bytes.
Data roundTrip(const Data& d)
{
  auto r = Data::decode(ByteSpan(*d.wireEncode()));
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

/// Flips one bit of the encoded Data at `offsetFromEnd` and decodes it again.
std::optional<Data> tamper(const Data& d, size_t offset)
{
  Buffer wire = *d.wireEncode();
  wire.at(offset) ^= 0x01;
  auto r = Data::decode(ByteSpan(wire));
  if (!r)
    return std::nullopt;
  return std::move(r).value();
}

TEST(Signer, DigestRoundTrip)
{
  Data d = makeData();
  DigestSigner signer;
  signData(d, signer);
  EXPECT_EQ(d.signatureInfo().type, 0u);
  EXPECT_FALSE(d.signatureInfo().keyLocator.has_value());
  EXPECT_EQ(d.signatureValue().size(), 32u);

  Data decoded = roundTrip(d);
  EXPECT_TRUE(verifyData(decoded, DigestVerifier()));
  EXPECT_FALSE(verifyData(decoded, NullVerifier()));
  EXPECT_FALSE(verifyData(decoded, HmacVerifier(Buffer(32, 1))));

  // Flip a content byte: the digest no longer matches.
  Buffer wire = *d.wireEncode();
  size_t contentPos = std::string_view(reinterpret_cast<const char*>(wire.data()), wire.size()).find("hello");
  ASSERT_NE(contentPos, std::string_view::npos);
  auto bad = tamper(d, contentPos);
  ASSERT_TRUE(bad);
  EXPECT_FALSE(verifyData(*bad, DigestVerifier()));
}

TEST(Signer, HmacRoundTrip)
{
  Buffer key(32, 0x5a);
  HmacSigner signer(key, Name("/key/hmac"));
  Data d = makeData();
  signData(d, signer);
  EXPECT_EQ(d.signatureInfo().type, 4u);
  ASSERT_TRUE(d.signatureInfo().keyLocator.has_value());
  EXPECT_EQ(std::get<Name>(*d.signatureInfo().keyLocator), Name("/key/hmac"));

  Data decoded = roundTrip(d);
  EXPECT_TRUE(verifyData(decoded, HmacVerifier(key)));
  EXPECT_TRUE(verifyData(decoded, HmacVerifier(key, Name("/key/hmac"))));
  EXPECT_FALSE(verifyData(decoded, HmacVerifier(key, Name("/key/other"))));
  Buffer wrongKey = key;
  wrongKey[0] ^= 1;
  EXPECT_FALSE(verifyData(decoded, HmacVerifier(wrongKey)));
  EXPECT_FALSE(verifyData(decoded, DigestVerifier()));

  // The MAC equals HMAC-SHA256 over the Data's signed portion (Name..SignatureInfo).
  auto expected = hmacSha256(key, decoded.signedPortion());
  EXPECT_EQ(toHex(decoded.signatureValue()), toHex(expected));

  EXPECT_THROW(HmacSigner(Buffer{}, Name("/k")), std::invalid_argument);
}

TEST(Signer, EcdsaRoundTrip)
{
  EcKey key = EcKey::generate();
  EcdsaSigner byName(key, Name("/alice/KEY/1"));
  EcdsaSigner byDigest(key);

  Data d = makeData();
  signData(d, byName);
  EXPECT_EQ(d.signatureInfo().type, 3u);
  Data decoded = roundTrip(d);
  EXPECT_TRUE(verifyData(decoded, EcdsaVerifier(key)));
  EXPECT_TRUE(verifyData(decoded, EcdsaVerifier(key.publicKey(), KeyLocator(Name("/alice/KEY/1")))));
  EXPECT_FALSE(verifyData(decoded, EcdsaVerifier(key, KeyLocator(Name("/bob/KEY/1")))));
  EXPECT_FALSE(verifyData(decoded, EcdsaVerifier(EcKey::generate())));

  Data d2 = makeData();
  signData(d2, byDigest);
  Data decoded2 = roundTrip(d2);
  ASSERT_TRUE(decoded2.signatureInfo().keyLocator.has_value());
  EXPECT_EQ(std::get<KeyDigest>(*decoded2.signatureInfo().keyLocator), key.keyDigest());
  EXPECT_TRUE(verifyData(decoded2, EcdsaVerifier(key, KeyLocator(key.keyDigest()))));

  // Tamper with the name: signature fails.
  Buffer wire = *d.wireEncode();
  size_t pos = std::string_view(reinterpret_cast<const char*>(wire.data()), wire.size()).find('a');
  auto bad = tamper(d, pos);
  ASSERT_TRUE(bad);
  EXPECT_FALSE(verifyData(*bad, EcdsaVerifier(key)));

  EXPECT_THROW(EcdsaSigner(key.publicKey()), std::invalid_argument);
}

TEST(Signer, NullSignature)
{
  Data d = makeData();
  signData(d, NullSigner());
  Data decoded = roundTrip(d);
  EXPECT_EQ(decoded.signatureInfo().type, 200u);
  EXPECT_TRUE(decoded.signatureValue().empty());
  EXPECT_TRUE(verifyData(decoded, NullVerifier()));
  EXPECT_FALSE(verifyData(decoded, DigestVerifier()));
  EXPECT_TRUE(verifyData(decoded, AcceptAllVerifier()));
}

} // namespace
} // namespace ndnlab::security
