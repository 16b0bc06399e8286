#pragma once
// Cryptographic primitives on raw bytes (OpenSSL 3 EVP): HMAC-SHA256 and ECDSA P-256 keys.
// Spec signature.rst: SignatureHmacWithSha256 (type 4), SignatureSha256WithEcdsa (type 3, DER
// Ecdsa-Sig-Value over SHA-256 of the signed portion), KeyDigest = SHA-256 of the public key's
// SubjectPublicKeyInfo DER.
//
// Verification functions never throw; bad keys or signatures return false. Key import returns a
// Result with a message. Only resource failures inside OpenSSL throw (std::runtime_error).

#include "core/codec/signature-info.hpp"

#include <array>
#include <memory>
#include <string>
#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;

namespace ndnlab::security {

using Sha256Digest = std::array<uint8_t, 32>;

/// HMAC-SHA256 (RFC 2104 / RFC 4231). Any key length is accepted, including empty.
Sha256Digest hmacSha256(ByteSpan key, ByteSpan data);

/// Equality in time independent of where the inputs differ (for MAC/digest comparison).
bool constantTimeEqual(ByteSpan a, ByteSpan b);

/// An ECDSA key on curve P-256 (prime256v1): a key pair, or a public key only.
/// Copies share the same immutable OpenSSL key object.
class EcKey
{
public:
  /// Generates a fresh key pair with OpenSSL's DRBG. Throws std::runtime_error on failure.
  static EcKey generate();

  /// PKCS#8 PrivateKeyInfo or SEC1 ECPrivateKey, DER. Rejects curves other than P-256.
  static Result<EcKey, std::string> fromPrivateDer(ByteSpan der);
  /// "-----BEGIN PRIVATE KEY-----" (PKCS#8) or "-----BEGIN EC PRIVATE KEY-----" (SEC1).
  static Result<EcKey, std::string> fromPrivatePem(std::string_view pem);
  /// SubjectPublicKeyInfo DER.
  static Result<EcKey, std::string> fromPublicDer(ByteSpan der);
  /// "-----BEGIN PUBLIC KEY-----".
  static Result<EcKey, std::string> fromPublicPem(std::string_view pem);

  bool hasPrivateKey() const { return m_hasPrivate; }

  /// PKCS#8 PrivateKeyInfo DER. Precondition: hasPrivateKey().
  Buffer privateDer() const;
  /// PKCS#8 PEM ("BEGIN PRIVATE KEY"). Precondition: hasPrivateKey().
  std::string privatePem() const;
  /// SubjectPublicKeyInfo DER.
  Buffer publicDer() const;
  std::string publicPem() const;
  /// SHA-256 of publicDer() (spec signature.rst KeyDigest).
  KeyDigest keyDigest() const;
  /// A copy holding only the public key.
  EcKey publicKey() const;

  /// DER Ecdsa-Sig-Value over SHA-256(data) (at most 72 octets). Precondition: hasPrivateKey().
  Buffer sign(ByteSpan data) const;
  /// True if `derSignature` is a valid DER ECDSA signature of SHA-256(data) by this key.
  bool verify(ByteSpan data, ByteSpan derSignature) const;

private:
  EcKey(std::shared_ptr<EVP_PKEY> key, bool hasPrivate) : m_key(std::move(key)), m_hasPrivate(hasPrivate) {}
  static Result<EcKey, std::string> adopt(EVP_PKEY* key, bool hasPrivate, std::string_view what);

  std::shared_ptr<EVP_PKEY> m_key;
  bool m_hasPrivate = false;
};

} // namespace ndnlab::security
