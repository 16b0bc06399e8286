#pragma once
// ns-3 side of the DCIB vocabulary: ECN codepoints and packet keys from ns-3 headers.

#include "ns3/dcib/model/types.hpp"

#include <ns3/ipv4-header.h>
#include <ns3/packet.h>
#include <ns3/ptr.h>

#include <optional>

namespace ndnlab::dcib {

inline Ecn toEcn(ns3::Ipv4Header::EcnType e)
{
  return static_cast<Ecn>(e);
}
inline ns3::Ipv4Header::EcnType toNs3(Ecn e)
{
  return static_cast<ns3::Ipv4Header::EcnType>(e);
}

/// Key of an IPv4 packet: `header` plus `payload`, which starts at the transport header
/// (a queue-disc item's packet). TCP and UDP contribute ports (and the TCP sequence number).
PacketKey makeKey(const ns3::Ipv4Header& header, const ns3::Ptr<const ns3::Packet>& payload);

/// A packet as received by a point-to-point device (PPP header, IPv4 header, transport): its
/// IPv4 header, or nullopt when it is not IPv4. `rest` receives the packet from the transport
/// header on (a copy; the argument is not modified).
std::optional<ns3::Ipv4Header> parsePppIpv4(const ns3::Ptr<const ns3::Packet>& frame, ns3::Ptr<ns3::Packet>& rest);

} // namespace ndnlab::dcib
