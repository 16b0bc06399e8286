#include "core/face/transport.hpp"

namespace ndnlab::face {

std::string_view toString(FaceScope s)
{
  return s == FaceScope::Local ? "local" : "non-local";
}

std::string_view toString(FacePersistency p)
{
  switch (p) {
    case FacePersistency::Persistent: return "persistent";
    case FacePersistency::OnDemand: return "on-demand";
    case FacePersistency::Permanent: return "permanent";
  }
  return "unknown";
}

std::string_view toString(LinkType t)
{
  switch (t) {
    case LinkType::PointToPoint: return "point-to-point";
    case LinkType::MultiAccess: return "multi-access";
    case LinkType::AdHoc: return "adhoc";
  }
  return "unknown";
}

std::string_view toString(Medium m)
{
  return m == Medium::Wireless ? "wireless" : "wired";
}

std::string_view toString(TransportState s)
{
  switch (s) {
    case TransportState::Up: return "up";
    case TransportState::Down: return "down";
    case TransportState::Closing: return "closing";
    case TransportState::Failed: return "failed";
    case TransportState::Closed: return "closed";
  }
  return "unknown";
}

void Transport::send(SharedBuffer frame, EndpointId endpoint)
{
  if (m_state != TransportState::Up && m_state != TransportState::Down)
    return;
  ++m_counters.nOutPackets;
  m_counters.nOutBytes += frame->size();
  doSend(std::move(frame), endpoint);
}

void Transport::receive(ByteSpan frame, EndpointId endpoint)
{
  ++m_counters.nInPackets;
  m_counters.nInBytes += frame.size();
  if (onReceive)
    onReceive(frame, endpoint);
}

void Transport::setState(TransportState s)
{
  if (s == m_state)
    return;
  TransportState old = m_state;
  m_state = s;
  if (onStateChange)
    onStateChange(old, s);
}

} // namespace ndnlab::face
