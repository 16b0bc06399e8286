#pragma once
// Installs DCIB on the two edge routers of a DCI link (docs/mechanisms/dcib.md):
//  - source edge router A: EdgeQueueDisc (Q_snd) as the root queue disc of A's DCI device, the
//    main AQM as its child, a UDP socket receiving router-to-router ACKs, and PhyTxEnd wired
//    to the idle-copy scheduler;
//  - destination edge router B: DciIngress as the ReceiveErrorModel of B's DCI device (WAN
//    loss, and with DCIB the router-ACK sender).
// Call after IPv4 addresses are assigned and before the simulation starts.

#include "ns3/dcib/helper/dci-ingress.hpp"
#include "ns3/dcib/helper/edge-queue-disc.hpp"

#include <ns3/ipv4-address.h>
#include <ns3/net-device.h>
#include <ns3/socket.h>

namespace ndnlab::dcib {

/// UDP port of the router-to-router ACK socket on the source edge router.
inline constexpr uint16_t RouterAckPort = 9797;

struct DcibEdges
{
  ns3::Ptr<EdgeQueueDisc> source;    ///< Q_snd on A's DCI device
  ns3::Ptr<DciIngress> destination;  ///< WAN loss + Q_rcv on B's DCI device
  ns3::Ptr<ns3::Socket> ackReceiver; ///< on A
  ns3::Ptr<ns3::Socket> ackSender;   ///< on B (null without DCIB)
};

/// `aDevice` and `bDevice` are the two ends of the DCI link (A sends, B receives); `aAddress`
/// is A's address on it. `qdisc` carries the DCIB attributes (Enabled=false: baseline);
/// `main` is the AQM (RED with ECN). `ingress` carries the WAN loss; Q_rcv is enabled on it
/// when qdisc is enabled.
DcibEdges installDcib(ns3::Ptr<ns3::NetDevice> aDevice, ns3::Ipv4Address aAddress, ns3::Ptr<ns3::NetDevice> bDevice,
                      ns3::Ptr<EdgeQueueDisc> qdisc, ns3::Ptr<ns3::QueueDisc> main, ns3::Ptr<DciIngress> ingress,
                      const ReceiverOptions& receiver = {});

/// Replaces the root queue disc of `device` by `qdisc` (not initialised yet).
void setRootQueueDisc(ns3::Ptr<ns3::NetDevice> device, ns3::Ptr<ns3::QueueDisc> qdisc);

} // namespace ndnlab::dcib
