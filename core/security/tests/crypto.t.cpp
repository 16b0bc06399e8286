#include "core/security/crypto.hpp"

#include <gtest/gtest.h>

namespace ndnlab::security {
namespace {

Buffer hex(std::string_view h)
{
  Buffer b;
  EXPECT_TRUE(fromHex(h, b));
  return b;
}

TEST(Hmac, Rfc4231Case2)
{
  // RFC 4231 section 4.3: Key = "Jefe", Data = "what do ya want for nothing?".
  auto mac = hmacSha256(asBytes("Jefe"), asBytes("what do ya want for nothing?"));
  EXPECT_EQ(toHex(mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(Hmac, Rfc4231Case1)
{
  // RFC 4231 section 4.2: 20 octets of 0x0b, Data = "Hi There".
  Buffer key(20, 0x0b);
  auto mac = hmacSha256(key, asBytes("Hi There"));
  EXPECT_EQ(toHex(mac), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

TEST(Hmac, EmptyKeyAndData)
{
  // HMAC-SHA256("", "") is a well-known constant.
  auto mac = hmacSha256({}, {});
  EXPECT_EQ(toHex(mac), "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
}

TEST(ConstantTimeEqual, Basics)
{
  Buffer a = hex("0102"), b = hex("0102"), c = hex("0103"), d = hex("01");
  EXPECT_TRUE(constantTimeEqual(a, b));
  EXPECT_FALSE(constantTimeEqual(a, c));
  EXPECT_FALSE(constantTimeEqual(a, d));
  EXPECT_TRUE(constantTimeEqual({}, {}));
}

TEST(EcKey, SignVerifyRoundTrip)
{
  EcKey key = EcKey::generate();
  ASSERT_TRUE(key.hasPrivateKey());
  Buffer msg(100, 0x42);
  Buffer sig = key.sign(msg);
  EXPECT_LE(sig.size(), 72u);
  EXPECT_EQ(sig[0], 0x30); // DER SEQUENCE
  EXPECT_TRUE(key.verify(msg, sig));
  EXPECT_TRUE(key.publicKey().verify(msg, sig));
  EXPECT_FALSE(key.publicKey().hasPrivateKey());

  Buffer tampered = msg;
  tampered[5] ^= 1;
  EXPECT_FALSE(key.verify(tampered, sig));
  Buffer badSig = sig;
  badSig.back() ^= 1;
  EXPECT_FALSE(key.verify(msg, badSig));
  EXPECT_FALSE(key.verify(msg, {}));

  EcKey other = EcKey::generate();
  EXPECT_FALSE(other.verify(msg, sig));
}

TEST(EcKey, ImportExportDer)
{
  EcKey key = EcKey::generate();
  Buffer priv = key.privateDer();
  Buffer pub = key.publicDer();

  auto k2 = EcKey::fromPrivateDer(priv);
  ASSERT_TRUE(k2) << k2.error();
  EXPECT_TRUE(k2->hasPrivateKey());
  EXPECT_EQ(k2->publicDer(), pub);

  auto p2 = EcKey::fromPublicDer(pub);
  ASSERT_TRUE(p2) << p2.error();
  EXPECT_FALSE(p2->hasPrivateKey());
  Buffer msg = hex("00112233");
  EXPECT_TRUE(p2->verify(msg, k2->sign(msg)));

  // SPKI for P-256 is 91 octets; KeyDigest is its SHA-256.
  EXPECT_EQ(pub.size(), 91u);
  EXPECT_EQ(key.keyDigest().bytes.size(), 32u);
  EXPECT_EQ(key.keyDigest(), p2->keyDigest());
  EXPECT_NE(key.keyDigest(), EcKey::generate().keyDigest());
}

TEST(EcKey, ImportExportPem)
{
  EcKey key = EcKey::generate();
  std::string priv = key.privatePem();
  std::string pub = key.publicPem();
  EXPECT_NE(priv.find("BEGIN PRIVATE KEY"), std::string::npos);
  EXPECT_NE(pub.find("BEGIN PUBLIC KEY"), std::string::npos);

  auto k2 = EcKey::fromPrivatePem(priv);
  ASSERT_TRUE(k2) << k2.error();
  auto p2 = EcKey::fromPublicPem(pub);
  ASSERT_TRUE(p2) << p2.error();
  EXPECT_EQ(k2->publicDer(), key.publicDer());
  EXPECT_EQ(p2->publicDer(), key.publicDer());
}

TEST(EcKey, KnownPublicKeyDigest)
{
  // A fixed P-256 public key made with `openssl ecparam -name prime256v1 -genkey`; the expected
  // digest is `openssl ec -pubout -outform DER | sha256sum` of the same key.
  const char* pem = "-----BEGIN PUBLIC KEY-----\n"
                    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEOGemiqsA5NB3VLChJ6S+vULNnx5e\n"
                    "dHIXALxnMQh4smQ3wCsH85V/Es/ytAQvsQd6LfAiTIvOzinKmAermAV6Zw==\n"
                    "-----END PUBLIC KEY-----\n";
  auto k = EcKey::fromPublicPem(pem);
  ASSERT_TRUE(k) << k.error();
  EXPECT_EQ(k->publicDer().size(), 91u);
  EXPECT_EQ(toHex(k->keyDigest().bytes), "556deffca6774793c9f1d7265685be61ec57dda213ea04829ace8fcb213d5a98");
}

TEST(EcKey, RejectsGarbageAndOtherCurves)
{
  EXPECT_FALSE(EcKey::fromPrivateDer(hex("300100")));
  EXPECT_FALSE(EcKey::fromPublicDer({}));
  EXPECT_FALSE(EcKey::fromPublicPem("not a pem"));
  EXPECT_FALSE(EcKey::fromPrivatePem(""));
  // secp384r1 public key (SPKI) must be rejected: only P-256 is supported.
  const char* p384 = "-----BEGIN PUBLIC KEY-----\n"
                     "MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEKozkD3o9QWECf3MszA7Hj/ivGVle0FGC\n"
                     "KprRqAGqHLoAA3Y9RgVIXuw0mIh8n3ybRTDLFo0Tfpaf3yQ5DW6PQWsrGUnRaoWr\n"
                     "gsZxws0bZwEqUGchylsT6v7oafElXBlv\n"
                     "-----END PUBLIC KEY-----\n";
  auto r = EcKey::fromPublicPem(p384);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("not P-256"), std::string::npos) << r.error();
  // Trailing garbage after a valid DER is rejected.
  Buffer der = EcKey::generate().publicDer();
  der.push_back(0);
  EXPECT_FALSE(EcKey::fromPublicDer(der));
}

} // namespace
} // namespace ndnlab::security
