#include "ns3/ndnlab/model/ndn-stack.hpp"

#include "ns3/ndnlab/model/options-attributes.hpp"

#include "core/face/generic-link-service.hpp"

#include <ns3/data-rate.h>
#include <ns3/log.h>
#include <ns3/trace-source-accessor.h>

#include <stdexcept>

NS_LOG_COMPONENT_DEFINE("ndnlab.NdnStack");

namespace ndnlab::sim {

NS_OBJECT_ENSURE_REGISTERED(NdnStack);

ns3::TypeId NdnStack::GetTypeId()
{
  static ns3::TypeId tid = [] {
    ns3::TypeId t =
      ns3::TypeId("ndnlab::NdnStack")
        .SetParent<ns3::Object>()
        .SetGroupName("Ndnlab")
        .AddConstructor<NdnStack>()
        .AddTraceSource("Event", "Every core trace event of this node (kind, face, reason, value, value2)",
                        ns3::MakeTraceSourceAccessor(&NdnStack::m_eventTrace), "ndnlab::sim::NdnStack::EventCallback");
    t = addOptionAttributes<fw::ForwarderOptions>(t, forwarderFields(), [](ns3::ObjectBase* o) {
      auto* s = dynamic_cast<NdnStack*>(o);
      return s ? &s->m_fwOptions : nullptr;
    });
    t = addOptionAttributes<face::LinkServiceOptions>(t, linkServiceFields(), [](ns3::ObjectBase* o) {
      auto* s = dynamic_cast<NdnStack*>(o);
      return s ? &s->m_lsOptions : nullptr;
    });
    return t;
  }();
  return tid;
}

NdnStack::NdnStack() = default;

NdnStack::~NdnStack() = default;

void NdnStack::DoDispose()
{
  m_taps.clear();
  m_transports.clear();
  m_deviceFaces.clear();
  // Applications of this node may be disposed after the stack and still hold engines that use
  // the Env: it lives until the last reference to the stack goes, but stops scheduling now.
  if (m_env)
    m_env->shutdown();
  m_forwarder.reset(); // faces unregister their protocol handlers
  m_node = nullptr;
  ns3::Object::DoDispose();
}

void NdnStack::Build(ns3::Ptr<ns3::Node> node)
{
  if (m_forwarder)
    throw std::logic_error("NdnStack::Build called twice");
  m_node = node;
  m_env = std::make_unique<Ns3Env>(node->GetId());
  m_env->setTraceSink([this](TimePoint when, const TraceEvent& e) { emitTrace(when, e); },
                      [this] { return !m_eventTrace.IsEmpty(); });
  m_forwarder = std::make_unique<fw::Forwarder>(*m_env, m_fwOptions);
  if (!node->GetObject<NdnStack>())
    node->AggregateObject(this);
}

void NdnStack::emitTrace(TimePoint when, const TraceEvent& e)
{
  TraceRecord r;
  r.time = ns3::NanoSeconds(when.time_since_epoch().count());
  r.node = m_env->nodeId();
  r.kind = e.kind;
  r.face = e.face;
  r.reason = e.reason;
  r.value = e.value;
  r.value2 = e.value2;
  m_eventTrace(r);
}

face::FaceId NdnStack::AddNetDeviceFace(ns3::Ptr<ns3::NetDevice> device, const AttributeList& attributes)
{
  if (!m_forwarder)
    throw std::logic_error("NdnStack::AddNetDeviceFace before Build");
  if (device->GetNode() != m_node)
    throw std::invalid_argument("device belongs to another node");
  if (GetFaceId(device) != face::InvalidFaceId)
    throw std::invalid_argument("device already has a face");

  auto transport = std::make_unique<NetDeviceTransport>(*m_env, m_node, device);
  for (const auto& [name, value] : attributes)
    transport->SetAttribute(name, *value);
  NetDeviceTransport* raw = transport.get();

  face::LinkServiceOptions lso = m_lsOptions;
  if (transport->mtu() != face::MtuUnlimited) {
    lso.allowFragmentation = true;
    lso.allowReassembly = true;
  }
  auto service = std::make_unique<face::GenericLinkService>(*m_env, lso);
  auto f = std::make_unique<face::Face>(*m_env, std::move(service), std::move(transport));
  face::Face& faceRef = *f;
  face::FaceId id = m_forwarder->addFace(std::move(f));
  raw->setTraceFaceId(id);
  if (lso.mircc) {
    // MIRCC's capacity C of this upstream face: the device's DataRate (point-to-point). A
    // device without one (Wi-Fi) carries rates but has no controller of its own.
    ns3::DataRateValue rate;
    if (device->GetAttributeFailSafe("DataRate", rate) && rate.Get().GetBitRate() > 0)
      m_forwarder->mircc().enable(id, Rate::bitsPerSecond(static_cast<double>(rate.Get().GetBitRate())));
    else
      NS_LOG_WARN("node " << m_node->GetId() << " face " << id << ": MIRCC on, but the device has no DataRate");
  }
  wrapDataTap(faceRef);
  m_deviceFaces.emplace_back(device, id);
  m_transports[id] = raw;
  m_forwarder->afterFaceCleanup.connect([this, id](face::Face& gone) {
    if (gone.id() != id)
      return;
    m_transports.erase(id);
    std::erase_if(m_deviceFaces, [id](const auto& p) { return p.second == id; });
  });
  NS_LOG_DEBUG("node " << m_node->GetId() << " face " << id << " on " << faceRef.localUri() << " mtu "
                       << faceRef.transport().mtu() << " medium " << face::toString(faceRef.transport().medium()));
  return id;
}

void NdnStack::wrapDataTap(face::Face& f)
{
  // Runs before the forwarder's handler installed by FaceTable::add.
  auto forward = std::move(f.afterReceiveData);
  f.afterReceiveData = [this, forward = std::move(forward)](face::Face& face, Data&& data, face::EndpointId ep) {
    if (!m_taps.empty()) {
      for (auto& [id, tap] : m_taps) {
        if (tap.first.isPrefixOf(data.name())) {
          tap.second(data);
          return;
        }
      }
    }
    if (forward)
      forward(face, std::move(data), ep);
  };
}

face::FaceId NdnStack::GetFaceId(ns3::Ptr<ns3::NetDevice> device) const
{
  for (const auto& [dev, id] : m_deviceFaces) {
    if (dev == device)
      return id;
  }
  return face::InvalidFaceId;
}

NetDeviceTransport* NdnStack::GetTransport(face::FaceId id) const
{
  auto it = m_transports.find(id);
  return it == m_transports.end() ? nullptr : it->second;
}

std::vector<face::FaceId> NdnStack::GetNetDeviceFaces() const
{
  std::vector<face::FaceId> ids;
  for (const auto& p : m_deviceFaces)
    ids.push_back(p.second);
  return ids;
}

face::Face* NdnStack::GetFace(face::FaceId id) const
{
  return m_forwarder ? m_forwarder->faceTable().get(id) : nullptr;
}

std::unique_ptr<AppEndpoint> NdnStack::CreateAppEndpoint(const std::string& uri)
{
  if (!m_forwarder)
    throw std::logic_error("NdnStack::CreateAppEndpoint before Build");
  auto [f, endpoint] = makeAppLink(*m_env, uri);
  face::FaceId id = m_forwarder->addFace(std::move(f));
  endpoint->setFaceId(id);
  return std::move(endpoint);
}

void NdnStack::AddRoute(const Name& prefix, face::FaceId face, uint64_t cost)
{
  fw::FibStatus st = m_forwarder->addNextHop(prefix, face, cost);
  if (st != fw::FibStatus::Ok)
    throw std::invalid_argument("cannot add route " + prefix.toUri() + " via face " + std::to_string(face));
}

void NdnStack::SetStrategy(const Name& prefix, const Name& strategy)
{
  auto r = m_forwarder->setStrategy(prefix, strategy);
  if (!r.ok)
    throw std::invalid_argument("cannot set strategy " + strategy.toUri() + " for " + prefix.toUri() + ": " + r.error);
}

uint64_t NdnStack::AddDataTap(const Name& prefix, DataTap tap)
{
  m_taps.emplace(++m_lastTapId, std::make_pair(prefix, std::move(tap)));
  return m_lastTapId;
}

void NdnStack::RemoveDataTap(uint64_t id)
{
  m_taps.erase(id);
}

bool NdnStack::SendDataDirect(face::FaceId id, const Data& data)
{
  face::Face* f = GetFace(id);
  if (f == nullptr)
    return false;
  f->sendData(data);
  return true;
}

int64_t NdnStack::AssignStreams(int64_t stream)
{
  m_env->assignStream(stream);
  return 1;
}

} // namespace ndnlab::sim
