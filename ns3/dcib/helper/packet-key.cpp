#include "ns3/dcib/helper/packet-key.hpp"

#include <ns3/ppp-header.h>
#include <ns3/tcp-header.h>
#include <ns3/udp-header.h>

namespace ndnlab::dcib {

namespace {
constexpr uint8_t UdpProtocol = 17;
constexpr uint16_t PppIpv4 = 0x0021;
} // namespace

PacketKey makeKey(const ns3::Ipv4Header& header, const ns3::Ptr<const ns3::Packet>& payload)
{
  PacketKey k;
  k.src = header.GetSource().Get();
  k.dst = header.GetDestination().Get();
  k.ipId = header.GetIdentification();
  k.protocol = header.GetProtocol();
  if (k.protocol == TcpProtocol) {
    ns3::TcpHeader tcp;
    if (payload->PeekHeader(tcp) > 0) {
      k.srcPort = tcp.GetSourcePort();
      k.dstPort = tcp.GetDestinationPort();
      k.seq = tcp.GetSequenceNumber().GetValue();
    }
  }
  else if (k.protocol == UdpProtocol) {
    ns3::UdpHeader udp;
    if (payload->PeekHeader(udp) > 0) {
      k.srcPort = udp.GetSourcePort();
      k.dstPort = udp.GetDestinationPort();
    }
  }
  return k;
}

std::optional<ns3::Ipv4Header> parsePppIpv4(const ns3::Ptr<const ns3::Packet>& frame, ns3::Ptr<ns3::Packet>& rest)
{
  rest = frame->Copy();
  ns3::PppHeader ppp;
  if (rest->RemoveHeader(ppp) == 0 || ppp.GetProtocol() != PppIpv4)
    return std::nullopt;
  ns3::Ipv4Header ip;
  if (rest->RemoveHeader(ip) == 0)
    return std::nullopt;
  return ip;
}

} // namespace ndnlab::dcib
