#include "core/security/replay-checker.hpp"
#include "core/security/signed-interest.hpp"

#include "core/runtime/manual-env.hpp"

#include <gtest/gtest.h>

namespace ndnlab::security {
namespace {

Interest decodeWire(const Interest& i)
{
  auto r = Interest::decode(ByteSpan(*i.wireEncode()));
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

class SignedInterestTest : public ::testing::Test
{
protected:
  ManualEnv env;
  DigestSigner digest;
};

TEST_F(SignedInterestTest, StructureV03)
{
  InterestSigner signer(digest, env.clock(), env.rng());
  Interest i(Name("/localhost/nfd/rib/register"));
  signer.sign(i);
  Interest d = decodeWire(i);

  // Name ends with the params digest; ApplicationParameters is present and empty.
  ASSERT_EQ(d.name().size(), 5u);
  EXPECT_TRUE(d.name()[-1].isParamsDigest());
  EXPECT_TRUE(d.hasValidParamsDigest());
  ASSERT_TRUE(d.appParameters().has_value());
  EXPECT_TRUE(d.appParameters()->empty());

  ASSERT_TRUE(d.signatureInfo().has_value());
  const SignatureInfo& si = *d.signatureInfo();
  EXPECT_EQ(si.type, 0u);
  ASSERT_TRUE(si.nonce.has_value());
  EXPECT_EQ(si.nonce->size(), 8u);
  ASSERT_TRUE(si.time.has_value());
  EXPECT_EQ(*si.time, static_cast<uint64_t>(env.clock().unixNow().count()));
  EXPECT_FALSE(si.seqNum.has_value());
  ASSERT_TRUE(d.signatureValue().has_value());
  EXPECT_EQ(d.signatureValue()->size(), 32u);

  // The value is SHA-256 over name components without the digest + AppParams..SigInfo.
  Buffer portion;
  Name unsignedName("/localhost/nfd/rib/register");
  portion.assign(unsignedName.value().begin(), unsignedName.value().end());
  Buffer tail;
  appendTlv(tail, tlv::ApplicationParameters, {});
  si.encodeTo(tail, tlv::InterestSignatureInfo);
  portion.insert(portion.end(), tail.begin(), tail.end());
  EXPECT_EQ(d.signedPortion(), portion);
  auto expect = sha256(portion);
  EXPECT_EQ(toHex(*d.signatureValue()), toHex(expect));

  EXPECT_EQ(verifyInterest(d, DigestVerifier()), CheckResult::Ok);
}

TEST_F(SignedInterestTest, ExistingParametersAndDigestReplaced)
{
  Interest i(Name("/app/cmd"));
  i.setAppParameters(Buffer{1, 2, 3});
  ASSERT_TRUE(i.name()[-1].isParamsDigest());
  Name before = i.name();
  signInterest(i, digest, {Buffer(8, 7), 1234, 5});
  Interest d = decodeWire(i);
  // Exactly one digest, last, and the parameters were kept.
  EXPECT_EQ(d.name().size(), 3u);
  EXPECT_TRUE(d.name()[-1].isParamsDigest());
  EXPECT_NE(d.name(), before);
  EXPECT_EQ(*d.appParameters(), (Buffer{1, 2, 3}));
  EXPECT_EQ(d.signatureInfo()->seqNum, std::optional<uint64_t>(5));
  EXPECT_EQ(d.signatureInfo()->time, std::optional<uint64_t>(1234));
  EXPECT_EQ(verifyInterest(d, DigestVerifier()), CheckResult::Ok);
}

TEST_F(SignedInterestTest, HmacAndEcdsaWrongKeyFails)
{
  Buffer key(32, 9);
  HmacSigner hmac(key, Name("/k/hmac"));
  EcKey ec = EcKey::generate();
  EcdsaSigner ecdsa(ec, Name("/k/ec"));

  Interest a(Name("/x/y"));
  InterestSigner(hmac, env.clock(), env.rng()).sign(a);
  Interest da = decodeWire(a);
  EXPECT_EQ(verifyInterest(da, HmacVerifier(key)), CheckResult::Ok);
  EXPECT_EQ(verifyInterest(da, HmacVerifier(Buffer(32, 8))), CheckResult::BadSignature);
  EXPECT_EQ(verifyInterest(da, DigestVerifier()), CheckResult::BadSignature);

  Interest b(Name("/x/z"));
  InterestSigner(ecdsa, env.clock(), env.rng()).sign(b);
  Interest db = decodeWire(b);
  EXPECT_EQ(verifyInterest(db, EcdsaVerifier(ec)), CheckResult::Ok);
  EXPECT_EQ(verifyInterest(db, EcdsaVerifier(EcKey::generate())), CheckResult::BadSignature);
}

TEST_F(SignedInterestTest, TamperedFails)
{
  Buffer key(32, 3);
  HmacSigner hmac(key, Name("/k"));
  Interest i(Name("/p/q"));
  i.setAppParameters(Buffer{0xAA, 0xBB});
  InterestSigner(hmac, env.clock(), env.rng()).sign(i);
  Buffer wire = *i.wireEncode();

  // Change the ApplicationParameters value (digest now wrong).
  Buffer w1 = wire;
  const uint8_t params[] = {0x24, 0x02, 0xAA, 0xBB};
  auto pos = std::search(w1.begin(), w1.end(), std::begin(params), std::end(params));
  ASSERT_NE(pos, w1.end());
  pos[2] ^= 1;
  auto d1 = Interest::decode(ByteSpan(w1));
  ASSERT_TRUE(d1);
  EXPECT_EQ(verifyInterest(*d1, HmacVerifier(key)), CheckResult::BadParamsDigest);

  // Change a name component (the digest does not cover the name, the signature does).
  Buffer w2 = wire;
  auto p = std::find(w2.begin(), w2.end(), uint8_t('q'));
  ASSERT_NE(p, w2.end());
  *p = 'r';
  auto d2 = Interest::decode(ByteSpan(w2));
  ASSERT_TRUE(d2);
  EXPECT_EQ(verifyInterest(*d2, HmacVerifier(key)), CheckResult::BadSignature);

  // Unsigned Interest.
  Interest plain(Name("/p/q"));
  EXPECT_EQ(verifyInterest(plain, HmacVerifier(key)), CheckResult::NotSigned);
}

TEST_F(SignedInterestTest, SignatureTimeStrictlyIncreases)
{
  InterestSigner signer(digest, env.clock(), env.rng(), {.useSeqNum = true, .firstSeqNum = 10});
  Interest a(Name("/a")), b(Name("/a"));
  signer.sign(a);
  signer.sign(b); // same clock reading
  EXPECT_EQ(*b.signatureInfo()->time, *a.signatureInfo()->time + 1);
  EXPECT_EQ(*a.signatureInfo()->seqNum, 10u);
  EXPECT_EQ(*b.signatureInfo()->seqNum, 11u);
  EXPECT_NE(*a.signatureInfo()->nonce, *b.signatureInfo()->nonce);
}

TEST_F(SignedInterestTest, ReplayRejection)
{
  ReplayChecker checker(env.clock(), {.gracePeriod = std::chrono::seconds(60)});
  InterestSigner signer(digest, env.clock(), env.rng());

  Interest a(Name("/c"));
  signer.sign(a);
  const SignatureInfo sa = *a.signatureInfo();
  EXPECT_EQ(checker.checkAndRecord(sa), CheckResult::Ok);
  // Exact replay: the time is not newer.
  EXPECT_EQ(checker.check(sa), CheckResult::TimeReordered);

  // A replay of the nonce with a newer time is still rejected.
  SignatureInfo sameNonce = sa;
  *sameNonce.time += 5;
  EXPECT_EQ(checker.check(sameNonce), CheckResult::NonceReused);

  env.advance(std::chrono::seconds(1));
  Interest b(Name("/c"));
  signer.sign(b);
  EXPECT_EQ(checker.checkAndRecord(*b.signatureInfo()), CheckResult::Ok);

  // Outside the grace period, either side.
  SignatureInfo old = *b.signatureInfo();
  old.nonce = Buffer(8, 1);
  old.time = static_cast<uint64_t>(env.clock().unixNow().count()) - 61'000;
  EXPECT_EQ(checker.check(old), CheckResult::TimeOutOfGrace);
  old.time = static_cast<uint64_t>(env.clock().unixNow().count()) + 61'000;
  EXPECT_EQ(checker.check(old), CheckResult::TimeOutOfGrace);

  // No replay fields at all.
  EXPECT_EQ(checker.check(DigestSigner().info()), CheckResult::NoReplayFields);

  // A different key has its own record.
  SignatureInfo otherKey = sa;
  otherKey.keyLocator = Name("/other");
  EXPECT_EQ(checker.check(otherKey), CheckResult::Ok);

  // Sequence numbers must increase.
  SignatureInfo s1;
  s1.keyLocator = Name("/seq");
  s1.seqNum = 7;
  EXPECT_EQ(checker.checkAndRecord(s1), CheckResult::Ok);
  EXPECT_EQ(checker.check(s1), CheckResult::SeqNumReordered);
  s1.seqNum = 8;
  EXPECT_EQ(checker.check(s1), CheckResult::Ok);
}

TEST_F(SignedInterestTest, ReplayCheckerIsBounded)
{
  ReplayChecker checker(env.clock(),
                        {.maxRecords = 3, .recordLifetime = std::chrono::minutes(10), .maxNoncesPerKey = 2});
  auto mk = [](std::string key, uint8_t nonce) {
    SignatureInfo si;
    si.keyLocator = Name(key);
    si.nonce = Buffer(8, nonce);
    return si;
  };
  for (int k = 0; k < 10; ++k)
    EXPECT_EQ(checker.checkAndRecord(mk("/k" + std::to_string(k), 1)), CheckResult::Ok);
  EXPECT_EQ(checker.size(), 3u);
  // /k0 was evicted: its nonce is accepted again; /k9 still remembers.
  EXPECT_EQ(checker.check(mk("/k0", 1)), CheckResult::Ok);
  EXPECT_EQ(checker.check(mk("/k9", 1)), CheckResult::NonceReused);

  // Only the last two nonces per key are remembered.
  checker.record(mk("/k9", 2));
  checker.record(mk("/k9", 3));
  EXPECT_EQ(checker.check(mk("/k9", 1)), CheckResult::Ok);
  EXPECT_EQ(checker.check(mk("/k9", 3)), CheckResult::NonceReused);

  // Idle records expire.
  env.advance(std::chrono::minutes(11));
  EXPECT_EQ(checker.check(mk("/k9", 3)), CheckResult::Ok);
}

TEST_F(SignedInterestTest, LegacyCommandRoundTrip)
{
  InterestSigner signer(digest, env.clock(), env.rng());
  Name n = signer.makeLegacyCommandName(Name("/localhost/nfd/rib/register"));
  ASSERT_EQ(n.size(), 8u);

  auto cmd = parseLegacyCommand(n);
  ASSERT_TRUE(cmd);
  EXPECT_EQ(cmd->prefixSize, 4u);
  EXPECT_EQ(cmd->timestamp, static_cast<uint64_t>(env.clock().unixNow().count()));
  EXPECT_EQ(cmd->nonce.size(), 8u);
  EXPECT_EQ(cmd->sigInfo.type, 0u);
  EXPECT_EQ(cmd->sigValue.size(), 32u);
  // DigestSha256 over the components up to and including the SignatureInfo component.
  auto expect = sha256(n.getPrefix(-1).value());
  EXPECT_EQ(toHex(cmd->sigValue), toHex(expect));
  EXPECT_EQ(verifyLegacyCommand(n, DigestVerifier()), CheckResult::Ok);

  // Replay fields map onto the v0.3 checker.
  ReplayChecker checker(env.clock());
  EXPECT_EQ(checker.checkAndRecord(cmd->asInterestSignatureInfo()), CheckResult::Ok);
  EXPECT_EQ(checker.check(cmd->asInterestSignatureInfo()), CheckResult::TimeReordered);

  // Tamper with the prefix.
  Name bad("/localhost/nfd/rib/unregister");
  for (size_t i = 4; i < n.size(); ++i)
    bad.append(n[static_cast<ptrdiff_t>(i)]);
  EXPECT_EQ(verifyLegacyCommand(bad, DigestVerifier()), CheckResult::BadSignature);

  // HMAC legacy command: wrong key fails.
  Buffer key(32, 1);
  HmacSigner hmac(key, Name("/k"));
  Name h = InterestSigner(hmac, env.clock(), env.rng()).makeLegacyCommandName(Name("/a"));
  EXPECT_EQ(verifyLegacyCommand(h, HmacVerifier(key)), CheckResult::Ok);
  EXPECT_EQ(verifyLegacyCommand(h, HmacVerifier(Buffer(32, 2))), CheckResult::BadSignature);
}

TEST_F(SignedInterestTest, LegacyCommandCapturedPythonNdn)
{
  // Trailing components of the captured python-ndn (ndn.app) register command,
  // interop-facts.md capture 3. The SignatureValue bytes are elided in the capture; a
  // 32-octet filler stands in for them.
  Buffer wire;
  ASSERT_TRUE(fromHex("0808000001a1fcfd54b0"
                      "080825874c521e489f97"
                      "080516031b0100"
                      "08221720" +
                        std::string(64, 'e'),
                      wire));
  Buffer nameTlv;
  appendTlv(nameTlv, tlv::Name, wire);
  auto name = Name::decode(nameTlv);
  ASSERT_TRUE(name);
  auto cmd = parseLegacyCommand(*name);
  ASSERT_TRUE(cmd);
  EXPECT_EQ(cmd->timestamp, 0x1a1fcfd54b0u);
  EXPECT_EQ(toHex(cmd->nonce), "25874c521e489f97");
  EXPECT_EQ(cmd->sigInfo.type, 0u);
  EXPECT_EQ(cmd->sigValue.size(), 32u);
}

TEST_F(SignedInterestTest, LegacyCommandMalformed)
{
  EXPECT_FALSE(parseLegacyCommand(Name("/a/b/c")));
  EXPECT_FALSE(parseLegacyCommand(Name("/a/b/c/d")));
  // SignatureValue component holding a SignatureInfo TLV.
  Name n("/p");
  n.appendNumber(tlv::GenericNameComponent, 5);
  n.append("12345678");
  Buffer si;
  DigestSigner().info().encodeTo(si, tlv::SignatureInfo);
  n.append(tlv::GenericNameComponent, si);
  n.append(tlv::GenericNameComponent, si);
  EXPECT_FALSE(parseLegacyCommand(n));
  EXPECT_EQ(verifyLegacyCommand(n, AcceptAllVerifier()), CheckResult::NotSigned);
}

} // namespace
} // namespace ndnlab::security
