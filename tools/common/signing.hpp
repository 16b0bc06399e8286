#pragma once
// The --signing choice of the producing commands (serve, perf server, stream publish): their
// options, declared once, and one Signer from them.

#include "core/security/signer.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

namespace ndnlab::tools {

/// The accepted --signing values.
const std::vector<std::string>& signingTypes();

/// --signing, --hmac-key, --key.
struct SigningOptions
{
  std::string signing = "digest";
  std::string hmacKeyHex;
  std::string keyFile; ///< ECDSA private key PEM; generated when empty
};

/// Adds --signing, --hmac-key and --key to `app`.
void addSigningOptions(CLI::App& app, SigningOptions& o);

/// "digest", "hmac" (hmacKeyHex required), "ecdsa" (keyFile: a P-256 private key PEM; empty:
/// a fresh key) or "null"; throws std::invalid_argument on bad key input.
std::unique_ptr<security::Signer> makeSigner(const SigningOptions& o);

} // namespace ndnlab::tools
