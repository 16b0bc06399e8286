#pragma once
// TLV primitives of NDN packet format v0.3 (spec tlv.rst): VAR-NUMBER, NonNegativeInteger,
// the TLV-TYPE registry, and a non-throwing reader. Every number is listed in docs/wire-format.md.

#include "core/runtime/result.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace ndnlab {

using Buffer = std::vector<uint8_t>;
using ByteSpan = std::span<const uint8_t>;
/// Immutable shared bytes: a decoded packet keeps its wire encoding this way so forwarding
/// does not re-encode.
using SharedBuffer = std::shared_ptr<const Buffer>;

/// Largest network-layer packet (Interest, Data, the Interest of a Nack), octets: ndn-cxx
/// MAX_NDN_PACKET_SIZE, the size of NFD's receive buffers. Larger packets are never accepted
/// from or sent on any face (face/link-service.hpp maxPacketSize).
inline constexpr size_t MaxNdnPacketSize = 8800;

inline ByteSpan asBytes(std::string_view s)
{
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

namespace tlv {

// Network layer (spec types.rst).
inline constexpr uint32_t ImplicitSha256DigestComponent = 1;
inline constexpr uint32_t ParametersSha256DigestComponent = 2;
inline constexpr uint32_t Interest = 5;
inline constexpr uint32_t Data = 6;
inline constexpr uint32_t Name = 7;
inline constexpr uint32_t GenericNameComponent = 8;
inline constexpr uint32_t Nonce = 10;
inline constexpr uint32_t InterestLifetime = 12;
inline constexpr uint32_t MustBeFresh = 18;
inline constexpr uint32_t MetaInfo = 20;
inline constexpr uint32_t Content = 21;
inline constexpr uint32_t SignatureInfo = 22;
inline constexpr uint32_t SignatureValue = 23;
inline constexpr uint32_t ContentType = 24;
inline constexpr uint32_t FreshnessPeriod = 25;
inline constexpr uint32_t FinalBlockId = 26;
inline constexpr uint32_t SignatureType = 27;
inline constexpr uint32_t KeyLocator = 28;
inline constexpr uint32_t KeyDigest = 29;
inline constexpr uint32_t ForwardingHint = 30;
inline constexpr uint32_t KeywordNameComponent = 32;
inline constexpr uint32_t CanBePrefix = 33;
inline constexpr uint32_t HopLimit = 34;
inline constexpr uint32_t ApplicationParameters = 36;
inline constexpr uint32_t SignatureNonce = 38;
inline constexpr uint32_t SignatureTime = 40;
inline constexpr uint32_t SignatureSeqNum = 42;
inline constexpr uint32_t InterestSignatureInfo = 44;
inline constexpr uint32_t InterestSignatureValue = 46;
inline constexpr uint32_t SegmentNameComponent = 50;
inline constexpr uint32_t ByteOffsetNameComponent = 52;
inline constexpr uint32_t VersionNameComponent = 54;
inline constexpr uint32_t TimestampNameComponent = 56;
inline constexpr uint32_t SequenceNumNameComponent = 58;
inline constexpr uint32_t ValidityPeriod = 253;
inline constexpr uint32_t NotBefore = 254;
inline constexpr uint32_t NotAfter = 255;

// NDNLPv2 (lp/).
inline constexpr uint32_t LpPacket = 100;
inline constexpr uint32_t Fragment = 80;
inline constexpr uint32_t Sequence = 81;
inline constexpr uint32_t FragIndex = 82;
inline constexpr uint32_t FragCount = 83;
inline constexpr uint32_t PitToken = 98;
inline constexpr uint32_t LpNack = 800;
inline constexpr uint32_t NackReason = 801;
inline constexpr uint32_t IncomingFaceId = 812;
inline constexpr uint32_t NextHopFaceId = 816;
inline constexpr uint32_t CachePolicy = 820;
inline constexpr uint32_t CachePolicyType = 821;
inline constexpr uint32_t CongestionMark = 832;
inline constexpr uint32_t Ack = 836;
inline constexpr uint32_t TxSequence = 840;
inline constexpr uint32_t NonDiscovery = 844;
inline constexpr uint32_t PrefixAnnouncement = 848;
// ndnlab BLEnD fields (docs/mechanisms/bundling.md); ignorable by legacy receivers.
inline constexpr uint32_t BundleTag = 880;
inline constexpr uint32_t BundleRetransmission = 881; ///< inside BundleTag
inline constexpr uint32_t BundleCwnd = 882;           ///< inside BundleTag
inline constexpr uint32_t BundleHeader = 884;
inline constexpr uint32_t BundleStartSeq = 885; ///< inside BundleHeader
inline constexpr uint32_t BundleEndSeq = 886;   ///< inside BundleHeader
inline constexpr uint32_t BundleFlow = 887;     ///< inside BundleHeader
// ndnlab MIRCC explicit rate (docs/mechanisms/mircc.md); ignorable by legacy receivers.
inline constexpr uint32_t MirccRate = 888;

/// Evolvability rule: types 0..31 are grandfathered critical, otherwise odd types are critical.
constexpr bool isCritical(uint64_t type)
{
  return type <= 31 || (type & 1) != 0;
}

} // namespace tlv

/// Why a decode failed; each value is a drop reason with a stable name (reasonName()).
enum class DecodeErrc : uint8_t {
  Truncated,       ///< input ends inside a TLV
  BadVarNumber,    ///< VAR-NUMBER not in shortest form, or TLV-TYPE 0 / too large
  BadLength,       ///< TLV-LENGTH exceeds the enclosing value
  BadNonNegInt,    ///< NonNegativeInteger length not 1, 2, 4 or 8
  UnexpectedType,  ///< the outer TLV is not the expected element
  MissingElement,  ///< a required element is absent
  CriticalUnknown, ///< unrecognized or out-of-order critical element
  BadValue,        ///< an element's value violates the spec (e.g. Nonce not 4 octets)
  BadName,         ///< name component type out of [1, 65535] or bad digest length
  TrailingBytes,   ///< bytes after the outer TLV
};

std::string_view reasonName(DecodeErrc e);

struct DecodeError
{
  DecodeErrc code;
  uint32_t tlvType = 0; ///< the element being decoded when it failed, 0 if unknown
};

template<typename T>
using DecodeResult = Result<T, DecodeError>;

// --- encoding -----------------------------------------------------------------------------

size_t varNumberSize(uint64_t n);
void appendVarNumber(Buffer& out, uint64_t n);
/// Shortest NonNegativeInteger encoding: 1, 2, 4 or 8 octets.
size_t nonNegIntSize(uint64_t n);
void appendNonNegInt(Buffer& out, uint64_t n);
/// Size of a whole TLV with a value of `valueLength` octets.
inline size_t tlvSize(uint32_t type, size_t valueLength)
{
  return varNumberSize(type) + varNumberSize(valueLength) + valueLength;
}

void appendTlv(Buffer& out, uint32_t type, ByteSpan value);
void appendTlvNonNegInt(Buffer& out, uint32_t type, uint64_t n);
/// TLV with empty value (e.g. CanBePrefix).
void appendTlvEmpty(Buffer& out, uint32_t type);
/// Appends T and L for a value whose length is known; the caller appends the value.
void appendTlvHeader(Buffer& out, uint32_t type, size_t valueLength);

// --- decoding -----------------------------------------------------------------------------

/// One decoded TLV, pointing into the input.
struct Element
{
  uint32_t type = 0;
  ByteSpan value;
  ByteSpan wire; ///< T + L + V
};

/// Reads a VAR-NUMBER at `pos` (advanced on success), enforcing the shortest form.
DecodeResult<uint64_t> readVarNumber(ByteSpan in, size_t& pos);

/// Inline VAR-NUMBER parse for hot paths, same rules as readVarNumber: returns the number of
/// octets consumed, or 0 if the input is truncated or the number is not in shortest form.
inline size_t parseVarNumber(const uint8_t* p, size_t avail, uint64_t& n)
{
  if (avail == 0)
    return 0;
  uint8_t first = p[0];
  if (first < 253) {
    n = first;
    return 1;
  }
  size_t octets = first == 0xFD ? 2 : first == 0xFE ? 4 : 8;
  if (avail <= octets)
    return 0;
  uint64_t v = 0;
  for (size_t i = 1; i <= octets; ++i)
    v = (v << 8) | p[i];
  uint64_t minimum = octets == 2 ? 253 : octets == 4 ? 0x10000 : 0x100000000ULL;
  if (v < minimum)
    return 0;
  n = v;
  return octets + 1;
}
DecodeResult<uint64_t> readNonNegInt(ByteSpan value);
/// Reads a NonNegativeInteger element's value with the element type for error context.
DecodeResult<uint64_t> readNonNegInt(const Element& e);

/// Sequential reader over a run of TLVs; never throws.
class TlvReader
{
public:
  explicit TlvReader(ByteSpan in) : m_in(in) {}
  bool atEnd() const { return m_pos >= m_in.size(); }
  size_t position() const { return m_pos; }
  /// Reads the next element and advances.
  DecodeResult<Element> next()
  {
    // Fast path for well-formed input; errors are classified by nextSlow().
    const uint8_t* p = m_in.data() + m_pos;
    size_t avail = m_in.size() - m_pos;
    uint64_t type, length;
    size_t t = parseVarNumber(p, avail, type);
    size_t l = t != 0 ? parseVarNumber(p + t, avail - t, length) : 0;
    if (t == 0 || l == 0 || type == 0 || type > 0xFFFFFFFF || length > avail - t - l)
      return nextSlow();
    Element e;
    e.type = static_cast<uint32_t>(type);
    e.value = m_in.subspan(m_pos + t + l, length);
    e.wire = m_in.subspan(m_pos, t + l + length);
    m_pos += t + l + length;
    return e;
  }
  /// Type of the next element without advancing; 0 at end or on error.
  uint32_t peekType() const;

private:
  DecodeResult<Element> nextSlow();

  ByteSpan m_in;
  size_t m_pos = 0;
};

/// Decodes exactly one TLV occupying the whole input.
DecodeResult<Element> readSingleTlv(ByteSpan in);

/// Lowercase hex of bytes (logs, URIs, tests).
std::string toHex(ByteSpan bytes);
/// Parses hex, ignoring whitespace; returns false on a non-hex character or odd count.
bool fromHex(std::string_view hex, Buffer& out);

} // namespace ndnlab
