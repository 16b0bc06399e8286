#include "core/face/generic-link-service.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace ndnlab::face {

namespace {

constexpr std::string_view LogModule = "GenericLinkService";
lp::ReassemblerOptions reassemblerOptions(const LinkServiceOptions& o)
{
  lp::ReassemblerOptions r;
  r.maxFragments = o.maxFragments;
  r.timeout = o.reassemblyTimeout;
  r.maxBytes = o.maxReassemblyBytes;
  r.maxPacketSize = o.maxPacketSize;
  return r;
}

} // namespace

GenericLinkService::GenericLinkService(Env& env, LinkServiceOptions options)
  : LinkService(env, std::move(options)),
    // A random first Sequence keeps a restarted sender from colliding with partial packets
    // the peer still holds from before the restart.
    m_fragmenter(lp::FragmenterOptions{m_options.maxFragments}, env.rng().next64()),
    m_reassembler(env, reassemblerOptions(m_options)),
    m_bundling(env, *this, m_options, m_counters,
               BundlingService::Hooks{
                 .isActive = [this] { return isBundlingActive(); },
                 .send = [this](lp::LpPacket&& header,
                                SharedBuffer wire) { sendNetPacket(std::move(header), std::move(wire), 0); },
                 .drop = [this](uint64_t& counter, DropReason reason, EndpointId endpoint, size_t octets,
                                std::string_view detail) { drop(counter, reason, endpoint, octets, detail); },
               })
{
  m_reassembler.onPartialDropped = [this](lp::ReassemblyErrc reason, uint64_t endpoint, size_t nFragments) {
    m_counters.nReassembling = m_reassembler.partialCount();
    uint64_t& counter =
      reason == lp::ReassemblyErrc::Timeout ? m_counters.nReassemblyTimeouts : m_counters.nReassemblyDrops;
    drop(counter, lp::dropReason(reason), endpoint, 0, "partial packet", 0);
    (void)nFragments;
  };
  if (m_options.reliability.enabled)
    makeReliability();
}

void GenericLinkService::makeReliability()
{
  m_reliability = std::make_unique<LinkReliability>(
    m_env, *this, m_options.reliability, m_counters,
    LinkReliability::Hooks{
      .send = [this](lp::LpPacket&& frame, EndpointId endpoint) { sendLpFrame(std::move(frame), endpoint); },
      .drop = [this](uint64_t& counter, DropReason reason, EndpointId endpoint,
                     size_t octets) { drop(counter, reason, endpoint, octets); },
      .mtu = [this] { return effectiveMtu(); },
    });
}

void GenericLinkService::setReliability(bool enabled)
{
  LinkService::setReliability(enabled);
  if (!enabled)
    m_reliability.reset(); // frames awaiting Acks are forgotten, as NFD does
  else if (!m_reliability)
    makeReliability();
}

bool GenericLinkService::isReliabilityActive() const
{
  return m_reliability != nullptr && m_transport != nullptr && m_transport->linkType() == LinkType::PointToPoint;
}

GenericLinkService::~GenericLinkService() = default;

void GenericLinkService::attach(Transport& transport)
{
  m_transport = &transport;
  transport.onReceive = [this](ByteSpan frame, EndpointId endpoint) { receiveFrame(frame, endpoint); };
}

void GenericLinkService::setBundling(bool enabled, uint32_t bundleInterval)
{
  LinkService::setBundling(enabled, bundleInterval);
  m_bundling.setBundleInterval(bundleInterval);
}

bool GenericLinkService::isBundlingActive() const
{
  return m_options.bundling && m_options.bundler.bundleInterval > 0 && m_transport != nullptr &&
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

void GenericLinkService::drop(uint64_t& counter, DropReason reason, EndpointId endpoint, size_t octets,
                              std::string_view detail, uint64_t tlvType)
{
  ++counter;
  NDNLAB_LOG(m_env, LogLevel::Debug, LogModule, "[face=", m_faceId, " ep=", endpoint, "] ", toString(reason),
             detail.empty() ? "" : " ", detail,
             tlvType == 0 ? "" : " type=", tlvType == 0 ? std::string() : std::to_string(tlvType), " octets=", octets,
             " DROP");
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
    BundlingService::Outgoing out = m_bundling.onOutgoingInterest(interest);
    if (out.absorbed)
      return;
    header.bundle = out.bundle;
  }
  sendNetPacket(std::move(header), interest.wireEncode(), endpoint);
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
  if (m_options.mircc)
    header.mirccRate = tags.mirccRate;
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
  if (m_options.mircc)
    header.mirccRate = tags.mirccRate;
  sendNetPacket(std::move(header), nack.interest.wireEncode(), endpoint);
}

void GenericLinkService::sendNetPacket(lp::LpPacket&& header, SharedBuffer wire, EndpointId endpoint)
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
  if (isReliabilityActive())
    return sendReliably(std::move(header), std::move(wire), endpoint);
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

void GenericLinkService::sendReliably(lp::LpPacket&& header, SharedBuffer wire, EndpointId endpoint)
{
  const std::optional<size_t> mtu = effectiveMtu();
  header.fragment = ByteSpan(*wire);
  header.sequence.reset();
  std::vector<lp::LpPacket> frames;
  if (!mtu || lp::encodedSize(header) + tlvSize(tlv::Sequence, 8) + LinkReliability::ReservedHeaderSpace <= *mtu) {
    header.sequence = m_fragmenter.takeSequence(); // the receiver's duplicate check needs one
    frames.push_back(std::move(header));
  }
  else if (!m_options.allowFragmentation) {
    return drop(m_counters.nOutOverMtu, DropReason::OverMtu, endpoint, wire->size());
  }
  else {
    if (*mtu <= LinkReliability::ReservedHeaderSpace)
      return drop(m_counters.nFragmentationErrors, DropReason::FragmentMtuTooSmall, endpoint, wire->size());
    auto split = m_fragmenter.split(header, *wire, *mtu - LinkReliability::ReservedHeaderSpace);
    if (!split)
      return drop(m_counters.nFragmentationErrors, lp::dropReason(split.error()), endpoint, wire->size());
    frames = std::move(*split);
  }
  m_reliability->onSend(frames, wire, endpoint);
  for (lp::LpPacket& f : frames)
    sendLpFrame(std::move(f), endpoint);
}

void GenericLinkService::sendLpFrame(lp::LpPacket&& frame, EndpointId endpoint)
{
  if (!m_transport)
    return;
  const std::optional<size_t> mtu = effectiveMtu();
  if (m_reliability)
    m_reliability->piggyback(frame, mtu);
  SharedBuffer encoded = lp::encode(frame);
  if (mtu && encoded->size() > *mtu) // defensive: the fragmenter left room for TxSequence
    return drop(m_counters.nOutOverMtu, DropReason::OverMtu, endpoint, encoded->size());
  m_transport->send(std::move(encoded), endpoint);
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
      auto interval =
        Duration(static_cast<Duration::rep>(static_cast<double>(m_options.baseCongestionMarkingInterval.count()) /
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
  if (isReliabilityActive()) {
    switch (m_reliability->onReceive(pkt, endpoint)) {
      case LinkReliability::Verdict::Accept: break;
      case LinkReliability::Verdict::Duplicate:
        return drop(m_counters.nDuplicateSequence, DropReason::LpDuplicateSequence, endpoint, frame.size());
      case LinkReliability::Verdict::TooManyAcks:
        return drop(m_counters.nInLpInvalid, DropReason::LpTooManyAcks, endpoint, frame.size());
    }
  }
  if (pkt.isIdle()) {
    // A Nack names the Interest it rejects, which travels as the Fragment: without one the
    // Nack is unusable. NFD drops every IDLE packet uncounted (log level trace); ndnlab counts
    // this case as malformed. A plain IDLE packet carries only Acks (taken above with link
    // reliability on, ignored with it off): counted in nInIdle, not a drop.
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
      case lp::Reassembler::Outcome::Status::Incomplete: return;
      case lp::Reassembler::Outcome::Status::Dropped:
        drop(outcome.error == lp::ReassemblyErrc::PacketTooLarge ? m_counters.nInTooLarge : m_counters.nReassemblyDrops,
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

void GenericLinkService::receiveNetPacket(const lp::LpPacket& header, SharedBuffer wire, EndpointId endpoint)
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

void GenericLinkService::receiveInterest(const lp::LpPacket& header, SharedBuffer wire, EndpointId endpoint)
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
    return drop(m_counters.nInNetInvalid, DropReason::NetInvalid, endpoint, size, reasonName(interest.error().code),
                interest.error().tlvType);

  PacketTags& tags = interest->tags;
  if (header.nextHopFaceId)
    tags.nextHopFaceId = header.nextHopFaceId;
  if (header.congestionMark)
    tags.congestionMark = *header.congestionMark;
  if (header.pitToken)
    tags.pitToken = header.pitToken;
  if (header.bundleTag)
    tags.bundle = header.bundleTag;
  // IncomingFaceId is ignored on receive; NonDiscovery is ignored (no self-learning);
  // MirccRate is meaningful only on Data and Nacks and is ignored.
  if (header.bundle)
    return m_bundling.onIncomingBundle(*header.bundle, std::move(*interest), size, endpoint);
  if (onReceiveInterest)
    onReceiveInterest(std::move(*interest), endpoint);
}

void GenericLinkService::receiveData(const lp::LpPacket& header, SharedBuffer wire, EndpointId endpoint)
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
    return drop(m_counters.nInNetInvalid, DropReason::NetInvalid, endpoint, size, reasonName(data.error().code),
                data.error().tlvType);

  PacketTags& tags = data->tags;
  if (header.cachePolicy)
    tags.noCache = *header.cachePolicy == lp::CachePolicyType::NoCache;
  if (header.congestionMark)
    tags.congestionMark = *header.congestionMark;
  if (header.pitToken)
    tags.pitToken = header.pitToken;
  if (header.mirccRate)
    tags.mirccRate = header.mirccRate;
  if (m_options.allowCongestionMarking && m_options.markReceiveBacklog && m_transport &&
      codelStep(m_transport->receiveQueueLength(), m_rxNextMarkTime, m_rxMarkedInIncident)) {
    if (tags.congestionMark == 0)
      tags.congestionMark = 1;
    ++m_counters.nReceiveCongestionMarked;
  }
  if (m_bundling.onIncomingData(*data, endpoint))
    return; // held until the Interest it answers comes down
  // IncomingFaceId is ignored; PrefixAnnouncement is ignored (no self-learning).
  if (onReceiveData)
    onReceiveData(std::move(*data), endpoint);
}

void GenericLinkService::receiveNack(const lp::LpPacket& header, SharedBuffer wire, EndpointId endpoint)
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
    return drop(m_counters.nInNetInvalid, DropReason::NetInvalid, endpoint, size, reasonName(interest.error().code),
                interest.error().tlvType);

  Nack nack{std::move(*interest), nackReasonFromCode(*header.nack)};
  PacketTags& tags = nack.interest.tags;
  if (header.congestionMark)
    tags.congestionMark = *header.congestionMark;
  if (header.pitToken)
    tags.pitToken = header.pitToken;
  if (header.mirccRate)
    tags.mirccRate = header.mirccRate;
  if (onReceiveNack)
    onReceiveNack(std::move(nack), endpoint);
}

} // namespace ndnlab::face
