#include "core/lp/packet.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>

namespace ndnlab::lp {

namespace {

constexpr size_t FixedWidth = 8; // Sequence, Ack, TxSequence value length

void appendFixed64(Buffer& out, uint64_t n)
{
  for (size_t i = FixedWidth; i-- > 0;)
    out.push_back(static_cast<uint8_t>(n >> (8 * i)));
}

void appendTlvFixed64(Buffer& out, uint32_t type, uint64_t n)
{
  appendTlvHeader(out, type, FixedWidth);
  appendFixed64(out, n);
}

size_t nonNegIntTlvSize(uint32_t type, uint64_t n)
{
  return tlvSize(type, nonNegIntSize(n));
}

size_t nackValueSize(uint64_t reason)
{
  return reason == 0 ? 0 : nonNegIntTlvSize(tlv::NackReason, reason);
}

size_t cachePolicyValueSize(CachePolicyType t)
{
  return nonNegIntTlvSize(tlv::CachePolicyType, static_cast<uint64_t>(t));
}

LpDecodeError fieldError(LpErrc code, uint32_t type)
{
  return LpDecodeError{code, type};
}

Result<uint64_t, LpDecodeError> readFixed64(const Element& e)
{
  if (e.value.size() != FixedWidth)
    return fail(fieldError(LpErrc::BadFieldValue, e.type));
  uint64_t n = 0;
  for (uint8_t b : e.value)
    n = (n << 8) | b;
  return n;
}

Result<uint64_t, LpDecodeError> readNni(const Element& e)
{
  auto r = readNonNegInt(e.value);
  if (!r)
    return fail(fieldError(LpErrc::BadFieldValue, e.type));
  return *r;
}

/// Nack value: [NackReason]; other inner elements are ignored (ndn-cxx NackHeader).
Result<uint64_t, LpDecodeError> readNackValue(const Element& e)
{
  TlvReader r(e.value);
  uint64_t reason = 0;
  bool seen = false;
  while (!r.atEnd()) {
    auto inner = r.next();
    if (!inner)
      return fail(fieldError(LpErrc::BadFieldValue, e.type));
    if (inner->type == tlv::NackReason && !seen) {
      auto n = readNonNegInt(inner->value);
      if (!n)
        return fail(fieldError(LpErrc::BadFieldValue, tlv::NackReason));
      reason = *n;
      seen = true;
    }
  }
  return reason;
}

/// CachePolicy value: CachePolicyType, which must be a known type (only NoCache).
Result<CachePolicyType, LpDecodeError> readCachePolicyValue(const Element& e)
{
  TlvReader r(e.value);
  std::optional<uint64_t> type;
  while (!r.atEnd()) {
    auto inner = r.next();
    if (!inner)
      return fail(fieldError(LpErrc::BadFieldValue, e.type));
    if (inner->type == tlv::CachePolicyType && !type) {
      auto n = readNonNegInt(inner->value);
      if (!n)
        return fail(fieldError(LpErrc::BadFieldValue, tlv::CachePolicyType));
      type = *n;
    }
  }
  if (!type || *type != static_cast<uint64_t>(CachePolicyType::NoCache))
    return fail(fieldError(LpErrc::BadFieldValue, tlv::CachePolicyType));
  return CachePolicyType::NoCache;
}

/// BundleTag value: [BundleRetransmission (empty)] BundleCwnd; other inner elements ignored.
/// A Cwnd above 2^32-1 saturates.
Result<BundleTag, LpDecodeError> readBundleTagValue(const Element& e)
{
  TlvReader r(e.value);
  BundleTag tag;
  bool retxSeen = false;
  std::optional<uint64_t> cwnd;
  while (!r.atEnd()) {
    auto inner = r.next();
    if (!inner)
      return fail(fieldError(LpErrc::BadFieldValue, e.type));
    if (inner->type == tlv::BundleRetransmission && !retxSeen) {
      retxSeen = true;
      tag.retransmission = true;
    }
    else if (inner->type == tlv::BundleCwnd && !cwnd) {
      auto n = readNonNegInt(inner->value);
      if (!n)
        return fail(fieldError(LpErrc::BadFieldValue, tlv::BundleCwnd));
      cwnd = *n;
    }
  }
  if (!cwnd)
    return fail(fieldError(LpErrc::BadFieldValue, e.type));
  tag.cwnd = static_cast<uint32_t>(std::min<uint64_t>(*cwnd, UINT32_MAX));
  return tag;
}

/// BundleHeader value: BundleStartSeq BundleEndSeq [BundleFlow]; EndSeq >= StartSeq; a flow
/// above 2^32-1 is invalid; other inner elements ignored.
Result<BundleHeader, LpDecodeError> readBundleHeaderValue(const Element& e)
{
  TlvReader r(e.value);
  std::optional<uint64_t> start, end, flow;
  while (!r.atEnd()) {
    auto inner = r.next();
    if (!inner)
      return fail(fieldError(LpErrc::BadFieldValue, e.type));
    std::optional<uint64_t>* slot = inner->type == tlv::BundleStartSeq ? &start
                                    : inner->type == tlv::BundleEndSeq ? &end
                                    : inner->type == tlv::BundleFlow   ? &flow
                                                                       : nullptr;
    if (slot == nullptr || slot->has_value())
      continue;
    auto n = readNonNegInt(inner->value);
    if (!n)
      return fail(fieldError(LpErrc::BadFieldValue, inner->type));
    *slot = *n;
  }
  if (!start || !end || *end < *start || flow.value_or(0) > UINT32_MAX)
    return fail(fieldError(LpErrc::BadFieldValue, e.type));
  return BundleHeader{*start, *end, static_cast<uint32_t>(flow.value_or(0))};
}

size_t bundleTagValueSize(const BundleTag& t)
{
  return (t.retransmission ? tlvSize(tlv::BundleRetransmission, 0) : 0) + nonNegIntTlvSize(tlv::BundleCwnd, t.cwnd);
}

size_t bundleHeaderValueSize(const BundleHeader& h)
{
  return nonNegIntTlvSize(tlv::BundleStartSeq, h.startSeq) + nonNegIntTlvSize(tlv::BundleEndSeq, h.endSeq) +
         (h.flow != 0 ? nonNegIntTlvSize(tlv::BundleFlow, h.flow) : 0);
}

/// Stores one known header field into `pkt`.
Result<bool, LpDecodeError> decodeField(const Element& e, LpPacket& pkt)
{
  switch (e.type) {
    case tlv::Sequence: {
      auto v = readFixed64(e);
      if (!v)
        return fail(v.error());
      pkt.sequence = *v;
      return true;
    }
    case tlv::FragIndex: {
      auto v = readNni(e);
      if (!v)
        return fail(v.error());
      pkt.fragIndex = *v;
      return true;
    }
    case tlv::FragCount: {
      auto v = readNni(e);
      if (!v)
        return fail(v.error());
      pkt.fragCount = *v;
      return true;
    }
    case tlv::PitToken: {
      if (e.value.empty() || e.value.size() > PitToken::MaxSize)
        return fail(fieldError(LpErrc::BadFieldValue, e.type));
      PitToken t;
      t.size = static_cast<uint8_t>(e.value.size());
      std::copy(e.value.begin(), e.value.end(), t.bytes.begin());
      pkt.pitToken = t;
      return true;
    }
    case tlv::LpNack: {
      auto v = readNackValue(e);
      if (!v)
        return fail(v.error());
      pkt.nack = *v;
      return true;
    }
    case tlv::IncomingFaceId: {
      auto v = readNni(e);
      if (!v)
        return fail(v.error());
      pkt.incomingFaceId = *v;
      return true;
    }
    case tlv::NextHopFaceId: {
      auto v = readNni(e);
      if (!v)
        return fail(v.error());
      pkt.nextHopFaceId = *v;
      return true;
    }
    case tlv::CachePolicy: {
      auto v = readCachePolicyValue(e);
      if (!v)
        return fail(v.error());
      pkt.cachePolicy = *v;
      return true;
    }
    case tlv::CongestionMark: {
      auto v = readNni(e);
      if (!v)
        return fail(v.error());
      pkt.congestionMark = *v;
      return true;
    }
    case tlv::Ack: {
      auto v = readFixed64(e);
      if (!v)
        return fail(v.error());
      pkt.acks.push_back(*v);
      return true;
    }
    case tlv::TxSequence: {
      auto v = readFixed64(e);
      if (!v)
        return fail(v.error());
      pkt.txSequence = *v;
      return true;
    }
    case tlv::NonDiscovery:
      if (!e.value.empty())
        return fail(fieldError(LpErrc::BadFieldValue, e.type));
      pkt.nonDiscovery = true;
      return true;
    case tlv::PrefixAnnouncement: pkt.prefixAnnouncement = Buffer(e.value.begin(), e.value.end()); return true;
    case tlv::BundleTag: {
      auto v = readBundleTagValue(e);
      if (!v)
        return fail(v.error());
      pkt.bundleTag = *v;
      return true;
    }
    case tlv::BundleHeader: {
      auto v = readBundleHeaderValue(e);
      if (!v)
        return fail(v.error());
      pkt.bundle = *v;
      return true;
    }
    case tlv::MirccRate: {
      auto v = readNni(e);
      if (!v)
        return fail(v.error());
      pkt.mirccRate = fromWireRate(*v);
      return true;
    }
    default: return false; // not a known field
  }
}

} // namespace

uint64_t toWireRate(Rate r)
{
  const double bps = std::floor(r.bps());
  if (!(bps > 0)) // also NaN
    return 0;
  constexpr double TwoTo64 = 18446744073709551616.0;
  return bps >= TwoTo64 ? UINT64_MAX : static_cast<uint64_t>(bps);
}

Rate fromWireRate(uint64_t bitsPerSecond)
{
  return Rate::bitsPerSecond(static_cast<double>(bitsPerSecond));
}

bool isKnownHeaderField(uint32_t type)
{
  switch (type) {
    case tlv::Sequence:
    case tlv::FragIndex:
    case tlv::FragCount:
    case tlv::PitToken:
    case tlv::LpNack:
    case tlv::IncomingFaceId:
    case tlv::NextHopFaceId:
    case tlv::CachePolicy:
    case tlv::CongestionMark:
    case tlv::Ack:
    case tlv::TxSequence:
    case tlv::NonDiscovery:
    case tlv::PrefixAnnouncement:
    case tlv::BundleTag:
    case tlv::BundleHeader:
    case tlv::MirccRate: return true;
    default: return false;
  }
}

bool LpPacket::hasHeaderFields() const
{
  return sequence || fragIndex || fragCount || pitToken || nack || incomingFaceId || nextHopFaceId || cachePolicy ||
         congestionMark || !acks.empty() || txSequence || nonDiscovery || prefixAnnouncement || bundleTag || bundle ||
         mirccRate;
}

void LpPacket::clearHeaderFields()
{
  auto frag = fragment;
  bool wasBare = bare;
  *this = LpPacket{};
  fragment = frag;
  bare = wasBare;
}

DropReason dropReason(LpErrc e)
{
  switch (e) {
    case LpErrc::Malformed: return DropReason::LpMalformed;
    case LpErrc::UnknownType: return DropReason::UnknownPacketType;
    case LpErrc::UnknownCriticalField: return DropReason::LpUnknownCriticalField;
    case LpErrc::FieldOutOfOrder: return DropReason::LpFieldOutOfOrder;
    case LpErrc::FieldRepeated: return DropReason::LpFieldRepeated;
    case LpErrc::BadFieldValue: return DropReason::LpBadFieldValue;
  }
  return DropReason::LpMalformed;
}

Result<LpPacket, LpDecodeError> decodeFrame(ByteSpan frame)
{
  auto outer = readSingleTlv(frame);
  if (!outer)
    return fail(LpDecodeError{LpErrc::Malformed, outer.error().tlvType});

  LpPacket pkt;
  if (outer->type == tlv::Interest || outer->type == tlv::Data) {
    pkt.fragment = frame;
    pkt.bare = true;
    return pkt;
  }
  if (outer->type != tlv::LpPacket)
    return fail(LpDecodeError{LpErrc::UnknownType, outer->type});

  TlvReader reader(outer->value);
  uint32_t prevType = 0; // previous header field type; 0 before the first
  while (!reader.atEnd()) {
    auto e = reader.next();
    if (!e)
      return fail(LpDecodeError{LpErrc::Malformed, e.error().tlvType});
    if (pkt.fragment) // nothing may follow Fragment
      return fail(fieldError(LpErrc::FieldOutOfOrder, e->type));

    if (e->type == tlv::Fragment) {
      pkt.fragment = e->value;
      continue;
    }

    bool known = isKnownHeaderField(e->type);
    if (!known && !canIgnoreUnknownField(e->type))
      return fail(fieldError(LpErrc::UnknownCriticalField, e->type));
    if (e->type == prevType) {
      if (e->type != tlv::Ack)
        return fail(fieldError(LpErrc::FieldRepeated, e->type));
    }
    else if (e->type < prevType) {
      return fail(fieldError(LpErrc::FieldOutOfOrder, e->type));
    }
    prevType = e->type;

    if (known) {
      auto r = decodeField(*e, pkt);
      if (!r)
        return fail(r.error());
    }
  }
  return pkt;
}

size_t headerFieldsSize(const LpPacket& pkt)
{
  size_t n = 0;
  if (pkt.sequence)
    n += tlvSize(tlv::Sequence, FixedWidth);
  if (pkt.fragIndex)
    n += nonNegIntTlvSize(tlv::FragIndex, *pkt.fragIndex);
  if (pkt.fragCount)
    n += nonNegIntTlvSize(tlv::FragCount, *pkt.fragCount);
  if (pkt.pitToken)
    n += tlvSize(tlv::PitToken, pkt.pitToken->size);
  if (pkt.nack)
    n += tlvSize(tlv::LpNack, nackValueSize(*pkt.nack));
  if (pkt.incomingFaceId)
    n += nonNegIntTlvSize(tlv::IncomingFaceId, *pkt.incomingFaceId);
  if (pkt.nextHopFaceId)
    n += nonNegIntTlvSize(tlv::NextHopFaceId, *pkt.nextHopFaceId);
  if (pkt.cachePolicy)
    n += tlvSize(tlv::CachePolicy, cachePolicyValueSize(*pkt.cachePolicy));
  if (pkt.congestionMark)
    n += nonNegIntTlvSize(tlv::CongestionMark, *pkt.congestionMark);
  n += pkt.acks.size() * tlvSize(tlv::Ack, FixedWidth);
  if (pkt.txSequence)
    n += tlvSize(tlv::TxSequence, FixedWidth);
  if (pkt.nonDiscovery)
    n += tlvSize(tlv::NonDiscovery, 0);
  if (pkt.prefixAnnouncement)
    n += tlvSize(tlv::PrefixAnnouncement, pkt.prefixAnnouncement->size());
  if (pkt.bundleTag)
    n += tlvSize(tlv::BundleTag, bundleTagValueSize(*pkt.bundleTag));
  if (pkt.bundle)
    n += tlvSize(tlv::BundleHeader, bundleHeaderValueSize(*pkt.bundle));
  if (pkt.mirccRate)
    n += nonNegIntTlvSize(tlv::MirccRate, toWireRate(*pkt.mirccRate));
  return n;
}

static size_t valueSize(const LpPacket& pkt)
{
  size_t n = headerFieldsSize(pkt);
  if (pkt.fragment)
    n += tlvSize(tlv::Fragment, pkt.fragment->size());
  return n;
}

size_t encodedSize(const LpPacket& pkt)
{
  return tlvSize(tlv::LpPacket, valueSize(pkt));
}

void encodeTo(const LpPacket& pkt, Buffer& out)
{
  appendTlvHeader(out, tlv::LpPacket, valueSize(pkt));
  if (pkt.sequence)
    appendTlvFixed64(out, tlv::Sequence, *pkt.sequence);
  if (pkt.fragIndex)
    appendTlvNonNegInt(out, tlv::FragIndex, *pkt.fragIndex);
  if (pkt.fragCount)
    appendTlvNonNegInt(out, tlv::FragCount, *pkt.fragCount);
  if (pkt.pitToken)
    appendTlv(out, tlv::PitToken, pkt.pitToken->view());
  if (pkt.nack) {
    appendTlvHeader(out, tlv::LpNack, nackValueSize(*pkt.nack));
    if (*pkt.nack != 0)
      appendTlvNonNegInt(out, tlv::NackReason, *pkt.nack);
  }
  if (pkt.incomingFaceId)
    appendTlvNonNegInt(out, tlv::IncomingFaceId, *pkt.incomingFaceId);
  if (pkt.nextHopFaceId)
    appendTlvNonNegInt(out, tlv::NextHopFaceId, *pkt.nextHopFaceId);
  if (pkt.cachePolicy) {
    appendTlvHeader(out, tlv::CachePolicy, cachePolicyValueSize(*pkt.cachePolicy));
    appendTlvNonNegInt(out, tlv::CachePolicyType, static_cast<uint64_t>(*pkt.cachePolicy));
  }
  if (pkt.congestionMark)
    appendTlvNonNegInt(out, tlv::CongestionMark, *pkt.congestionMark);
  for (uint64_t ack : pkt.acks)
    appendTlvFixed64(out, tlv::Ack, ack);
  if (pkt.txSequence)
    appendTlvFixed64(out, tlv::TxSequence, *pkt.txSequence);
  if (pkt.nonDiscovery)
    appendTlvEmpty(out, tlv::NonDiscovery);
  if (pkt.prefixAnnouncement)
    appendTlv(out, tlv::PrefixAnnouncement, *pkt.prefixAnnouncement);
  if (pkt.bundleTag) {
    appendTlvHeader(out, tlv::BundleTag, bundleTagValueSize(*pkt.bundleTag));
    if (pkt.bundleTag->retransmission)
      appendTlvEmpty(out, tlv::BundleRetransmission);
    appendTlvNonNegInt(out, tlv::BundleCwnd, pkt.bundleTag->cwnd);
  }
  if (pkt.bundle) {
    appendTlvHeader(out, tlv::BundleHeader, bundleHeaderValueSize(*pkt.bundle));
    appendTlvNonNegInt(out, tlv::BundleStartSeq, pkt.bundle->startSeq);
    appendTlvNonNegInt(out, tlv::BundleEndSeq, pkt.bundle->endSeq);
    if (pkt.bundle->flow != 0)
      appendTlvNonNegInt(out, tlv::BundleFlow, pkt.bundle->flow);
  }
  if (pkt.mirccRate)
    appendTlvNonNegInt(out, tlv::MirccRate, toWireRate(*pkt.mirccRate));
  if (pkt.fragment)
    appendTlv(out, tlv::Fragment, *pkt.fragment);
}

SharedBuffer encode(const LpPacket& pkt)
{
  auto buf = std::make_shared<Buffer>();
  buf->reserve(encodedSize(pkt));
  encodeTo(pkt, *buf);
  return buf;
}

} // namespace ndnlab::lp
