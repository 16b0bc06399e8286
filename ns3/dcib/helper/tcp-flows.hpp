#pragma once
// TCP flows across the DCI topology and their per-flow statistics: bytes delivered, flow
// completion time, and what the sending host did (data segments, retransmissions, RTO and
// fast-recovery episodes, congestion window), read from the sender socket's Tx, CongState and
// CongestionWindow traces.
//
// A flow is a BulkSendApplication on a sender host and its own PacketSink (own port) on a
// receiver host. bytes == 0: a long-lived flow.

#include "ns3/dcib/helper/dci-topology.hpp"

#include <ns3/application-container.h>
#include <ns3/nstime.h>
#include <ns3/packet.h>
#include <ns3/sequence-number.h>
#include <ns3/tcp-header.h>
#include <ns3/tcp-socket-state.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ndnlab::dcib {

struct FlowSpec
{
  uint32_t sender = 0;   ///< index into DciTopology::senders
  uint32_t receiver = 0; ///< index into DciTopology::receivers
  uint64_t bytes = 0;    ///< 0 = unlimited
  ns3::Time start;
};

struct FlowStats
{
  FlowSpec spec;
  uint64_t rxBytes = 0;
  ns3::Time firstRx = ns3::Time::Max();
  ns3::Time lastRx;
  bool completed = false;       ///< bytes > 0 and all delivered
  ns3::Time completionTime;     ///< lastRx - start, when completed
  uint64_t dataSegments = 0;    ///< data segments the host sent, retransmissions included
  uint64_t retransmissions = 0; ///< data segments sent below the highest sequence sent
  uint64_t rtoEpisodes = 0;     ///< entries into CA_LOSS
  uint64_t recoveries = 0;      ///< entries into CA_RECOVERY
  uint32_t cwndBytes = 0;       ///< the sender's congestion window now, bytes (0 before it starts)
  uint32_t peakCwndBytes = 0;   ///< its largest value so far, bytes
  uint32_t highestTx = 0;       ///< highest sequence number sent (relative to the first)
  bool started = false;
  ns3::SequenceNumber32 isn;
};

/// Called for every retransmitted data segment: (flow index, sequence number relative to the
/// flow's first data byte, segment bytes).
using RetransmitCallback = std::function<void(size_t flow, uint32_t seq, uint32_t bytes)>;

class TcpFlows
{
public:
  /// Installs the applications; `sendSize` is the BulkSend write size in bytes.
  TcpFlows(DciTopology& topology, std::vector<FlowSpec> specs, uint16_t basePort = 10000, uint32_t sendSize = 65536);
  ~TcpFlows();
  TcpFlows(const TcpFlows&) = delete;
  TcpFlows& operator=(const TcpFlows&) = delete;

  const std::vector<FlowStats>& stats() const { return m_stats; }
  uint64_t totalRxBytes() const { return m_totalRx; }
  void onRetransmit(RetransmitCallback cb) { m_onRetransmit = std::move(cb); }
  /// Stops every application at `t` (long flows; short flows stop by themselves).
  void stopAt(ns3::Time t);

  // trace sinks (the simulator must not outlive this object)
  void sinkRx(size_t i, ns3::Ptr<const ns3::Packet> p);
  void hostTx(size_t i, ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h);
  void congState(size_t i, ns3::TcpSocketState::TcpCongState_t now);
  void cwnd(size_t i, uint32_t bytes);

private:
  std::vector<FlowStats> m_stats;
  uint64_t m_totalRx = 0;
  RetransmitCallback m_onRetransmit;
  ns3::ApplicationContainer m_senders;
  ns3::ApplicationContainer m_sinks;
};

/// Jain's fairness index of `x` (1 = equal shares); 0 for an empty or all-zero vector.
double jainIndex(const std::vector<double>& x);

} // namespace ndnlab::dcib
