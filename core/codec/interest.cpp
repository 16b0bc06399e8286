#include "core/codec/interest.hpp"
#include "core/codec/data.hpp"
#include "core/codec/packet-decode.hpp"

#include <cstring>

namespace ndnlab {

namespace {

/// Position of each recognized Interest element in the spec order (interest.rst).
int elementOrder(uint32_t type)
{
  switch (type) {
    case tlv::CanBePrefix: return 1;
    case tlv::MustBeFresh: return 2;
    case tlv::ForwardingHint: return 3;
    case tlv::Nonce: return 4;
    case tlv::InterestLifetime: return 5;
    case tlv::HopLimit: return 6;
    case tlv::ApplicationParameters: return 7;
    case tlv::InterestSignatureInfo: return 8;
    case tlv::InterestSignatureValue: return 9;
    default: return 0;
  }
}

DecodeResult<std::vector<Name>> decodeForwardingHint(ByteSpan value)
{
  std::vector<Name> hints;
  TlvReader r(value);
  while (!r.atEnd()) {
    auto e = r.next();
    if (!e)
      return fail(DecodeError{e.error().code, tlv::ForwardingHint});
    if (e->type == tlv::Name) {
      auto n = Name::fromValue(e->value);
      if (!n)
        return fail(n.error());
      hints.push_back(std::move(*n));
    }
    else if (e->type == 31) {
      // Pre-2022 form: Delegation(31) { Preference(30) Name }.
      TlvReader d(e->value);
      bool found = false;
      while (!d.atEnd()) {
        auto de = d.next();
        if (!de)
          return fail(DecodeError{de.error().code, tlv::ForwardingHint});
        if (de->type == tlv::Name && !found) {
          auto n = Name::fromValue(de->value);
          if (!n)
            return fail(n.error());
          hints.push_back(std::move(*n));
          found = true;
        }
      }
      if (!found)
        return fail(DecodeError{DecodeErrc::BadValue, tlv::ForwardingHint});
    }
    else {
      return fail(DecodeError{DecodeErrc::BadValue, tlv::ForwardingHint});
    }
  }
  if (hints.empty())
    return fail(DecodeError{DecodeErrc::BadValue, tlv::ForwardingHint});
  return hints;
}

/// Index of the params-digest component: -1 none, -2 more than one.
ptrdiff_t findParamsDigest(const Name& name)
{
  // Walks the component TLVs directly (on the decode path for every Interest).
  ByteSpan v = name.value();
  size_t pos = 0;
  ptrdiff_t index = 0, found = -1;
  while (pos < v.size()) {
    uint64_t type = 0, length = 0;
    size_t t = parseVarNumber(v.data() + pos, v.size() - pos, type);
    size_t l = t == 0 ? 0 : parseVarNumber(v.data() + pos + t, v.size() - pos - t, length);
    if (l == 0)
      break;
    if (type == tlv::ParametersSha256DigestComponent) {
      if (found >= 0)
        return -2;
      found = index;
    }
    pos += t + l + length;
    ++index;
  }
  return found;
}

} // namespace

// --- decoding --------------------------------------------------------------------------------

DecodeResult<Interest> Interest::decode(ByteSpan wire)
{
  return decode(std::make_shared<const Buffer>(wire.begin(), wire.end()));
}

DecodeResult<Interest> Interest::decode(SharedBuffer wire)
{
  auto outer = codec::readOuterTlv(wire, tlv::Interest);
  if (!outer)
    return fail(outer.error());
  Interest interest;
  auto ok = interest.decodeValue(outer->value, static_cast<size_t>(outer->value.data() - wire->data()));
  if (!ok)
    return fail(ok.error());
  interest.m_wire = std::move(wire);
  return interest;
}

DecodeResult<bool> Interest::decodeValue(ByteSpan value, size_t valueOffset)
{
  TlvReader r(value);
  auto name = codec::readLeadingName(r);
  if (!name)
    return fail(name.error());
  if (name->empty())
    return fail(DecodeError{DecodeErrc::BadName, tlv::Name});
  if (findParamsDigest(*name) == -2)
    return fail(DecodeError{DecodeErrc::BadName, tlv::ParametersSha256DigestComponent});
  m_name = std::move(*name);

  int last = 0;
  while (!r.atEnd()) {
    size_t elementStart = r.position();
    auto e = r.next();
    if (!e)
      return fail(e.error());
    auto accept = codec::acceptInOrder(e->type, elementOrder(e->type), last);
    if (!accept)
      return fail(accept.error());
    if (!*accept)
      continue;
    switch (e->type) {
      case tlv::CanBePrefix:
        if (!e->value.empty())
          return fail(DecodeError{DecodeErrc::BadValue, e->type});
        m_canBePrefix = true;
        break;
      case tlv::MustBeFresh:
        if (!e->value.empty())
          return fail(DecodeError{DecodeErrc::BadValue, e->type});
        m_mustBeFresh = true;
        break;
      case tlv::ForwardingHint: {
        auto fh = decodeForwardingHint(e->value);
        if (!fh)
          return fail(fh.error());
        m_forwardingHint = std::move(*fh);
        break;
      }
      case tlv::Nonce:
        if (e->value.size() != 4)
          return fail(DecodeError{DecodeErrc::BadValue, e->type});
        m_nonce = uint32_t{e->value[0]} << 24 | uint32_t{e->value[1]} << 16 | uint32_t{e->value[2]} << 8 |
                  uint32_t{e->value[3]};
        break;
      case tlv::InterestLifetime: {
        auto ms = readNonNegInt(*e);
        if (!ms)
          return fail(ms.error());
        m_lifetime = codec::millisToDuration(*ms);
        break;
      }
      case tlv::HopLimit:
        if (e->value.size() != 1)
          return fail(DecodeError{DecodeErrc::BadValue, e->type});
        m_hopLimit = e->value[0];
        break;
      case tlv::ApplicationParameters:
        m_appParameters = Buffer(e->value.begin(), e->value.end());
        m_paramsBegin = static_cast<uint32_t>(valueOffset + elementStart);
        break;
      case tlv::InterestSignatureInfo: {
        auto si = SignatureInfo::fromValue(e->value);
        if (!si)
          return fail(si.error());
        m_sigInfo = std::move(*si);
        break;
      }
      case tlv::InterestSignatureValue:
        m_sigValue = Buffer(e->value.begin(), e->value.end());
        m_sigValueBegin = static_cast<uint32_t>(valueOffset + elementStart);
        break;
    }
  }
  if (m_sigInfo && !m_appParameters)
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::ApplicationParameters});
  if (m_sigInfo && !m_sigValue)
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::InterestSignatureValue});
  if (m_sigValue && !m_sigInfo)
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::InterestSignatureInfo});
  return true;
}

// --- encoding --------------------------------------------------------------------------------

void Interest::encodeParamsPortion(Buffer& out) const
{
  if (!m_appParameters)
    return;
  appendTlv(out, tlv::ApplicationParameters, *m_appParameters);
  if (m_sigInfo)
    m_sigInfo->encodeTo(out, tlv::InterestSignatureInfo);
  if (m_sigValue)
    appendTlv(out, tlv::InterestSignatureValue, *m_sigValue);
}

SharedBuffer Interest::wireEncode() const
{
  if (m_wire)
    return m_wire;

  size_t fhLen = 0;
  for (const Name& n : m_forwardingHint)
    fhLen += n.wireSize();
  Buffer tail;
  encodeParamsPortion(tail);

  size_t len = m_name.wireSize();
  if (m_canBePrefix)
    len += 2;
  if (m_mustBeFresh)
    len += 2;
  if (!m_forwardingHint.empty())
    len += tlvSize(tlv::ForwardingHint, fhLen);
  if (m_nonce)
    len += 6;
  if (m_lifetime)
    len += tlvSize(tlv::InterestLifetime, nonNegIntSize(codec::durationToMillis(*m_lifetime)));
  if (m_hopLimit)
    len += 3;
  len += tail.size();

  auto out = std::make_shared<Buffer>();
  out->reserve(tlvSize(tlv::Interest, len));
  appendTlvHeader(*out, tlv::Interest, len);
  m_name.encodeTo(*out);
  if (m_canBePrefix)
    appendTlvEmpty(*out, tlv::CanBePrefix);
  if (m_mustBeFresh)
    appendTlvEmpty(*out, tlv::MustBeFresh);
  if (!m_forwardingHint.empty()) {
    appendTlvHeader(*out, tlv::ForwardingHint, fhLen);
    for (const Name& n : m_forwardingHint)
      n.encodeTo(*out);
  }
  if (m_nonce) {
    uint32_t n = *m_nonce;
    const uint8_t b[4] = {static_cast<uint8_t>(n >> 24), static_cast<uint8_t>(n >> 16), static_cast<uint8_t>(n >> 8),
                          static_cast<uint8_t>(n)};
    appendTlv(*out, tlv::Nonce, ByteSpan(b, 4));
  }
  if (m_lifetime)
    appendTlvNonNegInt(*out, tlv::InterestLifetime, codec::durationToMillis(*m_lifetime));
  if (m_hopLimit) {
    const uint8_t h = *m_hopLimit;
    appendTlv(*out, tlv::HopLimit, ByteSpan(&h, 1));
  }
  m_paramsBegin = 0;
  m_sigValueBegin = 0;
  if (m_appParameters) {
    m_paramsBegin = static_cast<uint32_t>(out->size());
    if (m_sigValue)
      m_sigValueBegin =
        static_cast<uint32_t>(out->size() + tail.size() - tlvSize(tlv::InterestSignatureValue, m_sigValue->size()));
  }
  out->insert(out->end(), tail.begin(), tail.end());
  m_wire = std::move(out);
  return m_wire;
}

// --- setters ---------------------------------------------------------------------------------

Interest& Interest::setLifetime(Duration v)
{
  if (v == DefaultLifetime)
    m_lifetime.reset();
  else
    m_lifetime = v < Duration::zero() ? Duration::zero() : v;
  invalidate();
  return *this;
}

void Interest::updateParamsDigest()
{
  ptrdiff_t idx = findParamsDigest(m_name);
  Name updated;
  if (idx >= 0) {
    updated = m_name.getPrefix(idx);
  }
  else if (idx == -2) {
    // Keep only non-digest components, then append a fresh digest.
    for (size_t i = 0; i < m_name.size(); ++i) {
      auto c = m_name[static_cast<ptrdiff_t>(i)];
      if (c.type() != tlv::ParametersSha256DigestComponent)
        updated.append(c);
    }
  }
  else {
    updated = m_name;
  }

  if (m_appParameters) {
    Buffer tail;
    encodeParamsPortion(tail);
    auto digest = sha256(tail);
    updated.appendParamsDigest(digest);
  }
  if (idx >= 0) {
    for (size_t i = static_cast<size_t>(idx) + 1; i < m_name.size(); ++i)
      updated.append(m_name[static_cast<ptrdiff_t>(i)]);
  }
  m_name = std::move(updated);
}

Interest& Interest::setAppParameters(std::optional<Buffer> params)
{
  m_appParameters = std::move(params);
  if (!m_appParameters) {
    m_sigInfo.reset();
    m_sigValue.reset();
  }
  updateParamsDigest();
  invalidate();
  return *this;
}

Interest& Interest::setSignature(std::optional<SignatureInfo> info, std::optional<Buffer> value)
{
  m_sigInfo = std::move(info);
  m_sigValue = std::move(value);
  if (m_sigInfo && !m_appParameters)
    m_appParameters = Buffer{};
  if (m_appParameters)
    updateParamsDigest();
  invalidate();
  return *this;
}

// --- digests, signed portion, matching -------------------------------------------------------

bool Interest::hasValidParamsDigest() const
{
  ptrdiff_t idx = findParamsDigest(m_name);
  if (!m_appParameters)
    return idx == -1;
  if (idx < 0)
    return false;
  const Buffer& wire = *wireEncode();
  if (m_paramsBegin == 0 || m_paramsBegin > wire.size())
    return false;
  auto digest = sha256(ByteSpan(wire).subspan(m_paramsBegin));
  ByteSpan have = m_name[idx].value();
  return have.size() == 32 && std::memcmp(have.data(), digest.data(), 32) == 0;
}

Buffer Interest::signedPortion() const
{
  Buffer out;
  for (size_t i = 0; i < m_name.size(); ++i) {
    auto c = m_name[static_cast<ptrdiff_t>(i)];
    if (c.type() != tlv::ParametersSha256DigestComponent)
      out.insert(out.end(), c.wire().begin(), c.wire().end());
  }
  if (!m_appParameters)
    return out;
  const Buffer& wire = *wireEncode();
  size_t end = m_sigValueBegin != 0 ? m_sigValueBegin : wire.size();
  if (m_paramsBegin != 0 && m_paramsBegin <= end)
    out.insert(out.end(), wire.begin() + m_paramsBegin, wire.begin() + static_cast<ptrdiff_t>(end));
  return out;
}

bool Interest::matchesData(const Data& data) const
{
  const Name& dataName = data.name();
  size_t n = m_name.size();
  if (n == dataName.size() + 1) {
    // Only a full name (Data name + implicit digest) can be one component longer.
    auto last = m_name[-1];
    if (!last.isImplicitDigest() || !dataName.isPrefixOf(m_name))
      return false;
    return std::memcmp(last.value().data(), data.implicitDigest().data(), 32) == 0;
  }
  return m_canBePrefix ? m_name.isPrefixOf(dataName) : m_name == dataName;
}

} // namespace ndnlab
