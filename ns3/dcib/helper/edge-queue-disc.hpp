#pragma once
// Q_snd in ns-3: the root queue disc of the source edge router's DCI egress device.
//
//   enqueue: DCIB marking (EdgeSender::select; selected -> Not-ECT + clone, others -> ECT(0))
//            then the main AQM child (RED with ECN by default: it drops Not-ECT packets and
//            marks ECT ones under congestion)
//   dequeue, strict priority: 1. edge retransmissions (ACK-driven, internal FIFO queue)
//                             2. the main AQM child
//                             3. LowPriority mode: an idle-time copy of the oldest clone
// Edge retransmissions and copies carry ECT(1), so the destination edge router recognises them
// and no router drops them early. With Enabled=false the queue disc is the main AQM alone
// (the baseline).
//
// ReceiveRouterAck() is fed by the router-to-router ACK socket (DcibHelper);
// ConnectTransmitEnd() feeds NotifyTransmitEnd() from the egress device's PhyTxEnd trace, which
// LowPriority mode needs (idle copies are sent one per finished transmission while nothing else
// waits).

#include "ns3/dcib/model/edge-sender.hpp"

#include <ns3/address.h>
#include <ns3/data-rate.h>
#include <ns3/ipv4-header.h>
#include <ns3/net-device.h>
#include <ns3/nstime.h>
#include <ns3/queue-disc.h>
#include <ns3/random-variable-stream.h>
#include <ns3/traced-callback.h>

#include <memory>

namespace ndnlab::dcib {

class EdgeQueueDisc : public ns3::QueueDisc
{
public:
  static ns3::TypeId GetTypeId();
  EdgeQueueDisc();
  ~EdgeQueueDisc() override;

  /// The main queue disc (class 0). Call before the simulation starts; without it a
  /// RedQueueDisc with ns-3 defaults is created.
  void SetMainQueueDisc(ns3::Ptr<ns3::QueueDisc> qd);
  ns3::Ptr<ns3::QueueDisc> GetMainQueueDisc() const;

  /// A router-to-router ACK for `key` arrived: retransmit the clones stored before it.
  void ReceiveRouterAck(const PacketKey& key);
  /// A host duplicate ACK showed the TCP segment of `flow` starting at `seq` lost: retransmit
  /// its clone now if one is stored (beyond the paper). True when sent.
  bool RepairSegment(const FlowId& flow, uint32_t seq);
  /// The egress device finished a transmission (PhyTxEnd).
  void NotifyTransmitEnd();
  /// Calls NotifyTransmitEnd() at each PhyTxEnd of `device` (the egress device) until this
  /// queue disc is disposed or destroyed. The device's trace does not hold a reference to this
  /// queue disc, which holds the device (through its send callback): a reference each way
  /// would keep both alive after the simulation.
  void ConnectTransmitEnd(ns3::Ptr<ns3::NetDevice> device);

  /// The options in force (from the attributes); valid after initialisation.
  const SenderOptions& GetOptions() const;
  bool IsEnabled() const { return m_enabled; }
  const SenderCounters& GetCounters() const;
  size_t GetStalledPackets() const;
  /// True while the clone of `key` is stored (selected, not yet acknowledged).
  bool IsStored(const PacketKey& key) const;
  uint64_t GetStalledBytes() const;
  double GetMeanStalledBytes();
  /// Fixes the random stream of SelectionMode::Random; returns the number of streams used.
  int64_t AssignStreams(int64_t stream);

private:
  struct Clone
  {
    ns3::Ptr<ns3::Packet> packet; ///< from the transport header on
    ns3::Ipv4Header header;       ///< ECN already set to ECT(1)
    ns3::Address destination;
    uint16_t protocol = 0;
    uint8_t txQueue = 0;
    PacketKey key;
  };

  bool DoEnqueue(ns3::Ptr<ns3::QueueDiscItem> item) override;
  ns3::Ptr<ns3::QueueDiscItem> DoDequeue() override;
  bool CheckConfig() override;
  void InitializeParams() override;
  void DoDispose() override;

  ns3::Ptr<ns3::QueueDiscItem> makeItem(Clone&& c) const;
  /// Queues an edge retransmission ahead of the main queue disc (traced as EdgeRetransmit).
  void injectRetransmission(Clone&& c);
  /// MarkAfterQueue: ECT(0) for an unselected Not-ECT packet leaving the child queue disc.
  void markLeaving(const ns3::Ptr<ns3::QueueDiscItem>& item) const;
  void runIdle();
  void onPhyTxEnd(ns3::Ptr<const ns3::Packet>);
  void disconnectTransmitEnd();
  TimePoint now() const;

  // attributes
  bool m_enabled = true;
  double m_ratio = 0.1;
  uint64_t m_bufferBytes = 0;
  bool m_enforceBound = true;
  bool m_adaptiveRatio = false;
  bool m_markAfterQueue = false;
  uint32_t m_minEligibleBytes = 0;
  SenderOptions m_options; ///< assembled from the attributes in InitializeParams
  std::string m_selectionName = "even";
  std::string m_bufferName = "stalled";
  ns3::Time m_rtt;
  ns3::DataRate m_rate;
  uint32_t m_retransmitQueuePackets = 10000;

  std::unique_ptr<EdgeSender<Clone>> m_sender;
  ns3::Ptr<ns3::UniformRandomVariable> m_rng;
  bool m_injecting = false;
  bool m_idleRunScheduled = false;
  ns3::Ptr<ns3::NetDevice> m_txEndDevice; ///< whose PhyTxEnd calls onPhyTxEnd

  ns3::TracedCallback<const PacketKey&> m_selectedTrace;
  ns3::TracedCallback<const PacketKey&> m_edgeRetransmitTrace;
  ns3::TracedCallback<const PacketKey&> m_idleCopyTrace;
  ns3::TracedCallback<const PacketKey&> m_deliveredTrace;
  ns3::TracedCallback<const PacketKey&> m_localDropTrace;
};

} // namespace ndnlab::dcib
