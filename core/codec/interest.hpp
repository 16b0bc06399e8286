#pragma once
// Interest packet (spec interest.rst), packet format v0.3.
//
// Element order: Name [CanBePrefix] [MustBeFresh] [ForwardingHint] [Nonce] [InterestLifetime]
// [HopLimit] [ApplicationParameters [InterestSignatureInfo InterestSignatureValue]].
// Decoding applies the evolvability rule: unknown or out-of-order elements are an error when
// critical and skipped when not. A decoded Interest keeps its wire encoding; any setter
// drops it so the next wireEncode() re-encodes.

#include "core/codec/name.hpp"
#include "core/codec/signature-info.hpp"
#include "core/codec/tags.hpp"
#include "core/runtime/units.hpp"

#include <optional>

namespace ndnlab {

class Interest
{
public:
  static constexpr Duration DefaultLifetime = std::chrono::milliseconds(4000);

  Interest() = default;
  explicit Interest(Name name) : m_name(std::move(name)) {}

  /// Decodes a whole Interest TLV. Never throws.
  static DecodeResult<Interest> decode(ByteSpan wire);
  /// Same, sharing `wire` as the cached encoding (no copy).
  static DecodeResult<Interest> decode(SharedBuffer wire);

  const Name& name() const { return m_name; }
  Interest& setName(Name n)
  {
    m_name = std::move(n);
    invalidate();
    return *this;
  }

  bool canBePrefix() const { return m_canBePrefix; }
  Interest& setCanBePrefix(bool v)
  {
    m_canBePrefix = v;
    invalidate();
    return *this;
  }
  bool mustBeFresh() const { return m_mustBeFresh; }
  Interest& setMustBeFresh(bool v)
  {
    m_mustBeFresh = v;
    invalidate();
    return *this;
  }

  const std::vector<Name>& forwardingHint() const { return m_forwardingHint; }
  Interest& setForwardingHint(std::vector<Name> v)
  {
    m_forwardingHint = std::move(v);
    invalidate();
    return *this;
  }

  std::optional<uint32_t> nonce() const { return m_nonce; }
  Interest& setNonce(std::optional<uint32_t> v)
  {
    m_nonce = v;
    invalidate();
    return *this;
  }

  /// InterestLifetime; DefaultLifetime when the element is absent.
  Duration lifetime() const { return m_lifetime.value_or(DefaultLifetime); }
  bool hasLifetime() const { return m_lifetime.has_value(); }
  /// Sets the lifetime; the element is omitted when equal to the default.
  Interest& setLifetime(Duration v);

  std::optional<uint8_t> hopLimit() const { return m_hopLimit; }
  Interest& setHopLimit(std::optional<uint8_t> v)
  {
    m_hopLimit = v;
    invalidate();
    return *this;
  }

  /// ApplicationParameters value, when present (may be empty).
  const std::optional<Buffer>& appParameters() const { return m_appParameters; }
  /// Sets ApplicationParameters and (re)computes the ParametersSha256DigestComponent in the
  /// name: an existing digest component is replaced, otherwise one is appended.
  Interest& setAppParameters(std::optional<Buffer> params);

  const std::optional<SignatureInfo>& signatureInfo() const { return m_sigInfo; }
  const std::optional<Buffer>& signatureValue() const { return m_sigValue; }
  /// Low-level: used by security/ to build signed Interests (spec signed-interest.rst).
  /// Adds empty ApplicationParameters if a signature is set without parameters, and
  /// recomputes the params digest. Typical use: setSignature(info, nullopt), sign
  /// signedPortion(), then setSignature(info, value).
  Interest& setSignature(std::optional<SignatureInfo> info, std::optional<Buffer> value);

  /// True if the name's params-digest component equals SHA-256 of ApplicationParameters..end
  /// (and is absent when there are no parameters). decode() does not check this (it only
  /// rejects more than one digest component); callers that need it (producers, the forwarder
  /// if configured) call this. Computed over the cached wire, so unknown non-critical
  /// elements after ApplicationParameters are covered as the spec requires.
  bool hasValidParamsDigest() const;

  /// Bytes covered by an Interest signature: name components except the params digest,
  /// then ApplicationParameters up to (excluding) InterestSignatureValue.
  Buffer signedPortion() const;

  /// Cached or fresh wire encoding.
  SharedBuffer wireEncode() const;
  size_t wireSize() const { return wireEncode()->size(); }

  /// Interest-Data matching (ndn-cxx Interest::matchesData): full name with implicit digest,
  /// CanBePrefix prefix match, or exact name.
  bool matchesData(const class Data& data) const;
  /// PIT aggregation: same Name, CanBePrefix and MustBeFresh (ndn-cxx matchesInterest).
  bool matchesInterest(const Interest& other) const
  {
    return m_canBePrefix == other.m_canBePrefix && m_mustBeFresh == other.m_mustBeFresh && m_name == other.m_name;
  }

  /// Hop-by-hop tags (not encoded).
  PacketTags tags;

private:
  void invalidate() { m_wire.reset(); }
  DecodeResult<bool> decodeValue(ByteSpan value, size_t valueOffset);
  /// ApplicationParameters, InterestSignatureInfo, InterestSignatureValue TLVs (empty if no params).
  void encodeParamsPortion(Buffer& out) const;
  void updateParamsDigest();

  Name m_name;
  bool m_canBePrefix = false;
  bool m_mustBeFresh = false;
  std::vector<Name> m_forwardingHint;
  std::optional<uint32_t> m_nonce;
  std::optional<Duration> m_lifetime;
  std::optional<uint8_t> m_hopLimit;
  std::optional<Buffer> m_appParameters;
  std::optional<SignatureInfo> m_sigInfo;
  std::optional<Buffer> m_sigValue;
  mutable SharedBuffer m_wire;
  // Offsets into m_wire (valid while m_wire is set): start of ApplicationParameters (0 = none),
  // start of InterestSignatureValue (0 = none).
  mutable uint32_t m_paramsBegin = 0;
  mutable uint32_t m_sigValueBegin = 0;
};

} // namespace ndnlab
