#include "core/mgmt/control-parameters.hpp"

namespace ndnlab::mgmt {

namespace {

void appendString(Buffer& out, uint32_t type, const std::string& s)
{
  appendTlv(out, type, asBytes(s));
}

DecodeResult<uint64_t> readUint(const Element& e)
{
  return readNonNegInt(e);
}

} // namespace

DecodeResult<ControlParameters> ControlParameters::decode(ByteSpan wire)
{
  auto e = readSingleTlv(wire);
  if (!e)
    return fail(e.error());
  if (e->type != tlv::ControlParameters)
    return fail(DecodeError{DecodeErrc::UnexpectedType, tlv::ControlParameters});
  return fromValue(e->value);
}

DecodeResult<ControlParameters> ControlParameters::fromValue(ByteSpan value)
{
  ControlParameters cp;
  TlvReader r(value);
  while (!r.atEnd()) {
    auto e = r.next();
    if (!e)
      return fail(e.error());

    auto setUint = [&](std::optional<uint64_t>& field) -> std::optional<DecodeError> {
      if (field)
        return std::nullopt;
      auto v = readUint(*e);
      if (!v)
        return v.error();
      field = *v;
      return std::nullopt;
    };
    auto setString = [&](std::optional<std::string>& field) {
      if (!field)
        field = std::string(reinterpret_cast<const char*>(e->value.data()), e->value.size());
    };

    std::optional<DecodeError> err;
    switch (e->type) {
      case ndnlab::tlv::Name:
        if (!cp.name) {
          auto n = Name::fromValue(e->value);
          if (!n)
            return fail(n.error());
          cp.name = std::move(*n);
        }
        break;
      case tlv::FaceId: err = setUint(cp.faceId); break;
      case tlv::Uri: setString(cp.uri); break;
      case tlv::LocalUri: setString(cp.localUri); break;
      case tlv::Origin: err = setUint(cp.origin); break;
      case tlv::Cost: err = setUint(cp.cost); break;
      case tlv::Capacity: err = setUint(cp.capacity); break;
      case tlv::Count: err = setUint(cp.count); break;
      case tlv::Flags: err = setUint(cp.flags); break;
      case tlv::Mask: err = setUint(cp.mask); break;
      case tlv::Strategy:
        if (!cp.strategy) {
          auto n = Name::decode(e->value);
          if (!n)
            return fail(DecodeError{n.error().code, tlv::Strategy});
          cp.strategy = std::move(*n);
        }
        break;
      case tlv::ExpirationPeriod:
        if (!cp.expirationPeriod) {
          auto v = readUint(*e);
          if (!v)
            return fail(v.error());
          // Clamp so later arithmetic on durations cannot overflow (~292 years in ns).
          constexpr uint64_t maxMs = uint64_t(INT64_MAX) / 1'000'000;
          cp.expirationPeriod = std::chrono::milliseconds(static_cast<int64_t>(std::min(*v, maxMs)));
        }
        break;
      case tlv::FacePersistency: err = setUint(cp.facePersistency); break;
      case tlv::BaseCongestionMarkingInterval:
        if (!cp.baseCongestionMarkingInterval) {
          auto v = readUint(*e);
          if (!v)
            return fail(v.error());
          cp.baseCongestionMarkingInterval = Duration(static_cast<int64_t>(std::min<uint64_t>(*v, INT64_MAX)));
        }
        break;
      case tlv::DefaultCongestionThreshold: err = setUint(cp.defaultCongestionThreshold); break;
      case tlv::Mtu: err = setUint(cp.mtu); break;
      case tlv::Medium: err = setUint(cp.medium); break;
      case tlv::BundleInterval: err = setUint(cp.bundleInterval); break;
      case tlv::MirccCapacity: err = setUint(cp.mirccCapacity); break;
      default: break; // unknown elements are ignored (ndn-cxx behaviour)
    }
    if (err)
      return fail(*err);
  }
  return cp;
}

void ControlParameters::encodeTo(Buffer& out) const
{
  Buffer v;
  if (name)
    name->encodeTo(v);
  if (faceId)
    appendTlvNonNegInt(v, tlv::FaceId, *faceId);
  if (uri)
    appendString(v, tlv::Uri, *uri);
  if (localUri)
    appendString(v, tlv::LocalUri, *localUri);
  if (origin)
    appendTlvNonNegInt(v, tlv::Origin, *origin);
  if (cost)
    appendTlvNonNegInt(v, tlv::Cost, *cost);
  if (capacity)
    appendTlvNonNegInt(v, tlv::Capacity, *capacity);
  if (count)
    appendTlvNonNegInt(v, tlv::Count, *count);
  if (flags)
    appendTlvNonNegInt(v, tlv::Flags, *flags);
  if (mask)
    appendTlvNonNegInt(v, tlv::Mask, *mask);
  if (strategy) {
    Buffer n = strategy->wireEncode();
    appendTlv(v, tlv::Strategy, n);
  }
  if (expirationPeriod)
    appendTlvNonNegInt(v, tlv::ExpirationPeriod,
                       static_cast<uint64_t>(std::max<int64_t>(0, expirationPeriod->count())));
  if (facePersistency)
    appendTlvNonNegInt(v, tlv::FacePersistency, *facePersistency);
  if (baseCongestionMarkingInterval)
    appendTlvNonNegInt(v, tlv::BaseCongestionMarkingInterval,
                       static_cast<uint64_t>(std::max<int64_t>(0, baseCongestionMarkingInterval->count())));
  if (defaultCongestionThreshold)
    appendTlvNonNegInt(v, tlv::DefaultCongestionThreshold, *defaultCongestionThreshold);
  if (mtu)
    appendTlvNonNegInt(v, tlv::Mtu, *mtu);
  if (medium)
    appendTlvNonNegInt(v, tlv::Medium, *medium);
  if (bundleInterval)
    appendTlvNonNegInt(v, tlv::BundleInterval, *bundleInterval);
  if (mirccCapacity)
    appendTlvNonNegInt(v, tlv::MirccCapacity, *mirccCapacity);
  appendTlv(out, tlv::ControlParameters, v);
}

Buffer ControlParameters::wireEncode() const
{
  Buffer out;
  encodeTo(out);
  return out;
}

// --- ControlResponse -------------------------------------------------------------------------

DecodeResult<ControlResponse> ControlResponse::decode(ByteSpan wire)
{
  auto outer = readSingleTlv(wire);
  if (!outer)
    return fail(outer.error());
  if (outer->type != tlv::ControlResponse)
    return fail(DecodeError{DecodeErrc::UnexpectedType, tlv::ControlResponse});
  TlvReader r(outer->value);
  auto code = r.next();
  if (!code)
    return fail(code.error());
  if (code->type != tlv::StatusCode)
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::StatusCode});
  auto c = readNonNegInt(*code);
  if (!c)
    return fail(c.error());
  if (*c > UINT32_MAX)
    return fail(DecodeError{DecodeErrc::BadValue, tlv::StatusCode});
  auto text = r.next();
  if (!text)
    return fail(text.error());
  if (text->type != tlv::StatusText)
    return fail(DecodeError{DecodeErrc::MissingElement, tlv::StatusText});
  ControlResponse resp;
  resp.code = static_cast<uint32_t>(*c);
  resp.text.assign(reinterpret_cast<const char*>(text->value.data()), text->value.size());
  ByteSpan rest = outer->value.subspan(r.position());
  resp.body.assign(rest.begin(), rest.end());
  // The body must itself be well-formed TLVs.
  TlvReader br(rest);
  while (!br.atEnd()) {
    auto e = br.next();
    if (!e)
      return fail(e.error());
  }
  return resp;
}

std::optional<ControlParameters> ControlResponse::bodyParameters() const
{
  auto e = readSingleTlv(body);
  if (!e || e->type != tlv::ControlParameters)
    return std::nullopt;
  auto cp = ControlParameters::fromValue(e->value);
  if (!cp)
    return std::nullopt;
  return std::move(*cp);
}

void ControlResponse::encodeTo(Buffer& out) const
{
  Buffer v;
  appendTlvNonNegInt(v, tlv::StatusCode, code);
  appendTlv(v, tlv::StatusText, asBytes(text));
  v.insert(v.end(), body.begin(), body.end());
  appendTlv(out, tlv::ControlResponse, v);
}

Buffer ControlResponse::wireEncode() const
{
  Buffer out;
  encodeTo(out);
  return out;
}

} // namespace ndnlab::mgmt
