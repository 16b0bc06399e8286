#pragma once
// The --signing choice of the producing commands (serve, perf server): one Signer from a type
// name and its key options.

#include "core/security/signer.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ndnlab::tools {

/// The accepted --signing values.
const std::vector<std::string>& signingTypes();

/// "digest", "hmac" (hmacKeyHex required), "ecdsa" (keyFile: a P-256 private key PEM; empty:
/// a fresh key) or "null"; throws std::invalid_argument on bad key input.
std::unique_ptr<security::Signer> makeSigner(const std::string& signing, const std::string& hmacKeyHex,
                                             const std::string& keyFile);

} // namespace ndnlab::tools
