#include "ns3/ndnlab/helper/tracers.hpp"

#include <ns3/csma-helper.h>
#include <ns3/csma-net-device.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/point-to-point-net-device.h>
#include <ns3/simulator.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-mpdu.h>
#include <ns3/wifi-net-device.h>
#include <ns3/wifi-phy.h>
#include <ns3/yans-wifi-helper.h>

#include <iomanip>
#include <stdexcept>

namespace ndnlab::sim {

namespace {

/// Schedules `fn` every `period` for as long as `alive` is set.
void every(ns3::Time period, std::weak_ptr<bool> alive, std::function<void()> fn)
{
  ns3::Simulator::Schedule(period, [period, alive, fn] {
    if (alive.expired())
      return;
    fn();
    every(period, alive, fn);
  });
}

} // namespace

Tracers::Tracers(const ns3::NodeContainer& nodes)
{
  for (auto it = nodes.Begin(); it != nodes.End(); ++it) {
    ns3::Ptr<NdnStack> stack = (*it)->GetObject<NdnStack>();
    if (!stack || !stack->IsBuilt())
      continue;
    stack->TraceConnectWithoutContext("Event", ns3::MakeCallback(&Tracers::onEvent, this));
    m_stacks.push_back(stack);
  }
}

Tracers::~Tracers()
{
  Flush();
  for (auto& s : m_stacks)
    s->TraceDisconnectWithoutContext("Event", ns3::MakeCallback(&Tracers::onEvent, this));
}

std::ofstream Tracers::open(const std::string& file, const char* header)
{
  std::ofstream os(file);
  if (!os)
    throw std::runtime_error("cannot open " + file);
  os << header << '\n' << std::setprecision(9);
  return os;
}

void Tracers::EnableRates(const std::string& file, ns3::Time period)
{
  m_rates =
    open(file, "time_s,node,face,in_interests,out_interests,in_data,out_data,in_nacks,out_nacks,in_bytes,out_bytes");
  m_ratesPeriod = period;
  every(period, m_alive, [this] { sampleRates(); });
}

void Tracers::EnableAppDelays(const std::string& file)
{
  m_delays = open(file, "time_s,node,segment,delay_s,retx,kind");
}

void Tracers::EnableTableSizes(const std::string& file, ns3::Time period)
{
  m_tables = open(file, "time_s,node,pit,cs");
  m_tablesPeriod = period;
  every(period, m_alive, [this] { sampleTables(); });
}

void Tracers::EnableDrops(const std::string& file, ns3::Time period)
{
  m_drops = open(file, "time_s,node,face,reason,count");
  m_dropsPeriod = period;
  connectDeviceDrops();
  every(period, m_alive, [this] { sampleDrops(); });
}

void Tracers::EnableGoodput(const std::string& file, ns3::Time period)
{
  m_goodput = open(file, "time_s,node,bytes,mbps");
  m_goodputPeriod = period;
  every(period, m_alive, [this] { sampleGoodput(); });
}

void Tracers::EnableBundles(const std::string& file, ns3::Time period)
{
  m_bundles = open(file, "time_s,node,face,out_interests,out_bundles,out_absorbed,in_bundles,in_regenerated,"
                         "in_gap_filled,in_stale,in_invalid,in_data_early,in_data_early_expired");
  every(period, m_alive, [this] { sampleBundles(); });
}

const std::map<std::string, uint64_t>& Tracers::Counts() const
{
  if (m_countsDirty) {
    m_countsSorted = std::map<std::string, uint64_t>(m_counts.begin(), m_counts.end());
    m_countsDirty = false;
  }
  return m_countsSorted;
}

void Tracers::count(EventKind kind, std::string_view reason)
{
  auto bump = [this](std::string_view key) {
    auto it = m_counts.find(key);
    if (it == m_counts.end())
      m_counts.emplace(std::string(key), 1);
    else
      ++it->second;
  };
  const std::string_view name = toString(kind);
  bump(name);
  if (!reason.empty()) {
    std::string key;
    key.reserve(name.size() + 1 + reason.size());
    key.append(name).append("/").append(reason);
    bump(key);
  }
  m_countsDirty = true;
}

void Tracers::countDrop(uint32_t node, uint64_t face, std::string_view reason)
{
  if (m_drops.is_open())
    ++m_dropsInPeriod[{node, face, std::string(reason)}];
}

void Tracers::onEvent(const TraceRecord& r)
{
  count(r.kind, r.reason);
  const EventKind k = r.kind;

  if (m_rates.is_open() && r.face != 0) {
    // only the six packet kinds touch the per-face table
    uint64_t FaceRates::*counter = nullptr;
    switch (k) {
      case EventKind::InterestIn: counter = &FaceRates::inInterests; break;
      case EventKind::InterestOut: counter = &FaceRates::outInterests; break;
      case EventKind::DataIn: counter = &FaceRates::inData; break;
      case EventKind::DataOut: counter = &FaceRates::outData; break;
      case EventKind::NackIn: counter = &FaceRates::inNacks; break;
      case EventKind::NackOut: counter = &FaceRates::outNacks; break;
      default: break;
    }
    if (counter != nullptr)
      ++(m_faceRates[{r.node, r.face}].*counter);
  }

  if (k == EventKind::Drop || k == EventKind::ImpairDrop)
    countDrop(r.node, r.face, r.reason);

  if (k == EventKind::AppBytes) {
    m_appBytes[r.node] += static_cast<uint64_t>(r.value);
    m_appBytesTotal[r.node] += static_cast<uint64_t>(r.value);
  }

  if (m_delays.is_open()) {
    PendingDelay& p = m_pendingDelays[r.node];
    if (k == EventKind::FetchDataRetx && p.valid && p.segment == r.value) {
      p.retx = static_cast<uint64_t>(r.value2);
      writeDelay(r.node, p);
    }
    else if (k == EventKind::FetchData) {
      writeDelay(r.node, p);
      p.valid = true;
      p.time = r.time.GetSeconds();
      p.segment = r.value;
      p.delay = r.value2;
      p.kind = std::string(r.reason);
      p.retx = r.reason == "retx" ? 1 : 0;
    }
  }
}

void Tracers::writeDelay(uint32_t node, PendingDelay& p)
{
  if (!p.valid)
    return;
  m_delays << p.time << ',' << node << ',' << p.segment << ',' << p.delay << ',' << p.retx << ',' << p.kind << '\n';
  p.valid = false;
}

void Tracers::sampleRates()
{
  double t = ns3::Simulator::Now().GetSeconds();
  for (auto& stack : m_stacks) {
    if (!stack->IsBuilt())
      continue;
    uint32_t node = stack->GetNode()->GetId();
    for (const face::Face& f : stack->GetForwarder().faceTable()) {
      FaceRates& fr = m_faceRates[{node, f.id()}];
      const auto& tc = f.transport().counters();
      uint64_t inBytes = tc.nInBytes - fr.lastInBytes;
      uint64_t outBytes = tc.nOutBytes - fr.lastOutBytes;
      m_rates << t << ',' << node << ',' << f.id() << ',' << fr.inInterests << ',' << fr.outInterests << ','
              << fr.inData << ',' << fr.outData << ',' << fr.inNacks << ',' << fr.outNacks << ',' << inBytes << ','
              << outBytes << '\n';
      fr = FaceRates{};
      fr.lastInBytes = tc.nInBytes;
      fr.lastOutBytes = tc.nOutBytes;
    }
  }
}

void Tracers::sampleTables()
{
  double t = ns3::Simulator::Now().GetSeconds();
  for (auto& stack : m_stacks) {
    if (!stack->IsBuilt())
      continue;
    const fw::Forwarder& fw = stack->GetForwarder();
    m_tables << t << ',' << stack->GetNode()->GetId() << ',' << fw.pit().size() << ',' << fw.cs().size() << '\n';
  }
}

void Tracers::sampleDrops()
{
  double t = ns3::Simulator::Now().GetSeconds();
  for (const auto& [key, n] : m_dropsInPeriod)
    m_drops << t << ',' << std::get<0>(key) << ',' << std::get<1>(key) << ',' << std::get<2>(key) << ',' << n << '\n';
  m_dropsInPeriod.clear();
}

void Tracers::sampleGoodput()
{
  double t = ns3::Simulator::Now().GetSeconds();
  double secs = m_goodputPeriod.GetSeconds();
  for (auto& [node, bytes] : m_appBytes) {
    m_goodput << t << ',' << node << ',' << bytes << ',' << (secs > 0 ? bytes * 8.0 / secs / 1e6 : 0) << '\n';
    bytes = 0;
  }
}

void Tracers::sampleBundles()
{
  double t = ns3::Simulator::Now().GetSeconds();
  for (auto& stack : m_stacks) {
    uint32_t node = stack->GetNode()->GetId();
    for (face::FaceId id : stack->GetNetDeviceFaces()) {
      const face::Face* f = stack->GetFace(id);
      if (f == nullptr)
        continue;
      const face::LinkService::Counters& c = f->linkService().counters();
      auto& [lastOut, last] = m_lastBundles[{node, id}];
      uint64_t outInterests = f->counters().nOutInterests;
      m_bundles << t << ',' << node << ',' << id << ',' << outInterests - lastOut << ','
                << c.nOutBundles - last.nOutBundles << ',' << c.nOutInterestsAbsorbed - last.nOutInterestsAbsorbed
                << ',' << c.nInBundles - last.nInBundles << ','
                << c.nInInterestsRegenerated - last.nInInterestsRegenerated << ','
                << c.nInInterestsGapFilled - last.nInInterestsGapFilled << ','
                << c.nInBundlesStale - last.nInBundlesStale << ',' << c.nInBundlesInvalid - last.nInBundlesInvalid
                << ',' << c.nInDataEarly - last.nInDataEarly << ',' << c.nInDataEarlyExpired - last.nInDataEarlyExpired
                << '\n';
      lastOut = outInterests;
      last = c;
    }
  }
}

void Tracers::connectDeviceDrops()
{
  if (m_deviceDropsConnected)
    return;
  m_deviceDropsConnected = true;
  for (auto& stack : m_stacks) {
    uint32_t node = stack->GetNode()->GetId();
    for (face::FaceId id : stack->GetNetDeviceFaces()) {
      ns3::Ptr<ns3::NetDevice> dev = stack->GetTransport(id)->GetNetDevice();
      auto dropCb = [this, node, id](DropReason reason) {
        return ns3::Callback<void, ns3::Ptr<const ns3::Packet>>([this, node, id, reason](ns3::Ptr<const ns3::Packet>) {
          count(EventKind::DevDrop, toString(reason));
          countDrop(node, id, toString(reason));
        });
      };
      if (auto wifi = ns3::DynamicCast<ns3::WifiNetDevice>(dev)) {
        wifi->GetMac()->TraceConnectWithoutContext(
          "DroppedMpdu", ns3::Callback<void, ns3::WifiMacDropReason, ns3::Ptr<const ns3::WifiMpdu>>(
                           [this, node, id](ns3::WifiMacDropReason, ns3::Ptr<const ns3::WifiMpdu>) {
                             count(EventKind::DevDrop, toString(DropReason::WifiMacDrop));
                             countDrop(node, id, toString(DropReason::WifiMacDrop));
                           }));
        wifi->GetPhy()->TraceConnectWithoutContext(
          "PhyRxDrop", ns3::Callback<void, ns3::Ptr<const ns3::Packet>, ns3::WifiPhyRxfailureReason>(
                         [this, node, id](ns3::Ptr<const ns3::Packet>, ns3::WifiPhyRxfailureReason) {
                           count(EventKind::DevDrop, toString(DropReason::WifiPhyRxDrop));
                           countDrop(node, id, toString(DropReason::WifiPhyRxDrop));
                         }));
      }
      else {
        dev->TraceConnectWithoutContext("MacTxDrop", dropCb(DropReason::MacTxDrop));
        dev->TraceConnectWithoutContext("PhyRxDrop", dropCb(DropReason::PhyRxDrop));
      }
    }
  }
}

void Tracers::Flush()
{
  for (auto& [node, p] : m_pendingDelays)
    writeDelay(node, p);
  for (std::ofstream* os : {&m_rates, &m_delays, &m_tables, &m_drops, &m_goodput, &m_bundles}) {
    if (os->is_open())
      os->flush();
  }
}

void Tracers::EnablePcap(const std::string& prefix, const ns3::NetDeviceContainer& devices)
{
  for (auto it = devices.Begin(); it != devices.End(); ++it) {
    ns3::Ptr<ns3::NetDevice> dev = *it;
    if (ns3::DynamicCast<ns3::PointToPointNetDevice>(dev))
      ns3::PointToPointHelper().EnablePcap(prefix, dev);
    else if (ns3::DynamicCast<ns3::CsmaNetDevice>(dev))
      ns3::CsmaHelper().EnablePcap(prefix, dev);
    else if (ns3::DynamicCast<ns3::WifiNetDevice>(dev)) {
      ns3::YansWifiPhyHelper phy;
      phy.SetPcapDataLinkType(ns3::WifiPhyHelper::DLT_IEEE802_11_RADIO);
      phy.EnablePcap(prefix, dev);
    }
  }
}

} // namespace ndnlab::sim
