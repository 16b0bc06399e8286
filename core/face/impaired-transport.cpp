#include "core/face/impaired-transport.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ndnlab::face {

void ImpairmentOptions::validate() const
{
  if (!(loss >= 0.0 && loss <= 1.0))
    throw std::invalid_argument("impairment loss must be a probability in [0, 1]");
  if (delay < Duration::zero())
    throw std::invalid_argument("impairment delay must not be negative");
  if (jitter < Duration::zero())
    throw std::invalid_argument("impairment jitter must not be negative");
  if (!(rate.bps() >= 0.0) || !std::isfinite(rate.bps()))
    throw std::invalid_argument("impairment rate must be a finite non-negative rate");
  if (rate.bps() > 0 && queueCapacity.count() == 0)
    throw std::invalid_argument("impairment queue capacity must be positive when rate is set");
}

ImpairedTransport::ImpairedTransport(Env& env, std::unique_ptr<Transport> inner, ImpairmentOptions options)
  : Transport(inner->localUri(), inner->remoteUri(), inner->scope(), inner->persistency(), inner->linkType(),
              inner->mtu()),
    m_env(env),
    m_inner(std::move(inner)),
    m_options(options)
{
  m_options.validate();
  setMedium(m_inner->medium());
  setState(m_inner->state());
  m_inner->onReceive = [this](ByteSpan frame, EndpointId endpoint) { receive(frame, endpoint); };
  m_inner->onStateChange = [this](TransportState, TransportState s) { onInnerStateChange(s); };
}

ImpairedTransport::~ImpairedTransport()
{
  m_alive.reset();
  if (m_timer != 0)
    m_env.timers().cancel(m_timer);
  m_inner->onReceive = nullptr;
  m_inner->onStateChange = nullptr;
}

const Transport& ImpairedTransport::unwrap(const Transport& t)
{
  auto* impaired = dynamic_cast<const ImpairedTransport*>(&t);
  return impaired != nullptr ? impaired->inner() : t;
}

Transport& ImpairedTransport::unwrap(Transport& t)
{
  auto* impaired = dynamic_cast<ImpairedTransport*>(&t);
  return impaired != nullptr ? impaired->inner() : t;
}

void ImpairedTransport::syncFromInner()
{
  setMtu(m_inner->mtu());
  setPersistency(m_inner->persistency());
}

void ImpairedTransport::close()
{
  m_inner->close();
}

size_t ImpairedTransport::sendQueueLength() const
{
  return m_inner->sendQueueLength() + backlog(m_env.now());
}

size_t ImpairedTransport::backlog(TimePoint now) const
{
  while (!m_serializing.empty() && m_serializing.front().first <= now) {
    m_backlogBytes -= m_serializing.front().second;
    m_serializing.pop_front();
  }
  return m_backlogBytes;
}

void ImpairedTransport::drop(uint64_t& counter, DropReason reason, size_t octets)
{
  ++counter;
  m_env.emit(TraceEvent::dropped(EventKind::ImpairDrop, m_traceFaceId, reason, static_cast<int64_t>(octets)));
  NDNLAB_LOG(m_env, LogLevel::Trace, "ImpairedTransport", remoteUri(), " ", toString(reason), " DROP");
}

void ImpairedTransport::doSend(SharedBuffer frame, EndpointId endpoint)
{
  const TimePoint now = m_env.now();
  const size_t size = frame->size();
  if (m_options.loss > 0 && m_env.rng().uniform() < m_options.loss)
    return drop(m_impairCounters.nLost, DropReason::Loss, size);

  TimePoint due = now;
  if (m_options.rate.bps() > 0) {
    size_t queued = backlog(now);
    // A frame larger than the whole capacity still passes an empty queue.
    if (queued > 0 && queued + size > m_options.queueCapacity.count())
      return drop(m_impairCounters.nQueueDropped, DropReason::QueueFull, size);
    TimePoint start = std::max(now, m_busyUntil);
    m_busyUntil = start + m_options.rate.transmissionTime(Bytes(size));
    m_serializing.emplace_back(m_busyUntil, size);
    m_backlogBytes += size;
    due = m_busyUntil;
  }
  due += m_options.delay;
  if (m_options.jitter > Duration::zero()) {
    auto extra = static_cast<Duration::rep>(m_env.rng().uniform() * static_cast<double>(m_options.jitter.count()));
    due += Duration(extra);
  }

  if (due <= now) {
    m_inner->send(std::move(frame), endpoint);
    return;
  }
  ++m_impairCounters.nDelayed;
  m_held.push(Held{due, m_nextSeq++, std::move(frame), endpoint});
  arm();
}

void ImpairedTransport::arm()
{
  if (m_held.empty())
    return;
  TimePoint due = m_held.top().due;
  if (m_timer != 0) {
    if (m_timerDue <= due)
      return;
    m_env.timers().cancel(m_timer);
  }
  m_timerDue = due;
  m_timer = m_env.timers().schedule(due - m_env.now(), [this] {
    m_timer = 0;
    m_timerDue = TimePoint::max();
    release();
  });
}

void ImpairedTransport::release()
{
  std::weak_ptr<char> alive = m_alive;
  const TimePoint now = m_env.now();
  while (!m_held.empty() && m_held.top().due <= now) {
    // Moving the frame out leaves due/seq intact for pop()'s heap comparisons.
    Held h = std::move(const_cast<Held&>(m_held.top()));
    m_held.pop();
    m_inner->send(std::move(h.frame), h.endpoint);
    if (alive.expired()) // a send error may close the face and destroy this transport
      return;
  }
  arm();
}

void ImpairedTransport::discardHeld()
{
  while (!m_held.empty()) {
    ++m_impairCounters.nDiscarded;
    m_held.pop();
  }
  m_serializing.clear();
  m_backlogBytes = 0;
  if (m_timer != 0) {
    m_env.timers().cancel(m_timer);
    m_timer = 0;
    m_timerDue = TimePoint::max();
  }
}

void ImpairedTransport::onInnerStateChange(TransportState newState)
{
  if (newState == TransportState::Closing || newState == TransportState::Closed || newState == TransportState::Failed)
    discardHeld();
  syncFromInner();
  setState(newState); // may destroy this transport: nothing below
}

} // namespace ndnlab::face
