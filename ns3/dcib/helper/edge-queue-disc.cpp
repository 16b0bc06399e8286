#include "ns3/dcib/helper/edge-queue-disc.hpp"

#include "ns3/dcib/helper/packet-key.hpp"

#include <ns3/boolean.h>
#include <ns3/double.h>
#include <ns3/drop-tail-queue.h>
#include <ns3/ipv4-queue-disc-item.h>
#include <ns3/log.h>
#include <ns3/red-queue-disc.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <optional>
#include <stdexcept>

namespace ndnlab::dcib {

NS_LOG_COMPONENT_DEFINE("dcib.EdgeQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(EdgeQueueDisc);

ns3::TypeId EdgeQueueDisc::GetTypeId()
{
  using namespace ns3;
  static SenderOptions d;
  static TypeId tid =
    TypeId("ndnlab::dcib::EdgeQueueDisc")
      .SetParent<QueueDisc>()
      .SetGroupName("Dcib")
      .AddConstructor<EdgeQueueDisc>()
      .AddAttribute("Enabled", "DCIB marking and recovery on (off: the main queue disc alone)", BooleanValue(true),
                    MakeBooleanAccessor(&EdgeQueueDisc::m_enabled), MakeBooleanChecker())
      .AddAttribute("SelectionRatio", "r: share of eligible packets sent Not-ECT and cloned",
                    DoubleValue(d.selectionRatio), MakeDoubleAccessor(&EdgeQueueDisc::m_ratio),
                    MakeDoubleChecker<double>(0.0, 1.0))
      .AddAttribute("Selection", "even (credit counter) or random (Bernoulli)", StringValue(toString(d.selection)),
                    MakeStringAccessor(&EdgeQueueDisc::m_selectionName), MakeStringChecker())
      .AddAttribute("BufferSize", "B: bytes of clones kept", UintegerValue(d.bufferBytes),
                    MakeUintegerAccessor(&EdgeQueueDisc::m_bufferBytes), MakeUintegerChecker<uint64_t>())
      .AddAttribute("InterRouterRtt", "tau: edge-to-edge round trip, for the bound B/(tau*C)",
                    TimeValue(MilliSeconds(6)), MakeTimeAccessor(&EdgeQueueDisc::m_rtt), MakeTimeChecker())
      .AddAttribute("LinkRate", "C: DCI capacity, for the bound B/(tau*C)", DataRateValue(DataRate("10Gbps")),
                    MakeDataRateAccessor(&EdgeQueueDisc::m_rate), MakeDataRateChecker())
      .AddAttribute("EnforceBound", "use min(r, B/(tau*C)) instead of r", BooleanValue(d.enforceBound),
                    MakeBooleanAccessor(&EdgeQueueDisc::m_enforceBound), MakeBooleanChecker())
      .AddAttribute("AdaptiveRatio", "ratio min(r, B/(R*tau)) from the measured rate R, re-evaluated every tau",
                    BooleanValue(d.adaptiveRatio), MakeBooleanAccessor(&EdgeQueueDisc::m_adaptiveRatio),
                    MakeBooleanChecker())
      .AddAttribute("MarkAfterQueue",
                    "set ECT(0) on unselected packets as they leave this queue disc, not as they "
                    "enter: its own RED queue then drops the non-ECN hosts' packets early, as "
                    "without DCIB, and only the routers beyond see them ECT",
                    BooleanValue(false), MakeBooleanAccessor(&EdgeQueueDisc::m_markAfterQueue), MakeBooleanChecker())
      .AddAttribute("Mode", "stalled (ACK-driven) or lowprio (also idle-time copies)", StringValue(toString(d.buffer)),
                    MakeStringAccessor(&EdgeQueueDisc::m_bufferName), MakeStringChecker())
      .AddAttribute("MinEligibleSize", "IP payload bytes below which a packet is never selected",
                    UintegerValue(d.minEligibleBytes), MakeUintegerAccessor(&EdgeQueueDisc::m_minEligibleBytes),
                    MakeUintegerChecker<uint32_t>())
      .AddAttribute("RetransmitQueueSize", "packets the edge-retransmission band holds", UintegerValue(10000),
                    MakeUintegerAccessor(&EdgeQueueDisc::m_retransmitQueuePackets), MakeUintegerChecker<uint32_t>(1))
      .AddTraceSource("Selected", "a packet was selected (sent Not-ECT, clone kept)",
                      MakeTraceSourceAccessor(&EdgeQueueDisc::m_selectedTrace), "ndnlab::dcib::PacketKeyCallback")
      .AddTraceSource("EdgeRetransmit", "a clone was retransmitted after a router ACK gap",
                      MakeTraceSourceAccessor(&EdgeQueueDisc::m_edgeRetransmitTrace), "ndnlab::dcib::PacketKeyCallback")
      .AddTraceSource("IdleCopy", "a clone was sent while the egress was idle (lowprio)",
                      MakeTraceSourceAccessor(&EdgeQueueDisc::m_idleCopyTrace), "ndnlab::dcib::PacketKeyCallback")
      .AddTraceSource("LocalDrop", "the main queue disc dropped a selected packet (clone kept)",
                      MakeTraceSourceAccessor(&EdgeQueueDisc::m_localDropTrace), "ndnlab::dcib::PacketKeyCallback")
      .AddTraceSource("Delivered", "a router ACK matched a stored clone (its packet got through)",
                      MakeTraceSourceAccessor(&EdgeQueueDisc::m_deliveredTrace), "ndnlab::dcib::PacketKeyCallback");
  return tid;
}

EdgeQueueDisc::EdgeQueueDisc()
  : QueueDisc(ns3::QueueDiscSizePolicy::MULTIPLE_QUEUES), m_rng(ns3::CreateObject<ns3::UniformRandomVariable>())
{}

EdgeQueueDisc::~EdgeQueueDisc()
{
  disconnectTransmitEnd();
}

void EdgeQueueDisc::SetMainQueueDisc(ns3::Ptr<ns3::QueueDisc> qd)
{
  if (GetNQueueDiscClasses() > 0)
    throw std::logic_error("EdgeQueueDisc: main queue disc already set");
  auto c = ns3::CreateObject<ns3::QueueDiscClass>();
  c->SetQueueDisc(qd);
  AddQueueDiscClass(c);
}

ns3::Ptr<ns3::QueueDisc> EdgeQueueDisc::GetMainQueueDisc() const
{
  return GetNQueueDiscClasses() ? GetQueueDiscClass(0)->GetQueueDisc() : nullptr;
}

int64_t EdgeQueueDisc::AssignStreams(int64_t stream)
{
  m_rng->SetStream(stream);
  return 1;
}

TimePoint EdgeQueueDisc::now() const
{
  return TimePoint(Duration(ns3::Simulator::Now().GetNanoSeconds()));
}

bool EdgeQueueDisc::CheckConfig()
{
  if (GetNQueueDiscClasses() == 0)
    SetMainQueueDisc(ns3::CreateObject<ns3::RedQueueDisc>());
  if (GetNQueueDiscClasses() != 1) {
    NS_LOG_ERROR("EdgeQueueDisc needs exactly one main queue disc");
    return false;
  }
  if (GetNInternalQueues() == 0) {
    AddInternalQueue(ns3::CreateObjectWithAttributes<ns3::DropTailQueue<ns3::QueueDiscItem>>(
      "MaxSize", ns3::QueueSizeValue(ns3::QueueSize(ns3::QueueSizeUnit::PACKETS, m_retransmitQueuePackets))));
  }
  if (GetNPacketFilters() > 0) {
    NS_LOG_ERROR("EdgeQueueDisc does not use packet filters");
    return false;
  }
  return true;
}

void EdgeQueueDisc::InitializeParams()
{
  m_options.selectionRatio = m_ratio;
  m_options.bufferBytes = m_bufferBytes;
  m_options.enforceBound = m_enforceBound;
  m_options.adaptiveRatio = m_adaptiveRatio;
  m_options.minEligibleBytes = m_minEligibleBytes;
  m_options.selection = parseSelectionMode(m_selectionName);
  m_options.buffer = parseBufferMode(m_bufferName);
  m_options.interRouterRtt = Duration(m_rtt.GetNanoSeconds());
  m_options.linkRate = BitRate{m_rate.GetBitRate()};
  // the Selector's own generator, seeded from this queue disc's ns-3 stream
  m_sender = std::make_unique<EdgeSender<Clone>>(m_options, m_rng->GetInteger(1, 0xFFFFFFFFu));
  NS_LOG_INFO("DCIB " << (m_enabled ? "on" : "off") << " r=" << m_options.selectionRatio
                      << " effective=" << m_options.effectiveRatio() << " bound=" << m_options.boundRatio()
                      << (m_options.adaptiveRatio ? " adaptive" : "") << " mode=" << m_bufferName);
}

void EdgeQueueDisc::DoDispose()
{
  disconnectTransmitEnd();
  m_sender.reset();
  m_rng = nullptr;
  QueueDisc::DoDispose();
}

const SenderOptions& EdgeQueueDisc::GetOptions() const
{
  return m_sender ? m_sender->options() : m_options;
}

const SenderCounters& EdgeQueueDisc::GetCounters() const
{
  static const SenderCounters none;
  return m_sender ? m_sender->counters() : none;
}

size_t EdgeQueueDisc::GetStalledPackets() const
{
  return m_sender ? m_sender->stalledPackets() : 0;
}

bool EdgeQueueDisc::IsStored(const PacketKey& key) const
{
  return m_sender && m_sender->isStored(key);
}

uint64_t EdgeQueueDisc::GetStalledBytes() const
{
  return m_sender ? m_sender->stalledBytes() : 0;
}

double EdgeQueueDisc::GetMeanStalledBytes()
{
  return m_sender ? m_sender->meanStalledBytes(now()) : 0.0;
}

bool EdgeQueueDisc::DoEnqueue(ns3::Ptr<ns3::QueueDiscItem> item)
{
  if (m_injecting)
    return GetInternalQueue(0)->Enqueue(item);

  std::optional<PacketKey> selected;
  if (m_enabled) {
    auto ip = ns3::DynamicCast<ns3::Ipv4QueueDiscItem>(item);
    if (ip) {
      // The item owns its header by value and adds it to the packet at dequeue time; the
      // ECN field is rewritten in place, as Ipv4QueueDiscItem::Mark() does.
      auto& header = const_cast<ns3::Ipv4Header&>(ip->GetHeader());
      uint32_t bytes = ip->GetSize();
      if (m_sender->select(bytes, now())) {
        header.SetEcn(ns3::Ipv4Header::ECN_NotECT);
        Clone c;
        c.packet = ip->GetPacket()->Copy();
        c.header = header;
        c.header.SetEcn(ns3::Ipv4Header::ECN_ECT1);
        c.destination = ip->GetAddress();
        c.protocol = ip->GetProtocol();
        c.txQueue = ip->GetTxQueueIndex();
        c.key = makeKey(header, ip->GetPacket());
        PacketKey key = c.key;
        m_sender->store(key, bytes, std::move(c), now());
        m_selectedTrace(key);
        selected = key;
      }
      else if (header.GetEcn() == ns3::Ipv4Header::ECN_NotECT && !m_markAfterQueue) {
        header.SetEcn(ns3::Ipv4Header::ECN_ECT0);
      }
    }
  }
  bool queued = GetQueueDiscClass(0)->GetQueueDisc()->Enqueue(item);
  if (!queued && selected)
    m_localDropTrace(*selected);
  return queued;
}

ns3::Ptr<ns3::QueueDiscItem> EdgeQueueDisc::makeItem(Clone&& c) const
{
  auto item = ns3::Create<ns3::Ipv4QueueDiscItem>(c.packet, c.destination, c.protocol, c.header);
  item->SetTxQueueIndex(c.txQueue);
  return item;
}

void EdgeQueueDisc::markLeaving(const ns3::Ptr<ns3::QueueDiscItem>& item) const
{
  auto ip = ns3::DynamicCast<ns3::Ipv4QueueDiscItem>(item);
  if (!ip)
    return;
  auto& header = const_cast<ns3::Ipv4Header&>(ip->GetHeader());
  // a selected packet still has its clone stored (its router ACK cannot precede it): it stays
  // Not-ECT; every other Not-ECT packet leaves as ECT(0), as DoEnqueue would have marked it
  if (header.GetEcn() == ns3::Ipv4Header::ECN_NotECT && !m_sender->isStored(makeKey(header, ip->GetPacket())))
    header.SetEcn(ns3::Ipv4Header::ECN_ECT0);
}

ns3::Ptr<ns3::QueueDiscItem> EdgeQueueDisc::DoDequeue()
{
  if (auto item = GetInternalQueue(0)->Dequeue())
    return item;
  if (auto item = GetQueueDiscClass(0)->GetQueueDisc()->Dequeue()) {
    if (m_enabled && m_markAfterQueue)
      markLeaving(item);
    return item;
  }
  if (m_enabled && m_sender->hasIdleCopy()) {
    auto c = m_sender->takeIdleCopy(now());
    m_idleCopyTrace(c->key);
    return makeItem(std::move(*c));
  }
  return nullptr;
}

void EdgeQueueDisc::ReceiveRouterAck(const PacketKey& key)
{
  if (!m_enabled || !m_sender)
    return;
  std::vector<Clone> lost;
  auto result = m_sender->onAck(key, now(), [&](Clone&& c) { lost.push_back(std::move(c)); });
  for (auto& c : lost)
    injectRetransmission(std::move(c));
  if (result.matched)
    m_deliveredTrace(key);
  if (!lost.empty())
    Run();
}

bool EdgeQueueDisc::RepairSegment(const FlowId& flow, uint32_t seq)
{
  if (!m_enabled || !m_sender)
    return false;
  auto match = [&](const PacketKey& k) {
    return k.protocol == TcpProtocol && k.seq == seq && FlowId::ofData(k) == flow;
  };
  // the clone's packet needs at least one inter-router round trip to cause a duplicate ACK
  bool sent = m_sender->retransmitNow(match, now(), m_options.interRouterRtt,
                                      [&](Clone&& c) { injectRetransmission(std::move(c)); });
  if (sent)
    Run();
  return sent;
}

void EdgeQueueDisc::injectRetransmission(Clone&& c)
{
  m_edgeRetransmitTrace(c.key);
  m_injecting = true;
  Enqueue(makeItem(std::move(c)));
  m_injecting = false;
}

void EdgeQueueDisc::NotifyTransmitEnd()
{
  // The device calls its PhyTxEnd trace before it moves to its next packet: run later in the
  // same instant, once the device has settled.
  if (!m_enabled || !m_sender || !m_sender->hasIdleCopy() || m_idleRunScheduled)
    return;
  m_idleRunScheduled = true;
  ns3::Simulator::ScheduleNow(&EdgeQueueDisc::runIdle, this);
}

void EdgeQueueDisc::ConnectTransmitEnd(ns3::Ptr<ns3::NetDevice> device)
{
  disconnectTransmitEnd();
  // `this`, not a Ptr: no reference from the device back to this queue disc
  if (!device->TraceConnectWithoutContext("PhyTxEnd", ns3::MakeCallback(&EdgeQueueDisc::onPhyTxEnd, this)))
    throw std::invalid_argument("EdgeQueueDisc: device " + device->GetInstanceTypeId().GetName() +
                                " has no PhyTxEnd trace");
  m_txEndDevice = device;
}

void EdgeQueueDisc::disconnectTransmitEnd()
{
  if (!m_txEndDevice)
    return;
  m_txEndDevice->TraceDisconnectWithoutContext("PhyTxEnd", ns3::MakeCallback(&EdgeQueueDisc::onPhyTxEnd, this));
  m_txEndDevice = nullptr;
}

void EdgeQueueDisc::onPhyTxEnd(ns3::Ptr<const ns3::Packet>)
{
  NotifyTransmitEnd();
}

void EdgeQueueDisc::runIdle()
{
  m_idleRunScheduled = false;
  if (GetNPackets() == 0)
    Run();
}

} // namespace ndnlab::dcib
