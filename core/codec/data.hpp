#pragma once
// Data packet (spec data.rst): Name [MetaInfo] [Content] SignatureInfo SignatureValue.
// A decoded Data keeps its wire encoding (shared, never copied when forwarded); setters drop it.

#include "core/codec/name.hpp"
#include "core/codec/signature-info.hpp"
#include "core/codec/tags.hpp"
#include "core/runtime/units.hpp"

#include <array>
#include <optional>

namespace ndnlab {

enum class ContentType : uint64_t { Blob = 0, Link = 1, Key = 2, Nack = 3 };

class Data
{
public:
  Data() = default;
  explicit Data(Name name) : m_name(std::move(name)) {}

  static DecodeResult<Data> decode(ByteSpan wire);
  static DecodeResult<Data> decode(SharedBuffer wire);

  const Name& name() const { return m_name; }
  Data& setName(Name n)
  {
    m_name = std::move(n);
    invalidate();
    return *this;
  }

  uint64_t contentType() const { return m_contentType; }
  Data& setContentType(uint64_t t)
  {
    m_contentType = t;
    invalidate();
    return *this;
  }
  /// FreshnessPeriod; zero when absent.
  Duration freshnessPeriod() const { return m_freshness; }
  Data& setFreshnessPeriod(Duration d)
  {
    m_freshness = d;
    invalidate();
    return *this;
  }
  /// FinalBlockId as a one-component view (valid while this Data lives), if present.
  std::optional<ComponentRef> finalBlockId() const;
  Data& setFinalBlockId(std::optional<ComponentRef> c);
  /// The FinalBlockId's segment number, if it is a segment component.
  std::optional<uint64_t> finalBlockSegment() const;

  /// Content bytes (a view into the decoded wire or the shared content buffer).
  ByteSpan content() const { return m_content; }
  /// True if the Content element is present (possibly empty).
  bool hasContent() const { return m_hasContent; }
  Data& setContent(ByteSpan bytes);
  /// Shares an existing buffer as content without copying.
  Data& setContent(SharedBuffer bytes);
  /// Shares `view`, which must lie inside `owner`, as content without copying.
  Data& setContent(SharedBuffer owner, ByteSpan view);

  const SignatureInfo& signatureInfo() const { return m_sigInfo; }
  Data& setSignatureInfo(SignatureInfo si)
  {
    m_sigInfo = std::move(si);
    invalidate();
    return *this;
  }
  ByteSpan signatureValue() const { return m_sigValue; }
  Data& setSignatureValue(Buffer v);

  /// Bytes covered by the signature: Name through SignatureInfo (encoded now if needed).
  Buffer signedPortion() const;
  /// Same as signedPortion(), as a view into wireEncode() (valid until the next setter).
  ByteSpan signedPortionView() const;

  /// Cached or fresh encoding. A Data that was never signed encodes with whatever
  /// SignatureInfo/Value it has (DigestSha256 with an empty value by default).
  SharedBuffer wireEncode() const;
  size_t wireSize() const { return wireEncode()->size(); }

  /// SHA-256 of the whole wire encoding (computed once, cached).
  const std::array<uint8_t, 32>& implicitDigest() const;
  /// Name plus implicit digest component.
  Name fullName() const;

  PacketTags tags;

private:
  void invalidate()
  {
    m_wire.reset();
    m_digest.reset();
  }
  DecodeResult<bool> decodeValue(ByteSpan value);
  DecodeResult<bool> decodeMetaInfo(ByteSpan value);

  Name m_name;
  uint64_t m_contentType = 0;
  Duration m_freshness{0};
  Buffer m_finalBlockId; ///< component TLV, empty when absent
  // Content and SignatureValue are views kept alive by shared owners (the decoded wire or a
  // buffer given to a setter), so copies of a Data stay valid and decoding copies nothing.
  SharedBuffer m_contentOwner;
  ByteSpan m_content;
  bool m_hasContent = false;
  SignatureInfo m_sigInfo;
  SharedBuffer m_sigValueOwner;
  ByteSpan m_sigValue;
  mutable SharedBuffer m_wire;
  mutable uint32_t m_signedBegin = 0; ///< offset of Name in m_wire
  mutable uint32_t m_signedEnd = 0;   ///< offset of SignatureValue in m_wire
  mutable std::optional<std::array<uint8_t, 32>> m_digest;
};

/// SHA-256 (OpenSSL). Codec uses it for implicit and parameters digests.
std::array<uint8_t, 32> sha256(ByteSpan bytes);

} // namespace ndnlab
