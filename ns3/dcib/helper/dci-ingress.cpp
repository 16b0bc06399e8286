#include "ns3/dcib/helper/dci-ingress.hpp"

#include "ns3/dcib/helper/packet-key.hpp"
#include "ns3/dcib/helper/router-ack-header.hpp"

#include <ns3/inet-socket-address.h>
#include <ns3/log.h>
#include <ns3/simulator.h>

namespace ndnlab::dcib {

NS_LOG_COMPONENT_DEFINE("dcib.DciIngress");
NS_OBJECT_ENSURE_REGISTERED(DciIngress);

ns3::TypeId DciIngress::GetTypeId()
{
  using namespace ns3;
  static TypeId tid =
    TypeId("ndnlab::dcib::DciIngress")
      .SetParent<ErrorModel>()
      .SetGroupName("Dcib")
      .AddConstructor<DciIngress>()
      .AddTraceSource("WanDrop", "the artificial WAN loss dropped a packet",
                      MakeTraceSourceAccessor(&DciIngress::m_wanDropTrace), "ns3::TracedValueCallback::Uint8")
      .AddTraceSource("RouterAck", "a router-to-router ACK was sent",
                      MakeTraceSourceAccessor(&DciIngress::m_routerAckTrace), "ndnlab::dcib::PacketKeyCallback");
  return tid;
}

DciIngress::DciIngress() : m_rng(ns3::CreateObject<ns3::UniformRandomVariable>())
{}

DciIngress::~DciIngress() = default;

void DciIngress::SetWanLoss(const WanLossOptions& options)
{
  m_wan = WanLoss(options);
}

void DciIngress::EnableEdgeReceiver(const ReceiverOptions& options, ns3::Ptr<ns3::Socket> socket,
                                    ns3::Ipv4Address source, uint16_t port)
{
  m_receiver.emplace(options);
  m_socket = socket;
  m_source = source;
  m_port = port;
}

int64_t DciIngress::AssignStreams(int64_t stream)
{
  m_rng->SetStream(stream);
  return 1;
}

bool DciIngress::DoCorrupt(ns3::Ptr<ns3::Packet> p)
{
  if (m_extraLoss && m_extraLoss->IsCorrupt(p)) {
    ++m_extraDrops;
    return true;
  }
  ns3::Ptr<ns3::Packet> rest;
  auto ip = parsePppIpv4(p, rest);
  if (!ip)
    return false;
  Ecn ecn = toEcn(ip->GetEcn());
  if (m_wan.options().mode != WanLossMode::None && m_wan.drop(ecn, m_rng->GetValue())) {
    m_wanDropTrace(static_cast<uint8_t>(ecn));
    return true;
  }
  if (!m_receiver)
    return false;
  if (!EdgeReceiver::needsKey(ecn)) {
    m_receiver->countPacketWithoutKey();
    return false;
  }
  PacketKey key = makeKey(*ip, rest);
  auto now = TimePoint(Duration(ns3::Simulator::Now().GetNanoSeconds()));
  switch (m_receiver->onPacket(ecn, key, now)) {
    case ReceiveAction::Drop: return true;
    case ReceiveAction::ForwardAndAck:
      // not from inside the device's receive path: the ACK leaves through this node's stack
      ns3::Simulator::ScheduleNow(&DciIngress::sendAck, this, key);
      return false;
    case ReceiveAction::Forward: return false;
  }
  return false;
}

void DciIngress::sendAck(PacketKey key)
{
  if (!m_socket)
    return;
  auto packet = ns3::Create<ns3::Packet>();
  packet->AddHeader(RouterAckHeader(key));
  if (m_socket->SendTo(packet, 0, ns3::InetSocketAddress(m_source, m_port)) >= 0) {
    ++m_acksSent;
    m_routerAckTrace(key);
  }
}

void DciIngress::DoReset()
{}

void DciIngress::DoDispose()
{
  m_socket = nullptr;
  m_rng = nullptr;
  m_extraLoss = nullptr;
  ns3::ErrorModel::DoDispose();
}

} // namespace ndnlab::dcib
