#include "ns3/dcib/helper/ack-interceptor.hpp"

#include "ns3/dcib/helper/packet-key.hpp"

#include <ns3/boolean.h>
#include <ns3/log.h>
#include <ns3/simulator.h>
#include <ns3/tcp-header.h>
#include <ns3/tcp-option-sack.h>
#include <ns3/uinteger.h>

#include <stdexcept>

namespace ndnlab::dcib {

NS_LOG_COMPONENT_DEFINE("dcib.AckInterceptor");
NS_OBJECT_ENSURE_REGISTERED(AckInterceptor);

namespace {

TimePoint simNow()
{
  return TimePoint(Duration(ns3::Simulator::Now().GetNanoSeconds()));
}

void stored(AckInterceptor* x, const PacketKey& k)
{
  x->NotifyStored(k);
}

void repairSent(AckInterceptor* x, const PacketKey& k)
{
  x->NotifyRepairSent(k);
}

void delivered(AckInterceptor* x, const PacketKey& k)
{
  x->NotifyDelivered(k);
}

void localDrop(AckInterceptor* x, const PacketKey& k)
{
  x->NotifyLocalDrop(k);
}

} // namespace

ns3::TypeId AckInterceptor::GetTypeId()
{
  using namespace ns3;
  static InterceptorOptions d;
  static TypeId tid =
    TypeId("ndnlab::dcib::AckInterceptor")
      .SetParent<ErrorModel>()
      .SetGroupName("Dcib")
      .AddConstructor<AckInterceptor>()
      .AddAttribute("Allowance", "duplicate ACKs per flow let through before holding", UintegerValue(d.allowance),
                    MakeUintegerAccessor(&AckInterceptor::m_allowance), MakeUintegerChecker<uint32_t>())
      .AddAttribute("HoldTimeout",
                    "longest hold of a hole's duplicate ACKs (0: twice the InterRouterRtt of "
                    "the EdgeQueueDisc)",
                    TimeValue(Time(0)), MakeTimeAccessor(&AckInterceptor::m_holdTimeout), MakeTimeChecker())
      .AddAttribute("CheckSackGaps", "let duplicates through when their SACK blocks show a hole A cannot repair",
                    BooleanValue(d.checkSackGaps), MakeBooleanAccessor(&AckInterceptor::m_checkSackGaps),
                    MakeBooleanChecker())
      .AddAttribute("HoldLocalDrops",
                    "hold duplicates also for packets A's own queue dropped (false: the host "
                    "sees its congestion)",
                    BooleanValue(d.holdLocalDrops), MakeBooleanAccessor(&AckInterceptor::m_holdLocalDrops),
                    MakeBooleanChecker())
      .AddAttribute("RepairOnDupAck",
                    "a duplicate ACK for a segment whose clone A still keeps stalled makes A "
                    "retransmit that clone at once (beyond the paper)",
                    BooleanValue(d.repairOnDupAck), MakeBooleanAccessor(&AckInterceptor::m_repairOnDupAck),
                    MakeBooleanChecker())
      .AddAttribute("MaxHeldPerHole", "ACKs held per hole (the oldest is discarded beyond)",
                    UintegerValue(d.maxHeldPerHole), MakeUintegerAccessor(&AckInterceptor::m_maxHeld),
                    MakeUintegerChecker<uint32_t>(1))
      .AddTraceSource("Held", "a duplicate ACK frame was held back",
                      MakeTraceSourceAccessor(&AckInterceptor::m_heldTrace), "ns3::Packet::TracedCallback")
      .AddTraceSource("Released", "a held ACK frame was forwarded after its hold expired",
                      MakeTraceSourceAccessor(&AckInterceptor::m_releasedTrace), "ns3::Packet::TracedCallback");
  return tid;
}

AckInterceptor::AckInterceptor() = default;
AckInterceptor::~AckInterceptor() = default;

void AckInterceptor::Install(ns3::Ptr<EdgeQueueDisc> qdisc, ns3::Ptr<ns3::PointToPointNetDevice> device)
{
  if (m_model)
    throw std::logic_error("AckInterceptor: installed twice");
  InterceptorOptions o;
  o.allowance = m_allowance;
  o.maxHeldPerHole = m_maxHeld;
  o.checkSackGaps = m_checkSackGaps;
  o.holdLocalDrops = m_holdLocalDrops;
  o.repairOnDupAck = m_repairOnDupAck;
  ns3::Time hold = m_holdTimeout;
  if (hold.IsZero()) {
    ns3::TimeValue rtt;
    qdisc->GetAttribute("InterRouterRtt", rtt);
    hold = 2 * rtt.Get();
  }
  o.holdTimeout = Duration(hold.GetNanoSeconds());
  m_model = std::make_unique<DupAckInterceptor<ns3::Ptr<ns3::Packet>>>(o);

  qdisc->TraceConnectWithoutContext("Selected", ns3::MakeBoundCallback(&stored, this));
  qdisc->TraceConnectWithoutContext("EdgeRetransmit", ns3::MakeBoundCallback(&repairSent, this));
  qdisc->TraceConnectWithoutContext("IdleCopy", ns3::MakeBoundCallback(&repairSent, this));
  qdisc->TraceConnectWithoutContext("Delivered", ns3::MakeBoundCallback(&delivered, this));
  qdisc->TraceConnectWithoutContext("LocalDrop", ns3::MakeBoundCallback(&localDrop, this));
  m_qdisc = qdisc;
  m_device = ns3::PeekPointer(device);
  device->SetReceiveErrorModel(this);
}

const InterceptorOptions& AckInterceptor::GetOptions() const
{
  static const InterceptorOptions none;
  return m_model ? m_model->options() : none;
}

const InterceptorCounters& AckInterceptor::GetCounters() const
{
  static const InterceptorCounters none;
  return m_model ? m_model->counters() : none;
}

void AckInterceptor::NotifyStored(const PacketKey& key)
{
  if (m_model && key.protocol == TcpProtocol)
    m_model->onStored(key);
}

void AckInterceptor::NotifyRepairSent(const PacketKey& key)
{
  if (m_model && key.protocol == TcpProtocol)
    m_model->onRepairSent(key, simNow());
}

void AckInterceptor::NotifyDelivered(const PacketKey& key)
{
  if (m_model && key.protocol == TcpProtocol)
    m_model->onDelivered(key);
}

void AckInterceptor::NotifyLocalDrop(const PacketKey& key)
{
  if (m_model && key.protocol == TcpProtocol)
    m_model->onLocalDrop(key);
}

bool AckInterceptor::DoCorrupt(ns3::Ptr<ns3::Packet> p)
{
  if (m_releasing || !m_model)
    return false;
  ns3::Ptr<ns3::Packet> rest;
  auto ip = parsePppIpv4(p, rest);
  if (!ip || ip->GetProtocol() != TcpProtocol)
    return false;
  ns3::TcpHeader tcp;
  if (rest->RemoveHeader(tcp) == 0)
    return false;
  const uint8_t flags = tcp.GetFlags();
  if (!(flags & ns3::TcpHeader::ACK))
    return false;
  HostAck a;
  // the ACK travels receiver -> sender: the data direction is the reverse
  a.flow = FlowId{ip->GetDestination().Get(), ip->GetSource().Get(), tcp.GetDestinationPort(), tcp.GetSourcePort()};
  a.ack = tcp.GetAckNumber().GetValue();
  a.pure = rest->GetSize() == 0 && !(flags & (ns3::TcpHeader::SYN | ns3::TcpHeader::FIN | ns3::TcpHeader::RST));
  if (auto opt = tcp.GetOption(ns3::TcpOption::SACK)) {
    if (auto sack = ns3::DynamicCast<const ns3::TcpOptionSack>(opt)) {
      for (const auto& [left, right] : sack->GetSackList())
        a.blocks.push_back(SackBlock{left.GetValue(), right.GetValue()});
      a.sack = !a.blocks.empty();
    }
  }
  if (m_model->repairDue(a))
    m_qdisc->RepairSegment(a.flow, a.ack);
  const uint64_t holesBefore = m_model->counters().holes;
  auto verdict = m_model->onHostAck(a, simNow(), [&] { return p->Copy(); });
  if (verdict == AckVerdict::Forward)
    return false;
  m_heldTrace(p);
  if (m_model->counters().holes != holesBefore) // a new hold: its deadline needs a timer
    ns3::Simulator::Schedule(ns3::NanoSeconds(m_model->options().holdTimeout.count()), &AckInterceptor::expire, this);
  return true;
}

void AckInterceptor::expire()
{
  if (!m_model || !m_device)
    return;
  m_model->expire(simNow(), [&](ns3::Ptr<ns3::Packet>&& frame) {
    m_releasedTrace(frame);
    m_releasing = true;
    m_device->Receive(frame);
    m_releasing = false;
  });
}

void AckInterceptor::DoReset()
{}

void AckInterceptor::DoDispose()
{
  m_model.reset();
  m_qdisc = nullptr;
  m_device = nullptr;
  ns3::ErrorModel::DoDispose();
}

} // namespace ndnlab::dcib
