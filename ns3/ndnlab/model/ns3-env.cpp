#include "ns3/ndnlab/model/ns3-env.hpp"

#include <ns3/log.h>
#include <ns3/simulator.h>

#include <cmath>

NS_LOG_COMPONENT_DEFINE("ndnlab.Core");

namespace ndnlab::sim {

namespace {

ns3::LogLevel toNs3Class(LogLevel level)
{
  switch (level) {
    case LogLevel::Trace: return ns3::LOG_LOGIC;
    case LogLevel::Debug: return ns3::LOG_DEBUG;
    case LogLevel::Info: return ns3::LOG_INFO;
    case LogLevel::Warn: return ns3::LOG_WARN;
    case LogLevel::Error: return ns3::LOG_ERROR;
    case LogLevel::Off: break;
  }
  return ns3::LOG_NONE;
}

} // namespace

Ns3Env::Ns3Env(uint32_t nodeId) : m_nodeId(nodeId), m_rv(ns3::CreateObject<ns3::UniformRandomVariable>())
{}

Ns3Env::~Ns3Env()
{
  shutdown();
}

void Ns3Env::shutdown()
{
  if (m_shutdown)
    return;
  m_shutdown = true;
  for (auto& [id, p] : m_events)
    ns3::Simulator::Cancel(p.event);
  m_events.clear();
}

void Ns3Env::assignStream(int64_t stream)
{
  m_rv->SetStream(stream);
}

void Ns3Env::setTraceSink(TraceSink sink, std::function<bool()> enabled)
{
  m_traceSink = std::move(sink);
  m_traceEnabled = std::move(enabled);
}

TimePoint Ns3Env::now() const
{
  return toTimePoint(ns3::Simulator::Now());
}

UnixMillis Ns3Env::unixNow() const
{
  return SimulationEpoch + UnixMillis(ns3::Simulator::Now().GetMilliSeconds());
}

TimerId Ns3Env::schedule(Duration delay, std::function<void()> cb)
{
  if (delay < Duration::zero())
    delay = Duration::zero();
  TimerId id = ++m_lastId;
  if (m_shutdown)
    return id;
  // The callback stays here (not in the ns-3 event) so cancel() frees it at once.
  ns3::EventId ev = ns3::Simulator::Schedule(toTime(delay), [this, id] { fire(id); });
  m_events.emplace(id, Pending{ev, std::move(cb)});
  return id;
}

void Ns3Env::cancel(TimerId id)
{
  auto it = m_events.find(id);
  if (it == m_events.end())
    return;
  ns3::Simulator::Cancel(it->second.event);
  m_events.erase(it);
}

void Ns3Env::fire(TimerId id)
{
  auto it = m_events.find(id);
  if (it == m_events.end())
    return;
  std::function<void()> cb = std::move(it->second.cb);
  m_events.erase(it);
  cb();
}

uint64_t Ns3Env::next64()
{
  // MRG32k3a yields doubles with 32 bits of resolution: two draws per 64-bit number.
  auto draw32 = [this] {
    double u = m_rv->GetValue(0.0, 1.0);
    return static_cast<uint64_t>(std::floor(u * 4294967296.0)) & 0xFFFFFFFFu;
  };
  uint64_t hi = draw32();
  return (hi << 32) | draw32();
}

bool Ns3Env::enabled(LogLevel level) const
{
  return level != LogLevel::Off && g_log.IsEnabled(toNs3Class(level));
}

void Ns3Env::write(LogLevel level, std::string_view module, std::string_view message)
{
  if (!enabled(level))
    return;
  NS_LOG(toNs3Class(level), "node " << m_nodeId << " [" << module << "] " << message);
}

bool Ns3Env::enabled() const
{
  return m_traceSink && (!m_traceEnabled || m_traceEnabled());
}

void Ns3Env::emit(TimePoint when, const TraceEvent& event)
{
  if (m_traceSink)
    m_traceSink(when, event);
}

} // namespace ndnlab::sim
