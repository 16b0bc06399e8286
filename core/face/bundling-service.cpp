#include "core/face/bundling-service.hpp"

#include <algorithm>

namespace ndnlab::face {

namespace {

/// Bound of the early Data held per face (two bundles of the largest span).
constexpr size_t MaxEarlyData = 2 * lp::MaxBundleSpan;

int64_t span(const lp::BundleHeader& h)
{
  return static_cast<int64_t>(h.endSeq - h.startSeq + 1);
}

} // namespace

BundlingService::BundlingService(Env& env, LinkService& owner, const LinkServiceOptions& options,
                                 LinkService::Counters& counters, Hooks hooks)
  : m_env(env),
    m_owner(owner),
    m_options(options),
    m_counters(counters),
    m_hooks(std::move(hooks)),
    m_encoder(env.rng(), options.bundler),
    m_decoder(options.bundler)
{}

BundlingService::~BundlingService()
{
  if (m_readyTimer != 0)
    m_env.timers().cancel(m_readyTimer);
  if (m_recoveryTimer != 0)
    m_env.timers().cancel(m_recoveryTimer);
}

BundlingService::Outgoing BundlingService::onOutgoingInterest(const Interest& interest)
{
  auto d = m_encoder.onOutgoingInterest(interest, interest.tags.bundle, m_env.now());
  if (!m_early.empty())
    releaseEarlyData(interest);
  Outgoing out;
  if (d.action == lp::BundleEncoder::Action::Absorb) {
    ++m_counters.nOutInterestsAbsorbed;
    m_env.emit(TraceEvent{.kind = EventKind::InterestAbsorbed, .face = m_owner.faceId()});
    out.absorbed = true;
    return out;
  }
  if (d.action == lp::BundleEncoder::Action::Send) {
    out.bundle = d.header;
    ++m_counters.nOutBundles;
    m_env.emit(TraceEvent{.kind = EventKind::BundleOut, .face = m_owner.faceId(), .value = span(d.header)});
    if (!d.header.isSingle())
      armRecoveryTimer(true);
  }
  return out;
}

void BundlingService::armRecoveryTimer(bool mayBeEarlier)
{
  if (!m_options.bundler.lossDetection)
    return;
  if (m_recoveryTimer != 0 && !mayBeEarlier)
    return;
  std::optional<TimePoint> at = m_encoder.nextDeadline(m_env.now());
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

void BundlingService::sendRecoveries()
{
  if (m_hooks.isActive()) {
    for (lp::BundleEncoder::Recovery& r : m_encoder.takeRecoveries(m_env.now())) {
      ++m_counters.nOutBundleRecoveries;
      m_env.emit(TraceEvent{.kind = EventKind::BundleRecovery, .face = m_owner.faceId(), .value = span(r.header)});
      lp::LpPacket header;
      header.bundle = r.header;
      m_hooks.send(std::move(header), r.interest.wireEncode());
    }
  }
  armRecoveryTimer(false);
}

void BundlingService::expireEarlyData()
{
  const TimePoint now = m_env.now();
  while (!m_early.empty() && now - m_early.front().arrived >= m_options.bundler.entryLifetime) {
    m_early.pop_front();
    ++m_counters.nInDataEarlyExpired;
  }
}

void BundlingService::releaseEarlyData(const Interest& interest)
{
  expireEarlyData();
  auto it =
    std::find_if(m_early.begin(), m_early.end(), [&](const EarlyData& e) { return interest.matchesData(e.data); });
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
      if (m_owner.onReceiveData)
        m_owner.onReceiveData(std::move(e.data), e.endpoint);
    }
  });
}

void BundlingService::onIncomingBundle(const lp::BundleHeader& bundle, Interest&& interest, size_t octets,
                                       EndpointId endpoint)
{
  ++m_counters.nInBundles;
  auto out = m_decoder.onIncomingBundle(interest, bundle, endpoint, m_env.now());
  switch (out.status) {
    case lp::BundleDecoder::Status::Invalid:
      return m_hooks.drop(m_counters.nInBundlesInvalid, DropReason::BundleInvalid, endpoint, octets, out.reason);
    case lp::BundleDecoder::Status::Stale:
      return m_hooks.drop(m_counters.nInBundlesStale, DropReason::BundleStale, endpoint, octets, {});
    case lp::BundleDecoder::Status::Regenerate: break;
  }
  const uint64_t count = out.last - out.first + 1;
  m_env.emit(TraceEvent{.kind = EventKind::BundleIn, .face = m_owner.faceId(), .value = static_cast<int64_t>(count)});
  if (!interest.tags.bundle)
    interest.tags.bundle = BundleTag{bundle.isSingle(), static_cast<uint32_t>(count), true};
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t seq = out.first + k;
    if (seq == bundle.startSeq) {
      // the Interest on the wire; moved when nothing is regenerated from it afterwards
      if (m_owner.onReceiveInterest)
        m_owner.onReceiveInterest(seq == out.last ? std::move(interest) : Interest(interest), endpoint);
      continue;
    }
    Interest regenerated = lp::regenerateInterest(interest, seq);
    regenerated.tags.bundle = interest.tags.bundle;
    regenerated.tags.congestionMark = interest.tags.congestionMark;
    ++m_counters.nInInterestsRegenerated;
    if (seq < bundle.startSeq)
      ++m_counters.nInInterestsGapFilled;
    m_env.emit(
      TraceEvent{.kind = EventKind::InterestRegenerated, .face = m_owner.faceId(), .value = static_cast<int64_t>(seq)});
    if (m_owner.onReceiveInterest)
      m_owner.onReceiveInterest(std::move(regenerated), endpoint);
  }
}

bool BundlingService::onIncomingData(Data& data, EndpointId endpoint)
{
  if (!m_hooks.isActive())
    return false;
  if (m_options.bundler.lossDetection) {
    m_encoder.onIncomingData(data.name(), m_env.now());
    armRecoveryTimer(false);
  }
  if (!m_options.bundler.holdEarlyData || !m_encoder.isAhead(data.name(), m_env.now()))
    return false;
  // A bundle asked for it and the consumer's Interest has not come down yet: handed up now,
  // the forwarder would drop it as unsolicited. Held until that Interest is absorbed.
  expireEarlyData();
  if (m_early.size() >= MaxEarlyData) {
    m_early.pop_front();
    ++m_counters.nInDataEarlyExpired;
  }
  ++m_counters.nInDataEarly;
  m_env.emit(TraceEvent{.kind = EventKind::DataEarly, .face = m_owner.faceId()});
  m_early.push_back(EarlyData{std::move(data), endpoint, m_env.now()});
  return true;
}

} // namespace ndnlab::face
