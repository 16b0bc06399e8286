#include "core/security/crypto.hpp"

#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstring>
#include <stdexcept>

namespace ndnlab::security {

namespace {

struct BioDeleter
{
  void operator()(BIO* b) const { BIO_free(b); }
};
using BioPtr = std::unique_ptr<BIO, BioDeleter>;

struct MdCtxDeleter
{
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxDeleter>;

[[noreturn]] void throwOpenssl(const char* what)
{
  unsigned long e = ERR_get_error();
  ERR_clear_error();
  char buf[256] = {};
  if (e != 0)
    ERR_error_string_n(e, buf, sizeof(buf));
  throw std::runtime_error(std::string("OpenSSL: ") + what + (e != 0 ? std::string(": ") + buf : ""));
}

std::string bioToString(BIO* bio)
{
  char* data = nullptr;
  long n = BIO_get_mem_data(bio, &data);
  return n > 0 ? std::string(data, static_cast<size_t>(n)) : std::string();
}

BioPtr memBio(ByteSpan bytes)
{
  return BioPtr(BIO_new_mem_buf(bytes.data(), static_cast<int>(bytes.size())));
}

} // namespace

Sha256Digest hmacSha256(ByteSpan key, ByteSpan data)
{
  Sha256Digest out{};
  size_t outLen = 0;
  // OpenSSL rejects a NULL key pointer even with length 0; give it a valid address.
  static const uint8_t emptyKey = 0;
  const uint8_t* k = key.empty() ? &emptyKey : key.data();
  if (EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, k, key.size(), data.data(), data.size(), out.data(),
                out.size(), &outLen) == nullptr ||
      outLen != out.size())
    throwOpenssl("HMAC-SHA256");
  return out;
}

bool constantTimeEqual(ByteSpan a, ByteSpan b)
{
  if (a.size() != b.size())
    return false;
  if (a.empty())
    return true;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

// --- EcKey -----------------------------------------------------------------------------------

Result<EcKey, std::string> EcKey::adopt(EVP_PKEY* key, bool hasPrivate, std::string_view what)
{
  if (key == nullptr) {
    ERR_clear_error();
    return fail(std::string("cannot decode ") + std::string(what));
  }
  std::shared_ptr<EVP_PKEY> holder(key, EVP_PKEY_free);
  if (!EVP_PKEY_is_a(key, "EC"))
    return fail(std::string(what) + " is not an EC key");
  char group[64] = {};
  size_t groupLen = 0;
  if (EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group), &groupLen) != 1) {
    ERR_clear_error();
    return fail(std::string(what) + " has no named curve");
  }
  std::string_view g(group, groupLen);
  if (g != "prime256v1" && g != "P-256" && g != "secp256r1")
    return fail(std::string(what) + " is on curve " + std::string(g) + ", not P-256");
  return EcKey(std::move(holder), hasPrivate);
}

EcKey EcKey::generate()
{
  EVP_PKEY* key = EVP_EC_gen("P-256");
  if (key == nullptr)
    throwOpenssl("P-256 key generation");
  return EcKey(std::shared_ptr<EVP_PKEY>(key, EVP_PKEY_free), true);
}

Result<EcKey, std::string> EcKey::fromPrivateDer(ByteSpan der)
{
  const unsigned char* p = der.data();
  EVP_PKEY* key = d2i_AutoPrivateKey(nullptr, &p, static_cast<long>(der.size()));
  if (key != nullptr && p != der.data() + der.size()) {
    EVP_PKEY_free(key);
    return fail(std::string("trailing bytes after private key DER"));
  }
  return adopt(key, true, "private key DER");
}

Result<EcKey, std::string> EcKey::fromPrivatePem(std::string_view pem)
{
  BioPtr bio = memBio(asBytes(pem));
  if (!bio)
    throwOpenssl("BIO_new_mem_buf");
  return adopt(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), true, "private key PEM");
}

Result<EcKey, std::string> EcKey::fromPublicDer(ByteSpan der)
{
  const unsigned char* p = der.data();
  EVP_PKEY* key = d2i_PUBKEY(nullptr, &p, static_cast<long>(der.size()));
  if (key != nullptr && p != der.data() + der.size()) {
    EVP_PKEY_free(key);
    return fail(std::string("trailing bytes after public key DER"));
  }
  return adopt(key, false, "public key DER");
}

Result<EcKey, std::string> EcKey::fromPublicPem(std::string_view pem)
{
  BioPtr bio = memBio(asBytes(pem));
  if (!bio)
    throwOpenssl("BIO_new_mem_buf");
  return adopt(PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr), false, "public key PEM");
}

Buffer EcKey::privateDer() const
{
  if (!m_hasPrivate)
    throw std::logic_error("EcKey::privateDer: no private key");
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || i2d_PKCS8PrivateKey_bio(bio.get(), m_key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
    throwOpenssl("PKCS#8 DER export");
  std::string s = bioToString(bio.get());
  return Buffer(s.begin(), s.end());
}

std::string EcKey::privatePem() const
{
  if (!m_hasPrivate)
    throw std::logic_error("EcKey::privatePem: no private key");
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PKCS8PrivateKey(bio.get(), m_key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
    throwOpenssl("PKCS#8 PEM export");
  return bioToString(bio.get());
}

Buffer EcKey::publicDer() const
{
  int n = i2d_PUBKEY(m_key.get(), nullptr);
  if (n <= 0)
    throwOpenssl("SubjectPublicKeyInfo DER export");
  Buffer out(static_cast<size_t>(n));
  unsigned char* p = out.data();
  if (i2d_PUBKEY(m_key.get(), &p) != n)
    throwOpenssl("SubjectPublicKeyInfo DER export");
  return out;
}

std::string EcKey::publicPem() const
{
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PUBKEY(bio.get(), m_key.get()) != 1)
    throwOpenssl("public key PEM export");
  return bioToString(bio.get());
}

KeyDigest EcKey::keyDigest() const
{
  Buffer spki = publicDer();
  Buffer d(32);
  unsigned int len = 0;
  if (EVP_Digest(spki.data(), spki.size(), d.data(), &len, EVP_sha256(), nullptr) != 1 || len != 32)
    throwOpenssl("SHA-256");
  return KeyDigest{std::move(d)};
}

EcKey EcKey::publicKey() const
{
  auto r = fromPublicDer(publicDer());
  if (!r)
    throw std::runtime_error("EcKey::publicKey: " + r.error());
  return std::move(r).value();
}

Buffer EcKey::sign(ByteSpan data) const
{
  if (!m_hasPrivate)
    throw std::logic_error("EcKey::sign: no private key");
  MdCtxPtr ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, m_key.get()) != 1)
    throwOpenssl("ECDSA sign init");
  size_t len = 0;
  if (EVP_DigestSign(ctx.get(), nullptr, &len, data.data(), data.size()) != 1)
    throwOpenssl("ECDSA sign");
  Buffer sig(len);
  if (EVP_DigestSign(ctx.get(), sig.data(), &len, data.data(), data.size()) != 1)
    throwOpenssl("ECDSA sign");
  sig.resize(len);
  return sig;
}

bool EcKey::verify(ByteSpan data, ByteSpan derSignature) const
{
  if (derSignature.empty())
    return false;
  MdCtxPtr ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, m_key.get()) != 1) {
    ERR_clear_error();
    return false;
  }
  int rc = EVP_DigestVerify(ctx.get(), derSignature.data(), derSignature.size(), data.data(), data.size());
  if (rc != 1)
    ERR_clear_error();
  return rc == 1;
}

} // namespace ndnlab::security
