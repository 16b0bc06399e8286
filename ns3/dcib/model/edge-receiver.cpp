#include "ns3/dcib/model/edge-receiver.hpp"

namespace ndnlab::dcib {

EdgeReceiver::EdgeReceiver(ReceiverOptions options) : m_options(options)
{}

bool EdgeReceiver::seenBefore(const PacketKey& key)
{
  if (!m_options.suppressDuplicates)
    return false;
  if (!m_seen.insert(key).second)
    return true;
  m_order.push_back(key);
  if (m_order.size() > m_options.dedupWindow) {
    m_seen.erase(m_order.front());
    m_order.pop_front();
  }
  return false;
}

ReceiveAction EdgeReceiver::onPacket(Ecn ecn, const PacketKey& key, TimePoint)
{
  ++m_counters.packets;
  if (!needsKey(ecn))
    return ReceiveAction::Forward;
  if (seenBefore(key)) {
    ++m_counters.duplicatesSuppressed;
    return ReceiveAction::Drop;
  }
  if (ecn == Ecn::NotEct) {
    ++m_counters.selected;
    ++m_counters.acks;
    return ReceiveAction::ForwardAndAck;
  }
  ++m_counters.copies;
  return ReceiveAction::Forward;
}

} // namespace ndnlab::dcib
