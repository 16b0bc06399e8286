#pragma once
// Duplicate-ACK interception at the source edge router in ns-3 (model:
// model/dupack-interceptor.hpp, docs/mechanisms/dcib.md).
//
// Installed as the ReceiveErrorModel of A's DCI device, the one ns-3 hook that sees every
// frame coming back from B (host ACKs, router ACKs) before A forwards it. A TCP ACK the model
// holds is dropped there and a copy of the frame kept; when its hold expires the copy is fed
// to the device's Receive() again (passing this model), so A forwards it as if it had just
// arrived. Held ACKs of a hole that fills are discarded. The model learns what A can repair
// from the EdgeQueueDisc's trace sources Selected, EdgeRetransmit, IdleCopy, Delivered and
// LocalDrop. With RepairOnDupAck, a duplicate ACK for a segment whose clone is still stalled
// makes the EdgeQueueDisc retransmit that clone at once (RepairSegment).

#include "ns3/dcib/helper/edge-queue-disc.hpp"
#include "ns3/dcib/model/dupack-interceptor.hpp"

#include <ns3/error-model.h>
#include <ns3/nstime.h>
#include <ns3/point-to-point-net-device.h>
#include <ns3/traced-callback.h>

#include <memory>

namespace ndnlab::dcib {

class AckInterceptor : public ns3::ErrorModel
{
public:
  static ns3::TypeId GetTypeId();
  AckInterceptor();
  ~AckInterceptor() override;

  /// Builds the model from the attributes (HoldTimeout 0: twice the qdisc's InterRouterRtt),
  /// connects to `qdisc`'s traces and becomes the ReceiveErrorModel of `device` (A's DCI
  /// device). Call once, before the simulation starts; `device` must outlive this object's use.
  void Install(ns3::Ptr<EdgeQueueDisc> qdisc, ns3::Ptr<ns3::PointToPointNetDevice> device);

  /// Valid after Install().
  const InterceptorOptions& GetOptions() const;
  const InterceptorCounters& GetCounters() const;

  // trace sinks of the EdgeQueueDisc
  void NotifyStored(const PacketKey& key);
  void NotifyRepairSent(const PacketKey& key);
  void NotifyDelivered(const PacketKey& key);
  void NotifyLocalDrop(const PacketKey& key);

private:
  bool DoCorrupt(ns3::Ptr<ns3::Packet> p) override;
  void DoReset() override;
  void DoDispose() override;
  void expire();

  uint32_t m_allowance = 2;
  ns3::Time m_holdTimeout;
  uint32_t m_maxHeld = 256;
  bool m_checkSackGaps = true;
  bool m_holdLocalDrops = false;
  bool m_repairOnDupAck = false;

  std::unique_ptr<DupAckInterceptor<ns3::Ptr<ns3::Packet>>> m_model;
  ns3::PointToPointNetDevice* m_device = nullptr; ///< owns this model: not a Ptr (no cycle)
  ns3::Ptr<EdgeQueueDisc> m_qdisc;
  bool m_releasing = false;

  ns3::TracedCallback<ns3::Ptr<const ns3::Packet>> m_heldTrace;
  ns3::TracedCallback<ns3::Ptr<const ns3::Packet>> m_releasedTrace;
};

} // namespace ndnlab::dcib
