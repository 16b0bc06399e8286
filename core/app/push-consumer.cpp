#include "core/app/push-consumer.hpp"

#include <algorithm>
#include <stdexcept>

namespace ndnlab::app {

namespace {
constexpr std::string_view kModule = "push-consumer";
} // namespace

void PushConsumerOptions::validate() const
{
  if (lifetime <= Duration::zero())
    throw std::invalid_argument("lifetime must be positive");
  if (idleTimeout <= Duration::zero())
    throw std::invalid_argument("idle timeout must be positive");
  if (repairTimeout <= Duration::zero())
    throw std::invalid_argument("repair timeout must be positive");
  if (repairWindow < 1)
    throw std::invalid_argument("repair window must be at least 1");
  if (triggerRetries < -1 || retries < -1)
    throw std::invalid_argument("retries must be -1 or non-negative");
}

PushConsumer::PushConsumer(Env& env, Endpoint& endpoint, Options opts)
  : m_env(env), m_ep(endpoint), m_opts(std::move(opts))
{
  m_opts.validate();
  m_stats.pipeline = "push";
  m_ep.onData = [this](const Data& d) { handleData(d); };
  m_ep.onNack = [this](const Nack& n) { handleNack(n); };
}

PushConsumer::~PushConsumer()
{
  cancelTimers();
  m_ep.onData = nullptr;
  m_ep.onNack = nullptr;
}

void PushConsumer::cancelTimers()
{
  if (m_triggerTimer != 0)
    m_env.timers().cancel(m_triggerTimer);
  if (m_idleTimer != 0)
    m_env.timers().cancel(m_idleTimer);
  m_triggerTimer = m_idleTimer = 0;
}

void PushConsumer::start(const Name& name)
{
  if (m_state != State::Idle)
    return;
  m_name = name;
  m_start = m_env.now();
  m_state = State::Waiting;
  sendTrigger();
}

void PushConsumer::stop()
{
  cancelTimers();
  if (m_state != State::Done && m_state != State::Failed)
    m_state = State::Stopped;
}

void PushConsumer::sendTrigger()
{
  Interest interest(m_name);
  interest.setCanBePrefix(true).setMustBeFresh(m_opts.mustBeFresh).setLifetime(m_opts.lifetime);
  interest.setNonce(m_env.rng().next32());
  interest.tags.bundle = BundleTag{m_triggerSends > 0, 1};
  ++m_stats.interestsSent;
  if (m_triggerSends > 0)
    ++m_stats.retransmissions;
  ++m_triggerSends;
  m_triggerTimer = m_env.timers().schedule(m_opts.lifetime, [this] { onTriggerTimeout(); });
  m_ep.expressInterest(interest);
}

void PushConsumer::onTriggerTimeout()
{
  m_triggerTimer = 0;
  if (m_state != State::Waiting)
    return;
  ++m_stats.timeouts;
  m_env.emit({EventKind::FetchTimeout, 0, "trigger", 0, toSeconds(m_opts.lifetime)});
  if (m_opts.triggerRetries >= 0 && m_triggerSends > static_cast<uint32_t>(m_opts.triggerRetries))
    return fail(FetchErrc::RetriesExhausted, "no Data after " + std::to_string(m_triggerSends) + " triggers");
  sendTrigger();
}

void PushConsumer::handleData(const Data& data)
{
  if (m_state != State::Waiting && m_state != State::Receiving && m_state != State::Repairing)
    return;
  const Name& name = data.name();
  if (name.empty() || !name[-1].isSegment() || !m_name.isPrefixOf(name)) {
    ++m_stats.unexpectedData;
    return;
  }
  Name versioned = name.getPrefix(-1);
  if (!m_anyData) {
    m_anyData = true;
    m_versioned = versioned;
    m_stats.versionedName = versioned;
    if (m_triggerTimer != 0) {
      m_env.timers().cancel(m_triggerTimer);
      m_triggerTimer = 0;
    }
    Duration first = m_env.now() - m_start;
    m_stats.rttSamples = 1;
    m_stats.rttMin = m_stats.rttAvg = m_stats.rttMax = first;
    m_state = State::Receiving;
    // The push has begun: from now on the idle timer, not the trigger's, keeps the fetch
    // going, even if this Data is not one to keep.
    m_lastData = m_env.now();
    armIdleTimer();
  }
  else if (versioned != m_versioned) {
    ++m_stats.unexpectedData;
    return;
  }
  if (data.contentType() == static_cast<uint64_t>(ContentType::Nack))
    return fail(FetchErrc::ApplicationNack, "application Nack for " + name.toUri());

  uint64_t seg = *name[-1].toNumber();
  if (!m_lastSeg) {
    if (auto fb = data.finalBlockSegment()) {
      // An end before a segment that exists: the producer contradicts itself (as in
      // SegmentFetcher).
      uint64_t highest = m_have.empty() ? seg : std::max<uint64_t>(seg, m_have.size() - 1);
      if (highest > *fb)
        return fail(FetchErrc::BadFinalBlock, "FinalBlockId " + std::to_string(*fb) + " in " + name.toUri() +
                                                " is below segment " + std::to_string(highest) + ", already received");
      m_lastSeg = *fb;
      m_have.resize(*fb + 1, false);
      if (m_nextDeliver > *fb)
        return finish(); // everything up to the end it taught is delivered (this Data is a copy)
    }
  }
  if (m_lastSeg && seg > *m_lastSeg) {
    ++m_stats.unexpectedData;
    return;
  }
  if (seg >= m_have.size())
    m_have.resize(seg + 1, false);
  if (m_have[seg] || seg < m_nextDeliver) {
    ++m_stats.unexpectedData;
    return;
  }
  m_have[seg] = true;
  m_lastData = m_env.now();
  ++m_stats.segments;
  m_stats.bytes += Bytes(data.content().size());

  SegmentEvent ev;
  ev.segment = seg;
  ev.size = Bytes(data.content().size());
  ev.marked = data.tags.congestionMark != 0;
  auto rep = m_repairs.find(seg);
  bool repaired = rep != m_repairs.end();
  if (repaired) {
    ev.fullDelay = m_env.now() - m_start;
    ev.lastDelay = m_env.now() - rep->second.sent;
    ev.retransmissions = rep->second.tries;
    m_repairs.erase(rep);
  }
  else {
    ev.fullDelay = ev.lastDelay = m_env.now() - m_start;
  }
  m_env.emit({EventKind::FetchData, 0, repaired ? "repair" : "push", static_cast<int64_t>(seg),
              toSeconds(repaired ? ev.lastDelay : ev.fullDelay)});
  if (onSegment)
    onSegment(ev);

  m_reorder.emplace(seg, data);
  deliverInOrder();
  if (m_state == State::Done || m_state == State::Failed || m_state == State::Stopped)
    return;
  if (m_state == State::Repairing)
    repair(); // keep the repair window full
  else if (m_idleTimer == 0)
    armIdleTimer();
}

void PushConsumer::handleNack(const Nack& nack)
{
  if (m_state != State::Waiting && m_state != State::Receiving && m_state != State::Repairing)
    return;
  if (!m_name.isPrefixOf(nack.interest.name()))
    return;
  ++m_stats.nacks;
  m_env.emit({EventKind::FetchNack, 0, toString(nack.reason), 0, 0});
  if (m_state == State::Waiting)
    return fail(FetchErrc::Nack, "Nack (" + std::string(toString(nack.reason)) + ") for the trigger");
  // a Nacked repair is re-sent after repairTimeout like an unanswered one
}

void PushConsumer::deliverInOrder()
{
  for (auto it = m_reorder.begin(); it != m_reorder.end() && it->first == m_nextDeliver; it = m_reorder.erase(it)) {
    ++m_nextDeliver;
    if (onBytes)
      onBytes(it->second.content());
    if (m_state == State::Stopped)
      return;
  }
  if (m_lastSeg && m_nextDeliver > *m_lastSeg)
    finish();
}

void PushConsumer::armIdleTimer()
{
  TimePoint due = m_lastData + m_opts.idleTimeout;
  m_idleTimer = m_env.timers().schedule(due - m_env.now(), [this] { onIdleTimer(); });
}

void PushConsumer::onIdleTimer()
{
  m_idleTimer = 0;
  if (m_state == State::Receiving) {
    if (m_env.now() - m_lastData < m_opts.idleTimeout)
      return armIdleTimer();
    if (!m_lastSeg)
      return fail(FetchErrc::NoFinalBlock, "push stopped before any FinalBlockId was seen");
    m_state = State::Repairing;
    NDNLAB_LOG(m_env, LogLevel::Debug, kModule, "push idle with ", (*m_lastSeg + 1) - m_stats.segments,
               " segments missing: repairing");
  }
  if (m_state != State::Repairing)
    return;
  // re-send repairs that timed out
  TimePoint now = m_env.now();
  for (auto& [seg, r] : m_repairs) {
    if (now - r.sent < m_opts.repairTimeout)
      continue;
    ++m_stats.timeouts;
    m_env.emit({EventKind::FetchTimeout, 0, "repair", static_cast<int64_t>(seg), toSeconds(now - r.sent)});
    if (m_opts.retries >= 0 && r.tries > static_cast<uint32_t>(m_opts.retries))
      return fail(FetchErrc::RetriesExhausted, "segment " + std::to_string(seg) + " not repaired");
    sendRepair(seg, r);
  }
  repair();
}

void PushConsumer::repair()
{
  if (m_state != State::Repairing)
    return;
  for (uint64_t seg = m_nextDeliver; m_lastSeg && seg <= *m_lastSeg && m_repairs.size() < m_opts.repairWindow; ++seg) {
    if (m_have[seg] || m_repairs.contains(seg))
      continue;
    sendRepair(seg, m_repairs[seg]);
  }
  if (m_idleTimer == 0 && !m_repairs.empty())
    m_idleTimer = m_env.timers().schedule(m_opts.repairTimeout, [this] { onIdleTimer(); });
}

void PushConsumer::sendRepair(uint64_t seg, Repair& r)
{
  Name name = m_versioned;
  name.appendSegment(seg);
  Interest interest(std::move(name));
  interest.setLifetime(m_opts.lifetime).setNonce(m_env.rng().next32());
  interest.tags.bundle = BundleTag{r.tries > 0, static_cast<uint32_t>(m_opts.repairWindow)};
  r.sent = m_env.now();
  ++r.tries;
  ++m_repairsSent;
  ++m_stats.interestsSent;
  ++m_stats.retransmissions;
  m_ep.expressInterest(interest);
}

void PushConsumer::finish()
{
  cancelTimers();
  m_state = State::Done;
  m_stats.elapsed = m_env.now() - m_start;
  m_env.emit({EventKind::FetchDone, 0, {}, static_cast<int64_t>(m_stats.bytes.count()), toSeconds(m_stats.elapsed)});
  if (onComplete)
    onComplete();
}

void PushConsumer::fail(FetchErrc code, std::string message)
{
  cancelTimers();
  m_state = State::Failed;
  m_stats.elapsed = m_env.now() - m_start;
  m_env.emit({EventKind::FetchFail, 0, toString(code), static_cast<int64_t>(m_stats.bytes.count()), 0});
  NDNLAB_LOG(m_env, LogLevel::Info, kModule, "failed: ", message);
  if (onError)
    onError(FetchError{code, std::move(message)});
}

FetchStats PushConsumer::stats() const
{
  FetchStats s = m_stats;
  if (m_state != State::Done && m_state != State::Failed && m_state != State::Idle)
    s.elapsed = m_env.now() - m_start;
  return s;
}

} // namespace ndnlab::app
