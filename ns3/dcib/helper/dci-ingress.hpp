#pragma once
// What happens to a packet arriving at the destination edge router from the DCI, installed as
// the ReceiveErrorModel of its DCI device (the one ns-3 hook that sees every received frame and
// may drop it):
//   1. the artificial WAN loss (WanLoss: none, non-cooperative or cooperative), which stands
//      for the WAN between the edge routers;
//   2. with DCIB, Q_rcv (EdgeReceiver): a router-to-router ACK for every selected (Not-ECT)
//      packet, sent over UDP to the source edge router; duplicate edge copies are dropped.
// Dropped frames appear on the device's PhyRxDrop trace; the counters say why.

#include "ns3/dcib/model/edge-receiver.hpp"
#include "ns3/dcib/model/wan-loss.hpp"

#include <ns3/error-model.h>
#include <ns3/ipv4-address.h>
#include <ns3/random-variable-stream.h>
#include <ns3/socket.h>
#include <ns3/traced-callback.h>

#include <memory>
#include <optional>

namespace ndnlab::dcib {

class DciIngress : public ns3::ErrorModel
{
public:
  static ns3::TypeId GetTypeId();
  DciIngress();
  ~DciIngress() override;

  void SetWanLoss(const WanLossOptions& options);
  /// An additional WAN loss model, consulted before WanLoss (e.g. a ListErrorModel, or a test
  /// model dropping one chosen packet). Receives the frame as the device does.
  void SetExtraLoss(ns3::Ptr<ns3::ErrorModel> model) { m_extraLoss = model; }
  /// Turns Q_rcv on: ACKs leave through `socket` (a UDP socket on this node) towards
  /// `source:port` (the source edge router's ACK socket).
  void EnableEdgeReceiver(const ReceiverOptions& options, ns3::Ptr<ns3::Socket> socket, ns3::Ipv4Address source,
                          uint16_t port);

  const WanLoss& GetWanLoss() const { return m_wan; }
  /// nullptr when Q_rcv is off.
  const EdgeReceiver* GetEdgeReceiver() const { return m_receiver ? &*m_receiver : nullptr; }
  uint64_t GetAcksSent() const { return m_acksSent; }
  uint64_t GetExtraLossDrops() const { return m_extraDrops; }
  int64_t AssignStreams(int64_t stream);

private:
  bool DoCorrupt(ns3::Ptr<ns3::Packet> p) override;
  void DoReset() override;
  void DoDispose() override;
  void sendAck(PacketKey key);

  WanLoss m_wan{WanLossOptions{}};
  ns3::Ptr<ns3::ErrorModel> m_extraLoss;
  std::optional<EdgeReceiver> m_receiver;
  ns3::Ptr<ns3::Socket> m_socket;
  ns3::Ipv4Address m_source;
  uint16_t m_port = 0;
  uint64_t m_acksSent = 0;
  uint64_t m_extraDrops = 0;
  ns3::Ptr<ns3::UniformRandomVariable> m_rng;

  ns3::TracedCallback<uint8_t> m_wanDropTrace;            ///< ECN codepoint of the dropped packet
  ns3::TracedCallback<const PacketKey&> m_routerAckTrace; ///< an ACK was sent
};

} // namespace ndnlab::dcib
