#include "core/app/push-producer.hpp"

#include <stdexcept>

namespace ndnlab::app {

namespace {
constexpr std::string_view kModule = "push-producer";
} // namespace

void PushProducerOptions::validate() const
{
  server.validate();
  if (pollInterval <= Duration::zero())
    throw std::invalid_argument("push poll interval must be positive");
}

PushProducer::PushProducer(Env& env, Endpoint& endpoint, const Name& name, const security::Signer& signer, Options opts)
  : m_env(env),
    m_ep(endpoint),
    m_opts((opts.validate(), std::move(opts))),
    m_server(env, endpoint, name, signer, m_opts.server)
{
  // SegmentServer installed its own handler; triggers are ours, the rest is delegated.
  m_ep.onInterest = [this](const Interest& i) { handleInterest(i); };
}

PushProducer::~PushProducer()
{
  if (m_timer != 0)
    m_env.timers().cancel(m_timer);
  m_ep.onInterest = nullptr;
}

bool PushProducer::isTrigger(const Name& name) const
{
  return name == m_server.prefix() || name == m_server.versionedName();
}

void PushProducer::handleInterest(const Interest& interest)
{
  if (!isTrigger(interest.name())) {
    m_server.handleInterest(interest);
    return;
  }
  ++m_counters.triggers;
  if (m_pushing) {
    ++m_counters.ignoredTriggers;
    return;
  }
  ++m_counters.pushes;
  m_pushing = true;
  m_next = 0;
  m_pushStart = m_env.now();
  NDNLAB_LOG(m_env, LogLevel::Debug, kModule, "push of ", m_server.segmentCount(), " segments for ",
             interest.name().toUri());
  m_env.emit({EventKind::PushStart, 0, {}, static_cast<int64_t>(m_server.segmentCount()), 0});
  pushSome();
}

void PushProducer::pushSome()
{
  m_timer = 0;
  const size_t total = m_server.segmentCount();
  size_t putThisTurn = 0;
  while (m_next < total) {
    if (canSend && !canSend()) {
      ++m_counters.stalls;
      m_timer = m_env.timers().schedule(m_opts.pollInterval, [this] { pushSome(); });
      return;
    }
    if (m_opts.maxBurst != 0 && putThisTurn == m_opts.maxBurst) {
      m_timer = m_env.timers().schedule(m_opts.pollInterval, [this] { pushSome(); });
      return;
    }
    const Data& seg = m_server.segment(m_next++);
    ++m_counters.dataPushed;
    ++putThisTurn;
    m_ep.putData(seg);
  }
  m_pushing = false;
  m_env.emit({EventKind::PushDone, 0, {}, static_cast<int64_t>(total), toSeconds(m_env.now() - m_pushStart)});
  if (onPushDone)
    onPushDone();
}

} // namespace ndnlab::app
