#pragma once
// Name and name components (spec name.rst): typed components, canonical order, URI form.
//
// A Name owns the concatenated component TLVs (its TLV-VALUE) plus an offset per component,
// so prefix tests and comparisons are memcmp over contiguous bytes. Components are returned
// as views (ComponentRef) valid while the Name is alive and unmodified.

#include "core/codec/tlv.hpp"

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace ndnlab {

/// A view of one name component.
class ComponentRef
{
public:
  ComponentRef() = default;
  ComponentRef(uint32_t type, ByteSpan value, ByteSpan wire) : m_type(type), m_value(value), m_wire(wire) {}

  uint32_t type() const { return m_type; }
  ByteSpan value() const { return m_value; }
  /// The whole component TLV.
  ByteSpan wire() const { return m_wire; }

  bool isGeneric() const { return m_type == tlv::GenericNameComponent; }
  bool isSegment() const { return isNumber(tlv::SegmentNameComponent); }
  bool isVersion() const { return isNumber(tlv::VersionNameComponent); }
  bool isTimestamp() const { return isNumber(tlv::TimestampNameComponent); }
  bool isSequenceNumber() const { return isNumber(tlv::SequenceNumNameComponent); }
  bool isByteOffset() const { return isNumber(tlv::ByteOffsetNameComponent); }
  bool isImplicitDigest() const { return m_type == tlv::ImplicitSha256DigestComponent && m_value.size() == 32; }
  bool isParamsDigest() const { return m_type == tlv::ParametersSha256DigestComponent && m_value.size() == 32; }
  /// Keyword component with the given value, e.g. isKeyword("metadata").
  bool isKeyword(std::string_view kw) const;

  /// The NonNegativeInteger value of a typed number component; nullopt if not decodable.
  std::optional<uint64_t> toNumber() const;

  /// Canonical order (spec name.rst): type, then length, then bytes. <0, 0, >0.
  int compare(const ComponentRef& other) const;
  bool operator==(const ComponentRef& o) const { return compare(o) == 0; }

  /// URI form: `seg=3`, `v=17`, `t=..`, `seq=..`, `off=..`, `sha256digest=<hex>`,
  /// `params-sha256=<hex>`, `32=metadata`, generic without prefix; period-only values escaped.
  /// Number aliases are used only for shortest-form values (`50=%00%01` otherwise), so
  /// Name(toUri()) always reproduces the component.
  std::string toUri() const;

private:
  bool isNumber(uint32_t t) const { return m_type == t && toNumber().has_value(); }

  uint32_t m_type = 0;
  ByteSpan m_value;
  ByteSpan m_wire;
};

class Name
{
public:
  Name() = default;
  /// Parses a URI (`/a/b/seg=3`, `ndn:/a`, `ndn://authority/a`); throws std::invalid_argument
  /// with a clear message on bad input. For configuration and CLI input, not the packet path.
  explicit Name(std::string_view uri);
  Name(const char* uri) : Name(std::string_view(uri)) {}

  /// Non-throwing URI parser; the error string says what is wrong.
  static Result<Name, std::string> parse(std::string_view uri);
  /// Decodes a Name from its TLV-VALUE (component TLVs) with validation (types in [1,65535],
  /// digest components exactly 32 octets).
  static DecodeResult<Name> fromValue(ByteSpan value);
  /// Decodes a whole Name TLV (type 7).
  static DecodeResult<Name> decode(ByteSpan wire);

  size_t size() const { return m_offsets.empty() ? 0 : m_offsets.size() - 1; }
  bool empty() const { return size() == 0; }
  /// Component i; negative i counts from the end (-1 = last). Precondition: in range.
  ComponentRef operator[](ptrdiff_t i) const;
  ComponentRef at(ptrdiff_t i) const { return (*this)[i]; }

  /// The first n components (n may exceed size(): whole name); negative n drops from the end.
  Name getPrefix(ptrdiff_t n) const;
  bool isPrefixOf(const Name& other) const;

  Name& append(uint32_t type, ByteSpan value);
  Name& append(const ComponentRef& c) { return appendWire(c.wire()); }
  Name& append(std::string_view genericValue) { return append(tlv::GenericNameComponent, asBytes(genericValue)); }
  /// Appends a generic component with these bytes (not a URI; disambiguates from append(Name)).
  Name& append(const char* genericValue) { return append(std::string_view(genericValue)); }
  Name& append(const std::string& genericValue) { return append(std::string_view(genericValue)); }
  Name& append(const Name& suffix);
  /// Appends an already-encoded component TLV (caller guarantees it is valid).
  Name& appendWire(ByteSpan componentTlv);
  Name& appendNumber(uint32_t type, uint64_t n);
  Name& appendSegment(uint64_t n) { return appendNumber(tlv::SegmentNameComponent, n); }
  Name& appendVersion(uint64_t n) { return appendNumber(tlv::VersionNameComponent, n); }
  Name& appendTimestamp(uint64_t n) { return appendNumber(tlv::TimestampNameComponent, n); }
  Name& appendSequenceNumber(uint64_t n) { return appendNumber(tlv::SequenceNumNameComponent, n); }
  Name& appendByteOffset(uint64_t n) { return appendNumber(tlv::ByteOffsetNameComponent, n); }
  Name& appendKeyword(std::string_view kw) { return append(tlv::KeywordNameComponent, asBytes(kw)); }
  Name& appendImplicitDigest(ByteSpan sha256) { return append(tlv::ImplicitSha256DigestComponent, sha256); }
  Name& appendParamsDigest(ByteSpan sha256) { return append(tlv::ParametersSha256DigestComponent, sha256); }

  /// TLV-VALUE: the concatenated component TLVs.
  ByteSpan value() const { return m_value; }
  /// Appends the whole Name TLV to `out`.
  void encodeTo(Buffer& out) const;
  Buffer wireEncode() const;
  size_t wireSize() const { return tlvSize(tlv::Name, m_value.size()); }

  /// Canonical order of names (spec name.rst).
  int compare(const Name& other) const;
  bool operator==(const Name& o) const { return m_value == o.m_value; }
  std::strong_ordering operator<=>(const Name& o) const { return compare(o) <=> 0; }

  std::string toUri() const;
  /// Fast non-cryptographic hash, allocation-free: a fold of per-component hashes, so the
  /// hashes of all prefixes come out of one pass (prefixHashes()). Equal names hash equally.
  size_t hash() const { return hashPrefix(size()); }
  /// Hash of the first n components (n clamped to size()), equal to getPrefix(n).hash().
  size_t hashPrefix(size_t n) const;
  /// out[i] = hashPrefix(i) for i in [0, size()], in one pass (reuses out's capacity).
  void prefixHashes(std::vector<size_t>& out) const;
  /// TLV-VALUE of the first n components (n clamped to size()); a view into this Name.
  ByteSpan prefixValue(size_t n) const;
  /// Same hash over a Name TLV-VALUE given as bytes (must be well-formed component TLVs).
  static size_t hashValue(ByteSpan nameValue);

private:
  Buffer m_value;
  std::vector<uint32_t> m_offsets; ///< start of each component in m_value, plus end; empty if no components
};

struct NameHash
{
  size_t operator()(const Name& n) const { return n.hash(); }
};

std::ostream& operator<<(std::ostream& os, const Name& name);

} // namespace ndnlab
