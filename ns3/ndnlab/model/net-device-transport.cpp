#include "ns3/ndnlab/model/net-device-transport.hpp"

#include <ns3/csma-net-device.h>
#include <ns3/enum.h>
#include <ns3/log.h>
#include <ns3/pointer.h>
#include <ns3/point-to-point-net-device.h>
#include <ns3/queue.h>
#include <ns3/simulator.h>
#include <ns3/wifi-mac-queue.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-net-device.h>

#include <algorithm>

NS_LOG_COMPONENT_DEFINE("ndnlab.NetDeviceTransport");

namespace ndnlab::sim {

NS_OBJECT_ENSURE_REGISTERED(NetDeviceTransport); // its attributes take --ns3:: defaults

namespace {

std::string deviceUri(const ns3::Ptr<ns3::NetDevice>& device)
{
  std::ostringstream os;
  os << "netdev://" << device->GetNode()->GetId() << "/" << device->GetIfIndex() << "/" << device->GetAddress();
  return os.str();
}

bool isWifi(const ns3::Ptr<ns3::NetDevice>& device)
{
  return ns3::DynamicCast<ns3::WifiNetDevice>(device) != nullptr;
}

} // namespace

ns3::TypeId NetDeviceTransport::GetTypeId()
{
  static ns3::TypeId tid =
    ns3::TypeId("ndnlab::NetDeviceTransport")
      .SetParent<ns3::ObjectBase>()
      .SetGroupName("Ndnlab")
      .AddAttribute(
        "Addressing",
        "Destination of sent frames: broadcast (ndnSIM, the BLEnD paper) or unicast "
        "(neighbour MAC learned from received frames; broadcast until known)",
        ns3::EnumValue(static_cast<int>(Addressing::Broadcast)),
        ns3::MakeEnumAccessor(&NetDeviceTransport::setAddressingAttr, &NetDeviceTransport::getAddressingAttr),
        ns3::MakeEnumChecker(static_cast<int>(Addressing::Broadcast), "broadcast",
                             static_cast<int>(Addressing::Unicast), "unicast"))
      .AddAttribute("LinkType", "Physical medium of the face: auto (wireless on Wi-Fi devices), wired, wireless",
                    ns3::EnumValue(static_cast<int>(LinkTypeChoice::Auto)),
                    ns3::MakeEnumAccessor(&NetDeviceTransport::setLinkTypeAttr, &NetDeviceTransport::getLinkTypeAttr),
                    ns3::MakeEnumChecker(static_cast<int>(LinkTypeChoice::Auto), "auto",
                                         static_cast<int>(LinkTypeChoice::Wired), "wired",
                                         static_cast<int>(LinkTypeChoice::Wireless), "wireless"))
      .AddAttribute(
        "NfdLinkType",
        "NFD link type of the face: auto (point-to-point on point-to-point devices, else "
        "multi-access), multi-access, ad-hoc (packets may leave by the face they came in "
        "on: a wireless relay), point-to-point",
        ns3::EnumValue(static_cast<int>(NfdLinkTypeChoice::Auto)),
        ns3::MakeEnumAccessor(&NetDeviceTransport::setNfdLinkTypeAttr, &NetDeviceTransport::getNfdLinkTypeAttr),
        ns3::MakeEnumChecker(static_cast<int>(NfdLinkTypeChoice::Auto), "auto",
                             static_cast<int>(NfdLinkTypeChoice::MultiAccess), "multi-access",
                             static_cast<int>(NfdLinkTypeChoice::AdHoc), "ad-hoc",
                             static_cast<int>(NfdLinkTypeChoice::PointToPoint), "point-to-point"))
      // no random variable by default: creating one would take an ns-3 stream number and so
      // move every later auto-assigned stream, changing all other runs' draws
      .AddAttribute("ReceiveDelay",
                    "Seconds each received frame waits before the forwarder sees it, drawn per frame, "
                    "frames kept in arrival order (a real daemon's kernel and event loop; none: at once)",
                    ns3::PointerValue(), ns3::MakePointerAccessor(&NetDeviceTransport::m_receiveDelay),
                    ns3::MakePointerChecker<ns3::RandomVariableStream>());
  return tid;
}

ns3::TypeId NetDeviceTransport::GetInstanceTypeId() const
{
  return GetTypeId();
}

NetDeviceTransport::NetDeviceTransport(Env& env, ns3::Ptr<ns3::Node> node, ns3::Ptr<ns3::NetDevice> device)
  : face::Transport(deviceUri(device),
                    device->IsBroadcast() ? std::string("netdev://broadcast") : std::string("netdev://peer"),
                    face::FaceScope::NonLocal, face::FacePersistency::Permanent,
                    device->IsPointToPoint() ? face::LinkType::PointToPoint : face::LinkType::MultiAccess,
                    static_cast<ssize_t>(device->GetMtu())),
    m_env(env),
    m_node(std::move(node)),
    m_device(std::move(device))
{
  ConstructSelf(ns3::AttributeConstructionList());
  m_isPpp = ns3::DynamicCast<ns3::PointToPointNetDevice>(m_device) != nullptr;
  SetLinkTypeChoice(m_linkTypeChoice);
  findQueue();
  m_node->RegisterProtocolHandler(ns3::MakeCallback(&NetDeviceTransport::receiveFromDevice, this),
                                  m_isPpp ? 0 : NdnEtherType, m_device, false);
  m_registered = true;
}

NetDeviceTransport::~NetDeviceTransport()
{
  *m_alive = false;
  if (m_registered)
    m_node->UnregisterProtocolHandler(ns3::MakeCallback(&NetDeviceTransport::receiveFromDevice, this));
}

void NetDeviceTransport::SetLinkTypeChoice(LinkTypeChoice c)
{
  m_linkTypeChoice = c;
  bool wireless = c == LinkTypeChoice::Wireless || (c == LinkTypeChoice::Auto && isWifi(m_device));
  setMedium(wireless ? face::Medium::Wireless : face::Medium::Wired);
}

void NetDeviceTransport::setNfdLinkTypeAttr(int v)
{
  m_nfdLinkTypeChoice = static_cast<NfdLinkTypeChoice>(v);
  switch (m_nfdLinkTypeChoice) {
    case NfdLinkTypeChoice::Auto:
      if (m_device)
        setLinkType(m_device->IsPointToPoint() ? face::LinkType::PointToPoint : face::LinkType::MultiAccess);
      break;
    case NfdLinkTypeChoice::MultiAccess: setLinkType(face::LinkType::MultiAccess); break;
    case NfdLinkTypeChoice::AdHoc: setLinkType(face::LinkType::AdHoc); break;
    case NfdLinkTypeChoice::PointToPoint: setLinkType(face::LinkType::PointToPoint); break;
  }
}

void NetDeviceTransport::findQueue()
{
  if (auto p2p = ns3::DynamicCast<ns3::PointToPointNetDevice>(m_device))
    m_queue = p2p->GetQueue();
  else if (auto csma = ns3::DynamicCast<ns3::CsmaNetDevice>(m_device))
    m_queue = csma->GetQueue();
  // Wi-Fi MACs are created at Install(); their queue is looked up lazily in sendQueueLength().
}

size_t NetDeviceTransport::sendQueueLength() const
{
  if (m_queue)
    return m_queue->GetNBytes();
  if (auto wifi = ns3::DynamicCast<ns3::WifiNetDevice>(m_device)) {
    ns3::Ptr<ns3::WifiMac> mac = wifi->GetMac();
    if (!mac)
      return 0;
    ns3::Ptr<ns3::WifiMacQueue> q = mac->GetTxopQueue(mac->GetQosSupported() ? ns3::AC_BE : ns3::AC_BE_NQOS);
    return q ? q->GetNBytes() : 0;
  }
  return 0;
}

void NetDeviceTransport::close()
{
  if (state() == face::TransportState::Closed)
    return;
  setState(face::TransportState::Closing);
  if (m_registered) {
    m_node->UnregisterProtocolHandler(ns3::MakeCallback(&NetDeviceTransport::receiveFromDevice, this));
    m_registered = false;
  }
  setState(face::TransportState::Closed);
}

face::EndpointId NetDeviceTransport::endpointOf(const ns3::Address& a)
{
  uint8_t buf[ns3::Address::MAX_SIZE];
  uint32_t n = a.CopyTo(buf);
  uint64_t id = 0;
  for (uint32_t i = 0; i < n; ++i)
    id = (id << 8) | buf[i];
  // (addresses longer than 8 bytes keep their last 8 bytes)
  return id == 0 ? 1 : id;
}

ns3::Address NetDeviceTransport::destinationFor(face::EndpointId endpoint) const
{
  if (m_addressing == Addressing::Unicast) {
    if (endpoint != 0) {
      if (auto it = m_neighbours.find(endpoint); it != m_neighbours.end())
        return it->second;
    }
    else if (m_neighbours.size() == 1 && linkType() != face::LinkType::AdHoc) {
      // an ad hoc face's neighbours are never one peer: without a destination, broadcast
      return m_neighbours.begin()->second;
    }
  }
  return m_device->GetBroadcast();
}

void NetDeviceTransport::doSend(SharedBuffer frame, face::EndpointId endpoint)
{
  auto packet = ns3::Create<ns3::Packet>(frame->data(), static_cast<uint32_t>(frame->size()));
  if (!m_device->Send(packet, destinationFor(endpoint), NdnEtherType)) {
    NS_LOG_DEBUG("face " << m_faceId << " device refused " << frame->size() << " octets DROP");
    m_env.emit(TraceEvent::dropped(EventKind::Drop, m_faceId, DropReason::DeviceSendFailed,
                                   static_cast<int64_t>(frame->size())));
  }
}

void NetDeviceTransport::receiveFromDevice(ns3::Ptr<ns3::NetDevice>, ns3::Ptr<const ns3::Packet> packet,
                                           uint16_t protocol, const ns3::Address& from, const ns3::Address&,
                                           ns3::NetDevice::PacketType)
{
  if (protocol != NdnEtherType && !(m_isPpp && protocol == 0))
    return;
  face::EndpointId ep = endpointOf(from);
  if (!m_neighbours.contains(ep))
    m_neighbours.emplace(ep, from);
  uint32_t n = packet->GetSize();
  const double delay = m_receiveDelay ? m_receiveDelay->GetValue() : 0;
  const ns3::Time now = ns3::Simulator::Now();
  if (delay <= 0 && m_deferredUntil <= now) {
    m_rxBuffer.resize(n);
    packet->CopyData(m_rxBuffer.data(), n);
    receive(ByteSpan(m_rxBuffer.data(), n), ep);
    return;
  }
  // later, and never before a frame that came earlier
  m_deferredUntil = std::max(now + ns3::Seconds(std::max(delay, 0.0)), m_deferredUntil);
  auto frame = std::make_shared<Buffer>(n);
  packet->CopyData(frame->data(), n);
  ns3::Simulator::Schedule(m_deferredUntil - now, [this, alive = m_alive, frame, ep] {
    if (*alive)
      receive(ByteSpan(frame->data(), frame->size()), ep);
  });
}

} // namespace ndnlab::sim
