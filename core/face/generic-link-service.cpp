#include "core/face/generic-link-service.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace ndnlab::face {

namespace {

constexpr std::string_view LogModule = "GenericLinkService";
/// Bound of the early Data held per face (two bundles of the largest span).
constexpr size_t MaxEarlyData = 2 * lp::MaxBundleSpan;

lp::ReassemblerOptions reassemblerOptions(const LinkServiceOptions& o)
{
  lp::ReassemblerOptions r;
  r.maxFragments = o.maxFragments;
  r.timeout = o.reassemblyTimeout;
  r.maxBytes = o.maxReassemblyBytes;
  r.maxPacketSize = o.maxPacketSize;
  return r;
}

lp::InterestBundlerOptions bundlerOptions(const LinkServiceOptions& o)
{
  lp::InterestBundlerOptions b;
  b.bundleInterval = o.bundleInterval;
  b.maxEntries = o.bundleMaxEntries;
  b.entryLifetime = o.bundleEntryLifetime;
  b.lossDetection = o.bundleLossDetection;
  b.gapK = o.bundleGapK;
  b.gapMin = o.bundleGapMin;
  b.maxRecoveries = o.bundleMaxRecoveries;
  b.dynamicInterval = o.bundleDynamicInterval;
  b.intervalMin = o.bundleIntervalMin;
  b.cwndShare = o.bundleCwndShare;
  return b;
}

} // namespace

GenericLinkService::GenericLinkService(Env& env, LinkServiceOptions options)
  : LinkService(env, std::move(options)),
    // A random first Sequence keeps a restarted sender from colliding with partial packets
    // the peer still holds from before the restart.
    m_fragmenter(lp::FragmenterOptions{m_options.maxFragments}, env.rng().next64()),
    m_reassembler(env, reassemblerOptions(m_options)),
    m_bundleEncoder(env.rng(), bundlerOptions(m_options)),
    m_bundleDecoder(bundlerOptions(m_options))
{
  m_reassembler.onPartialDropped = [this](lp::ReassemblyErrc reason, uint64_t endpoint,
                                          size_t nFragments) {
    m_counters.nReassembling = m_reassembler.partialCount();
    uint64_t& counter = reason == lp::ReassemblyErrc::Timeout ? m_counters.nReassemblyTimeouts
                                                              : m_counters.nReassemblyDrops;
    drop(counter, lp::dropReason(reason), endpoint, 0, "partial packet", 0);
    (void)nFragments;
  };
}

GenericLinkService::~GenericLinkService()
{
  if (m_readyTimer != 0)
    m_env.timers().cancel(m_readyTimer);
  if (m_recoveryTimer != 0)
    m_env.timers().cancel(m_recoveryTimer);
}

void GenericLinkService::attach(Transport& transport)
{
  m_transport = &transport;
  transport.onReceive = [this](ByteSpan frame, EndpointId endpoint) {
    receiveFrame(frame, endpoint);
  };
}

void GenericLinkService::setBundling(bool enabled, uint32_t bundleInterval)
{
  LinkService::setBundling(enabled, bundleInterval);
  m_bundleEncoder.setBundleInterval(bundleInterval);
}

bool GenericLinkService::isBundlingActive() const
{
  return m_options.bundling && m_options.bundleInterval > 0 && m_transport != nullptr &&
         m_transport->medium() == Medium::Wireless;
}

std::optional<size_t> GenericLinkService::effectiveMtu() const
{
  std::optional<size_t> mtu;
  if (m_transport && m_transport->mtu() != MtuUnlimited && m_transport->mtu() >= 0)
    mtu = static_cast<size_t>(m_transport->mtu());
  if (m_options.overrideMtu > 0 && (!mtu || m_options.overrideMtu < *mtu))
    mtu = m_options.overrideMtu;
  return mtu;
}

void GenericLinkService::drop(uint64_t& counter, DropReason reason, EndpointId endpoint,
                              size_t octets, std::string_view detail, uint64_t tlvType)
{
  ++counter;
  NDNLAB_LOG(m_env, LogLevel::Debug, LogModule, "[face=", m_faceId, " ep=", endpoint, "] ",
             toString(reason), detail.empty() ? "" : " ", detail, tlvType == 0 ? "" : " type=",
             tlvType == 0 ? std::string() : std::to_string(tlvType), " octets=", octets, " DROP");
  m_env.emit(TraceEvent::dropped(EventKind::Drop, m_faceId, reason, static_cast<int64_t>(octets)));
}

// --- send path ------------------------------------------------------------------------------

void GenericLinkService::sendInterest(const Interest& interest, EndpointId endpoint)
{
  lp::LpPacket header;
  const PacketTags& tags = interest.tags;
  if (tags.pitToken)
    header.pitToken = tags.pitToken;
  if (m_options.allowLocalFields && tags.incomingFaceId)
    header.incomingFaceId = tags.incomingFaceId;
  if (tags.congestionMark > 0)
    header.congestionMark = tags.congestionMark;
  if (m_options.emitBundleTag && tags.bundle)
    header.bundleTag = tags.bundle;
  if (isBundlingActive()) {
    auto d = m_bundleEncoder.onOutgoingInterest(interest, tags.bundle, m_env.now());
    if (!m_early.empty())
      releaseEarlyData(interest);
    if (d.action == lp::BundleEncoder::Action::Absorb) {
      ++m_counters.nOutInterestsAbsorbed;
      m_env.emit(TraceEvent{.kind = EventKind::InterestAbsorbed, .face = m_faceId});
      return;
    }
    if (d.action == lp::BundleEncoder::Action::Send) {
      header.bundle = d.header;
      ++m_counters.nOutBundles;
      m_env.emit(TraceEvent{.kind = EventKind::BundleOut, .face = m_faceId,
                            .value = static_cast<int64_t>(d.header.endSeq - d.header.startSeq + 1)});
      if (!d.header.isSingle())
        armRecoveryTimer(true);
    }
  }
  sendNetPacket(std::move(header), interest.wireEncode(), endpoint);
}

void GenericLinkService::armRecoveryTimer(bool mayBeEarlier)
{
  if (!m_options.bundleLossDetection)
    return;
  if (m_recoveryTimer != 0 && !mayBeEarlier)
    return;
  std::optional<TimePoint> at = m_bundleEncoder.nextDeadline(m_env.now());
  if (!at)
    return; // an armed timer finds nothing due and is not re-armed
  if (m_recoveryTimer != 0) {
    if (m_recoveryAt <= *at)
      return;
    m_env.timers().cancel(m_recoveryTimer);
  }
  m_recoveryAt = std::max(*at, m_env.now());
  m_recoveryTimer = m_env.timers().schedule(m_recoveryAt - m_env.now(), [this] {
    m_recoveryTimer = 0;
    sendRecoveries();
  });
}

void GenericLinkService::sendRecoveries()
{
  if (isBundlingActive()) {
    for (lp::BundleEncoder::Recovery& r : m_bundleEncoder.takeRecoveries(m_env.now())) {
      ++m_counters.nOutBundleRecoveries;
      m_env.emit(TraceEvent{.kind = EventKind::BundleRecovery, .face = m_faceId,
                            .value = static_cast<int64_t>(r.header.endSeq - r.header.startSeq + 1)});
      lp::LpPacket header;
      header.bundle = r.header;
      sendNetPacket(std::move(header), r.interest.wireEncode(), 0);
    }
  }
  armRecoveryTimer(false);
}

void GenericLinkService::sendData(const Data& data, EndpointId endpoint)
{
  lp::LpPacket header;
  const PacketTags& tags = data.tags;
  if (tags.pitToken)
    header.pitToken = tags.pitToken;
  if (m_options.allowLocalFields && tags.incomingFaceId)
    header.incomingFaceId = tags.incomingFaceId;
  if (tags.noCache)
    header.cachePolicy = lp::CachePolicyType::NoCache;
  if (tags.congestionMark > 0)
    header.congestionMark = tags.congestionMark;
  sendNetPacket(std::move(header), data.wireEncode(), endpoint);
}

void GenericLinkService::sendNack(const Nack& nack, EndpointId endpoint)
{
  lp::LpPacket header;
  const PacketTags& tags = nack.interest.tags;
  if (tags.pitToken)
    header.pitToken = tags.pitToken;
  header.nack = static_cast<uint64_t>(nack.reason);
  if (m_options.allowLocalFields && tags.incomingFaceId)
    header.incomingFaceId = tags.incomingFaceId;
  if (tags.congestionMark > 0)
    header.congestionMark = tags.congestionMark;
  sendNetPacket(std::move(header), nack.interest.wireEncode(), endpoint);
}

void GenericLinkService::sendNetPacket(lp::LpPacket&& header, SharedBuffer wire,
                                       EndpointId endpoint)
{
  if (!m_transport)
    return;
  if (wire->size() > m_options.maxPacketSize) {
    // Defensive: nothing above the limit is accepted on receive, but an application or a
    // bundle regeneration could build one; no NDN node would accept it.
    drop(m_counters.nOutTooLarge, DropReason::SendPacketTooLarge, endpoint, wire->size());
    return;
  }
  checkCongestion(header);
  const std::optional<size_t> mtu = effectiveMtu();

  if (!header.hasHeaderFields() && !m_options.alwaysUseLpPacket) {
    // Bare packet: the cached wire encoding goes out as is (no copy).
    if (!mtu || wire->size() <= *mtu) {
      m_transport->send(std::move(wire), endpoint);
      return;
    }
  }
  else {
    header.fragment = ByteSpan(*wire);
    if (!mtu || lp::encodedSize(header) <= *mtu) {
      m_transport->send(lp::encode(header), endpoint);
      return;
    }
  }

  if (!m_options.allowFragmentation) {
    drop(m_counters.nOutOverMtu, DropReason::OverMtu, endpoint, wire->size());
    return;
  }
  auto frames = m_fragmenter.fragment(header, *wire, *mtu);
  if (!frames) {
    drop(m_counters.nFragmentationErrors, lp::dropReason(frames.error()), endpoint, wire->size());
    return;
  }
  for (auto& f : *frames)
    m_transport->send(std::move(f), endpoint);
}

void GenericLinkService::checkCongestion(lp::LpPacket& header)
{
  if (!m_options.allowCongestionMarking)
    return;
  if (codelStep(m_transport->sendQueueLength(), m_nextMarkTime, m_nMarkedInIncident)) {
    if (header.congestionMark.value_or(0) == 0)
      header.congestionMark = 1;
    ++m_counters.nCongestionMarked;
  }
}

bool GenericLinkService::codelStep(size_t queue, TimePoint& nextMark, uint64_t& nMarked)
{
  if (queue > m_options.defaultCongestionThreshold) {
    TimePoint now = m_env.now();
    if (nextMark == TimePoint::max()) {
      // Queue just became congested: start an incident, first mark after one interval.
      nextMark = now + m_options.baseCongestionMarkingInterval;
      nMarked = 0;
    }
    else if (now >= nextMark) {
      ++nMarked;
      // CoDel control law: next interval shrinks with 1/sqrt(marks in this incident + 1).
      auto interval = Duration(static_cast<Duration::rep>(
        static_cast<double>(m_options.baseCongestionMarkingInterval.count()) /
        std::sqrt(static_cast<double>(nMarked + 1))));
      nextMark += interval;
      return true;
    }
  }
  else if (nextMark != TimePoint::max()) {
    nextMark = TimePoint::max();
    nMarked = 0;
  }
  return false;
}

// --- receive path ---------------------------------------------------------------------------

void GenericLinkService::receiveFrame(ByteSpan frame, EndpointId endpoint)
{
  auto decoded = lp::decodeFrame(frame);
  if (!decoded) {
    const lp::LpDecodeError& e = decoded.error();
    uint64_t& counter = e.code == lp::LpErrc::UnknownType            ? m_counters.nInUnknownType
                        : e.code == lp::LpErrc::UnknownCriticalField ? m_counters.nInUnknownCriticalField
                                                                     : m_counters.nInLpInvalid;
    drop(counter, lp::dropReason(e.code), endpoint, frame.size(), {}, e.fieldType);
    return;
  }
  const lp::LpPacket& pkt = *decoded;
  if (pkt.isIdle()) {
    // A Nack names the Interest it rejects, which travels as the Fragment: without one the
    // Nack is unusable. NFD drops every IDLE packet uncounted (log level trace); ndnlab counts
    // this case as malformed. A plain IDLE packet carries only Acks (reliability is not
    // implemented): counted in nInIdle, not a drop.
    if (pkt.nack)
      return drop(m_counters.nInLpInvalid, DropReason::NackWithoutFragment, endpoint, frame.size());
    ++m_counters.nInIdle;
    return;
  }

  if (pkt.hasFragmentationFields()) {
    if (!m_options.allowReassembly) {
      drop(m_counters.nReassemblyDrops, DropReason::ReassemblyDisabled, endpoint, frame.size());
      return;
    }
    auto outcome = m_reassembler.receive(endpoint, pkt);
    m_counters.nReassembling = m_reassembler.partialCount();
    switch (outcome.status) {
      case lp::Reassembler::Outcome::Status::Incomplete:
        return;
      case lp::Reassembler::Outcome::Status::Dropped:
        drop(outcome.error == lp::ReassemblyErrc::PacketTooLarge ? m_counters.nInTooLarge
                                                                 : m_counters.nReassemblyDrops,
             lp::dropReason(outcome.error), endpoint, frame.size());
        return;
      case lp::Reassembler::Outcome::Status::Complete:
        receiveNetPacket(outcome.header, std::move(outcome.packet), endpoint);
        return;
    }
    return;
  }

  if (pkt.fragment->size() > m_options.maxPacketSize) // before copying it
    return drop(m_counters.nInTooLarge, DropReason::PacketTooLarge, endpoint, pkt.fragment->size());
  // One copy per frame: the network packet keeps this buffer as its wire encoding.
  auto wire = std::make_shared<const Buffer>(pkt.fragment->begin(), pkt.fragment->end());
  receiveNetPacket(pkt, std::move(wire), endpoint);
}

void GenericLinkService::receiveNetPacket(const lp::LpPacket& header, SharedBuffer wire,
                                          EndpointId endpoint)
{
  if (wire->size() > m_options.maxPacketSize)
    return drop(m_counters.nInTooLarge, DropReason::PacketTooLarge, endpoint, wire->size());
  uint32_t type = TlvReader(*wire).peekType();
  if (type == tlv::Interest) {
    if (header.nack)
      receiveNack(header, std::move(wire), endpoint);
    else
      receiveInterest(header, std::move(wire), endpoint);
  }
  else if (type == tlv::Data) {
    receiveData(header, std::move(wire), endpoint);
  }
  else {
    drop(m_counters.nInUnknownType, DropReason::UnknownNetworkType, endpoint, wire->size(), {}, type);
  }
}

void GenericLinkService::receiveInterest(const lp::LpPacket& header, SharedBuffer wire,
                                         EndpointId endpoint)
{
  size_t size = wire->size();
  if (header.nextHopFaceId && !m_options.allowLocalFields)
    return drop(m_counters.nInFieldNotAllowed, DropReason::NextHopFaceIdNotAllowed, endpoint, size);
  if (header.cachePolicy)
    return drop(m_counters.nInFieldNotAllowed, DropReason::CachePolicyOnInterest, endpoint, size);
  if (header.prefixAnnouncement)
    return drop(m_counters.nInFieldNotAllowed, DropReason::PrefixAnnouncementOnInterest, endpoint, size);

  auto interest = Interest::decode(std::move(wire));
  if (!interest)
    return drop(m_counters.nInNetInvalid, DropReason::NetInvalid, endpoint, size,
                reasonName(interest.error().code), interest.error().tlvType);

  PacketTags& tags = interest->tags;
  if (header.nextHopFaceId)
    tags.nextHopFaceId = header.nextHopFaceId;
  if (header.congestionMark)
    tags.congestionMark = *header.congestionMark;
  if (header.pitToken)
    tags.pitToken = header.pitToken;
  if (header.bundleTag)
    tags.bundle = header.bundleTag;
  // IncomingFaceId is ignored on receive; NonDiscovery is ignored (no self-learning).
  if (header.bundle)
    return receiveBundle(*header.bundle, std::move(*interest), size, endpoint);
  if (onReceiveInterest)
    onReceiveInterest(std::move(*interest), endpoint);
}

void GenericLinkService::expireEarlyData()
{
  const TimePoint now = m_env.now();
  while (!m_early.empty() && now - m_early.front().arrived >= m_options.bundleEntryLifetime) {
    m_early.pop_front();
    ++m_counters.nInDataEarlyExpired;
  }
}

void GenericLinkService::releaseEarlyData(const Interest& interest)
{
  expireEarlyData();
  auto it = std::find_if(m_early.begin(), m_early.end(),
                         [&](const EarlyData& e) { return interest.matchesData(e.data); });
  if (it == m_early.end())
    return;
  m_ready.push_back(std::move(*it));
  m_early.erase(it);
  if (m_readyTimer != 0)
    return;
  // The forwarder is inside its outgoing-Interest pipeline now: hand the Data up afterwards.
  m_readyTimer = m_env.timers().schedule(Duration::zero(), [this] {
    m_readyTimer = 0;
    std::deque<EarlyData> ready;
    ready.swap(m_ready);
    for (EarlyData& e : ready) {
      if (onReceiveData)
        onReceiveData(std::move(e.data), e.endpoint);
    }
  });
}

void GenericLinkService::receiveBundle(const lp::BundleHeader& bundle, Interest&& interest,
                                       size_t octets, EndpointId endpoint)
{
  ++m_counters.nInBundles;
  auto out = m_bundleDecoder.onIncomingBundle(interest, bundle, endpoint, m_env.now());
  switch (out.status) {
    case lp::BundleDecoder::Status::Invalid:
      return drop(m_counters.nInBundlesInvalid, DropReason::BundleInvalid, endpoint, octets, out.reason);
    case lp::BundleDecoder::Status::Stale:
      return drop(m_counters.nInBundlesStale, DropReason::BundleStale, endpoint, octets);
    case lp::BundleDecoder::Status::Regenerate:
      break;
  }
  const uint64_t count = out.last - out.first + 1;
  m_env.emit(TraceEvent{.kind = EventKind::BundleIn, .face = m_faceId, .value = static_cast<int64_t>(count)});
  if (!interest.tags.bundle)
    interest.tags.bundle = BundleTag{bundle.isSingle(), static_cast<uint32_t>(count), true};
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t seq = out.first + k;
    if (seq == bundle.startSeq) {
      // the Interest on the wire; moved when nothing is regenerated from it afterwards
      if (onReceiveInterest)
        onReceiveInterest(seq == out.last ? std::move(interest) : Interest(interest), endpoint);
      continue;
    }
    Interest regenerated = lp::regenerateInterest(interest, seq);
    regenerated.tags.bundle = interest.tags.bundle;
    regenerated.tags.congestionMark = interest.tags.congestionMark;
    ++m_counters.nInInterestsRegenerated;
    if (seq < bundle.startSeq)
      ++m_counters.nInInterestsGapFilled;
    m_env.emit(TraceEvent{.kind = EventKind::InterestRegenerated, .face = m_faceId,
                          .value = static_cast<int64_t>(seq)});
    if (onReceiveInterest)
      onReceiveInterest(std::move(regenerated), endpoint);
  }
}

void GenericLinkService::receiveData(const lp::LpPacket& header, SharedBuffer wire,
                                     EndpointId endpoint)
{
  size_t size = wire->size();
  if (header.nack)
    return drop(m_counters.nInFieldNotAllowed, DropReason::NackOnData, endpoint, size);
  if (header.nextHopFaceId)
    return drop(m_counters.nInFieldNotAllowed, DropReason::NextHopFaceIdOnData, endpoint, size);
  if (header.nonDiscovery)
    return drop(m_counters.nInFieldNotAllowed, DropReason::NonDiscoveryOnData, endpoint, size);

  auto data = Data::decode(std::move(wire));
  if (!data)
    return drop(m_counters.nInNetInvalid, DropReason::NetInvalid, endpoint, size,
                reasonName(data.error().code), data.error().tlvType);

  PacketTags& tags = data->tags;
  if (header.cachePolicy)
    tags.noCache = *header.cachePolicy == lp::CachePolicyType::NoCache;
  if (header.congestionMark)
    tags.congestionMark = *header.congestionMark;
  if (header.pitToken)
    tags.pitToken = header.pitToken;
  if (m_options.allowCongestionMarking && m_options.markReceiveBacklog && m_transport &&
      codelStep(m_transport->receiveQueueLength(), m_rxNextMarkTime, m_rxMarkedInIncident)) {
    if (tags.congestionMark == 0)
      tags.congestionMark = 1;
    ++m_counters.nReceiveCongestionMarked;
  }
  if (isBundlingActive() && m_options.bundleLossDetection) {
    m_bundleEncoder.onIncomingData(data->name(), m_env.now());
    armRecoveryTimer(false);
  }
  if (isBundlingActive() && m_bundleEncoder.isAhead(data->name(), m_env.now())) {
    // A bundle asked for it and the consumer's Interest has not come down yet: handed up now,
    // the forwarder would drop it as unsolicited. Held until that Interest is absorbed.
    expireEarlyData();
    if (m_early.size() >= MaxEarlyData) {
      m_early.pop_front();
      ++m_counters.nInDataEarlyExpired;
    }
    ++m_counters.nInDataEarly;
    m_env.emit(TraceEvent{.kind = EventKind::DataEarly, .face = m_faceId});
    m_early.push_back(EarlyData{std::move(*data), endpoint, m_env.now()});
    return;
  }
  // IncomingFaceId is ignored; PrefixAnnouncement is ignored (no self-learning).
  if (onReceiveData)
    onReceiveData(std::move(*data), endpoint);
}

void GenericLinkService::receiveNack(const lp::LpPacket& header, SharedBuffer wire,
                                     EndpointId endpoint)
{
  size_t size = wire->size();
  if (header.nextHopFaceId)
    return drop(m_counters.nInFieldNotAllowed, DropReason::NextHopFaceIdOnNack, endpoint, size);
  if (header.cachePolicy)
    return drop(m_counters.nInFieldNotAllowed, DropReason::CachePolicyOnNack, endpoint, size);
  if (header.nonDiscovery)
    return drop(m_counters.nInFieldNotAllowed, DropReason::NonDiscoveryOnNack, endpoint, size);
  if (header.prefixAnnouncement)
    return drop(m_counters.nInFieldNotAllowed, DropReason::PrefixAnnouncementOnNack, endpoint, size);

  auto interest = Interest::decode(std::move(wire));
  if (!interest)
    return drop(m_counters.nInNetInvalid, DropReason::NetInvalid, endpoint, size,
                reasonName(interest.error().code), interest.error().tlvType);

  Nack nack{std::move(*interest), nackReasonFromCode(*header.nack)};
  PacketTags& tags = nack.interest.tags;
  if (header.congestionMark)
    tags.congestionMark = *header.congestionMark;
  if (header.pitToken)
    tags.pitToken = header.pitToken;
  if (onReceiveNack)
    onReceiveNack(std::move(nack), endpoint);
}

} // namespace ndnlab::face
