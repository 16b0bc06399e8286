#include "core/codec/data.hpp"
#include "core/codec/packet-decode.hpp"

#include <openssl/evp.h>

namespace ndnlab {

std::array<uint8_t, 32> sha256(ByteSpan bytes)
{
  std::array<uint8_t, 32> out{};
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), out.data(), &len, EVP_sha256(), nullptr);
  return out;
}

namespace {

int dataOrder(uint32_t type)
{
  switch (type) {
    case tlv::MetaInfo: return 1;
    case tlv::Content: return 2;
    case tlv::SignatureInfo: return 3;
    case tlv::SignatureValue: return 4;
    default: return 0;
  }
}

int metaInfoOrder(uint32_t type)
{
  switch (type) {
    case tlv::ContentType: return 1;
    case tlv::FreshnessPeriod: return 2;
    case tlv::FinalBlockId: return 3;
    default: return 0;
  }
}

} // namespace

// --- decoding --------------------------------------------------------------------------------

DecodeResult<Data> Data::decode(ByteSpan wire)
{
  return decode(std::make_shared<const Buffer>(wire.begin(), wire.end()));
}

DecodeResult<Data> Data::decode(SharedBuffer wire)
{
  auto outer = codec::readOuterTlv(wire, tlv::Data);
  if (!outer)
    return fail(outer.error());
  Data data;
  auto ok = data.decodeValue(outer->value);
  if (!ok)
    return fail(ok.error());
  // Views in decodeValue point into *wire; record the owner and the signed-portion offsets.
  if (data.m_hasContent)
    data.m_contentOwner = wire;
  data.m_sigValueOwner = wire;
  data.m_signedBegin = static_cast<uint32_t>(outer->value.data() - wire->data());
  data.m_signedEnd = static_cast<uint32_t>(data.m_signedEnd + data.m_signedBegin);
  data.m_wire = std::move(wire);
  return data;
}

DecodeResult<bool> Data::decodeValue(ByteSpan value)
{
  TlvReader r(value);
  auto name = codec::readLeadingName(r);
  if (!name)
    return fail(name.error());
  m_name = std::move(*name);

  int last = 0;
  bool hasSigInfo = false, hasSigValue = false;
  while (!r.atEnd()) {
    size_t start = r.position();
    auto e = r.next();
    if (!e)
      return fail(e.error());
    auto accept = codec::acceptInOrder(e->type, dataOrder(e->type), last);
    if (!accept)
      return fail(accept.error());
    if (!*accept)
      continue;
    switch (e->type) {
      case tlv::MetaInfo: {
        auto ok = decodeMetaInfo(e->value);
        if (!ok)
          return fail(ok.error());
        break;
      }
      case tlv::Content:
        m_content = e->value;
        m_hasContent = true;
        break;
      case tlv::SignatureInfo: {
        auto si = SignatureInfo::fromValue(e->value);
        if (!si)
          return fail(si.error());
        m_sigInfo = std::move(*si);
        hasSigInfo = true;
        break;
      }
      case tlv::SignatureValue:
        m_sigValue = e->value;
        m_signedEnd = static_cast<uint32_t>(start); // relative to value; rebased by decode()
        hasSigValue = true;
        break;
    }
  }
  if (!hasSigInfo)
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::SignatureInfo});
  if (!hasSigValue)
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::SignatureValue});
  return true;
}

DecodeResult<bool> Data::decodeMetaInfo(ByteSpan value)
{
  TlvReader r(value);
  int last = 0;
  while (!r.atEnd()) {
    auto e = r.next();
    if (!e)
      return fail(e.error());
    auto accept = codec::acceptInOrder(e->type, metaInfoOrder(e->type), last);
    if (!accept)
      return fail(accept.error());
    if (!*accept)
      continue;
    switch (e->type) {
      case tlv::ContentType: {
        auto n = readNonNegInt(*e);
        if (!n)
          return fail(n.error());
        m_contentType = *n;
        break;
      }
      case tlv::FreshnessPeriod: {
        auto n = readNonNegInt(*e);
        if (!n)
          return fail(n.error());
        m_freshness = codec::millisToDuration(*n);
        break;
      }
      case tlv::FinalBlockId: {
        // Exactly one name component.
        auto c = readSingleTlv(e->value);
        if (!c)
          return fail(DecodeError{DecodeErrc::BadValue, tlv::FinalBlockId});
        auto check = Name::fromValue(c->wire);
        if (!check)
          return fail(check.error());
        m_finalBlockId.assign(c->wire.begin(), c->wire.end());
        break;
      }
    }
  }
  return true;
}

// --- accessors and setters -------------------------------------------------------------------

std::optional<ComponentRef> Data::finalBlockId() const
{
  if (m_finalBlockId.empty())
    return std::nullopt;
  ByteSpan wire(m_finalBlockId);
  size_t pos = 0;
  auto type = readVarNumber(wire, pos);
  auto len = readVarNumber(wire, pos);
  if (!type || !len)
    return std::nullopt;
  return ComponentRef(static_cast<uint32_t>(*type), wire.subspan(pos), wire);
}

Data& Data::setFinalBlockId(std::optional<ComponentRef> c)
{
  if (c)
    m_finalBlockId.assign(c->wire().begin(), c->wire().end());
  else
    m_finalBlockId.clear();
  invalidate();
  return *this;
}

std::optional<uint64_t> Data::finalBlockSegment() const
{
  auto c = finalBlockId();
  if (!c || c->type() != tlv::SegmentNameComponent)
    return std::nullopt;
  return c->toNumber();
}

Data& Data::setContent(ByteSpan bytes)
{
  auto owner = std::make_shared<const Buffer>(bytes.begin(), bytes.end());
  return setContent(std::move(owner));
}

Data& Data::setContent(SharedBuffer bytes)
{
  m_content = bytes ? ByteSpan(*bytes) : ByteSpan();
  m_hasContent = bytes != nullptr;
  m_contentOwner = std::move(bytes);
  invalidate();
  return *this;
}

Data& Data::setContent(SharedBuffer owner, ByteSpan view)
{
  m_content = view;
  m_hasContent = true;
  m_contentOwner = std::move(owner);
  invalidate();
  return *this;
}

Data& Data::setSignatureValue(Buffer v)
{
  auto owner = std::make_shared<const Buffer>(std::move(v));
  m_sigValue = ByteSpan(*owner);
  m_sigValueOwner = std::move(owner);
  invalidate();
  return *this;
}

// --- encoding --------------------------------------------------------------------------------

SharedBuffer Data::wireEncode() const
{
  if (m_wire)
    return m_wire;

  size_t metaLen = 0;
  if (m_contentType != 0)
    metaLen += tlvSize(tlv::ContentType, nonNegIntSize(m_contentType));
  uint64_t freshMs = codec::durationToMillis(m_freshness);
  if (freshMs != 0)
    metaLen += tlvSize(tlv::FreshnessPeriod, nonNegIntSize(freshMs));
  if (!m_finalBlockId.empty())
    metaLen += tlvSize(tlv::FinalBlockId, m_finalBlockId.size());

  Buffer sigInfo;
  m_sigInfo.encodeTo(sigInfo, tlv::SignatureInfo);

  size_t len = m_name.wireSize();
  if (metaLen != 0)
    len += tlvSize(tlv::MetaInfo, metaLen);
  if (m_hasContent)
    len += tlvSize(tlv::Content, m_content.size());
  len += sigInfo.size();
  len += tlvSize(tlv::SignatureValue, m_sigValue.size());

  auto out = std::make_shared<Buffer>();
  out->reserve(tlvSize(tlv::Data, len));
  appendTlvHeader(*out, tlv::Data, len);
  m_signedBegin = static_cast<uint32_t>(out->size());
  m_name.encodeTo(*out);
  if (metaLen != 0) {
    appendTlvHeader(*out, tlv::MetaInfo, metaLen);
    if (m_contentType != 0)
      appendTlvNonNegInt(*out, tlv::ContentType, m_contentType);
    if (freshMs != 0)
      appendTlvNonNegInt(*out, tlv::FreshnessPeriod, freshMs);
    if (!m_finalBlockId.empty())
      appendTlv(*out, tlv::FinalBlockId, m_finalBlockId);
  }
  if (m_hasContent)
    appendTlv(*out, tlv::Content, m_content);
  out->insert(out->end(), sigInfo.begin(), sigInfo.end());
  m_signedEnd = static_cast<uint32_t>(out->size());
  appendTlv(*out, tlv::SignatureValue, m_sigValue);
  m_wire = std::move(out);
  return m_wire;
}

ByteSpan Data::signedPortionView() const
{
  const Buffer& wire = *wireEncode();
  return ByteSpan(wire).subspan(m_signedBegin, m_signedEnd - m_signedBegin);
}

Buffer Data::signedPortion() const
{
  ByteSpan v = signedPortionView();
  return Buffer(v.begin(), v.end());
}

const std::array<uint8_t, 32>& Data::implicitDigest() const
{
  if (!m_digest)
    m_digest = sha256(*wireEncode());
  return *m_digest;
}

Name Data::fullName() const
{
  Name n = m_name;
  n.appendImplicitDigest(implicitDigest());
  return n;
}

} // namespace ndnlab
