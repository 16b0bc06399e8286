#include "core/face/internal-transport.hpp"

namespace ndnlab::face {

InternalTransport::Pair InternalTransport::makePair(Env& env, std::string uriA, std::string uriB)
{
  auto channel = std::make_shared<Channel>();
  std::unique_ptr<InternalTransport> a(new InternalTransport(env, channel, 0, uriA, uriB));
  std::unique_ptr<InternalTransport> b(new InternalTransport(env, channel, 1, uriB, uriA));
  return {std::move(a), std::move(b)};
}

InternalTransport::InternalTransport(Env& env, std::shared_ptr<Channel> channel, int side, std::string localUri,
                                     std::string remoteUri)
  : Transport(std::move(localUri), std::move(remoteUri), FaceScope::Local, FacePersistency::Permanent,
              LinkType::PointToPoint, MtuUnlimited),
    m_env(env),
    m_channel(std::move(channel)),
    m_side(side)
{
  m_channel->ends[m_side] = this;
}

InternalTransport::~InternalTransport()
{
  m_channel->ends[m_side] = nullptr;
  if (m_flushTimer != 0)
    m_env.timers().cancel(m_flushTimer);
  InternalTransport* peer = m_channel->ends[1 - m_side];
  if (peer && peer->state() != TransportState::Closed && peer->state() != TransportState::Closing) {
    m_env.timers().schedule(Duration::zero(), [ch = m_channel, side = 1 - m_side] { closeEnd(ch, side); });
  }
}

size_t InternalTransport::sendQueueLength() const
{
  const InternalTransport* peer = m_channel->ends[1 - m_side];
  return peer ? peer->m_inboxBytes : 0;
}

void InternalTransport::doSend(SharedBuffer frame, EndpointId)
{
  InternalTransport* peer = m_channel->ends[1 - m_side];
  if (peer && peer->state() == TransportState::Up)
    peer->enqueue(std::move(frame));
}

void InternalTransport::enqueue(SharedBuffer frame)
{
  m_inboxBytes += frame->size();
  m_inbox.push_back(std::move(frame));
  if (m_flushTimer == 0) {
    m_flushTimer = m_env.timers().schedule(Duration::zero(), [ch = m_channel, side = m_side] { flush(ch, side); });
  }
}

void InternalTransport::flush(const std::shared_ptr<Channel>& channel, int side)
{
  InternalTransport* self = channel->ends[side];
  if (!self)
    return;
  self->m_flushTimer = 0;
  // Deliver only the frames queued before this turn; frames sent by the receiver's callbacks
  // to this end get a new turn, so other timers are not starved.
  size_t n = self->m_inbox.size();
  for (size_t i = 0; i < n; ++i) {
    self = channel->ends[side]; // a callback may have destroyed this end
    if (!self || self->m_inbox.empty())
      return;
    SharedBuffer frame = std::move(self->m_inbox.front());
    self->m_inbox.pop_front();
    self->m_inboxBytes -= frame->size();
    if (self->state() == TransportState::Up)
      self->receive(*frame, 0);
  }
}

void InternalTransport::closeEnd(const std::shared_ptr<Channel>& channel, int side)
{
  InternalTransport* t = channel->ends[side];
  if (!t || t->state() == TransportState::Closing || t->state() == TransportState::Closed)
    return;
  t->m_inbox.clear();
  t->m_inboxBytes = 0;
  t->setState(TransportState::Closing);
  t = channel->ends[side]; // state callbacks may destroy the transport
  if (t)
    t->setState(TransportState::Closed);
}

void InternalTransport::close()
{
  auto channel = m_channel; // `this` may be destroyed by the state callbacks below
  int side = m_side;
  Env& env = m_env;
  closeEnd(channel, side);
  InternalTransport* peer = channel->ends[1 - side];
  if (peer && peer->state() != TransportState::Closing && peer->state() != TransportState::Closed)
    env.timers().schedule(Duration::zero(), [channel, side] { closeEnd(channel, 1 - side); });
}

} // namespace ndnlab::face
