#pragma once
// The paper's DCI topology (section IV-A, Fig. 10a): N sender hosts behind the source edge
// router A, N receiver hosts behind the destination edge router B, A and B joined by the DCI
// link. Host links: hostRate / hostDelay; DCI: dciRate / dciDelay. The DCI device queue is
// short so the backlog sits in A's queue disc (Q_snd + RED); every other device gets a large
// FIFO queue disc (hosts never drop locally). IPv4 with global routing.

#include <ns3/data-rate.h>
#include <ns3/ipv4-address.h>
#include <ns3/net-device-container.h>
#include <ns3/node-container.h>
#include <ns3/nstime.h>

#include <vector>

namespace ndnlab::dcib {

struct DciTopologyOptions
{
  uint32_t hostPairs = 15;                    ///< senders (and receivers)
  ns3::DataRate hostRate{"10Gbps"};           ///< every host link
  ns3::Time hostDelay = ns3::MicroSeconds(5); ///< one way, every host link
  ns3::DataRate dciRate{"10Gbps"};            ///< C
  ns3::Time dciDelay = ns3::MilliSeconds(3);  ///< one way
  uint32_t mtu = 9000;                        ///< IP MTU of every link, bytes
  uint32_t dciDeviceQueuePackets = 10;        ///< A's DCI device queue (below the qdisc)
  uint32_t hostQueuePackets = 10000;          ///< FIFO queue disc of every other device
};

struct DciTopology
{
  explicit DciTopology(const DciTopologyOptions& options);

  DciTopologyOptions options;
  ns3::NodeContainer senders;
  ns3::NodeContainer receivers;
  ns3::Ptr<ns3::Node> a;       ///< source edge router
  ns3::Ptr<ns3::Node> b;       ///< destination edge router
  ns3::NetDeviceContainer dci; ///< Get(0) on A, Get(1) on B
  ns3::Ipv4Address aDciAddress;
  std::vector<ns3::Ipv4Address> receiverAddresses;

  /// Two-way propagation delay between a sender and a receiver (no transmission times).
  ns3::Time baseRtt() const;
  /// Inter-router round trip tau (propagation only).
  ns3::Time interRouterRtt() const;
};

} // namespace ndnlab::dcib
