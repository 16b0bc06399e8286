#include "core/security/signer.hpp"

#include <stdexcept>

namespace ndnlab::security {

namespace {

constexpr uint32_t typeOf(SignatureType t)
{
  return static_cast<uint32_t>(t);
}

} // namespace

// --- signers ---------------------------------------------------------------------------------

SignatureInfo DigestSigner::info() const
{
  SignatureInfo si;
  si.type = typeOf(SignatureType::DigestSha256);
  return si;
}

Buffer DigestSigner::sign(ByteSpan signedPortion) const
{
  auto d = sha256(signedPortion);
  return Buffer(d.begin(), d.end());
}

HmacSigner::HmacSigner(Buffer key, Name keyName) : m_key(std::move(key)), m_keyName(std::move(keyName))
{
  if (m_key.empty())
    throw std::invalid_argument("HmacSigner: empty key");
}

SignatureInfo HmacSigner::info() const
{
  SignatureInfo si;
  si.type = typeOf(SignatureType::HmacWithSha256);
  si.keyLocator = m_keyName;
  return si;
}

Buffer HmacSigner::sign(ByteSpan signedPortion) const
{
  auto mac = hmacSha256(m_key, signedPortion);
  return Buffer(mac.begin(), mac.end());
}

EcdsaSigner::EcdsaSigner(EcKey key, Name keyName) : m_key(std::move(key)), m_locator(std::move(keyName))
{
  if (!m_key.hasPrivateKey())
    throw std::invalid_argument("EcdsaSigner: key has no private part");
}

EcdsaSigner::EcdsaSigner(EcKey key) : m_key(std::move(key)), m_locator(Name())
{
  if (!m_key.hasPrivateKey())
    throw std::invalid_argument("EcdsaSigner: key has no private part");
  m_locator = m_key.keyDigest();
}

SignatureInfo EcdsaSigner::info() const
{
  SignatureInfo si;
  si.type = typeOf(SignatureType::Sha256WithEcdsa);
  si.keyLocator = m_locator;
  return si;
}

Buffer EcdsaSigner::sign(ByteSpan signedPortion) const
{
  return m_key.sign(signedPortion);
}

SignatureInfo NullSigner::info() const
{
  SignatureInfo si;
  si.type = typeOf(SignatureType::Null);
  return si;
}

// --- verifiers -------------------------------------------------------------------------------

bool DigestVerifier::verify(const SignatureInfo& info, ByteSpan signedPortion, ByteSpan value) const
{
  if (info.type != typeOf(SignatureType::DigestSha256) || value.size() != 32)
    return false;
  auto d = sha256(signedPortion);
  return constantTimeEqual(d, value);
}

HmacVerifier::HmacVerifier(Buffer key, std::optional<Name> keyName)
  : m_key(std::move(key)), m_keyName(std::move(keyName))
{}

bool HmacVerifier::verify(const SignatureInfo& info, ByteSpan signedPortion, ByteSpan value) const
{
  if (info.type != typeOf(SignatureType::HmacWithSha256) || value.size() != 32)
    return false;
  if (m_keyName) {
    const Name* n = info.keyLocator ? std::get_if<Name>(&*info.keyLocator) : nullptr;
    if (n == nullptr || *n != *m_keyName)
      return false;
  }
  auto mac = hmacSha256(m_key, signedPortion);
  return constantTimeEqual(mac, value);
}

EcdsaVerifier::EcdsaVerifier(const EcKey& key, std::optional<KeyLocator> expected)
  : m_key(key.hasPrivateKey() ? key.publicKey() : key), m_expected(std::move(expected))
{}

bool EcdsaVerifier::verify(const SignatureInfo& info, ByteSpan signedPortion, ByteSpan value) const
{
  if (info.type != typeOf(SignatureType::Sha256WithEcdsa))
    return false;
  if (m_expected && (!info.keyLocator || *info.keyLocator != *m_expected))
    return false;
  return m_key.verify(signedPortion, value);
}

bool NullVerifier::verify(const SignatureInfo& info, ByteSpan, ByteSpan value) const
{
  return info.type == typeOf(SignatureType::Null) && value.empty();
}

// --- Data ------------------------------------------------------------------------------------

void signData(Data& data, const Signer& signer)
{
  data.setSignatureInfo(signer.info());
  data.setSignatureValue(signer.sign(data.signedPortion()));
}

bool verifyData(const Data& data, const Verifier& verifier)
{
  return verifier.verify(data.signatureInfo(), data.signedPortion(), data.signatureValue());
}

} // namespace ndnlab::security
