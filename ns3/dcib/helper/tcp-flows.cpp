#include "ns3/dcib/helper/tcp-flows.hpp"

#include <ns3/bulk-send-application.h>
#include <ns3/bulk-send-helper.h>
#include <ns3/inet-socket-address.h>
#include <ns3/packet-sink-helper.h>
#include <ns3/packet-sink.h>
#include <ns3/simulator.h>
#include <ns3/tcp-socket-base.h>
#include <ns3/uinteger.h>

#include <algorithm>

namespace ndnlab::dcib {

namespace {

void onSinkRx(TcpFlows* flows, size_t i, ns3::Ptr<const ns3::Packet> p, const ns3::Address&)
{
  flows->sinkRx(i, p);
}

void onTx(TcpFlows* flows, size_t i, ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h,
          ns3::Ptr<const ns3::TcpSocketBase>)
{
  flows->hostTx(i, p, h);
}

void onCongState(TcpFlows* flows, size_t i, ns3::TcpSocketState::TcpCongState_t,
                 ns3::TcpSocketState::TcpCongState_t now)
{
  flows->congState(i, now);
}

void onCwnd(TcpFlows* flows, size_t i, uint32_t, uint32_t now)
{
  flows->cwnd(i, now);
}

void hookSocket(TcpFlows* flows, size_t i, ns3::Ptr<ns3::BulkSendApplication> app)
{
  auto sock = app->GetSocket();
  if (!sock)
    return;
  sock->TraceConnectWithoutContext("Tx", ns3::MakeBoundCallback(&onTx, flows, i));
  sock->TraceConnectWithoutContext("CongState", ns3::MakeBoundCallback(&onCongState, flows, i));
  sock->TraceConnectWithoutContext("CongestionWindow", ns3::MakeBoundCallback(&onCwnd, flows, i));
}

} // namespace

void TcpFlows::sinkRx(size_t i, ns3::Ptr<const ns3::Packet> p)
{
  auto& f = m_stats[i];
  auto now = ns3::Simulator::Now();
  if (f.rxBytes == 0)
    f.firstRx = now;
  f.rxBytes += p->GetSize();
  m_totalRx += p->GetSize();
  f.lastRx = now;
  if (f.spec.bytes > 0 && !f.completed && f.rxBytes >= f.spec.bytes) {
    f.completed = true;
    f.completionTime = now - f.spec.start;
  }
}

void TcpFlows::hostTx(size_t i, ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h)
{
  uint32_t len = p->GetSize();
  if (len == 0)
    return;
  auto& f = m_stats[i];
  if (!f.started) {
    f.started = true;
    f.isn = h.GetSequenceNumber();
  }
  uint32_t rel = h.GetSequenceNumber() - f.isn;
  ++f.dataSegments;
  if (rel < f.highestTx) {
    ++f.retransmissions;
    if (m_onRetransmit)
      m_onRetransmit(i, rel, len);
  }
  f.highestTx = std::max(f.highestTx, rel + len);
}

void TcpFlows::congState(size_t i, ns3::TcpSocketState::TcpCongState_t now)
{
  auto& f = m_stats[i];
  if (now == ns3::TcpSocketState::CA_LOSS)
    ++f.rtoEpisodes;
  else if (now == ns3::TcpSocketState::CA_RECOVERY)
    ++f.recoveries;
}

void TcpFlows::cwnd(size_t i, uint32_t bytes)
{
  auto& f = m_stats[i];
  f.cwndBytes = bytes;
  f.peakCwndBytes = std::max(f.peakCwndBytes, bytes);
}

TcpFlows::TcpFlows(DciTopology& topology, std::vector<FlowSpec> specs, uint16_t basePort, uint32_t sendSize)
{
  using namespace ns3;
  m_stats.resize(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    const auto& spec = specs[i];
    m_stats[i].spec = spec;
    uint16_t port = static_cast<uint16_t>(basePort + i);

    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    auto sinkApps = sinkHelper.Install(topology.receivers.Get(spec.receiver));
    sinkApps.Start(Seconds(0));
    auto sink = DynamicCast<PacketSink>(sinkApps.Get(0));
    sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&onSinkRx, this, i));
    m_sinks.Add(sinkApps);

    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(topology.receiverAddresses.at(spec.receiver), port));
    bulk.SetAttribute("MaxBytes", UintegerValue(spec.bytes));
    bulk.SetAttribute("SendSize", UintegerValue(sendSize));
    auto apps = bulk.Install(topology.senders.Get(spec.sender));
    apps.Start(spec.start);
    m_senders.Add(apps);
    auto app = DynamicCast<BulkSendApplication>(apps.Get(0));
    // the socket exists once the application has started
    Simulator::Schedule(spec.start + NanoSeconds(1), &hookSocket, this, i, app);
  }
}

TcpFlows::~TcpFlows() = default;

void TcpFlows::stopAt(ns3::Time t)
{
  m_senders.Stop(t);
}

double jainIndex(const std::vector<double>& x)
{
  double sum = 0, sq = 0;
  for (double v : x) {
    sum += v;
    sq += v * v;
  }
  if (x.empty() || sq == 0)
    return 0;
  return sum * sum / (double(x.size()) * sq);
}

} // namespace ndnlab::dcib
