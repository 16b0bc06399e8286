#pragma once
// Parsing of management command and dataset Interest names (spec facts 3.2, interop-facts.md):
//
//   /<top prefix>/<module>/<verb>                                   dataset request
//   /<top prefix>/<module>/<verb>/<CP>/<params-digest>             v0.3 signed Interest
//   /<top prefix>/<module>/<verb>/<CP>/<ts>/<nonce>/<SigInfo>/<SigValue>   legacy v0.2
//   /<top prefix>/<module>/<verb>/<CP>                               unsigned (ndnd accepts it)
//
// The top prefix is /localhost/nfd (two components), so ControlParameters sit at name index 4
// as one GenericNameComponent whose value is the whole ControlParameters TLV. Never throws.

#include "core/codec/interest.hpp"
#include "core/mgmt/control-parameters.hpp"

#include <string>
#include <string_view>

namespace ndnlab::mgmt {

enum class CommandFormat : uint8_t {
  Unsigned,  ///< no signature at all
  SignedV03, ///< InterestSignatureInfo/Value present (spec signed-interest.rst)
  LegacyV02, ///< four trailing signature components
};

std::string_view toString(CommandFormat f);

struct ParsedCommand
{
  std::string module;
  std::string verb;
  /// Present when the name has a component at the ControlParameters index.
  std::optional<ControlParameters> parameters;
  /// True when the component at the ControlParameters index is generic but not a valid
  /// ControlParameters TLV (the dispatcher answers 400 for commands).
  bool malformedParameters = false;
  CommandFormat format = CommandFormat::Unsigned;
  /// Replay fields and key of the signature (v0.3 InterestSignatureInfo, or the legacy
  /// SignatureInfo with time = timestamp and nonce = the nonce component).
  std::optional<SignatureInfo> signatureInfo;
};

enum class CommandErrc : uint8_t {
  NotUnderPrefix, ///< name does not start with the top prefix
  MissingVerb,    ///< fewer than top prefix + 2 components
};

std::string_view reasonName(CommandErrc e);

/// Splits a management Interest into module, verb, ControlParameters and signature format.
/// `topPrefix` is normally /localhost/nfd.
Result<ParsedCommand, CommandErrc> parseCommand(const Name& topPrefix, const Interest& interest);

/// Builds the name of an unsigned command: topPrefix/module/verb/<CP>. Sign it afterwards with
/// security::InterestSigner (v0.3) or append legacy components.
Name makeCommandName(const Name& topPrefix, std::string_view module, std::string_view verb,
                     const ControlParameters& parameters);

} // namespace ndnlab::mgmt
