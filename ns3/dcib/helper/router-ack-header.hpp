#pragma once
// Router-to-router ACK (paper section III-C): the destination edge router acknowledges one
// selected packet to the source edge router. Carried as the payload of a UDP datagram
// (ports: DcibHelper); 20 bytes, network byte order:
//   src(4) dst(4) seq(4) ipId(2) srcPort(2) dstPort(2) protocol(1) reserved(1)

#include "ns3/dcib/model/types.hpp"

#include <ns3/header.h>

namespace ndnlab::dcib {

class RouterAckHeader : public ns3::Header
{
public:
  static constexpr uint32_t Size = 20;

  static ns3::TypeId GetTypeId();
  ns3::TypeId GetInstanceTypeId() const override;

  RouterAckHeader() = default;
  explicit RouterAckHeader(const PacketKey& key) : m_key(key) {}

  const PacketKey& key() const { return m_key; }

  uint32_t GetSerializedSize() const override { return Size; }
  void Serialize(ns3::Buffer::Iterator start) const override;
  uint32_t Deserialize(ns3::Buffer::Iterator start) override;
  void Print(std::ostream& os) const override;

private:
  PacketKey m_key;
};

} // namespace ndnlab::dcib
