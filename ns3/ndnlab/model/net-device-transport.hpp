#pragma once
// NetDeviceTransport: a face::Transport on any ns3::NetDevice. NDN frames go directly on the
// device (no IP, no ARP) as the payload of an ns-3 Packet with EtherType 0x8624.
//
// Attributes:
// - Addressing = broadcast: every frame goes to the device's broadcast address (ndnSIM's
//   NetDeviceTransport, and how the BLEnD paper's numbers were produced: on Wi-Fi, Data from
//   an access point then get no 802.11 ACK and no retry).
//   Addressing = unicast: frames go to the neighbour's MAC address, learned from the source
//   address of received frames (802.11 ACK/retry on Wi-Fi). Until a neighbour is known, and
//   whenever more than one has been heard on a multi-access device, frames are broadcast; on
//   an ad hoc face (NfdLinkType ad-hoc) always, unless the link service names the destination.
//   A non-zero EndpointId passed by the link service names the destination explicitly.
// - LinkType = auto | wired | wireless sets Transport::medium() (auto: wireless on a
//   WifiNetDevice, wired otherwise).
// - NfdLinkType = auto | multi-access | ad-hoc | point-to-point sets Transport::linkType()
//   (auto: point-to-point on point-to-point devices, else multi-access). ad-hoc lets the
//   forwarder send an Interest or Data out of the face it came in on: a wireless relay.
// - ReceiveDelay (a random variable, seconds; default 0): how long each received frame waits
//   before the forwarder sees it, drawn per frame, frames kept in arrival order. The
//   simulator's forwarders and applications otherwise take no time, while a real daemon's
//   frame crosses a kernel, a socket and an event loop first; this lets a run ask whether
//   such timing changes an outcome (docs/results/emulation.md, the wifi-chain comparison).
//
// Properties: MTU = the device MTU; NFD link type point-to-point when the device is
// point-to-point, else multi-access; scope non-local; persistency permanent.
// sendQueueLength() = bytes in the device's transmit queue when it is reachable
// (PointToPoint, Csma, Wifi best-effort queue), else 0.
// Received frames report EndpointId = the sender's address (see endpointOf()).
//
// PointToPointNetDevice of ns-3.37 maps only IPv4/IPv6 EtherTypes to PPP protocol numbers;
// with assertions off (Debian's build) any other EtherType becomes PPP protocol 0 and is
// delivered up as protocol 0. On such devices the transport therefore registers for all
// protocols on that device and accepts protocol 0x8624 or 0.
//
// Trace events: {kind="drop", face, reason="device_send_failed", value=octets} when the device
// refuses a frame (e.g. its queue is full).

#include "core/face/transport.hpp"
#include "core/runtime/env.hpp"

#include <ns3/address.h>
#include <ns3/net-device.h>
#include <ns3/node.h>
#include <ns3/object-base.h>
#include <ns3/packet.h>
#include <ns3/ptr.h>
#include <ns3/queue-size.h>
#include <ns3/random-variable-stream.h>

#include <map>
#include <memory>

namespace ns3 {
class QueueBase;
}

namespace ndnlab::sim {

/// EtherType of NDN frames (IEEE registry, used by NFD's Ethernet faces).
inline constexpr uint16_t NdnEtherType = 0x8624;

enum class Addressing : uint8_t { Broadcast = 0, Unicast = 1 };
enum class LinkTypeChoice : uint8_t { Auto = 0, Wired = 1, Wireless = 2 };
enum class NfdLinkTypeChoice : uint8_t { Auto = 0, MultiAccess = 1, AdHoc = 2, PointToPoint = 3 };

class NetDeviceTransport final : public face::Transport, public ns3::ObjectBase
{
public:
  static ns3::TypeId GetTypeId();
  ns3::TypeId GetInstanceTypeId() const override;

  /// Attaches to `device` of `node` (registers the protocol handler). Attributes take their
  /// defaults and may be changed with SetAttribute at any time.
  NetDeviceTransport(Env& env, ns3::Ptr<ns3::Node> node, ns3::Ptr<ns3::NetDevice> device);
  ~NetDeviceTransport() override;

  void close() override;
  size_t sendQueueLength() const override;

  ns3::Ptr<ns3::NetDevice> GetNetDevice() const { return m_device; }
  Addressing GetAddressing() const { return m_addressing; }
  void SetAddressing(Addressing a) { m_addressing = a; }
  LinkTypeChoice GetLinkTypeChoice() const { return m_linkTypeChoice; }
  void SetLinkTypeChoice(LinkTypeChoice c);

  /// Neighbour addresses heard so far (learned in both modes; used in unicast), by EndpointId.
  const std::map<face::EndpointId, ns3::Address>& neighbours() const { return m_neighbours; }
  /// EndpointId of an address: its bytes as a big-endian number (never 0).
  static face::EndpointId endpointOf(const ns3::Address& a);
  /// FaceId used in trace events (set by the stack once the face has one).
  void setTraceFaceId(face::FaceId id) { m_faceId = id; }

private:
  // attribute accessors (ns-3 EnumValue carries int)
  int getAddressingAttr() const { return static_cast<int>(m_addressing); }
  void setAddressingAttr(int v) { m_addressing = static_cast<Addressing>(v); }
  int getLinkTypeAttr() const { return static_cast<int>(m_linkTypeChoice); }
  void setLinkTypeAttr(int v) { SetLinkTypeChoice(static_cast<LinkTypeChoice>(v)); }
  int getNfdLinkTypeAttr() const { return static_cast<int>(m_nfdLinkTypeChoice); }
  void setNfdLinkTypeAttr(int v);

  void doSend(SharedBuffer frame, face::EndpointId endpoint) override;
  void receiveFromDevice(ns3::Ptr<ns3::NetDevice> device, ns3::Ptr<const ns3::Packet> packet, uint16_t protocol,
                         const ns3::Address& from, const ns3::Address& to, ns3::NetDevice::PacketType type);
  ns3::Address destinationFor(face::EndpointId endpoint) const;
  void findQueue();

  Env& m_env;
  ns3::Ptr<ns3::Node> m_node;
  ns3::Ptr<ns3::NetDevice> m_device;
  ns3::Ptr<ns3::QueueBase> m_queue;
  bool m_isPpp = false;
  Addressing m_addressing = Addressing::Broadcast;
  LinkTypeChoice m_linkTypeChoice = LinkTypeChoice::Auto;
  NfdLinkTypeChoice m_nfdLinkTypeChoice = NfdLinkTypeChoice::Auto;
  std::map<face::EndpointId, ns3::Address> m_neighbours;
  face::FaceId m_faceId = face::InvalidFaceId;
  Buffer m_rxBuffer;
  bool m_registered = false;
  ns3::Ptr<ns3::RandomVariableStream> m_receiveDelay;
  ns3::Time m_deferredUntil; // the latest time a deferred frame is handed on (arrival order)
  std::shared_ptr<bool> m_alive = std::make_shared<bool>(true); // deferred frames check it
};

} // namespace ndnlab::sim
