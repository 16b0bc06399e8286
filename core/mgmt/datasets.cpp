#include "core/mgmt/datasets.hpp"

#include <array>
#include <utility>

namespace ndnlab::mgmt {

namespace {

void appendString(Buffer& out, uint32_t type, const std::string& s)
{
  appendTlv(out, type, asBytes(s));
}

std::string toString(ByteSpan v)
{
  return std::string(reinterpret_cast<const char*>(v.data()), v.size());
}

/// Nanoseconds of a Duration, negative clamped to 0.
uint64_t nanosOf(Duration d)
{
  return static_cast<uint64_t>(std::max<int64_t>(0, d.count()));
}

/// Milliseconds, negative clamped to 0.
uint64_t millisOf(std::chrono::milliseconds d)
{
  return static_cast<uint64_t>(std::max<int64_t>(0, d.count()));
}

/// The counters of an ndnlab FaceStatus extension element, each a NonNegativeInteger of its own
/// TLV number (scoped to the element), in encoding order.
template<typename Counters, size_t N>
using CounterFields = std::array<std::pair<uint32_t, uint64_t Counters::*>, N>;

constexpr CounterFields<BundleCounters, 10> kBundleCounters{{
  {tlv::NOutBundles, &BundleCounters::nOutBundles},
  {tlv::NOutInterestsAbsorbed, &BundleCounters::nOutInterestsAbsorbed},
  {tlv::NInBundles, &BundleCounters::nInBundles},
  {tlv::NInInterestsRegenerated, &BundleCounters::nInInterestsRegenerated},
  {tlv::NInInterestsGapFilled, &BundleCounters::nInInterestsGapFilled},
  {tlv::NInBundlesStale, &BundleCounters::nInBundlesStale},
  {tlv::NInBundlesInvalid, &BundleCounters::nInBundlesInvalid},
  {tlv::NInDataEarly, &BundleCounters::nInDataEarly},
  {tlv::NInDataEarlyExpired, &BundleCounters::nInDataEarlyExpired},
  {tlv::NOutBundleRecoveries, &BundleCounters::nOutBundleRecoveries},
}};

constexpr CounterFields<LinkReliabilityCounters, 8> kReliabilityCounters{{
  {tlv::NOutRetxFrames, &LinkReliabilityCounters::nOutRetxFrames},
  {tlv::NAcknowledged, &LinkReliabilityCounters::nAcknowledged},
  {tlv::NRetransmitted, &LinkReliabilityCounters::nRetransmitted},
  {tlv::NRetxExhausted, &LinkReliabilityCounters::nRetxExhausted},
  {tlv::NUnackedOverflow, &LinkReliabilityCounters::nUnackedOverflow},
  {tlv::NDuplicateSequence, &LinkReliabilityCounters::nDuplicateSequence},
  {tlv::NOutAcks, &LinkReliabilityCounters::nOutAcks},
  {tlv::NOutIdleAcks, &LinkReliabilityCounters::nOutIdleAcks},
}};

template<typename Counters, size_t N>
void appendCounters(Buffer& out, uint32_t type, const Counters& c, const CounterFields<Counters, N>& fields)
{
  Buffer v;
  for (const auto& [number, member] : fields)
    appendTlvNonNegInt(v, number, c.*member);
  appendTlv(out, type, v);
}

int64_t clampToInt64(uint64_t v, uint64_t max = INT64_MAX)
{
  return static_cast<int64_t>(std::min(v, max));
}

/// Reads the value of an outer TLV of `type` occupying all of `wire`.
DecodeResult<ByteSpan> outerValue(ByteSpan wire, uint32_t type)
{
  auto e = readSingleTlv(wire);
  if (!e)
    return fail(e.error());
  if (e->type != type)
    return fail(DecodeError{DecodeErrc::UnexpectedType, type});
  return e->value;
}

/// Calls `onElement(const Element&) -> std::optional<DecodeError>` for every element.
template<typename F>
std::optional<DecodeError> forEach(ByteSpan value, F&& onElement)
{
  TlvReader r(value);
  while (!r.atEnd()) {
    auto e = r.next();
    if (!e)
      return e.error();
    if (auto err = onElement(*e))
      return err;
  }
  return std::nullopt;
}

std::optional<DecodeError> readInto(const Element& e, uint64_t& field)
{
  auto v = readNonNegInt(e);
  if (!v)
    return v.error();
  field = *v;
  return std::nullopt;
}

std::optional<DecodeError> readInto(const Element& e, std::optional<uint64_t>& field)
{
  uint64_t v = 0;
  if (auto r = readInto(e, v))
    return r;
  field = v;
  return std::nullopt;
}

/// Reads a NonNegativeInteger of milliseconds (clamped so it fits a Duration in ns).
std::optional<DecodeError> readMillis(const Element& e, std::optional<std::chrono::milliseconds>& field)
{
  uint64_t ms = 0;
  if (auto r = readInto(e, ms))
    return r;
  field = std::chrono::milliseconds(clampToInt64(ms, INT64_MAX / 1'000'000));
  return std::nullopt;
}

/// Decodes `<outerType>{Name, <recordType>{...}*}` (FibEntry, RibEntry): the Name is required;
/// each record's value goes to `readRecord(ByteSpan, R&) -> std::optional<DecodeError>`.
/// Reads the counters of an extension element whose fields `fields` lists; others are skipped.
template<typename Counters, size_t N>
std::optional<DecodeError> readCounters(const Element& e, Counters& c, const CounterFields<Counters, N>& fields)
{
  return forEach(e.value, [&](const Element& x) -> std::optional<DecodeError> {
    for (const auto& [number, member] : fields) {
      if (x.type == number)
        return readInto(x, c.*member);
    }
    return std::nullopt;
  });
}

template<typename R, typename F>
std::optional<DecodeError> decodePrefixRecords(ByteSpan wire, uint32_t outerType, uint32_t recordType, Name& prefix,
                                               std::vector<R>& records, F&& readRecord)
{
  auto value = outerValue(wire, outerType);
  if (!value)
    return value.error();
  bool haveName = false;
  auto err = forEach(*value, [&](const Element& e) -> std::optional<DecodeError> {
    if (e.type == ndnlab::tlv::Name) {
      auto n = Name::fromValue(e.value);
      if (!n)
        return n.error();
      prefix = std::move(*n);
      haveName = true;
    }
    else if (e.type == recordType) {
      R record;
      if (auto inner = readRecord(e.value, record))
        return inner;
      records.push_back(std::move(record));
    }
    return std::nullopt;
  });
  if (err)
    return err;
  if (!haveName)
    return DecodeError{DecodeErrc::MissingElement, ndnlab::tlv::Name};
  return std::nullopt;
}

} // namespace

// --- ForwarderStatus -------------------------------------------------------------------------

void ForwarderStatus::encodeTo(Buffer& out) const
{
  appendString(out, tlv::NfdVersion, nfdVersion);
  appendTlvNonNegInt(out, tlv::StartTimestamp, millisOf(startTimestamp));
  appendTlvNonNegInt(out, tlv::CurrentTimestamp, millisOf(currentTimestamp));
  appendTlvNonNegInt(out, tlv::NNameTreeEntries, nNameTreeEntries);
  appendTlvNonNegInt(out, tlv::NFibEntries, nFibEntries);
  appendTlvNonNegInt(out, tlv::NPitEntries, nPitEntries);
  appendTlvNonNegInt(out, tlv::NMeasurementsEntries, nMeasurementsEntries);
  appendTlvNonNegInt(out, tlv::NCsEntries, nCsEntries);
  appendTlvNonNegInt(out, tlv::NInInterests, nInInterests);
  appendTlvNonNegInt(out, tlv::NInData, nInData);
  appendTlvNonNegInt(out, tlv::NInNacks, nInNacks);
  appendTlvNonNegInt(out, tlv::NOutInterests, nOutInterests);
  appendTlvNonNegInt(out, tlv::NOutData, nOutData);
  appendTlvNonNegInt(out, tlv::NOutNacks, nOutNacks);
  appendTlvNonNegInt(out, tlv::NSatisfiedInterests, nSatisfiedInterests);
  appendTlvNonNegInt(out, tlv::NUnsatisfiedInterests, nUnsatisfiedInterests);
}

DecodeResult<ForwarderStatus> ForwarderStatus::decode(ByteSpan content)
{
  ForwarderStatus s;
  auto err = forEach(content, [&](const Element& e) -> std::optional<DecodeError> {
    uint64_t tmp = 0;
    switch (e.type) {
      case tlv::NfdVersion: s.nfdVersion = toString(e.value); return std::nullopt;
      case tlv::StartTimestamp:
        if (auto r = readInto(e, tmp))
          return r;
        s.startTimestamp = UnixMillis(clampToInt64(tmp));
        return std::nullopt;
      case tlv::CurrentTimestamp:
        if (auto r = readInto(e, tmp))
          return r;
        s.currentTimestamp = UnixMillis(clampToInt64(tmp));
        return std::nullopt;
      case tlv::NNameTreeEntries: return readInto(e, s.nNameTreeEntries);
      case tlv::NFibEntries: return readInto(e, s.nFibEntries);
      case tlv::NPitEntries: return readInto(e, s.nPitEntries);
      case tlv::NMeasurementsEntries: return readInto(e, s.nMeasurementsEntries);
      case tlv::NCsEntries: return readInto(e, s.nCsEntries);
      case tlv::NInInterests: return readInto(e, s.nInInterests);
      case tlv::NInData: return readInto(e, s.nInData);
      case tlv::NOutInterests: return readInto(e, s.nOutInterests);
      case tlv::NOutData: return readInto(e, s.nOutData);
      case tlv::NInNacks: return readInto(e, s.nInNacks);
      case tlv::NOutNacks: return readInto(e, s.nOutNacks);
      case tlv::NSatisfiedInterests: return readInto(e, s.nSatisfiedInterests);
      case tlv::NUnsatisfiedInterests: return readInto(e, s.nUnsatisfiedInterests);
      default: return std::nullopt;
    }
  });
  if (err)
    return fail(*err);
  return s;
}

// --- FaceStatus ------------------------------------------------------------------------------

void FaceStatus::encodeTo(Buffer& out) const
{
  Buffer v;
  appendTlvNonNegInt(v, tlv::FaceId, faceId);
  appendString(v, tlv::Uri, remoteUri);
  appendString(v, tlv::LocalUri, localUri);
  if (expirationPeriod)
    appendTlvNonNegInt(v, tlv::ExpirationPeriod, millisOf(*expirationPeriod));
  appendTlvNonNegInt(v, tlv::FaceScope, faceScope);
  appendTlvNonNegInt(v, tlv::FacePersistency, facePersistency);
  appendTlvNonNegInt(v, tlv::LinkType, linkType);
  if (baseCongestionMarkingInterval)
    appendTlvNonNegInt(v, tlv::BaseCongestionMarkingInterval, nanosOf(*baseCongestionMarkingInterval));
  if (defaultCongestionThreshold)
    appendTlvNonNegInt(v, tlv::DefaultCongestionThreshold, *defaultCongestionThreshold);
  if (mtu)
    appendTlvNonNegInt(v, tlv::Mtu, *mtu);
  appendTlvNonNegInt(v, tlv::NInInterests, nInInterests);
  appendTlvNonNegInt(v, tlv::NInData, nInData);
  appendTlvNonNegInt(v, tlv::NInNacks, nInNacks);
  appendTlvNonNegInt(v, tlv::NOutInterests, nOutInterests);
  appendTlvNonNegInt(v, tlv::NOutData, nOutData);
  appendTlvNonNegInt(v, tlv::NOutNacks, nOutNacks);
  appendTlvNonNegInt(v, tlv::NInBytes, nInBytes);
  appendTlvNonNegInt(v, tlv::NOutBytes, nOutBytes);
  appendTlvNonNegInt(v, tlv::Flags, flags);
  if (medium)
    appendTlvNonNegInt(v, tlv::Medium, *medium);
  if (bundleInterval)
    appendTlvNonNegInt(v, tlv::BundleInterval, *bundleInterval);
  if (bundleCounters)
    appendCounters(v, tlv::BundleCounters, *bundleCounters, kBundleCounters);
  if (mirccCapacity)
    appendTlvNonNegInt(v, tlv::MirccCapacity, *mirccCapacity);
  if (mirccRate)
    appendTlvNonNegInt(v, tlv::MirccRate, *mirccRate);
  if (reliabilityCounters)
    appendCounters(v, tlv::LinkReliabilityCounters, *reliabilityCounters, kReliabilityCounters);
  appendTlv(out, tlv::FaceStatus, v);
}

DecodeResult<FaceStatus> FaceStatus::decode(ByteSpan wire)
{
  auto value = outerValue(wire, tlv::FaceStatus);
  if (!value)
    return fail(value.error());
  FaceStatus s;
  auto err = forEach(*value, [&](const Element& e) -> std::optional<DecodeError> {
    uint64_t tmp = 0;
    switch (e.type) {
      case tlv::FaceId: return readInto(e, s.faceId);
      case tlv::Uri: s.remoteUri = toString(e.value); return std::nullopt;
      case tlv::LocalUri: s.localUri = toString(e.value); return std::nullopt;
      case tlv::ExpirationPeriod: return readMillis(e, s.expirationPeriod);
      case tlv::FaceScope: return readInto(e, s.faceScope);
      case tlv::FacePersistency: return readInto(e, s.facePersistency);
      case tlv::LinkType: return readInto(e, s.linkType);
      case tlv::BaseCongestionMarkingInterval:
        if (auto r = readInto(e, tmp))
          return r;
        s.baseCongestionMarkingInterval = Duration(clampToInt64(tmp));
        return std::nullopt;
      case tlv::DefaultCongestionThreshold:
        s.defaultCongestionThreshold = 0;
        return readInto(e, *s.defaultCongestionThreshold);
      case tlv::Mtu: s.mtu = 0; return readInto(e, *s.mtu);
      case tlv::NInInterests: return readInto(e, s.nInInterests);
      case tlv::NInData: return readInto(e, s.nInData);
      case tlv::NInNacks: return readInto(e, s.nInNacks);
      case tlv::NOutInterests: return readInto(e, s.nOutInterests);
      case tlv::NOutData: return readInto(e, s.nOutData);
      case tlv::NOutNacks: return readInto(e, s.nOutNacks);
      case tlv::NInBytes: return readInto(e, s.nInBytes);
      case tlv::NOutBytes: return readInto(e, s.nOutBytes);
      case tlv::Flags: return readInto(e, s.flags);
      case tlv::Medium: s.medium = 0; return readInto(e, *s.medium);
      case tlv::BundleInterval: s.bundleInterval = 0; return readInto(e, *s.bundleInterval);
      case tlv::MirccCapacity: s.mirccCapacity = 0; return readInto(e, *s.mirccCapacity);
      case tlv::MirccRate: s.mirccRate = 0; return readInto(e, *s.mirccRate);
      case tlv::BundleCounters: return readCounters(e, s.bundleCounters.emplace(), kBundleCounters);
      case tlv::LinkReliabilityCounters: return readCounters(e, s.reliabilityCounters.emplace(), kReliabilityCounters);
      default: return std::nullopt;
    }
  });
  if (err)
    return fail(*err);
  return s;
}

// --- FaceQueryFilter -------------------------------------------------------------------------

void FaceQueryFilter::encodeTo(Buffer& out) const
{
  Buffer v;
  if (faceId)
    appendTlvNonNegInt(v, tlv::FaceId, *faceId);
  if (uriScheme)
    appendString(v, tlv::UriScheme, *uriScheme);
  if (remoteUri)
    appendString(v, tlv::Uri, *remoteUri);
  if (localUri)
    appendString(v, tlv::LocalUri, *localUri);
  if (faceScope)
    appendTlvNonNegInt(v, tlv::FaceScope, *faceScope);
  if (facePersistency)
    appendTlvNonNegInt(v, tlv::FacePersistency, *facePersistency);
  if (linkType)
    appendTlvNonNegInt(v, tlv::LinkType, *linkType);
  appendTlv(out, tlv::FaceQueryFilter, v);
}

DecodeResult<FaceQueryFilter> FaceQueryFilter::decode(ByteSpan wire)
{
  auto value = outerValue(wire, tlv::FaceQueryFilter);
  if (!value)
    return fail(value.error());
  FaceQueryFilter f;
  auto err = forEach(*value, [&](const Element& e) -> std::optional<DecodeError> {
    switch (e.type) {
      case tlv::FaceId: return readInto(e, f.faceId);
      case tlv::UriScheme: f.uriScheme = toString(e.value); break;
      case tlv::Uri: f.remoteUri = toString(e.value); break;
      case tlv::LocalUri: f.localUri = toString(e.value); break;
      case tlv::FaceScope: return readInto(e, f.faceScope);
      case tlv::FacePersistency: return readInto(e, f.facePersistency);
      case tlv::LinkType: return readInto(e, f.linkType);
      default: break;
    }
    return std::nullopt;
  });
  if (err)
    return fail(*err);
  return f;
}

bool FaceQueryFilter::matches(const FaceStatus& face) const
{
  auto schemeOf = [](const std::string& uri) { return uri.substr(0, uri.find("://")); };
  return (!faceId || *faceId == face.faceId) &&
         (!uriScheme || *uriScheme == schemeOf(face.remoteUri) || *uriScheme == schemeOf(face.localUri)) &&
         (!remoteUri || *remoteUri == face.remoteUri) && (!localUri || *localUri == face.localUri) &&
         (!faceScope || *faceScope == face.faceScope) &&
         (!facePersistency || *facePersistency == face.facePersistency) && (!linkType || *linkType == face.linkType);
}

// --- ChannelStatus ---------------------------------------------------------------------------

void ChannelStatus::encodeTo(Buffer& out) const
{
  Buffer v;
  appendString(v, tlv::LocalUri, localUri);
  appendTlv(out, tlv::ChannelStatus, v);
}

DecodeResult<ChannelStatus> ChannelStatus::decode(ByteSpan wire)
{
  auto value = outerValue(wire, tlv::ChannelStatus);
  if (!value)
    return fail(value.error());
  ChannelStatus s;
  auto err = forEach(*value, [&](const Element& e) -> std::optional<DecodeError> {
    if (e.type == tlv::LocalUri)
      s.localUri = toString(e.value);
    return std::nullopt;
  });
  if (err)
    return fail(*err);
  return s;
}

// --- FibEntry --------------------------------------------------------------------------------

void FibEntryStatus::encodeTo(Buffer& out) const
{
  Buffer v;
  prefix.encodeTo(v);
  for (const auto& nh : nextHops) {
    Buffer r;
    appendTlvNonNegInt(r, tlv::FaceId, nh.faceId);
    appendTlvNonNegInt(r, tlv::Cost, nh.cost);
    appendTlv(v, tlv::NextHopRecord, r);
  }
  appendTlv(out, tlv::FibEntry, v);
}

DecodeResult<FibEntryStatus> FibEntryStatus::decode(ByteSpan wire)
{
  FibEntryStatus s;
  auto err =
    decodePrefixRecords(wire, tlv::FibEntry, tlv::NextHopRecord, s.prefix, s.nextHops, [](ByteSpan value, NextHop& nh) {
      return forEach(value, [&](const Element& f) -> std::optional<DecodeError> {
        if (f.type == tlv::FaceId)
          return readInto(f, nh.faceId);
        if (f.type == tlv::Cost)
          return readInto(f, nh.cost);
        return std::nullopt;
      });
    });
  if (err)
    return fail(*err);
  return s;
}

// --- RibEntry --------------------------------------------------------------------------------

void RibEntryStatus::encodeTo(Buffer& out) const
{
  Buffer v;
  prefix.encodeTo(v);
  for (const auto& rt : routes) {
    Buffer r;
    appendTlvNonNegInt(r, tlv::FaceId, rt.faceId);
    appendTlvNonNegInt(r, tlv::Origin, rt.origin);
    appendTlvNonNegInt(r, tlv::Cost, rt.cost);
    appendTlvNonNegInt(r, tlv::Flags, rt.flags);
    if (rt.expirationPeriod)
      appendTlvNonNegInt(r, tlv::ExpirationPeriod, millisOf(*rt.expirationPeriod));
    appendTlv(v, tlv::Route, r);
  }
  appendTlv(out, tlv::RibEntry, v);
}

DecodeResult<RibEntryStatus> RibEntryStatus::decode(ByteSpan wire)
{
  RibEntryStatus s;
  auto err = decodePrefixRecords(wire, tlv::RibEntry, tlv::Route, s.prefix, s.routes, [](ByteSpan value, Route& rt) {
    return forEach(value, [&](const Element& f) -> std::optional<DecodeError> {
      switch (f.type) {
        case tlv::FaceId: return readInto(f, rt.faceId);
        case tlv::Origin: return readInto(f, rt.origin);
        case tlv::Cost: return readInto(f, rt.cost);
        case tlv::Flags: return readInto(f, rt.flags);
        case tlv::ExpirationPeriod: return readMillis(f, rt.expirationPeriod);
        default: return std::nullopt;
      }
    });
  });
  if (err)
    return fail(*err);
  return s;
}

// --- StrategyChoice --------------------------------------------------------------------------

void StrategyChoiceStatus::encodeTo(Buffer& out) const
{
  Buffer v;
  prefix.encodeTo(v);
  Buffer n = strategy.wireEncode();
  appendTlv(v, tlv::Strategy, n);
  appendTlv(out, tlv::StrategyChoice, v);
}

DecodeResult<StrategyChoiceStatus> StrategyChoiceStatus::decode(ByteSpan wire)
{
  auto value = outerValue(wire, tlv::StrategyChoice);
  if (!value)
    return fail(value.error());
  StrategyChoiceStatus s;
  bool haveName = false, haveStrategy = false;
  auto err = forEach(*value, [&](const Element& e) -> std::optional<DecodeError> {
    if (e.type == ndnlab::tlv::Name) {
      auto n = Name::fromValue(e.value);
      if (!n)
        return n.error();
      s.prefix = std::move(*n);
      haveName = true;
    }
    else if (e.type == tlv::Strategy) {
      auto n = Name::decode(e.value);
      if (!n)
        return n.error();
      s.strategy = std::move(*n);
      haveStrategy = true;
    }
    return std::nullopt;
  });
  if (err)
    return fail(*err);
  if (!haveName || !haveStrategy)
    return fail(DecodeError{DecodeErrc::MissingElement, haveName ? tlv::Strategy : ndnlab::tlv::Name});
  return s;
}

// --- CsInfo ----------------------------------------------------------------------------------

void CsInfo::encodeTo(Buffer& out) const
{
  Buffer v;
  appendTlvNonNegInt(v, tlv::Capacity, capacity);
  appendTlvNonNegInt(v, tlv::Flags, flags);
  appendTlvNonNegInt(v, tlv::NCsEntries, nEntries);
  appendTlvNonNegInt(v, tlv::NHits, nHits);
  appendTlvNonNegInt(v, tlv::NMisses, nMisses);
  appendTlv(out, tlv::CsInfo, v);
}

DecodeResult<CsInfo> CsInfo::decode(ByteSpan wire)
{
  auto value = outerValue(wire, tlv::CsInfo);
  if (!value)
    return fail(value.error());
  CsInfo s;
  auto err = forEach(*value, [&](const Element& e) -> std::optional<DecodeError> {
    switch (e.type) {
      case tlv::Capacity: return readInto(e, s.capacity);
      case tlv::Flags: return readInto(e, s.flags);
      case tlv::NCsEntries: return readInto(e, s.nEntries);
      case tlv::NHits: return readInto(e, s.nHits);
      case tlv::NMisses: return readInto(e, s.nMisses);
      default: return std::nullopt;
    }
  });
  if (err)
    return fail(*err);
  return s;
}

// --- DropCounter (ndnlab) ---------------------------------------------------------------------

void DropCounterStatus::encodeTo(Buffer& out) const
{
  Buffer v;
  appendString(v, tlv::DropKind, kind);
  appendString(v, tlv::DropReason, reason);
  appendTlvNonNegInt(v, tlv::DropCount, count);
  appendTlv(out, tlv::DropCounter, v);
}

DecodeResult<DropCounterStatus> DropCounterStatus::decode(ByteSpan wire)
{
  auto value = outerValue(wire, tlv::DropCounter);
  if (!value)
    return fail(value.error());
  DropCounterStatus s;
  auto err = forEach(*value, [&](const Element& e) -> std::optional<DecodeError> {
    switch (e.type) {
      case tlv::DropKind: s.kind = toString(e.value); return std::nullopt;
      case tlv::DropReason: s.reason = toString(e.value); return std::nullopt;
      case tlv::DropCount: return readInto(e, s.count);
      default: return std::nullopt;
    }
  });
  if (err)
    return fail(*err);
  return s;
}

} // namespace ndnlab::mgmt
