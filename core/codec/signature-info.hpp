#pragma once
// SignatureInfo / InterestSignatureInfo (spec signature.rst). Same structure for Data (TLV 22)
// and Interest (TLV 44); the Interest form may carry SignatureNonce/Time/SeqNum.

#include "core/codec/name.hpp"

#include <optional>
#include <variant>

namespace ndnlab {

enum class SignatureType : uint32_t {
  DigestSha256 = 0,
  Sha256WithRsa = 1,
  Sha256WithEcdsa = 3,
  HmacWithSha256 = 4,
  Ed25519 = 5,
  Null = 200, ///< ndn-cxx/NDNts null signature (empty value)
};

struct KeyDigest
{
  Buffer bytes;
  bool operator==(const KeyDigest&) const = default;
};

using KeyLocator = std::variant<Name, KeyDigest>;

struct SignatureInfo
{
  uint32_t type = static_cast<uint32_t>(SignatureType::DigestSha256);
  std::optional<KeyLocator> keyLocator;
  std::optional<Buffer> nonce;    ///< SignatureNonce (Interest)
  std::optional<uint64_t> time;   ///< SignatureTime, ms since Unix epoch (Interest)
  std::optional<uint64_t> seqNum; ///< SignatureSeqNum (Interest)
  /// Raw TLV-VALUE of ValidityPeriod (NotBefore NotAfter, certificates), kept for re-encoding.
  std::optional<Buffer> validityPeriod;

  bool operator==(const SignatureInfo&) const = default;

  /// Decodes the TLV-VALUE of a (Interest)SignatureInfo; unknown non-critical elements skipped.
  static DecodeResult<SignatureInfo> fromValue(ByteSpan value);
  /// Appends the whole TLV with the given outer type (tlv::SignatureInfo or InterestSignatureInfo).
  void encodeTo(Buffer& out, uint32_t outerType) const;
};

} // namespace ndnlab
