#pragma once
// Signers and verifiers for Data and Interest signatures (spec signature.rst).
//
// A Signer knows its SignatureInfo (type + KeyLocator) and produces a signature value over a
// signed portion. A Verifier decides whether (SignatureInfo, signed portion, value) is valid
// for the key it holds. Packet layouts (which bytes are signed) live in signData/verifyData
// here and in signed-interest.hpp. Verification never throws.

#include "core/codec/data.hpp"
#include "core/security/crypto.hpp"

#include <optional>

namespace ndnlab::security {

class Signer
{
public:
  virtual ~Signer() = default;
  /// SignatureInfo this signer puts into packets: SignatureType and, when keyed, KeyLocator.
  virtual SignatureInfo info() const = 0;
  /// Signature value over `signedPortion`.
  virtual Buffer sign(ByteSpan signedPortion) const = 0;
};

/// SignatureType 0: value = SHA-256 of the signed portion, no KeyLocator.
class DigestSigner final : public Signer
{
public:
  SignatureInfo info() const override;
  Buffer sign(ByteSpan signedPortion) const override;
};

/// SignatureType 4: HMAC-SHA256 with a shared key; KeyLocator = keyName.
/// Throws std::invalid_argument for an empty key (spec recommends >= 32 octets).
class HmacSigner final : public Signer
{
public:
  HmacSigner(Buffer key, Name keyName);
  SignatureInfo info() const override;
  Buffer sign(ByteSpan signedPortion) const override;

private:
  Buffer m_key;
  Name m_keyName;
};

/// SignatureType 3: ECDSA P-256 over SHA-256, DER value. KeyLocator is the key name, or the
/// KeyDigest of the public key when constructed without a name.
/// Throws std::invalid_argument if `key` has no private part.
class EcdsaSigner final : public Signer
{
public:
  EcdsaSigner(EcKey key, Name keyName);
  explicit EcdsaSigner(EcKey key);
  SignatureInfo info() const override;
  Buffer sign(ByteSpan signedPortion) const override;
  const EcKey& key() const { return m_key; }

private:
  EcKey m_key;
  KeyLocator m_locator;
};

/// SignatureType 200 (ndn-cxx/NDNts null signature): empty value, no KeyLocator. For interop
/// with producers that do not sign (e.g. NDNts metadata); carries no integrity.
class NullSigner final : public Signer
{
public:
  SignatureInfo info() const override;
  Buffer sign(ByteSpan) const override { return {}; }
};

class Verifier
{
public:
  virtual ~Verifier() = default;
  /// True if `value` is a valid signature of `signedPortion` under `info` for this verifier.
  virtual bool verify(const SignatureInfo& info, ByteSpan signedPortion, ByteSpan value) const = 0;
};

/// Accepts SignatureType 0 whose value equals SHA-256 of the signed portion.
class DigestVerifier final : public Verifier
{
public:
  bool verify(const SignatureInfo& info, ByteSpan signedPortion, ByteSpan value) const override;
};

/// Accepts SignatureType 4 with a matching MAC; when `keyName` is given, the KeyLocator must be
/// that name.
class HmacVerifier final : public Verifier
{
public:
  explicit HmacVerifier(Buffer key, std::optional<Name> keyName = std::nullopt);
  bool verify(const SignatureInfo& info, ByteSpan signedPortion, ByteSpan value) const override;

private:
  Buffer m_key;
  std::optional<Name> m_keyName;
};

/// Accepts SignatureType 3 signed by `key` (public part used). When `expected` is given, the
/// KeyLocator must equal it.
class EcdsaVerifier final : public Verifier
{
public:
  explicit EcdsaVerifier(const EcKey& key, std::optional<KeyLocator> expected = std::nullopt);
  bool verify(const SignatureInfo& info, ByteSpan signedPortion, ByteSpan value) const override;

private:
  EcKey m_key;
  std::optional<KeyLocator> m_expected;
};

/// Accepts SignatureType 200 with an empty value.
class NullVerifier final : public Verifier
{
public:
  bool verify(const SignatureInfo& info, ByteSpan, ByteSpan value) const override;
};

/// Accepts everything (the NFD default `certfile any` / ndnd management policy).
class AcceptAllVerifier final : public Verifier
{
public:
  bool verify(const SignatureInfo&, ByteSpan, ByteSpan) const override { return true; }
};

/// Sets the Data's SignatureInfo from the signer, then signs Name..SignatureInfo.
void signData(Data& data, const Signer& signer);
/// Verifies the Data's signature over Name..SignatureInfo.
bool verifyData(const Data& data, const Verifier& verifier);

} // namespace ndnlab::security
