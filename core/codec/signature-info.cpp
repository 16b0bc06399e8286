#include "core/codec/signature-info.hpp"

namespace ndnlab {

DecodeResult<SignatureInfo> SignatureInfo::fromValue(ByteSpan value)
{
  SignatureInfo si;
  TlvReader r(value);
  auto first = r.next();
  if (!first)
    return fail(first.error());
  if (first->type != tlv::SignatureType)
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::SignatureType});
  auto t = readNonNegInt(*first);
  if (!t)
    return fail(t.error());
  if (*t > UINT32_MAX)
    return fail(DecodeError{DecodeErrc::BadValue, tlv::SignatureType});
  si.type = static_cast<uint32_t>(*t);

  // Elements after SignatureType may come in any order, each at most once; a repeated
  // element is treated as unrecognized (error if critical, skipped otherwise).
  while (!r.atEnd()) {
    auto e = r.next();
    if (!e)
      return fail(e.error());
    bool repeated = (e->type == tlv::KeyLocator && si.keyLocator) || (e->type == tlv::SignatureNonce && si.nonce) ||
                    (e->type == tlv::SignatureTime && si.time) || (e->type == tlv::SignatureSeqNum && si.seqNum) ||
                    (e->type == tlv::ValidityPeriod && si.validityPeriod);
    if (repeated) {
      if (tlv::isCritical(e->type))
        return fail(DecodeError{DecodeErrc::CriticalUnknown, e->type});
      continue;
    }
    switch (e->type) {
      case tlv::KeyLocator: {
        auto inner = readSingleTlv(e->value);
        if (!inner)
          return fail(DecodeError{e->value.empty() ? DecodeErrc::BadValue : inner.error().code, tlv::KeyLocator});
        if (inner->type == tlv::Name) {
          auto name = Name::fromValue(inner->value);
          if (!name)
            return fail(name.error());
          si.keyLocator = std::move(*name);
        }
        else if (inner->type == tlv::KeyDigest) {
          si.keyLocator = KeyDigest{Buffer(inner->value.begin(), inner->value.end())};
        }
        else {
          return fail(DecodeError{DecodeErrc::BadValue, tlv::KeyLocator});
        }
        break;
      }
      case tlv::SignatureNonce:
        if (e->value.empty())
          return fail(DecodeError{DecodeErrc::BadValue, e->type});
        si.nonce = Buffer(e->value.begin(), e->value.end());
        break;
      case tlv::SignatureTime: {
        auto n = readNonNegInt(*e);
        if (!n)
          return fail(n.error());
        si.time = *n;
        break;
      }
      case tlv::SignatureSeqNum: {
        auto n = readNonNegInt(*e);
        if (!n)
          return fail(n.error());
        si.seqNum = *n;
        break;
      }
      case tlv::ValidityPeriod: si.validityPeriod = Buffer(e->value.begin(), e->value.end()); break;
      default:
        if (tlv::isCritical(e->type))
          return fail(DecodeError{DecodeErrc::CriticalUnknown, e->type});
        break;
    }
  }
  return si;
}

void SignatureInfo::encodeTo(Buffer& out, uint32_t outerType) const
{
  size_t len = tlvSize(tlv::SignatureType, nonNegIntSize(type));
  size_t klValue = 0;
  if (keyLocator) {
    if (const Name* n = std::get_if<Name>(&*keyLocator))
      klValue = n->wireSize();
    else
      klValue = tlvSize(tlv::KeyDigest, std::get<KeyDigest>(*keyLocator).bytes.size());
    len += tlvSize(tlv::KeyLocator, klValue);
  }
  if (validityPeriod)
    len += tlvSize(tlv::ValidityPeriod, validityPeriod->size());
  if (nonce)
    len += tlvSize(tlv::SignatureNonce, nonce->size());
  if (time)
    len += tlvSize(tlv::SignatureTime, nonNegIntSize(*time));
  if (seqNum)
    len += tlvSize(tlv::SignatureSeqNum, nonNegIntSize(*seqNum));

  out.reserve(out.size() + tlvSize(outerType, len));
  appendTlvHeader(out, outerType, len);
  appendTlvNonNegInt(out, tlv::SignatureType, type);
  if (keyLocator) {
    appendTlvHeader(out, tlv::KeyLocator, klValue);
    if (const Name* n = std::get_if<Name>(&*keyLocator))
      n->encodeTo(out);
    else
      appendTlv(out, tlv::KeyDigest, std::get<KeyDigest>(*keyLocator).bytes);
  }
  if (validityPeriod)
    appendTlv(out, tlv::ValidityPeriod, *validityPeriod);
  if (nonce)
    appendTlv(out, tlv::SignatureNonce, *nonce);
  if (time)
    appendTlvNonNegInt(out, tlv::SignatureTime, *time);
  if (seqNum)
    appendTlvNonNegInt(out, tlv::SignatureSeqNum, *seqNum);
}

} // namespace ndnlab
