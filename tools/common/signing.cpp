#include "tools/common/signing.hpp"

#include "tools/common/runtime.hpp"

#include "core/security/crypto.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ndnlab::tools {

const std::vector<std::string>& signingTypes()
{
  static const std::vector<std::string> types = {"digest", "hmac", "ecdsa", "null"};
  return types;
}

void addSigningOptions(CLI::App& app, SigningOptions& o)
{
  app.add_option("--signing", o.signing, "Signature of every Data")
    ->check(CLI::IsMember(signingTypes()))
    ->capture_default_str();
  app.add_option("--hmac-key", o.hmacKeyHex, "HMAC key in hex (--signing hmac)");
  app.add_option("--key", o.keyFile, "ECDSA P-256 private key PEM (--signing ecdsa; default: a fresh key)")
    ->check(check::nonEmpty());
}

std::unique_ptr<security::Signer> makeSigner(const SigningOptions& o)
{
  const std::string& signing = o.signing;
  const std::string& hmacKeyHex = o.hmacKeyHex;
  const std::string& keyFile = o.keyFile;
  if (signing == "digest")
    return std::make_unique<security::DigestSigner>();
  if (signing == "null")
    return std::make_unique<security::NullSigner>();
  if (signing == "hmac") {
    Buffer key;
    if (hmacKeyHex.empty() || !fromHex(hmacKeyHex, key) || key.empty())
      throw std::invalid_argument("--signing hmac needs --hmac-key HEX (32 octets recommended)");
    return std::make_unique<security::HmacSigner>(std::move(key), Name("/ndnlab/hmac-key"));
  }
  if (signing == "ecdsa") {
    if (keyFile.empty())
      return std::make_unique<security::EcdsaSigner>(security::EcKey::generate());
    std::ifstream in(keyFile);
    if (!in)
      throw std::invalid_argument("cannot read key file " + keyFile);
    std::stringstream ss;
    ss << in.rdbuf();
    auto key = security::EcKey::fromPrivatePem(ss.str());
    if (!key)
      throw std::invalid_argument("bad key in " + keyFile + ": " + key.error());
    return std::make_unique<security::EcdsaSigner>(std::move(key.value()));
  }
  throw std::invalid_argument("unknown signing type " + signing);
}

} // namespace ndnlab::tools
