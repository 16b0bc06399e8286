#include "core/fw/forwarder.hpp"

#include "core/fw/algorithm.hpp"

#include <algorithm>
#include <utility>

namespace ndnlab::fw {

namespace {
constexpr std::string_view LogModule = "fw.Forwarder";
} // namespace

std::string_view toString(UnsolicitedDataPolicy p)
{
  switch (p) {
    case UnsolicitedDataPolicy::DropAll: return "drop-all";
    case UnsolicitedDataPolicy::AdmitLocal: return "admit-local";
    case UnsolicitedDataPolicy::AdmitNetwork: return "admit-network";
    case UnsolicitedDataPolicy::AdmitAll: return "admit-all";
  }
  return "unknown";
}

std::optional<UnsolicitedDataPolicy> parseUnsolicitedDataPolicy(std::string_view s)
{
  for (auto p : {UnsolicitedDataPolicy::DropAll, UnsolicitedDataPolicy::AdmitLocal, UnsolicitedDataPolicy::AdmitNetwork,
                 UnsolicitedDataPolicy::AdmitAll}) {
    if (toString(p) == s)
      return p;
  }
  return std::nullopt;
}

Forwarder::Forwarder(Env& env, ForwarderOptions options)
  : m_env(env),
    m_options(std::move(options)),
    m_startTimestamp(env.clock().unixNow()),
    m_registry(StrategyRegistry::withBuiltins()),
    m_faceTable(env),
    m_fib(m_nameTree),
    m_pit(m_nameTree, table::PitOptions{m_options.pitMaxEntries, m_options.pitMaxInRecordsPerFace,
                                        m_options.pitShareFactor, m_options.pitMaxLifetime}),
    m_cs(env, table::CsOptions{m_options.csCapacity, m_options.csMaxBytes, m_options.csScanLimit, m_options.csAdmit,
                               m_options.csServe}),
    m_dnl(env, table::DeadNonceListOptions{m_options.dnlLifetime, m_options.dnlCapacity}),
    m_strategyChoice(m_nameTree,
                     [this](const Name& name) -> Result<std::unique_ptr<table::StrategyBase>, std::string> {
                       auto s = m_registry.create(*this, name);
                       if (!s)
                         return fail(s.error());
                       return std::unique_ptr<table::StrategyBase>(std::move(*s));
                     }),
    m_mircc(env, m_options.mircc,
            [this](face::FaceId id, const Interest& interest) { sendShapedInterest(id, interest); })
{
  m_strategyChoice.setDefaultStrategy(m_options.defaultStrategy);
  m_faceTable.afterAdd.connect([this](face::Face& f) { connectFace(f); });
  m_faceTable.beforeRemove.connect([this](face::Face& f) { cleanupOnFaceRemoval(f); });
  m_fib.afterNewNextHop = [this](const Name& prefix, const table::NextHop& nh) { afterNewNextHop(prefix, nh); };
}

Forwarder::~Forwarder()
{
  if (m_expiryTimer != 0)
    m_env.timers().cancel(m_expiryTimer);
  m_fib.afterNewNextHop = nullptr;
  // Faces must not call into a half-destroyed forwarder.
  for (face::Face& f : m_faceTable) {
    f.afterReceiveInterest = nullptr;
    f.afterReceiveData = nullptr;
    f.afterReceiveNack = nullptr;
  }
}

// --- faces ----------------------------------------------------------------------------------

face::FaceId Forwarder::addFace(std::unique_ptr<face::Face> face)
{
  return m_faceTable.add(std::move(face));
}

void Forwarder::addReservedFace(std::unique_ptr<face::Face> face, face::FaceId id)
{
  m_faceTable.addReserved(std::move(face), id);
}

void Forwarder::connectFace(face::Face& face)
{
  face.afterReceiveInterest = [this](face::Face& f, Interest&& i, face::EndpointId ep) {
    onIncomingInterest(f, std::move(i), ep);
  };
  face.afterReceiveData = [this](face::Face& f, Data&& d, face::EndpointId ep) { onIncomingData(f, std::move(d), ep); };
  face.afterReceiveNack = [this](face::Face& f, Nack&& n, face::EndpointId ep) { onIncomingNack(f, std::move(n), ep); };
}

void Forwarder::cleanupOnFaceRemoval(face::Face& face)
{
  m_fib.removeNextHopFromAllEntries(face);
  m_pit.removeFace(face);
  m_mircc.disable(face.id());
  NDNLAB_LOG(m_env, LogLevel::Debug, LogModule, "face ", face.id(), " removed: FIB nexthops and PIT records cleaned");
  afterFaceCleanup(face);
}

// --- management helpers -----------------------------------------------------------------------

FibStatus Forwarder::addNextHop(const Name& prefix, face::FaceId faceId, uint64_t cost)
{
  face::Face* f = m_faceTable.get(faceId);
  if (f == nullptr)
    return FibStatus::FaceNotFound;
  auto [entry, isNew] = m_fib.insert(prefix);
  if (entry == nullptr)
    return FibStatus::PrefixTooLong;
  m_fib.addOrUpdateNextHop(*entry, *f, cost);
  return FibStatus::Ok;
}

FibStatus Forwarder::removeNextHop(const Name& prefix, face::FaceId faceId)
{
  face::Face* f = m_faceTable.get(faceId);
  if (f == nullptr)
    return FibStatus::FaceNotFound;
  table::FibEntry* entry = m_fib.findExactMatch(prefix);
  if (entry == nullptr || !entry->hasNextHop(*f))
    return FibStatus::NotFound;
  m_fib.removeNextHop(*entry, *f);
  return FibStatus::Ok;
}

table::StrategyChoice::InsertResult Forwarder::setStrategy(const Name& prefix, const Name& strategyName)
{
  return m_strategyChoice.insert(prefix, strategyName);
}

bool Forwarder::unsetStrategy(const Name& prefix)
{
  return m_strategyChoice.erase(prefix);
}

void Forwarder::afterNewNextHop(const Name& prefix, const table::NextHop& nexthop)
{
  if (m_pit.size() == 0)
    return;
  bool anyWants = false;
  m_strategyChoice.forEachStrategy(
    [&](table::StrategyBase& s) { anyWants = anyWants || static_cast<Strategy&>(s).wantsNewNextHop(); });
  if (!anyWants)
    return;
  // PIT entries under `prefix` whose longest FIB match is `prefix` (NFD startProcessNewNextHop).
  std::vector<table::PitEntry*> affected;
  m_nameTree.forEach([&](const table::NameTreeEntry& nte) {
    if (!nte.hasPitEntries() || !prefix.isPrefixOf(nte.name()))
      return;
    const table::NameTreeEntry* withFib = table::NameTree::findAncestor(
      const_cast<table::NameTreeEntry*>(&nte), [](const table::NameTreeEntry& e) { return e.fibEntry() != nullptr; });
    if (withFib == nullptr || withFib->name().size() != prefix.size())
      return;
    for (const auto& e : nte.pitEntries())
      affected.push_back(e.get());
  });
  if (affected.empty())
    return;
  table::NextHop nh = nexthop;
  PipelineGuard guard(*this);
  for (table::PitEntry* e : affected) {
    Strategy& s = effectiveStrategy(*e);
    if (s.wantsNewNextHop())
      s.afterNewNextHop(nh, *e);
  }
}

// --- helpers ----------------------------------------------------------------------------------

Strategy& Forwarder::effectiveStrategy(const table::PitEntry& entry) const
{
  return static_cast<Strategy&>(m_strategyChoice.findEffectiveStrategy(entry));
}

Strategy& Forwarder::effectiveStrategy(const Name& name) const
{
  return static_cast<Strategy&>(m_strategyChoice.findEffectiveStrategy(name));
}

void Forwarder::drop(uint64_t& counter, DropReason reason, face::FaceId face, const Name& name)
{
  ++counter;
  NDNLAB_LOG(m_env, LogLevel::Debug, LogModule, "face=", face, " name=", name, " ", toString(reason), " DROP");
  m_env.emit(TraceEvent::dropped(EventKind::Drop, face, reason));
}

bool Forwarder::isInProducerRegion(const std::vector<Name>& forwardingHint) const
{
  for (const Name& delegation : forwardingHint) {
    for (const Name& region : m_options.networkRegions) {
      if (delegation.isPrefixOf(region))
        return true;
    }
  }
  return false;
}

void Forwarder::setExpiryTimer(table::PitEntry& entry, Duration delay)
{
  m_pit.setExpiry(entry, m_env.now() + std::max(delay, Duration::zero()));
}

void Forwarder::afterPipeline()
{
  if (m_inAfterPipeline)
    return;
  m_inAfterPipeline = true;
  TimePoint now = m_env.now();
  while (table::PitEntry* e = m_pit.popExpired(now))
    onInterestFinalize(*e);
  m_strategyChoice.clearRetired();
  m_inAfterPipeline = false;
  rearmExpiryTimer();
}

void Forwarder::rearmExpiryTimer()
{
  std::optional<TimePoint> next = m_pit.nextExpiry();
  if (!next)
    return;
  if (m_expiryTimer != 0) {
    if (m_expiryTimerAt <= *next)
      return; // the armed timer fires first and re-arms
    m_env.timers().cancel(m_expiryTimer);
  }
  m_expiryTimerAt = *next;
  m_expiryTimer = m_env.timers().schedule(*next - m_env.now(), [this] {
    m_expiryTimer = 0;
    afterPipeline();
  });
}

// --- incoming Interest --------------------------------------------------------------------------

void Forwarder::onIncomingInterest(face::Face& face, Interest&& interest, face::EndpointId endpoint)
{
  PipelineGuard guard(*this);
  FaceEndpoint ingress{face, endpoint};
  ++m_counters.nInInterests;
  m_env.emit({.kind = EventKind::InterestIn, .face = face.id()});

  interest.tags.incomingFaceId = face.id();
  // The PitToken belongs to the downstream: it lives in the in-record, never goes upstream.
  std::optional<PitToken> token = std::move(interest.tags.pitToken);
  interest.tags.pitToken.reset();

  if (std::optional<uint8_t> hopLimit = interest.hopLimit()) {
    if (*hopLimit == 0)
      return drop(m_counters.nDropHopLimitZero, DropReason::HopLimitZero, face.id(), interest.name());
    interest.setHopLimit(static_cast<uint8_t>(*hopLimit - 1));
  }
  // A forwarder MUST add a Nonce when missing (spec interest.rst); it keys loop detection.
  if (!interest.nonce())
    interest.setNonce(m_env.rng().next32());
  uint32_t nonce = *interest.nonce();

  if (!face.isLocal() && isLocalhostName(interest.name()))
    return drop(m_counters.nDropLocalhostInterest, DropReason::LocalhostScope, face.id(), interest.name());

  if (m_dnl.has(interest.name(), nonce)) {
    ++m_counters.nLoopDnl;
    return onInterestLoop(interest, ingress, token);
  }

  if (!interest.forwardingHint().empty() && isInProducerRegion(interest.forwardingHint()))
    interest.setForwardingHint({});

  auto shared = std::make_shared<Interest>(std::move(interest));
  auto [entry, isNew] = m_pit.insert(shared);
  if (entry == nullptr)
    return drop(m_counters.nDropPitFull, DropReason::PitFull, face.id(), shared->name());

  int dnw = findDuplicateNonce(*entry, nonce, face);
  bool isLoop = dnw != DuplicateNonceNone;
  if (face.linkType() == face::LinkType::PointToPoint)
    isLoop = isLoop && !(dnw & DuplicateNonceInSame); // same Nonce from the same p2p face: retx
  if (isLoop) {
    ++m_counters.nLoopPit;
    return onInterestLoop(*shared, ingress, token);
  }

  if (entry->findInRecord(face) == nullptr && !m_pit.canAddInRecord(face.id(), isNew ? 1 : 0)) {
    if (isNew)
      m_pit.erase(entry);
    return drop(m_counters.nDropPitFaceQuota, DropReason::PitFaceQuota, face.id(), shared->name());
  }

  if (!entry->hasInRecords()) {
    if (std::shared_ptr<Data> data = m_cs.find(*shared))
      return onContentStoreHit(*shared, ingress, token, *entry, data);
  }
  onContentStoreMiss(shared, ingress, std::move(token), *entry);
}

void Forwarder::onInterestLoop(const Interest& interest, const FaceEndpoint& ingress,
                               const std::optional<PitToken>& token)
{
  if (ingress.face.linkType() != face::LinkType::PointToPoint)
    return drop(m_counters.nDropLoop, DropReason::LoopDrop, ingress.face.id(), interest.name());
  NDNLAB_LOG(m_env, LogLevel::Debug, LogModule, "face=", ingress.face.id(), " name=", interest.name(),
             " nonce=", interest.nonce().value_or(0), " loop");
  m_env.emit({.kind = EventKind::InterestLoop, .face = ingress.face.id()});
  effectiveStrategy(interest.name()).onInterestLoop(interest, ingress, token);
}

void Forwarder::onContentStoreMiss(const std::shared_ptr<Interest>& interest, const FaceEndpoint& ingress,
                                   std::optional<PitToken>&& token, table::PitEntry& entry)
{
  ++m_counters.nCsMisses;
  if (m_options.defaultHopLimit > 0 && !interest->hopLimit())
    interest->setHopLimit(m_options.defaultHopLimit);

  TimePoint now = m_env.now();
  m_pit.insertOrUpdateInRecord(entry, ingress.face, ingress.endpoint, interest, std::move(token), now);
  TimePoint lastExpiry = now;
  for (const table::PitInRecord& r : entry.inRecords())
    lastExpiry = std::max(lastExpiry, r.expiry);
  m_pit.setExpiry(entry, lastExpiry);

  if (std::optional<uint64_t> nextHopId = interest->tags.nextHopFaceId; nextHopId && ingress.face.isLocal()) {
    // a privileged local application chose the upstream: no strategy, no scope check (NFD)
    if (face::Face* nextHop = m_faceTable.get(*nextHopId))
      onOutgoingInterest(*interest, *nextHop, entry);
    else
      drop(m_counters.nDropUnknownNextHop, DropReason::NextHopUnknown, ingress.face.id(), interest->name());
    return;
  }
  effectiveStrategy(entry).afterReceiveInterest(*interest, ingress, entry);
}

void Forwarder::onContentStoreHit(const Interest& interest, const FaceEndpoint& ingress,
                                  const std::optional<PitToken>& token, table::PitEntry& entry,
                                  const std::shared_ptr<Data>& data)
{
  ++m_counters.nCsHits;
  m_env.emit({.kind = EventKind::CsHit, .face = ingress.face.id()});
  // Tags of a cached Data are per-send scratch: start clean, mark the CS as its source.
  data->tags = PacketTags{};
  data->tags.incomingFaceId = face::ContentStoreFaceId;
  data->tags.pitToken = token;
  entry.isSatisfied = true;
  entry.dataFreshnessPeriod = data->freshnessPeriod();
  setExpiryTimer(entry, Duration::zero());
  effectiveStrategy(entry).afterContentStoreHit(*data, ingress, entry);
}

// --- outgoing Interest ----------------------------------------------------------------------------

table::PitOutRecord* Forwarder::onOutgoingInterest(const Interest& interest, face::Face& egress, table::PitEntry& entry)
{
  if (interest.hopLimit() == uint8_t{0} && !egress.isLocal()) {
    drop(m_counters.nDropOutHopLimitZero, DropReason::OutHopLimitZero, egress.id(), interest.name());
    return nullptr;
  }
  entry.insertOrUpdateOutRecord(egress, interest, m_env.now(), m_options.pitMaxLifetime);
  if (egress.linkService().options().mircc) {
    switch (m_mircc.offer(egress.id(), interest)) {
      case MirccRegulator::Offer::NotRegulated: break; // sent below
      case MirccRegulator::Offer::Dropped:
        entry.deleteOutRecord(egress);
        drop(m_counters.nDropShaperFull, DropReason::ShaperFull, egress.id(), interest.name());
        return nullptr;
      case MirccRegulator::Offer::Sent:   // counted by sendShapedInterest
      case MirccRegulator::Offer::Queued: // leaves later through sendShapedInterest
        return entry.findOutRecord(egress);
    }
  }
  egress.sendInterest(interest);
  ++m_counters.nOutInterests;
  m_env.emit({.kind = EventKind::InterestOut, .face = egress.id()});
  // re-find: a synchronous face could have changed the records while sending
  return entry.findOutRecord(egress);
}

// --- Interest finalize ------------------------------------------------------------------------------

void Forwarder::insertDeadNonceList(table::PitEntry& entry, const face::Face* upstream)
{
  bool needDnl = true;
  if (entry.isSatisfied) {
    // satisfied: only when the Data may soon stop satisfying MustBeFresh retransmissions
    needDnl = entry.interest().mustBeFresh() && entry.dataFreshnessPeriod < m_dnl.lifetime();
  }
  if (!needDnl)
    return;
  if (upstream == nullptr) {
    for (const table::PitOutRecord& r : entry.outRecords())
      m_dnl.add(entry.name(), r.lastNonce);
  }
  else if (const table::PitOutRecord* r = entry.findOutRecord(*upstream)) {
    m_dnl.add(entry.name(), r->lastNonce);
  }
}

void Forwarder::onInterestFinalize(table::PitEntry& entry)
{
  insertDeadNonceList(entry, nullptr);
  if (entry.isSatisfied) {
    ++m_counters.nSatisfiedInterests;
    m_env.emit({.kind = EventKind::InterestSatisfied});
  }
  else {
    ++m_counters.nUnsatisfiedInterests;
    m_env.emit({.kind = EventKind::InterestUnsatisfied});
  }
  m_pit.erase(&entry);
}

// --- incoming Data ----------------------------------------------------------------------------------

void Forwarder::onIncomingData(face::Face& face, Data&& data, face::EndpointId endpoint)
{
  PipelineGuard guard(*this);
  FaceEndpoint ingress{face, endpoint};
  ++m_counters.nInData;
  m_env.emit({.kind = EventKind::DataIn, .face = face.id()});

  data.tags.incomingFaceId = face.id();
  data.tags.pitToken.reset(); // the upstream's token means nothing to our downstreams
  stampMirccRate(face, data.tags);

  if (!face.isLocal() && isLocalhostName(data.name()))
    return drop(m_counters.nDropLocalhostData, DropReason::LocalhostScopeData, face.id(), data.name());

  auto shared = std::make_shared<Data>(std::move(data));
  table::Pit::DataMatches matches = m_pit.findAllDataMatches(*shared);
  if (matches.empty())
    return onDataUnsolicited(ingress, shared);

  m_cs.insert(shared);
  if (m_mircc.enabled(face.id())) {
    // Interest-to-Data delay d: from when the Interest was forwarded (shaper wait included)
    if (const table::PitOutRecord* r = matches.front()->findOutRecord(face))
      m_mircc.onDataDelay(face.id(), m_env.now() - r->lastRenewed);
  }

  if (matches.size() == 1) {
    table::PitEntry& entry = *matches.front();
    setExpiryTimer(entry, Duration::zero());
    effectiveStrategy(entry).afterReceiveData(*shared, ingress, entry);
    entry.isSatisfied = true;
    entry.dataFreshnessPeriod = shared->freshnessPeriod();
    insertDeadNonceList(entry, &face);
    entry.deleteOutRecord(face);
    return;
  }

  // Several entries: the forwarder sends to the union of their pending downstreams, each with
  // the PitToken of its (first) in-record.
  TimePoint now = m_env.now();
  table::SmallVector<std::pair<face::Face*, std::optional<PitToken>>, 4> downstreams;
  for (table::PitEntry* entry : matches) {
    for (const table::PitInRecord& r : entry->inRecords()) {
      if (r.expiry <= now)
        continue;
      bool seen = std::any_of(downstreams.begin(), downstreams.end(), [&](const auto& d) { return d.first == r.face; });
      if (!seen)
        downstreams.emplace_back(r.face, r.pitToken);
    }
    setExpiryTimer(*entry, Duration::zero());
    effectiveStrategy(*entry).beforeSatisfyInterest(*shared, ingress, *entry);
    entry->isSatisfied = true;
    entry->dataFreshnessPeriod = shared->freshnessPeriod();
    insertDeadNonceList(*entry, &face);
    m_pit.clearInRecords(*entry);
    entry->deleteOutRecord(face);
  }
  for (const auto& [downstream, token] : downstreams) {
    if (downstream == &face && downstream->linkType() != face::LinkType::AdHoc)
      continue;
    onOutgoingData(*shared, *downstream, token);
  }
}

void Forwarder::onDataUnsolicited(const FaceEndpoint& ingress, const std::shared_ptr<Data>& data)
{
  bool cache = false;
  switch (m_options.unsolicitedDataPolicy) {
    case UnsolicitedDataPolicy::DropAll: cache = false; break;
    case UnsolicitedDataPolicy::AdmitLocal: cache = ingress.face.isLocal(); break;
    case UnsolicitedDataPolicy::AdmitNetwork: cache = !ingress.face.isLocal(); break;
    case UnsolicitedDataPolicy::AdmitAll: cache = true; break;
  }
  if (cache) {
    ++m_counters.nUnsolicitedData;
    m_cs.insert(data, true);
    m_env.emit({.kind = EventKind::DataUnsolicited, .face = ingress.face.id(), .reason = "cached"});
    return;
  }
  drop(m_counters.nUnsolicitedData, DropReason::UnsolicitedData, ingress.face.id(), data->name());
}

// --- outgoing Data ----------------------------------------------------------------------------------

bool Forwarder::onOutgoingData(const Data& data, face::Face& egress, const std::optional<PitToken>& token)
{
  if (egress.id() == face::InvalidFaceId)
    return false;
  if (!egress.isLocal() && isLocalhostName(data.name())) {
    drop(m_counters.nDropLocalhostData, DropReason::LocalhostScopeData, egress.id(), data.name());
    return false;
  }
  // Every Data reaching here is a forwarder-owned, non-const object (received or cached); its
  // tags are per-send scratch: this downstream's PitToken is set for the send, then restored.
  Data& d = const_cast<Data&>(data);
  std::optional<PitToken> saved = std::exchange(d.tags.pitToken, token);
  egress.sendData(d);
  d.tags.pitToken = std::move(saved);
  ++m_counters.nOutData;
  m_env.emit({.kind = EventKind::DataOut, .face = egress.id()});
  return true;
}

// --- Nack -----------------------------------------------------------------------------------------------

void Forwarder::onIncomingNack(face::Face& face, Nack&& nack, face::EndpointId endpoint)
{
  PipelineGuard guard(*this);
  FaceEndpoint ingress{face, endpoint};
  ++m_counters.nInNacks;
  m_env.emit({.kind = EventKind::NackIn, .face = face.id(), .reason = toString(nack.reason)});
  nack.interest.tags.incomingFaceId = face.id();
  nack.interest.tags.pitToken.reset();

  const Name& name = nack.interest.name();
  if (face.linkType() != face::LinkType::PointToPoint)
    return drop(m_counters.nDropNackNotP2p, DropReason::NackNotP2p, face.id(), name);
  table::PitEntry* entry = m_pit.find(nack.interest);
  if (entry == nullptr)
    return drop(m_counters.nDropNackNoPit, DropReason::NackNoPit, face.id(), name);
  table::PitOutRecord* out = entry->findOutRecord(face);
  if (out == nullptr)
    return drop(m_counters.nDropNackNoOutRecord, DropReason::NackNoOutRecord, face.id(), name);
  if (nack.interest.nonce() != out->lastNonce)
    return drop(m_counters.nDropNackNonce, DropReason::NackNonceMismatch, face.id(), name);

  out->incomingNack = nack.reason;
  stampMirccRate(face, nack.interest.tags);
  out->incomingNackRate = nack.interest.tags.mirccRate;
  if (!hasPendingOutRecords(*entry, m_env.now()))
    setExpiryTimer(*entry, Duration::zero());
  effectiveStrategy(*entry).afterReceiveNack(nack, ingress, *entry);
}

bool Forwarder::onOutgoingNack(NackReason reason, face::Face& egress, table::PitEntry& entry)
{
  if (egress.id() == face::InvalidFaceId)
    return false;
  const table::PitInRecord* in = entry.findInRecord(egress);
  if (in == nullptr) {
    drop(m_counters.nDropOutNackNoInRecord, DropReason::OutNackNoInRecord, egress.id(), entry.name());
    return false;
  }
  if (egress.linkType() != face::LinkType::PointToPoint) {
    drop(m_counters.nDropOutNackNotP2p, DropReason::OutNackNotP2p, egress.id(), entry.name());
    return false;
  }
  // The Nack carries this downstream's own Interest (its Nonce) and its PitToken.
  Nack nack{*in->interest, reason};
  nack.interest.tags = PacketTags{};
  nack.interest.tags.pitToken = in->pitToken;
  // MIRCC: the smallest rate the upstreams' Nacks carried (none for a Nack of this node's own)
  for (const table::PitOutRecord& out : entry.outRecords()) {
    if (out.incomingNack && out.incomingNackRate)
      nack.interest.tags.mirccRate =
        std::min(nack.interest.tags.mirccRate.value_or(*out.incomingNackRate), *out.incomingNackRate);
  }
  m_pit.deleteInRecord(entry, egress);
  egress.sendNack(nack);
  ++m_counters.nOutNacks;
  m_env.emit({.kind = EventKind::NackOut, .face = egress.id(), .reason = toString(reason)});
  return true;
}

// --- MIRCC explicit rate --------------------------------------------------------------------------

void Forwarder::stampMirccRate(const face::Face& upstream, PacketTags& tags) const
{
  if (!upstream.linkService().options().mircc)
    return;
  std::optional<Rate> local = m_mirccRateSource ? m_mirccRateSource(upstream.id()) : m_mircc.rate(upstream.id());
  if (!local)
    return;
  tags.mirccRate = tags.mirccRate ? std::min(*tags.mirccRate, *local) : *local;
}

void Forwarder::sendShapedInterest(face::FaceId id, const Interest& interest)
{
  face::Face* egress = m_faceTable.get(id);
  if (egress == nullptr)
    return;
  PipelineGuard guard(*this); // a timer may release it, outside any pipeline
  egress->sendInterest(interest);
  ++m_counters.nOutInterests;
  m_env.emit({.kind = EventKind::InterestOut, .face = id});
}

} // namespace ndnlab::fw
