#include "ns3/dcib/helper/router-ack-header.hpp"

namespace ndnlab::dcib {

NS_OBJECT_ENSURE_REGISTERED(RouterAckHeader);

ns3::TypeId RouterAckHeader::GetTypeId()
{
  static ns3::TypeId tid = ns3::TypeId("ndnlab::dcib::RouterAckHeader")
                             .SetParent<ns3::Header>()
                             .SetGroupName("Dcib")
                             .AddConstructor<RouterAckHeader>();
  return tid;
}

ns3::TypeId RouterAckHeader::GetInstanceTypeId() const
{
  return GetTypeId();
}

void RouterAckHeader::Serialize(ns3::Buffer::Iterator i) const
{
  i.WriteHtonU32(m_key.src);
  i.WriteHtonU32(m_key.dst);
  i.WriteHtonU32(m_key.seq);
  i.WriteHtonU16(m_key.ipId);
  i.WriteHtonU16(m_key.srcPort);
  i.WriteHtonU16(m_key.dstPort);
  i.WriteU8(m_key.protocol);
  i.WriteU8(0);
}

uint32_t RouterAckHeader::Deserialize(ns3::Buffer::Iterator i)
{
  m_key.src = i.ReadNtohU32();
  m_key.dst = i.ReadNtohU32();
  m_key.seq = i.ReadNtohU32();
  m_key.ipId = i.ReadNtohU16();
  m_key.srcPort = i.ReadNtohU16();
  m_key.dstPort = i.ReadNtohU16();
  m_key.protocol = i.ReadU8();
  i.ReadU8();
  return Size;
}

void RouterAckHeader::Print(std::ostream& os) const
{
  os << "dcib-ack src=" << m_key.src << " dst=" << m_key.dst << " seq=" << m_key.seq << " ipId=" << m_key.ipId
     << " ports=" << m_key.srcPort << "->" << m_key.dstPort;
}

} // namespace ndnlab::dcib
