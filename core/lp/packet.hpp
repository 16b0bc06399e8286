#pragma once
// NDNLPv2 packet model and codec (ndn-spec-facts.md section 2.1-2.3; numbers in
// core/codec/tlv.hpp and docs/wire-format.md).
//
//   LpPacket(100) = *LpHeaderField [Fragment(80)]
//
// Header fields appear in increasing TLV-TYPE order, Fragment last; only Ack repeats.
// An unknown field may be ignored only if its type is in [800, 959] and type % 4 == 0;
// any other unknown field drops the whole packet. A bare Interest or Data frame is
// accepted as an LpPacket whose Fragment is that packet; an LpPacket without Fragment
// is an IDLE packet. Decoding never throws.

#include "core/runtime/events.hpp"
#include "core/codec/tags.hpp"
#include "core/codec/tlv.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace ndnlab::lp {

/// CachePolicyType values (NDNLPv2); 0 is invalid.
enum class CachePolicyType : uint64_t { NoCache = 1 };

/// Fields that a legacy receiver may ignore: type in [800, 959] and type % 4 == 0.
constexpr bool canIgnoreUnknownField(uint64_t type)
{
  return type >= 800 && type <= 959 && (type & 0x3) == 0;
}

/// True for the header field types this codec understands (Fragment excluded).
bool isKnownHeaderField(uint32_t type);

/// MirccRate(888) value of `r`: whole bits per second, rounded down (a stamped rate never
/// grows on the wire); negative or NaN rates are 0, rates of 2^64 bit/s or more saturate.
uint64_t toWireRate(Rate r);
/// The rate of a MirccRate(888) value (exact below 2^53 bit/s).
Rate fromWireRate(uint64_t bitsPerSecond);

/// BLEnD bundle header (docs/mechanisms/bundling.md): the Interest in this frame, whose last
/// name component is segment `startSeq`, stands for segments startSeq..endSeq of its prefix.
/// startSeq == endSeq is a single Interest (a retransmission, or a bundle of one).
struct BundleHeader
{
  uint64_t startSeq = 0; ///< SS
  uint64_t endSeq = 0;   ///< ES, >= startSeq
  /// Identifies the sender's EIT entry; a new value tells the decoder to restart its state
  /// for the prefix. 0 = absent.
  uint32_t flow = 0;

  bool isSingle() const { return startSeq == endSeq; }
  /// Number of Interests the frame stands for (saturates at UINT64_MAX).
  uint64_t span() const { return endSeq - startSeq == UINT64_MAX ? UINT64_MAX : endSeq - startSeq + 1; }
  bool operator==(const BundleHeader&) const = default;
};

/// One NDNLPv2 packet. Header fields are optional; `fragment` and the decoded byte views
/// point into the frame given to decodeFrame() (or, when encoding, into the caller's
/// network packet) and are valid only while that buffer lives.
struct LpPacket
{
  // --- header fields, in wire order ---
  std::optional<uint64_t> sequence;  ///< Sequence(81), fixed 8 octets
  std::optional<uint64_t> fragIndex; ///< FragIndex(82), default 0
  std::optional<uint64_t> fragCount; ///< FragCount(83), default 1
  std::optional<PitToken> pitToken;  ///< PitToken(98), 1..32 octets
  /// Nack(800) present; the value is the NackReason(801) code, 0 (None) when absent.
  /// Unknown codes are kept as received (the link service maps them to None).
  std::optional<uint64_t> nack;
  std::optional<uint64_t> incomingFaceId;     ///< IncomingFaceId(812)
  std::optional<uint64_t> nextHopFaceId;      ///< NextHopFaceId(816)
  std::optional<CachePolicyType> cachePolicy; ///< CachePolicy(820){CachePolicyType(821)}
  std::optional<uint64_t> congestionMark;     ///< CongestionMark(832)
  std::vector<uint64_t> acks;                 ///< Ack(836), repeatable, fixed 8 octets each
  std::optional<uint64_t> txSequence;         ///< TxSequence(840), fixed 8 octets
  bool nonDiscovery = false;                  ///< NonDiscovery(844), empty value
  /// PrefixAnnouncement(848) TLV-VALUE (a PA Data packet, not validated here).
  std::optional<Buffer> prefixAnnouncement;
  /// BundleTag(880){[BundleRetransmission(881)] BundleCwnd(882)}: the consumer's hint for
  /// the Interest bundler, app -> forwarder hop only.
  std::optional<BundleTag> bundleTag;
  /// BundleHeader(884){BundleStartSeq(885) BundleEndSeq(886) [BundleFlow(887)]}.
  std::optional<BundleHeader> bundle;
  /// MirccRate(888): MIRCC explicit rate, NonNegativeInteger in bit/s on the wire
  /// (docs/mechanisms/mircc.md); encoded rounded down, see toWireRate().
  std::optional<Rate> mirccRate;

  // --- payload ---
  /// Fragment(80) value: a whole or partial network packet; nullopt = IDLE packet.
  std::optional<ByteSpan> fragment;
  /// Set by decodeFrame() when the frame was a bare Interest/Data (no LpPacket wrapper).
  bool bare = false;

  bool isIdle() const { return !fragment.has_value(); }
  /// True if FragIndex or FragCount is present (the packet claims to be a fragment).
  bool hasFragmentationFields() const { return fragIndex.has_value() || fragCount.has_value(); }
  /// True if any header field is set (a packet without any can be sent bare).
  bool hasHeaderFields() const;
  /// Clears every header field (keeps fragment).
  void clearHeaderFields();
};

/// Why a frame was not accepted as an LpPacket; stable names via dropReason().
enum class LpErrc : uint8_t {
  Malformed,            ///< TLV framing error: truncated, bad VAR-NUMBER/length, trailing bytes
  UnknownType,          ///< outer TLV is neither LpPacket, Interest nor Data
  UnknownCriticalField, ///< unknown field outside [800,959] or with type % 4 != 0
  FieldOutOfOrder,      ///< fields not in increasing order, or anything after Fragment
  FieldRepeated,        ///< a non-repeatable field appears twice
  BadFieldValue,        ///< e.g. Sequence not 8 octets, PitToken length 0 or > 32, CachePolicyType 0,
                        ///< BundleHeader without StartSeq/EndSeq or with EndSeq < StartSeq
};

/// The drop reason of `e` (core/runtime/events.hpp).
DropReason dropReason(LpErrc e);
inline std::string_view reasonName(LpErrc e)
{
  return toString(dropReason(e));
}

struct LpDecodeError
{
  LpErrc code;
  uint32_t fieldType = 0; ///< offending field type, 0 if not field-specific
};

/// Decodes one link frame: an LpPacket, or a bare Interest/Data returned as an LpPacket with
/// `bare` set and `fragment` spanning the whole frame. The network packet inside is not
/// decoded here. Never throws.
Result<LpPacket, LpDecodeError> decodeFrame(ByteSpan frame);

/// Octets of the encoded header fields (everything but the LpPacket T/L and the Fragment).
size_t headerFieldsSize(const LpPacket& pkt);
/// Octets of the whole encoded LpPacket.
size_t encodedSize(const LpPacket& pkt);
/// Appends the LpPacket TLV (fields in increasing order, Fragment last) to `out`.
void encodeTo(const LpPacket& pkt, Buffer& out);
/// Encodes into a new buffer of exactly encodedSize(pkt) octets.
SharedBuffer encode(const LpPacket& pkt);

} // namespace ndnlab::lp
